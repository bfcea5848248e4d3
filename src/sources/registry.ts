import { genaiPricesSource } from "./genai-prices/index.js";
import { litellmSource } from "./litellm/index.js";
import { llmPricesSource } from "./llm-prices/index.js";
import { modelsDevSource } from "./models-dev/index.js";
import { officialAnthropicSource } from "./official-anthropic/index.js";
import { officialDeepseekSource } from "./official-deepseek/index.js";
import { officialGoogleSource } from "./official-google/index.js";
import { officialMistralSource } from "./official-mistral/index.js";
import { officialOpenaiSource } from "./official-openai/index.js";
import { officialXaiSource } from "./official-xai/index.js";
import { officialZaiSource } from "./official-zai/index.js";
import { openrouterSource } from "./openrouter/index.js";
import { portkeySource } from "./portkey/index.js";
import type { SourceAdapter } from "./source.js";

/**
 * Every configured source, in the order of the `/sources` list. An explicit list, not a directory
 * scan: adding an upstream means adding its folder and one line here.
 */
export const SOURCES: readonly SourceAdapter[] = [
  modelsDevSource,
  genaiPricesSource,
  llmPricesSource,
  portkeySource,
  openrouterSource,
  litellmSource,
  officialAnthropicSource,
  officialOpenaiSource,
  officialMistralSource,
  officialZaiSource,
  officialXaiSource,
  officialDeepseekSource,
  officialGoogleSource,
];
