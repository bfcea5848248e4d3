import type { SourceId } from "../domain/observation.js";
import { GENAI_PRICES_FILE } from "./genai-prices/index.js";
import { LLM_PRICES_CURRENT_FILE, LLM_PRICES_HISTORICAL_FILE } from "./llm-prices/index.js";
import { MODELS_DEV_FILE } from "./models-dev/index.js";
import { OPENROUTER_FILE } from "./openrouter/index.js";

/**
 * Where each source's live payload lives (issue 7 §1): a base URL (overridable per source,
 * `SOURCE_URL_<ID>`) and the files of one payload, each fetched from `base + path` and stored
 * under the name its adapter reads (the `<source>/<run>/<file>` snapshot layout).
 */
export interface LiveUpstream {
  readonly source: SourceId;
  /** Default base URL, ending in `/`. */
  readonly baseUrl: string;
  /** The payload's files; Portkey's depend on the provider list. */
  files(options: { portkeyProviders: readonly string[] }): readonly LiveFile[];
}

/** One file of a live payload. */
export interface LiveFile {
  /** Name in the payload (what the adapter reads), e.g. `api.json`. */
  readonly name: string;
  /** Path relative to the base URL. */
  readonly path: string;
}

/**
 * Portkey provider files fetched by default: those of the newest recorded Portkey snapshot
 * (`data/upstream/portkey/2026-06-01`). `PORTKEY_PROVIDERS` overrides the list.
 */
// biome-ignore format: one list of file names
export const PORTKEY_PROVIDERS: readonly string[] = [
  "ai21", "anthropic", "anyscale", "azure-ai", "azure-openai", "bedrock-mantle", "bedrock", "byteplus",
  "cerebras", "claude-platform-aws", "cohere", "dashscope", "deepbricks", "deepinfra", "deepseek",
  "ember-cloud", "fal-ai", "fireworks-ai", "google", "groq", "jina", "mistral-ai", "monsterapi", "moonshot",
  "nebius", "nomic", "novita-ai", "openai", "openrouter", "oracle", "palm", "perplexity-ai", "predibase",
  "reka-ai", "sagemaker", "segmind", "stability-ai", "together-ai", "vertex-ai", "workers-ai", "x-ai", "z-ai",
  "zhipu",
];

const one =
  (name: string, path = name) =>
  () => [{ name, path }];

/** Every source's live upstream, in registry order. */
export const LIVE_UPSTREAMS: readonly LiveUpstream[] = [
  { source: "models-dev", baseUrl: "https://models.dev/", files: one(MODELS_DEV_FILE) },
  {
    source: "genai-prices",
    baseUrl: "https://raw.githubusercontent.com/pydantic/genai-prices/main/prices/new_data/v2/",
    files: one(GENAI_PRICES_FILE),
  },
  {
    source: "llm-prices",
    baseUrl: "https://www.llm-prices.com/",
    files: () => [
      { name: LLM_PRICES_CURRENT_FILE, path: LLM_PRICES_CURRENT_FILE },
      { name: LLM_PRICES_HISTORICAL_FILE, path: LLM_PRICES_HISTORICAL_FILE },
    ],
  },
  {
    source: "portkey",
    baseUrl: "https://configs.portkey.ai/pricing/",
    files: ({ portkeyProviders }) => portkeyProviders.map((p) => ({ name: `${p}.json`, path: `${p}.json` })),
  },
  { source: "openrouter", baseUrl: "https://openrouter.ai/api/v1/", files: one(OPENROUTER_FILE, "models") },
  {
    source: "litellm",
    baseUrl: "https://raw.githubusercontent.com/BerriAI/litellm/main/",
    files: one("model_prices_and_context_window.json"),
  },
  {
    source: "official-anthropic",
    baseUrl: "https://docs.claude.com/en/docs/about-claude/",
    files: one("pricing.md"),
  },
];

/** The environment variable overriding a source's base URL: `SOURCE_URL_MODELS_DEV`, … */
export function baseUrlVariable(source: SourceId): string {
  return `SOURCE_URL_${source.toUpperCase().replace(/-/g, "_")}`;
}
