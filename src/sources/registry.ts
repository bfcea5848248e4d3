import { SOURCE_IDS, type SourceId } from "../domain/observation.js";
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
 * One adapter per registered source id (`SOURCE_IDS`, src/domain/observation.ts), keyed by it
 * (issue 45 §4, T399): an id without its adapter, or an adapter filed under an id not its own,
 * does not compile. Adding an upstream means adding its folder, its id there and one line here.
 */
const ADAPTERS: { readonly [Id in SourceId]: SourceAdapter & { readonly id: Id } } = {
  "models-dev": modelsDevSource,
  "genai-prices": genaiPricesSource,
  "llm-prices": llmPricesSource,
  portkey: portkeySource,
  openrouter: openrouterSource,
  litellm: litellmSource,
  "official-anthropic": officialAnthropicSource,
  "official-openai": officialOpenaiSource,
  "official-mistral": officialMistralSource,
  "official-zai": officialZaiSource,
  "official-xai": officialXaiSource,
  "official-deepseek": officialDeepseekSource,
  "official-google": officialGoogleSource,
};

/**
 * Every configured source, in the order of the `/sources` list (that of `SOURCE_IDS`). An explicit
 * list, not a directory scan (T235).
 */
export const SOURCES: readonly SourceAdapter[] = SOURCE_IDS.map((id) => ADAPTERS[id]);

/** The adapter of a registered source (T399). */
export function adapterOf<Id extends SourceId>(id: Id): SourceAdapter & { readonly id: Id } {
  return ADAPTERS[id];
}
