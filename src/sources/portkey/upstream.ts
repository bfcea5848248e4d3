import type { LiveUpstream } from "../upstream.js";

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

/** The live payload: one pricing file per provider (`<provider>.json`), the list a setting. */
export const PORTKEY_UPSTREAM: LiveUpstream = {
  baseUrl: "https://configs.portkey.ai/pricing/",
  setting: {
    variable: "PORTKEY_PROVIDERS",
    description: "Portkey pricing files to fetch, comma-separated",
    defaults: PORTKEY_PROVIDERS,
    fallbackHelp: `${PORTKEY_PROVIDERS.length} files`,
  },
  files: (providers) => providers.map((p) => ({ name: `${p}.json`, path: `${p}.json` })),
};
