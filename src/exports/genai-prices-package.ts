import type { UsageExtractor } from "@pydantic/genai-prices";
import { lookupTable } from "../domain/lookup-table.js";

/**
 * What the genai-prices package itself (`@pydantic/genai-prices` 0.1.8, its bundled data) says about
 * each provider beside the prices: its API address pattern and its usage extractors, the mapping
 * from a provider's response to genai-prices' usage keys (issue 49 §3, T518). The export keeps these,
 * so a consumer's `extractUsage` reads a response as the package does (1-hour cache writes, web
 * searches, reasoning tokens) and only the prices are Tariff's. A copy, not an import: the package
 * is a development dependency and its only data accessor is its global price state.
 * `src/exports/genai-prices-package.test.ts` fails when the installed package says otherwise, and
 * `TARIFF_WRITE_GENAI_PRICES_PACKAGE=1 npx vitest run src/exports/genai-prices-package.test.ts`
 * rewrites this file from it (then `npx biome format --write` it).
 */
export interface PackageProvider {
  readonly api_pattern: string;
  readonly extractors?: readonly UsageExtractor[];
}

export const GENAI_PRICES_PACKAGE_VERSION = "0.1.8";

export const GENAI_PRICES_PACKAGE_PROVIDERS: Readonly<Record<string, PackageProvider>> = lookupTable({
  anthropic: {
    api_pattern: "https://api\\.anthropic\\.com",
    extractors: [
      {
        api_flavor: "default",
        root: "usage",
        model_path: "model",
        mappings: [
          { path: "input_tokens", dest: "input_tokens", required: true },
          { path: "cache_creation_input_tokens", dest: "input_tokens", required: false },
          { path: "cache_read_input_tokens", dest: "input_tokens", required: false },
          { path: "cache_creation_input_tokens", dest: "cache_write_tokens", required: false },
          { path: ["cache_creation", "ephemeral_5m_input_tokens"], dest: "cache_write_5m_tokens", required: false },
          { path: ["cache_creation", "ephemeral_1h_input_tokens"], dest: "cache_write_1h_tokens", required: false },
          { path: "cache_read_input_tokens", dest: "cache_read_tokens", required: false },
          { path: ["server_tool_use", "web_search_requests"], dest: "web_searches", required: false },
          { path: ["output_tokens_details", "thinking_tokens"], dest: "output_reasoning_tokens", required: false },
          { path: "output_tokens", dest: "output_tokens", required: true },
        ],
      },
      {
        api_flavor: "chat",
        root: "usage",
        model_path: "model",
        mappings: [
          { path: "prompt_tokens", dest: "input_tokens", required: true },
          { path: "cached_tokens", dest: "cache_read_tokens", required: false },
          { path: ["completion_tokens_details", "reasoning_tokens"], dest: "output_reasoning_tokens", required: false },
          { path: "completion_tokens", dest: "output_tokens", required: true },
        ],
      },
    ],
  },
  arcee: {
    api_pattern: "https://api\\.arcee\\.ai(?:/|$)",
    extractors: [
      {
        api_flavor: "default",
        root: "usage",
        model_path: "model",
        mappings: [
          { path: "prompt_tokens", dest: "input_tokens", required: true },
          { path: ["prompt_tokens_details", "cached_tokens"], dest: "cache_read_tokens", required: false },
          { path: ["completion_tokens_details", "reasoning_tokens"], dest: "output_reasoning_tokens", required: false },
          { path: "completion_tokens", dest: "output_tokens", required: true },
        ],
      },
      {
        api_flavor: "chat",
        root: "usage",
        model_path: "model",
        mappings: [
          { path: "prompt_tokens", dest: "input_tokens", required: true },
          { path: ["prompt_tokens_details", "cached_tokens"], dest: "cache_read_tokens", required: false },
          { path: ["completion_tokens_details", "reasoning_tokens"], dest: "output_reasoning_tokens", required: false },
          { path: "completion_tokens", dest: "output_tokens", required: true },
        ],
      },
    ],
  },
  avian: { api_pattern: "https://api\\.avian\\.io" },
  aws: {
    api_pattern: "https://bedrock-runtime\\.[a-z0-9-]+\\.amazonaws\\.com(/|$)",
    extractors: [
      {
        api_flavor: "default",
        root: "usage",
        model_path: "model",
        mappings: [
          { path: "inputTokens", dest: "input_tokens", required: true },
          { path: "cacheReadInputTokens", dest: "input_tokens", required: false },
          { path: "cacheWriteInputTokens", dest: "input_tokens", required: false },
          { path: "cacheReadInputTokens", dest: "cache_read_tokens", required: false },
          { path: "cacheWriteInputTokens", dest: "cache_write_tokens", required: false },
          { path: "outputTokens", dest: "output_tokens", required: true },
        ],
      },
      {
        api_flavor: "anthropic",
        root: "usage",
        model_path: "model",
        mappings: [
          { path: "input_tokens", dest: "input_tokens", required: true },
          { path: "cache_creation_input_tokens", dest: "input_tokens", required: false },
          { path: "cache_read_input_tokens", dest: "input_tokens", required: false },
          { path: "cache_creation_input_tokens", dest: "cache_write_tokens", required: false },
          { path: "cache_read_input_tokens", dest: "cache_read_tokens", required: false },
          { path: "output_tokens", dest: "output_tokens", required: true },
        ],
      },
    ],
  },
  azure: {
    api_pattern:
      "(https?://)?([^.]*\\.)?(?:openai\\.azure\\.com|azure-api\\.net|cognitiveservices\\.azure\\.com|services\\.ai\\.azure\\.com)",
    extractors: [
      {
        api_flavor: "chat",
        root: "usage",
        model_path: "model",
        mappings: [
          { path: "prompt_tokens", dest: "input_tokens", required: true },
          { path: ["prompt_tokens_details", "cached_tokens"], dest: "cache_read_tokens", required: false },
          { path: ["prompt_tokens_details", "cache_write_tokens"], dest: "cache_write_tokens", required: false },
          { path: ["prompt_tokens_details", "audio_tokens"], dest: "input_audio_tokens", required: false },
          { path: ["completion_tokens_details", "audio_tokens"], dest: "output_audio_tokens", required: false },
          { path: ["completion_tokens_details", "reasoning_tokens"], dest: "output_reasoning_tokens", required: false },
          { path: "completion_tokens", dest: "output_tokens", required: true },
        ],
      },
      {
        api_flavor: "responses",
        root: "usage",
        model_path: "model",
        mappings: [
          { path: "input_tokens", dest: "input_tokens", required: true },
          { path: ["input_tokens_details", "cached_tokens"], dest: "cache_read_tokens", required: false },
          { path: ["input_tokens_details", "cache_write_tokens"], dest: "cache_write_tokens", required: false },
          { path: ["output_tokens_details", "reasoning_tokens"], dest: "output_reasoning_tokens", required: false },
          { path: "output_tokens", dest: "output_tokens", required: true },
        ],
      },
      {
        api_flavor: "realtime",
        root: ["response", "usage"],
        model_path: "model",
        mappings: [
          { path: "input_tokens", dest: "input_tokens", required: false },
          { path: ["input_token_details", "text_tokens"], dest: "input_text_tokens", required: false },
          { path: ["input_token_details", "audio_tokens"], dest: "input_audio_tokens", required: false },
          { path: ["input_token_details", "image_tokens"], dest: "input_image_tokens", required: false },
          { path: ["input_token_details", "cached_tokens"], dest: "cache_read_tokens", required: false },
          {
            path: ["input_token_details", "cached_tokens_details", "text_tokens"],
            dest: "cache_text_read_tokens",
            required: false,
          },
          {
            path: ["input_token_details", "cached_tokens_details", "audio_tokens"],
            dest: "cache_audio_read_tokens",
            required: false,
          },
          {
            path: ["input_token_details", "cached_tokens_details", "image_tokens"],
            dest: "cache_image_read_tokens",
            required: false,
          },
          { path: ["output_token_details", "text_tokens"], dest: "output_text_tokens", required: false },
          { path: ["output_token_details", "audio_tokens"], dest: "output_audio_tokens", required: false },
          { path: "output_tokens", dest: "output_tokens", required: false },
        ],
      },
      {
        api_flavor: "embeddings",
        root: "usage",
        model_path: "model",
        mappings: [{ path: "prompt_tokens", dest: "input_tokens", required: true }],
      },
      {
        api_flavor: "anthropic",
        root: "usage",
        model_path: "model",
        mappings: [
          { path: "input_tokens", dest: "input_tokens", required: true },
          { path: "cache_creation_input_tokens", dest: "input_tokens", required: false },
          { path: "cache_read_input_tokens", dest: "input_tokens", required: false },
          { path: "cache_creation_input_tokens", dest: "cache_write_tokens", required: false },
          { path: "cache_read_input_tokens", dest: "cache_read_tokens", required: false },
          { path: "output_tokens", dest: "output_tokens", required: true },
        ],
      },
    ],
  },
  baseten: {
    api_pattern: "https://inference\\.baseten\\.co(?:/|$)",
    extractors: [
      {
        api_flavor: "chat",
        root: "usage",
        model_path: "model",
        mappings: [
          { path: "prompt_tokens", dest: "input_tokens", required: true },
          { path: ["prompt_tokens_details", "cached_tokens"], dest: "cache_read_tokens", required: false },
          { path: ["prompt_tokens_details", "audio_tokens"], dest: "input_audio_tokens", required: false },
          { path: ["completion_tokens_details", "audio_tokens"], dest: "output_audio_tokens", required: false },
          { path: ["completion_tokens_details", "reasoning_tokens"], dest: "output_reasoning_tokens", required: false },
          { path: "completion_tokens", dest: "output_tokens", required: true },
        ],
      },
      {
        api_flavor: "anthropic",
        root: "usage",
        model_path: "model",
        mappings: [
          { path: "input_tokens", dest: "input_tokens", required: true },
          { path: "cache_read_input_tokens", dest: "input_tokens", required: false },
          { path: "cache_read_input_tokens", dest: "cache_read_tokens", required: false },
          { path: "output_tokens", dest: "output_tokens", required: true },
        ],
      },
    ],
  },
  cerebras: {
    api_pattern: "https://api\\.cerebras\\.ai",
    extractors: [
      {
        api_flavor: "chat",
        root: "usage",
        model_path: "model",
        mappings: [
          { path: "prompt_tokens", dest: "input_tokens", required: true },
          { path: ["completion_tokens_details", "reasoning_tokens"], dest: "output_reasoning_tokens", required: false },
          { path: "completion_tokens", dest: "output_tokens", required: true },
        ],
      },
    ],
  },
  cloudflare: {
    api_pattern: "https://api\\.cloudflare\\.com/client/v4/accounts/[^/]+/ai(?:/|$)",
    extractors: [
      {
        api_flavor: "default",
        root: ["result", "usage"],
        model_path: ["result", "model"],
        mappings: [
          { path: "prompt_tokens", dest: "input_tokens", required: true },
          { path: ["completion_tokens_details", "reasoning_tokens"], dest: "output_reasoning_tokens", required: false },
          { path: "completion_tokens", dest: "output_tokens", required: true },
        ],
      },
      {
        api_flavor: "chat",
        root: "usage",
        model_path: "model",
        mappings: [
          { path: "prompt_tokens", dest: "input_tokens", required: true },
          { path: ["prompt_tokens_details", "cached_tokens"], dest: "cache_read_tokens", required: false },
          { path: ["completion_tokens_details", "reasoning_tokens"], dest: "output_reasoning_tokens", required: false },
          { path: "completion_tokens", dest: "output_tokens", required: true },
        ],
      },
      {
        api_flavor: "responses",
        root: "usage",
        model_path: "model",
        mappings: [
          { path: "input_tokens", dest: "input_tokens", required: true },
          { path: ["input_tokens_details", "cached_tokens"], dest: "cache_read_tokens", required: false },
          { path: ["output_tokens_details", "reasoning_tokens"], dest: "output_reasoning_tokens", required: false },
          { path: "output_tokens", dest: "output_tokens", required: true },
        ],
      },
      {
        api_flavor: "embeddings",
        root: "usage",
        model_path: "model",
        mappings: [{ path: "prompt_tokens", dest: "input_tokens", required: true }],
      },
    ],
  },
  cohere: {
    api_pattern: "https://api\\.cohere\\.(?:ai|com)",
    extractors: [
      {
        api_flavor: "default",
        root: ["usage", "billed_units"],
        model_path: "model",
        mappings: [
          { path: "input_tokens", dest: "input_tokens", required: true },
          { path: "output_tokens", dest: "output_tokens", required: true },
        ],
      },
      {
        api_flavor: "tokens",
        root: "usage",
        model_path: "model",
        mappings: [
          { path: ["tokens", "input_tokens"], dest: "input_tokens", required: false },
          { path: ["tokens", "output_tokens"], dest: "output_tokens", required: false },
          { path: "cached_tokens", dest: "cache_read_tokens", required: false },
        ],
      },
      {
        api_flavor: "embeddings",
        root: ["meta", "billed_units"],
        model_path: "model",
        mappings: [{ path: "input_tokens", dest: "input_tokens", required: true }],
      },
    ],
  },
  cursor: {
    api_pattern: "https://api\\.cursor\\.com",
    extractors: [
      {
        api_flavor: "usage-event",
        root: "tokenUsage",
        model_path: "model",
        mappings: [
          { path: "inputTokens", dest: "input_tokens", required: true },
          { path: "cacheWriteTokens", dest: "input_tokens", required: true },
          { path: "cacheReadTokens", dest: "input_tokens", required: true },
          { path: "cacheWriteTokens", dest: "cache_write_tokens", required: true },
          { path: "cacheReadTokens", dest: "cache_read_tokens", required: true },
          { path: "outputTokens", dest: "output_tokens", required: true },
        ],
      },
    ],
  },
  deepseek: {
    api_pattern: "https://api\\.deepseek\\.com",
    extractors: [
      {
        api_flavor: "chat",
        root: "usage",
        model_path: "model",
        mappings: [
          { path: "prompt_tokens", dest: "input_tokens", required: true },
          { path: ["prompt_tokens_details", "cached_tokens"], dest: "cache_read_tokens", required: false },
          { path: ["completion_tokens_details", "audio_tokens"], dest: "output_audio_tokens", required: false },
          { path: ["completion_tokens_details", "reasoning_tokens"], dest: "output_reasoning_tokens", required: false },
          { path: "completion_tokens", dest: "output_tokens", required: true },
        ],
      },
    ],
  },
  doubleword: {
    api_pattern: "https://api\\.doubleword\\.ai",
    extractors: [
      {
        api_flavor: "chat",
        root: "usage",
        model_path: "model",
        mappings: [
          { path: "prompt_tokens", dest: "input_tokens", required: true },
          { path: ["prompt_tokens_details", "cached_tokens"], dest: "cache_read_tokens", required: false },
          { path: ["prompt_tokens_details", "cache_write_tokens"], dest: "cache_write_tokens", required: false },
          { path: ["completion_tokens_details", "reasoning_tokens"], dest: "output_reasoning_tokens", required: false },
          { path: "completion_tokens", dest: "output_tokens", required: true },
        ],
      },
      {
        api_flavor: "responses",
        root: "usage",
        model_path: "model",
        mappings: [
          { path: "input_tokens", dest: "input_tokens", required: true },
          { path: ["input_tokens_details", "cached_tokens"], dest: "cache_read_tokens", required: false },
          { path: "output_tokens", dest: "output_tokens", required: true },
        ],
      },
      {
        api_flavor: "embeddings",
        root: "usage",
        model_path: "model",
        mappings: [{ path: "prompt_tokens", dest: "input_tokens", required: true }],
      },
    ],
  },
  fireworks: {
    api_pattern: "https://api\\.fireworks\\.ai",
    extractors: [
      {
        api_flavor: "chat",
        root: "usage",
        model_path: "model",
        mappings: [
          { path: "prompt_tokens", dest: "input_tokens", required: true },
          { path: ["prompt_tokens_details", "cached_tokens"], dest: "cache_read_tokens", required: false },
          { path: ["completion_tokens_details", "audio_tokens"], dest: "output_audio_tokens", required: false },
          { path: ["completion_tokens_details", "reasoning_tokens"], dest: "output_reasoning_tokens", required: false },
          { path: "completion_tokens", dest: "output_tokens", required: true },
        ],
      },
    ],
  },
  "github-copilot": {
    api_pattern: "https://api\\.githubcopilot\\.com",
    extractors: [
      {
        api_flavor: "chat",
        root: "usage",
        model_path: "model",
        mappings: [
          { path: "prompt_tokens", dest: "input_tokens", required: true },
          { path: ["prompt_tokens_details", "cached_tokens"], dest: "cache_read_tokens", required: false },
          { path: ["completion_tokens_details", "reasoning_tokens"], dest: "output_reasoning_tokens", required: false },
          { path: "completion_tokens", dest: "output_tokens", required: true },
        ],
      },
      {
        api_flavor: "responses",
        root: "usage",
        model_path: "model",
        mappings: [
          { path: "input_tokens", dest: "input_tokens", required: true },
          { path: ["input_tokens_details", "cached_tokens"], dest: "cache_read_tokens", required: false },
          { path: ["input_tokens_details", "cache_write_tokens"], dest: "cache_write_tokens", required: false },
          { path: ["output_tokens_details", "reasoning_tokens"], dest: "output_reasoning_tokens", required: false },
          { path: "output_tokens", dest: "output_tokens", required: true },
        ],
      },
    ],
  },
  google: {
    api_pattern: "https://(.*\\.)?googleapis\\.com",
    extractors: [
      {
        api_flavor: "default",
        root: "usageMetadata",
        model_path: "modelVersion",
        mappings: [
          { path: "promptTokenCount", dest: "input_tokens", required: false },
          { path: "cachedContentTokenCount", dest: "cache_read_tokens", required: false },
          {
            path: [
              "cacheTokensDetails",
              { type: "array-match", field: "modality", match: { equals: "TEXT" } },
              "tokenCount",
            ],
            dest: "cache_text_read_tokens",
            required: false,
          },
          {
            path: [
              "cacheTokensDetails",
              { type: "array-match", field: "modality", match: { equals: "AUDIO" } },
              "tokenCount",
            ],
            dest: "cache_audio_read_tokens",
            required: false,
          },
          {
            path: [
              "cacheTokensDetails",
              { type: "array-match", field: "modality", match: { equals: "IMAGE" } },
              "tokenCount",
            ],
            dest: "cache_image_read_tokens",
            required: false,
          },
          {
            path: [
              "cacheTokensDetails",
              { type: "array-match", field: "modality", match: { equals: "DOCUMENT" } },
              "tokenCount",
            ],
            dest: "cache_image_read_tokens",
            required: false,
          },
          {
            path: [
              "cacheTokensDetails",
              { type: "array-match", field: "modality", match: { equals: "VIDEO" } },
              "tokenCount",
            ],
            dest: "cache_video_read_tokens",
            required: false,
          },
          {
            path: [
              "promptTokensDetails",
              { type: "array-match", field: "modality", match: { equals: "TEXT" } },
              "tokenCount",
            ],
            dest: "input_text_tokens",
            required: false,
          },
          {
            path: [
              "promptTokensDetails",
              { type: "array-match", field: "modality", match: { equals: "AUDIO" } },
              "tokenCount",
            ],
            dest: "input_audio_tokens",
            required: false,
          },
          {
            path: [
              "promptTokensDetails",
              { type: "array-match", field: "modality", match: { equals: "IMAGE" } },
              "tokenCount",
            ],
            dest: "input_image_tokens",
            required: false,
          },
          {
            path: [
              "promptTokensDetails",
              { type: "array-match", field: "modality", match: { equals: "DOCUMENT" } },
              "tokenCount",
            ],
            dest: "input_image_tokens",
            required: false,
          },
          {
            path: [
              "promptTokensDetails",
              { type: "array-match", field: "modality", match: { equals: "VIDEO" } },
              "tokenCount",
            ],
            dest: "input_video_tokens",
            required: false,
          },
          {
            path: [
              "candidatesTokensDetails",
              { type: "array-match", field: "modality", match: { equals: "TEXT" } },
              "tokenCount",
            ],
            dest: "output_text_tokens",
            required: false,
          },
          {
            path: [
              "candidatesTokensDetails",
              { type: "array-match", field: "modality", match: { equals: "AUDIO" } },
              "tokenCount",
            ],
            dest: "output_audio_tokens",
            required: false,
          },
          {
            path: [
              "candidatesTokensDetails",
              { type: "array-match", field: "modality", match: { equals: "IMAGE" } },
              "tokenCount",
            ],
            dest: "output_image_tokens",
            required: false,
          },
          {
            path: [
              "candidatesTokensDetails",
              { type: "array-match", field: "modality", match: { equals: "DOCUMENT" } },
              "tokenCount",
            ],
            dest: "output_image_tokens",
            required: false,
          },
          {
            path: [
              "candidatesTokensDetails",
              { type: "array-match", field: "modality", match: { equals: "VIDEO" } },
              "tokenCount",
            ],
            dest: "output_video_tokens",
            required: false,
          },
          { path: "candidatesTokenCount", dest: "output_tokens", required: false },
          { path: "thoughtsTokenCount", dest: "output_tokens", required: false },
          { path: "thoughtsTokenCount", dest: "output_reasoning_tokens", required: false },
          { path: "toolUsePromptTokenCount", dest: "input_tokens", required: false },
          { path: "toolUsePromptTokenCount", dest: "input_tool_tokens", required: false },
          {
            path: [
              "toolUsePromptTokensDetails",
              { type: "array-match", field: "modality", match: { equals: "TEXT" } },
              "tokenCount",
            ],
            dest: "input_text_tokens",
            required: false,
          },
          {
            path: [
              "toolUsePromptTokensDetails",
              { type: "array-match", field: "modality", match: { equals: "TEXT" } },
              "tokenCount",
            ],
            dest: "input_text_tool_tokens",
            required: false,
          },
          {
            path: [
              "toolUsePromptTokensDetails",
              { type: "array-match", field: "modality", match: { equals: "AUDIO" } },
              "tokenCount",
            ],
            dest: "input_audio_tokens",
            required: false,
          },
          {
            path: [
              "toolUsePromptTokensDetails",
              { type: "array-match", field: "modality", match: { equals: "AUDIO" } },
              "tokenCount",
            ],
            dest: "input_audio_tool_tokens",
            required: false,
          },
          {
            path: [
              "toolUsePromptTokensDetails",
              { type: "array-match", field: "modality", match: { equals: "IMAGE" } },
              "tokenCount",
            ],
            dest: "input_image_tokens",
            required: false,
          },
          {
            path: [
              "toolUsePromptTokensDetails",
              { type: "array-match", field: "modality", match: { equals: "IMAGE" } },
              "tokenCount",
            ],
            dest: "input_image_tool_tokens",
            required: false,
          },
          {
            path: [
              "toolUsePromptTokensDetails",
              { type: "array-match", field: "modality", match: { equals: "DOCUMENT" } },
              "tokenCount",
            ],
            dest: "input_image_tokens",
            required: false,
          },
          {
            path: [
              "toolUsePromptTokensDetails",
              { type: "array-match", field: "modality", match: { equals: "DOCUMENT" } },
              "tokenCount",
            ],
            dest: "input_image_tool_tokens",
            required: false,
          },
          {
            path: [
              "toolUsePromptTokensDetails",
              { type: "array-match", field: "modality", match: { equals: "VIDEO" } },
              "tokenCount",
            ],
            dest: "input_video_tokens",
            required: false,
          },
          {
            path: [
              "toolUsePromptTokensDetails",
              { type: "array-match", field: "modality", match: { equals: "VIDEO" } },
              "tokenCount",
            ],
            dest: "input_video_tool_tokens",
            required: false,
          },
        ],
      },
      {
        api_flavor: "anthropic",
        root: "usage",
        model_path: "model",
        mappings: [
          { path: "input_tokens", dest: "input_tokens", required: true },
          { path: "cache_creation_input_tokens", dest: "input_tokens", required: false },
          { path: "cache_read_input_tokens", dest: "input_tokens", required: false },
          { path: "cache_creation_input_tokens", dest: "cache_write_tokens", required: false },
          { path: "cache_read_input_tokens", dest: "cache_read_tokens", required: false },
          { path: "output_tokens", dest: "output_tokens", required: true },
        ],
      },
      {
        api_flavor: "chat",
        root: "usage",
        model_path: "model",
        mappings: [
          { path: "prompt_tokens", dest: "input_tokens", required: true },
          { path: ["prompt_tokens_details", "cached_tokens"], dest: "cache_read_tokens", required: false },
          { path: ["prompt_tokens_details", "audio_tokens"], dest: "input_audio_tokens", required: false },
          { path: ["completion_tokens_details", "audio_tokens"], dest: "output_audio_tokens", required: false },
          { path: ["completion_tokens_details", "reasoning_tokens"], dest: "output_reasoning_tokens", required: false },
          { path: "completion_tokens", dest: "output_tokens", required: true },
        ],
      },
    ],
  },
  groq: {
    api_pattern: "https://api\\.groq\\.com",
    extractors: [
      {
        api_flavor: "default",
        root: "usage",
        model_path: "model",
        mappings: [
          { path: "prompt_tokens", dest: "input_tokens", required: true },
          { path: "completion_tokens", dest: "output_tokens", required: true },
          { path: ["prompt_tokens_details", "cached_tokens"], dest: "cache_read_tokens", required: false },
          { path: ["prompt_tokens_details", "audio_tokens"], dest: "input_audio_tokens", required: false },
          { path: ["completion_tokens_details", "audio_tokens"], dest: "output_audio_tokens", required: false },
          { path: ["completion_tokens_details", "reasoning_tokens"], dest: "output_reasoning_tokens", required: false },
        ],
      },
    ],
  },
  huggingface_cerebras: {
    api_pattern: "https://router\\.huggingface\\.co/cerebras",
    extractors: [
      {
        api_flavor: "default",
        root: "usage",
        model_path: "model",
        mappings: [
          { path: "prompt_tokens", dest: "input_tokens", required: true },
          { path: ["prompt_tokens_details", "cached_tokens"], dest: "cache_read_tokens", required: false },
          { path: ["prompt_tokens_details", "cache_write_tokens"], dest: "cache_write_tokens", required: false },
          { path: ["prompt_tokens_details", "audio_tokens"], dest: "input_audio_tokens", required: false },
          { path: ["completion_tokens_details", "audio_tokens"], dest: "output_audio_tokens", required: false },
          { path: ["completion_tokens_details", "reasoning_tokens"], dest: "output_reasoning_tokens", required: false },
          { path: "completion_tokens", dest: "output_tokens", required: true },
        ],
      },
      {
        api_flavor: "chat",
        root: "usage",
        model_path: "model",
        mappings: [
          { path: "prompt_tokens", dest: "input_tokens", required: true },
          { path: ["prompt_tokens_details", "cached_tokens"], dest: "cache_read_tokens", required: false },
          { path: ["prompt_tokens_details", "cache_write_tokens"], dest: "cache_write_tokens", required: false },
          { path: ["prompt_tokens_details", "audio_tokens"], dest: "input_audio_tokens", required: false },
          { path: ["completion_tokens_details", "audio_tokens"], dest: "output_audio_tokens", required: false },
          { path: ["completion_tokens_details", "reasoning_tokens"], dest: "output_reasoning_tokens", required: false },
          { path: "completion_tokens", dest: "output_tokens", required: true },
        ],
      },
    ],
  },
  "huggingface_fireworks-ai": {
    api_pattern: "https://router\\.huggingface\\.co/fireworks-ai",
    extractors: [
      {
        api_flavor: "default",
        root: "usage",
        model_path: "model",
        mappings: [
          { path: "prompt_tokens", dest: "input_tokens", required: true },
          { path: ["prompt_tokens_details", "cached_tokens"], dest: "cache_read_tokens", required: false },
          { path: ["prompt_tokens_details", "cache_write_tokens"], dest: "cache_write_tokens", required: false },
          { path: ["prompt_tokens_details", "audio_tokens"], dest: "input_audio_tokens", required: false },
          { path: ["completion_tokens_details", "audio_tokens"], dest: "output_audio_tokens", required: false },
          { path: ["completion_tokens_details", "reasoning_tokens"], dest: "output_reasoning_tokens", required: false },
          { path: "completion_tokens", dest: "output_tokens", required: true },
        ],
      },
      {
        api_flavor: "chat",
        root: "usage",
        model_path: "model",
        mappings: [
          { path: "prompt_tokens", dest: "input_tokens", required: true },
          { path: ["prompt_tokens_details", "cached_tokens"], dest: "cache_read_tokens", required: false },
          { path: ["prompt_tokens_details", "cache_write_tokens"], dest: "cache_write_tokens", required: false },
          { path: ["prompt_tokens_details", "audio_tokens"], dest: "input_audio_tokens", required: false },
          { path: ["completion_tokens_details", "audio_tokens"], dest: "output_audio_tokens", required: false },
          { path: ["completion_tokens_details", "reasoning_tokens"], dest: "output_reasoning_tokens", required: false },
          { path: "completion_tokens", dest: "output_tokens", required: true },
        ],
      },
    ],
  },
  huggingface_groq: {
    api_pattern: "https://router\\.huggingface\\.co/groq",
    extractors: [
      {
        api_flavor: "default",
        root: "usage",
        model_path: "model",
        mappings: [
          { path: "prompt_tokens", dest: "input_tokens", required: true },
          { path: ["prompt_tokens_details", "cached_tokens"], dest: "cache_read_tokens", required: false },
          { path: ["prompt_tokens_details", "cache_write_tokens"], dest: "cache_write_tokens", required: false },
          { path: ["prompt_tokens_details", "audio_tokens"], dest: "input_audio_tokens", required: false },
          { path: ["completion_tokens_details", "audio_tokens"], dest: "output_audio_tokens", required: false },
          { path: ["completion_tokens_details", "reasoning_tokens"], dest: "output_reasoning_tokens", required: false },
          { path: "completion_tokens", dest: "output_tokens", required: true },
        ],
      },
      {
        api_flavor: "chat",
        root: "usage",
        model_path: "model",
        mappings: [
          { path: "prompt_tokens", dest: "input_tokens", required: true },
          { path: ["prompt_tokens_details", "cached_tokens"], dest: "cache_read_tokens", required: false },
          { path: ["prompt_tokens_details", "cache_write_tokens"], dest: "cache_write_tokens", required: false },
          { path: ["prompt_tokens_details", "audio_tokens"], dest: "input_audio_tokens", required: false },
          { path: ["completion_tokens_details", "audio_tokens"], dest: "output_audio_tokens", required: false },
          { path: ["completion_tokens_details", "reasoning_tokens"], dest: "output_reasoning_tokens", required: false },
          { path: "completion_tokens", dest: "output_tokens", required: true },
        ],
      },
    ],
  },
  huggingface_hyperbolic: {
    api_pattern: "https://router\\.huggingface\\.co/hyperbolic",
    extractors: [
      {
        api_flavor: "default",
        root: "usage",
        model_path: "model",
        mappings: [
          { path: "prompt_tokens", dest: "input_tokens", required: true },
          { path: ["prompt_tokens_details", "cached_tokens"], dest: "cache_read_tokens", required: false },
          { path: ["prompt_tokens_details", "cache_write_tokens"], dest: "cache_write_tokens", required: false },
          { path: ["prompt_tokens_details", "audio_tokens"], dest: "input_audio_tokens", required: false },
          { path: ["completion_tokens_details", "audio_tokens"], dest: "output_audio_tokens", required: false },
          { path: ["completion_tokens_details", "reasoning_tokens"], dest: "output_reasoning_tokens", required: false },
          { path: "completion_tokens", dest: "output_tokens", required: true },
        ],
      },
      {
        api_flavor: "chat",
        root: "usage",
        model_path: "model",
        mappings: [
          { path: "prompt_tokens", dest: "input_tokens", required: true },
          { path: ["prompt_tokens_details", "cached_tokens"], dest: "cache_read_tokens", required: false },
          { path: ["prompt_tokens_details", "cache_write_tokens"], dest: "cache_write_tokens", required: false },
          { path: ["prompt_tokens_details", "audio_tokens"], dest: "input_audio_tokens", required: false },
          { path: ["completion_tokens_details", "audio_tokens"], dest: "output_audio_tokens", required: false },
          { path: ["completion_tokens_details", "reasoning_tokens"], dest: "output_reasoning_tokens", required: false },
          { path: "completion_tokens", dest: "output_tokens", required: true },
        ],
      },
    ],
  },
  huggingface_nebius: {
    api_pattern: "https://router\\.huggingface\\.co/nebius",
    extractors: [
      {
        api_flavor: "default",
        root: "usage",
        model_path: "model",
        mappings: [
          { path: "prompt_tokens", dest: "input_tokens", required: true },
          { path: ["prompt_tokens_details", "cached_tokens"], dest: "cache_read_tokens", required: false },
          { path: ["prompt_tokens_details", "cache_write_tokens"], dest: "cache_write_tokens", required: false },
          { path: ["prompt_tokens_details", "audio_tokens"], dest: "input_audio_tokens", required: false },
          { path: ["completion_tokens_details", "audio_tokens"], dest: "output_audio_tokens", required: false },
          { path: ["completion_tokens_details", "reasoning_tokens"], dest: "output_reasoning_tokens", required: false },
          { path: "completion_tokens", dest: "output_tokens", required: true },
        ],
      },
      {
        api_flavor: "chat",
        root: "usage",
        model_path: "model",
        mappings: [
          { path: "prompt_tokens", dest: "input_tokens", required: true },
          { path: ["prompt_tokens_details", "cached_tokens"], dest: "cache_read_tokens", required: false },
          { path: ["prompt_tokens_details", "cache_write_tokens"], dest: "cache_write_tokens", required: false },
          { path: ["prompt_tokens_details", "audio_tokens"], dest: "input_audio_tokens", required: false },
          { path: ["completion_tokens_details", "audio_tokens"], dest: "output_audio_tokens", required: false },
          { path: ["completion_tokens_details", "reasoning_tokens"], dest: "output_reasoning_tokens", required: false },
          { path: "completion_tokens", dest: "output_tokens", required: true },
        ],
      },
    ],
  },
  huggingface_novita: {
    api_pattern: "https://router\\.huggingface\\.co/novita",
    extractors: [
      {
        api_flavor: "default",
        root: "usage",
        model_path: "model",
        mappings: [
          { path: "prompt_tokens", dest: "input_tokens", required: true },
          { path: ["prompt_tokens_details", "cached_tokens"], dest: "cache_read_tokens", required: false },
          { path: ["prompt_tokens_details", "cache_write_tokens"], dest: "cache_write_tokens", required: false },
          { path: ["prompt_tokens_details", "audio_tokens"], dest: "input_audio_tokens", required: false },
          { path: ["completion_tokens_details", "audio_tokens"], dest: "output_audio_tokens", required: false },
          { path: ["completion_tokens_details", "reasoning_tokens"], dest: "output_reasoning_tokens", required: false },
          { path: "completion_tokens", dest: "output_tokens", required: true },
        ],
      },
      {
        api_flavor: "chat",
        root: "usage",
        model_path: "model",
        mappings: [
          { path: "prompt_tokens", dest: "input_tokens", required: true },
          { path: ["prompt_tokens_details", "cached_tokens"], dest: "cache_read_tokens", required: false },
          { path: ["prompt_tokens_details", "cache_write_tokens"], dest: "cache_write_tokens", required: false },
          { path: ["prompt_tokens_details", "audio_tokens"], dest: "input_audio_tokens", required: false },
          { path: ["completion_tokens_details", "audio_tokens"], dest: "output_audio_tokens", required: false },
          { path: ["completion_tokens_details", "reasoning_tokens"], dest: "output_reasoning_tokens", required: false },
          { path: "completion_tokens", dest: "output_tokens", required: true },
        ],
      },
    ],
  },
  huggingface_nscale: {
    api_pattern: "https://router\\.huggingface\\.co/nscale",
    extractors: [
      {
        api_flavor: "default",
        root: "usage",
        model_path: "model",
        mappings: [
          { path: "prompt_tokens", dest: "input_tokens", required: true },
          { path: ["prompt_tokens_details", "cached_tokens"], dest: "cache_read_tokens", required: false },
          { path: ["prompt_tokens_details", "cache_write_tokens"], dest: "cache_write_tokens", required: false },
          { path: ["prompt_tokens_details", "audio_tokens"], dest: "input_audio_tokens", required: false },
          { path: ["completion_tokens_details", "audio_tokens"], dest: "output_audio_tokens", required: false },
          { path: ["completion_tokens_details", "reasoning_tokens"], dest: "output_reasoning_tokens", required: false },
          { path: "completion_tokens", dest: "output_tokens", required: true },
        ],
      },
      {
        api_flavor: "chat",
        root: "usage",
        model_path: "model",
        mappings: [
          { path: "prompt_tokens", dest: "input_tokens", required: true },
          { path: ["prompt_tokens_details", "cached_tokens"], dest: "cache_read_tokens", required: false },
          { path: ["prompt_tokens_details", "cache_write_tokens"], dest: "cache_write_tokens", required: false },
          { path: ["prompt_tokens_details", "audio_tokens"], dest: "input_audio_tokens", required: false },
          { path: ["completion_tokens_details", "audio_tokens"], dest: "output_audio_tokens", required: false },
          { path: ["completion_tokens_details", "reasoning_tokens"], dest: "output_reasoning_tokens", required: false },
          { path: "completion_tokens", dest: "output_tokens", required: true },
        ],
      },
    ],
  },
  huggingface_ovhcloud: {
    api_pattern: "https://router\\.huggingface\\.co/ovhcloud",
    extractors: [
      {
        api_flavor: "default",
        root: "usage",
        model_path: "model",
        mappings: [
          { path: "prompt_tokens", dest: "input_tokens", required: true },
          { path: ["prompt_tokens_details", "cached_tokens"], dest: "cache_read_tokens", required: false },
          { path: ["prompt_tokens_details", "cache_write_tokens"], dest: "cache_write_tokens", required: false },
          { path: ["prompt_tokens_details", "audio_tokens"], dest: "input_audio_tokens", required: false },
          { path: ["completion_tokens_details", "audio_tokens"], dest: "output_audio_tokens", required: false },
          { path: ["completion_tokens_details", "reasoning_tokens"], dest: "output_reasoning_tokens", required: false },
          { path: "completion_tokens", dest: "output_tokens", required: true },
        ],
      },
      {
        api_flavor: "chat",
        root: "usage",
        model_path: "model",
        mappings: [
          { path: "prompt_tokens", dest: "input_tokens", required: true },
          { path: ["prompt_tokens_details", "cached_tokens"], dest: "cache_read_tokens", required: false },
          { path: ["prompt_tokens_details", "cache_write_tokens"], dest: "cache_write_tokens", required: false },
          { path: ["prompt_tokens_details", "audio_tokens"], dest: "input_audio_tokens", required: false },
          { path: ["completion_tokens_details", "audio_tokens"], dest: "output_audio_tokens", required: false },
          { path: ["completion_tokens_details", "reasoning_tokens"], dest: "output_reasoning_tokens", required: false },
          { path: "completion_tokens", dest: "output_tokens", required: true },
        ],
      },
    ],
  },
  huggingface_publicai: {
    api_pattern: "https://router\\.huggingface\\.co/publicai",
    extractors: [
      {
        api_flavor: "default",
        root: "usage",
        model_path: "model",
        mappings: [
          { path: "prompt_tokens", dest: "input_tokens", required: true },
          { path: ["prompt_tokens_details", "cached_tokens"], dest: "cache_read_tokens", required: false },
          { path: ["prompt_tokens_details", "cache_write_tokens"], dest: "cache_write_tokens", required: false },
          { path: ["prompt_tokens_details", "audio_tokens"], dest: "input_audio_tokens", required: false },
          { path: ["completion_tokens_details", "audio_tokens"], dest: "output_audio_tokens", required: false },
          { path: ["completion_tokens_details", "reasoning_tokens"], dest: "output_reasoning_tokens", required: false },
          { path: "completion_tokens", dest: "output_tokens", required: true },
        ],
      },
      {
        api_flavor: "chat",
        root: "usage",
        model_path: "model",
        mappings: [
          { path: "prompt_tokens", dest: "input_tokens", required: true },
          { path: ["prompt_tokens_details", "cached_tokens"], dest: "cache_read_tokens", required: false },
          { path: ["prompt_tokens_details", "cache_write_tokens"], dest: "cache_write_tokens", required: false },
          { path: ["prompt_tokens_details", "audio_tokens"], dest: "input_audio_tokens", required: false },
          { path: ["completion_tokens_details", "audio_tokens"], dest: "output_audio_tokens", required: false },
          { path: ["completion_tokens_details", "reasoning_tokens"], dest: "output_reasoning_tokens", required: false },
          { path: "completion_tokens", dest: "output_tokens", required: true },
        ],
      },
    ],
  },
  huggingface_sambanova: {
    api_pattern: "https://router\\.huggingface\\.co/sambanova",
    extractors: [
      {
        api_flavor: "default",
        root: "usage",
        model_path: "model",
        mappings: [
          { path: "prompt_tokens", dest: "input_tokens", required: true },
          { path: ["prompt_tokens_details", "cached_tokens"], dest: "cache_read_tokens", required: false },
          { path: ["prompt_tokens_details", "cache_write_tokens"], dest: "cache_write_tokens", required: false },
          { path: ["prompt_tokens_details", "audio_tokens"], dest: "input_audio_tokens", required: false },
          { path: ["completion_tokens_details", "audio_tokens"], dest: "output_audio_tokens", required: false },
          { path: ["completion_tokens_details", "reasoning_tokens"], dest: "output_reasoning_tokens", required: false },
          { path: "completion_tokens", dest: "output_tokens", required: true },
        ],
      },
      {
        api_flavor: "chat",
        root: "usage",
        model_path: "model",
        mappings: [
          { path: "prompt_tokens", dest: "input_tokens", required: true },
          { path: ["prompt_tokens_details", "cached_tokens"], dest: "cache_read_tokens", required: false },
          { path: ["prompt_tokens_details", "cache_write_tokens"], dest: "cache_write_tokens", required: false },
          { path: ["prompt_tokens_details", "audio_tokens"], dest: "input_audio_tokens", required: false },
          { path: ["completion_tokens_details", "audio_tokens"], dest: "output_audio_tokens", required: false },
          { path: ["completion_tokens_details", "reasoning_tokens"], dest: "output_reasoning_tokens", required: false },
          { path: "completion_tokens", dest: "output_tokens", required: true },
        ],
      },
    ],
  },
  huggingface_together: {
    api_pattern: "https://router\\.huggingface\\.co/together",
    extractors: [
      {
        api_flavor: "default",
        root: "usage",
        model_path: "model",
        mappings: [
          { path: "prompt_tokens", dest: "input_tokens", required: true },
          { path: ["prompt_tokens_details", "cached_tokens"], dest: "cache_read_tokens", required: false },
          { path: ["prompt_tokens_details", "cache_write_tokens"], dest: "cache_write_tokens", required: false },
          { path: ["prompt_tokens_details", "audio_tokens"], dest: "input_audio_tokens", required: false },
          { path: ["completion_tokens_details", "audio_tokens"], dest: "output_audio_tokens", required: false },
          { path: ["completion_tokens_details", "reasoning_tokens"], dest: "output_reasoning_tokens", required: false },
          { path: "completion_tokens", dest: "output_tokens", required: true },
        ],
      },
      {
        api_flavor: "chat",
        root: "usage",
        model_path: "model",
        mappings: [
          { path: "prompt_tokens", dest: "input_tokens", required: true },
          { path: ["prompt_tokens_details", "cached_tokens"], dest: "cache_read_tokens", required: false },
          { path: ["prompt_tokens_details", "cache_write_tokens"], dest: "cache_write_tokens", required: false },
          { path: ["prompt_tokens_details", "audio_tokens"], dest: "input_audio_tokens", required: false },
          { path: ["completion_tokens_details", "audio_tokens"], dest: "output_audio_tokens", required: false },
          { path: ["completion_tokens_details", "reasoning_tokens"], dest: "output_reasoning_tokens", required: false },
          { path: "completion_tokens", dest: "output_tokens", required: true },
        ],
      },
    ],
  },
  minimax: {
    api_pattern: "https://api\\.minimax(i)?\\.(?:com|io)",
    extractors: [
      {
        api_flavor: "default",
        root: "usage",
        model_path: "model",
        mappings: [
          { path: "input_tokens", dest: "input_tokens", required: true },
          { path: "cache_creation_input_tokens", dest: "input_tokens", required: false },
          { path: "cache_read_input_tokens", dest: "input_tokens", required: false },
          { path: "cache_creation_input_tokens", dest: "cache_write_tokens", required: false },
          { path: "cache_read_input_tokens", dest: "cache_read_tokens", required: false },
          { path: "output_tokens", dest: "output_tokens", required: true },
        ],
      },
      {
        api_flavor: "responses",
        root: "usage",
        model_path: "model",
        mappings: [
          { path: "input_tokens", dest: "input_tokens", required: true },
          { path: ["input_tokens_details", "cached_tokens"], dest: "cache_read_tokens", required: false },
          { path: "output_tokens", dest: "output_tokens", required: true },
        ],
      },
      {
        api_flavor: "chat",
        root: "usage",
        model_path: "model",
        mappings: [
          { path: "prompt_tokens", dest: "input_tokens", required: true },
          { path: ["prompt_tokens_details", "cached_tokens"], dest: "cache_read_tokens", required: false },
          { path: ["completion_tokens_details", "reasoning_tokens"], dest: "output_reasoning_tokens", required: false },
          { path: "completion_tokens", dest: "output_tokens", required: true },
        ],
      },
    ],
  },
  mistral: {
    api_pattern: "https://api\\.mistral\\.ai",
    extractors: [
      {
        api_flavor: "default",
        root: "usage",
        model_path: "model",
        mappings: [
          { path: "prompt_tokens", dest: "input_tokens", required: true },
          { path: ["prompt_tokens_details", "cached_tokens"], dest: "cache_read_tokens", required: false },
          { path: ["completion_tokens_details", "reasoning_tokens"], dest: "output_reasoning_tokens", required: false },
          { path: "completion_tokens", dest: "output_tokens", required: true },
        ],
      },
      {
        api_flavor: "ocr",
        root: "usage_info",
        model_path: "model",
        mappings: [{ path: "pages_processed", dest: "input_document_pages", required: true }],
      },
      {
        api_flavor: "ocr_annotated",
        root: "usage_info",
        model_path: "model",
        mappings: [
          { path: "pages_processed", dest: "input_document_pages", required: true },
          { path: "pages_processed", dest: "input_annotated_document_pages", required: true },
        ],
      },
    ],
  },
  modal: {
    api_pattern: "https://[^/]+\\.modal\\.(?:run|direct)(?:/|$)",
    extractors: [
      {
        api_flavor: "chat",
        root: "usage",
        model_path: "model",
        mappings: [
          { path: "prompt_tokens", dest: "input_tokens", required: true },
          { path: ["prompt_tokens_details", "cached_tokens"], dest: "cache_read_tokens", required: false },
          { path: ["prompt_tokens_details", "cache_write_tokens"], dest: "cache_write_tokens", required: false },
          { path: "reasoning_tokens", dest: "output_reasoning_tokens", required: false },
          { path: "completion_tokens", dest: "output_tokens", required: true },
        ],
      },
      {
        api_flavor: "responses",
        root: "usage",
        model_path: "model",
        mappings: [
          { path: "input_tokens", dest: "input_tokens", required: true },
          { path: ["input_tokens_details", "cached_tokens"], dest: "cache_read_tokens", required: false },
          { path: ["input_tokens_details", "cache_write_tokens"], dest: "cache_write_tokens", required: false },
          { path: ["output_tokens_details", "reasoning_tokens"], dest: "output_reasoning_tokens", required: false },
          { path: "output_tokens", dest: "output_tokens", required: true },
        ],
      },
    ],
  },
  moonshotai: {
    api_pattern: "https://api\\.moonshot\\.",
    extractors: [
      {
        api_flavor: "chat",
        root: "usage",
        model_path: "model",
        mappings: [
          { path: "prompt_tokens", dest: "input_tokens", required: true },
          { path: ["prompt_tokens_details", "cached_tokens"], dest: "cache_read_tokens", required: false },
          { path: ["completion_tokens_details", "reasoning_tokens"], dest: "output_reasoning_tokens", required: false },
          { path: "completion_tokens", dest: "output_tokens", required: true },
        ],
      },
    ],
  },
  novita: { api_pattern: "https://api\\.novita\\.ai" },
  openai: {
    api_pattern: "https://api\\.openai\\.com",
    extractors: [
      {
        api_flavor: "chat",
        root: "usage",
        model_path: "model",
        mappings: [
          { path: "prompt_tokens", dest: "input_tokens", required: true },
          { path: ["prompt_tokens_details", "cached_tokens"], dest: "cache_read_tokens", required: false },
          { path: ["prompt_tokens_details", "cache_write_tokens"], dest: "cache_write_tokens", required: false },
          { path: ["prompt_tokens_details", "audio_tokens"], dest: "input_audio_tokens", required: false },
          { path: ["completion_tokens_details", "audio_tokens"], dest: "output_audio_tokens", required: false },
          { path: ["completion_tokens_details", "reasoning_tokens"], dest: "output_reasoning_tokens", required: false },
          { path: "completion_tokens", dest: "output_tokens", required: true },
        ],
      },
      {
        api_flavor: "responses",
        root: "usage",
        model_path: "model",
        mappings: [
          { path: "input_tokens", dest: "input_tokens", required: true },
          { path: ["input_tokens_details", "cached_tokens"], dest: "cache_read_tokens", required: false },
          { path: ["input_tokens_details", "cache_write_tokens"], dest: "cache_write_tokens", required: false },
          { path: ["output_tokens_details", "reasoning_tokens"], dest: "output_reasoning_tokens", required: false },
          { path: "output_tokens", dest: "output_tokens", required: true },
        ],
      },
      {
        api_flavor: "realtime",
        root: ["response", "usage"],
        model_path: "model",
        mappings: [
          { path: "input_tokens", dest: "input_tokens", required: false },
          { path: ["input_token_details", "text_tokens"], dest: "input_text_tokens", required: false },
          { path: ["input_token_details", "audio_tokens"], dest: "input_audio_tokens", required: false },
          { path: ["input_token_details", "image_tokens"], dest: "input_image_tokens", required: false },
          { path: ["input_token_details", "cached_tokens"], dest: "cache_read_tokens", required: false },
          {
            path: ["input_token_details", "cached_tokens_details", "text_tokens"],
            dest: "cache_text_read_tokens",
            required: false,
          },
          {
            path: ["input_token_details", "cached_tokens_details", "audio_tokens"],
            dest: "cache_audio_read_tokens",
            required: false,
          },
          {
            path: ["input_token_details", "cached_tokens_details", "image_tokens"],
            dest: "cache_image_read_tokens",
            required: false,
          },
          { path: ["output_token_details", "text_tokens"], dest: "output_text_tokens", required: false },
          { path: ["output_token_details", "audio_tokens"], dest: "output_audio_tokens", required: false },
          { path: "output_tokens", dest: "output_tokens", required: false },
        ],
      },
      {
        api_flavor: "images",
        root: "usage",
        model_path: "model",
        mappings: [
          { path: "input_tokens", dest: "input_tokens", required: true },
          { path: ["input_tokens_details", "text_tokens"], dest: "input_text_tokens", required: true },
          { path: ["input_tokens_details", "image_tokens"], dest: "input_image_tokens", required: true },
          { path: "output_tokens", dest: "output_tokens", required: true },
          { path: ["output_tokens_details", "text_tokens"], dest: "output_text_tokens", required: false },
          { path: ["output_tokens_details", "image_tokens"], dest: "output_image_tokens", required: false },
        ],
      },
      {
        api_flavor: "embeddings",
        root: "usage",
        model_path: "model",
        mappings: [{ path: "prompt_tokens", dest: "input_tokens", required: true }],
      },
    ],
  },
  openrouter: {
    api_pattern: "https://(api\\.)?openrouter\\.ai",
    extractors: [
      {
        api_flavor: "chat",
        root: "usage",
        model_path: "model",
        mappings: [
          { path: "prompt_tokens", dest: "input_tokens", required: true },
          { path: ["prompt_tokens_details", "cached_tokens"], dest: "cache_read_tokens", required: false },
          { path: ["prompt_tokens_details", "cache_write_tokens"], dest: "cache_write_tokens", required: false },
          { path: ["prompt_tokens_details", "audio_tokens"], dest: "input_audio_tokens", required: false },
          { path: ["completion_tokens_details", "audio_tokens"], dest: "output_audio_tokens", required: false },
          { path: ["completion_tokens_details", "reasoning_tokens"], dest: "output_reasoning_tokens", required: false },
          { path: "completion_tokens", dest: "output_tokens", required: true },
        ],
      },
    ],
  },
  ovhcloud: {
    api_pattern: "https://oai\\.endpoints\\.kepler\\.ai\\.cloud\\.ovh\\.net",
    extractors: [
      {
        api_flavor: "default",
        root: "usage",
        model_path: "model",
        mappings: [
          { path: "prompt_tokens", dest: "input_tokens", required: true },
          { path: ["prompt_tokens_details", "cached_tokens"], dest: "cache_read_tokens", required: false },
          { path: ["prompt_tokens_details", "cache_write_tokens"], dest: "cache_write_tokens", required: false },
          { path: ["prompt_tokens_details", "audio_tokens"], dest: "input_audio_tokens", required: false },
          { path: ["completion_tokens_details", "audio_tokens"], dest: "output_audio_tokens", required: false },
          { path: ["completion_tokens_details", "reasoning_tokens"], dest: "output_reasoning_tokens", required: false },
          { path: "completion_tokens", dest: "output_tokens", required: true },
        ],
      },
      {
        api_flavor: "chat",
        root: "usage",
        model_path: "model",
        mappings: [
          { path: "prompt_tokens", dest: "input_tokens", required: true },
          { path: ["prompt_tokens_details", "cached_tokens"], dest: "cache_read_tokens", required: false },
          { path: ["prompt_tokens_details", "cache_write_tokens"], dest: "cache_write_tokens", required: false },
          { path: ["prompt_tokens_details", "audio_tokens"], dest: "input_audio_tokens", required: false },
          { path: ["completion_tokens_details", "audio_tokens"], dest: "output_audio_tokens", required: false },
          { path: ["completion_tokens_details", "reasoning_tokens"], dest: "output_reasoning_tokens", required: false },
          { path: "completion_tokens", dest: "output_tokens", required: true },
        ],
      },
    ],
  },
  perplexity: {
    api_pattern: "https://api\\.perplexity\\.ai",
    extractors: [
      {
        api_flavor: "default",
        root: "usage",
        model_path: "model",
        mappings: [
          { path: "prompt_tokens", dest: "input_tokens", required: true },
          { path: "reasoning_tokens", dest: "output_tokens", required: false },
          { path: "reasoning_tokens", dest: "output_reasoning_tokens", required: false },
          { path: "citation_tokens", dest: "output_tokens", required: false },
          { path: "citation_tokens", dest: "output_citation_tokens", required: false },
          { path: "num_search_queries", dest: "web_searches", required: false },
          { path: "completion_tokens", dest: "output_tokens", required: true },
        ],
      },
    ],
  },
  quicksilverpro: {
    api_pattern: "https://api\\.quicksilverpro\\.io",
    extractors: [
      {
        api_flavor: "chat",
        root: "usage",
        model_path: "model",
        mappings: [
          { path: "prompt_tokens", dest: "input_tokens", required: true },
          { path: ["prompt_tokens_details", "cached_tokens"], dest: "cache_read_tokens", required: false },
          { path: ["prompt_tokens_details", "cache_write_tokens"], dest: "cache_write_tokens", required: false },
          { path: ["prompt_tokens_details", "audio_tokens"], dest: "input_audio_tokens", required: false },
          { path: ["completion_tokens_details", "audio_tokens"], dest: "output_audio_tokens", required: false },
          { path: ["completion_tokens_details", "reasoning_tokens"], dest: "output_reasoning_tokens", required: false },
          { path: "completion_tokens", dest: "output_tokens", required: true },
        ],
      },
      {
        api_flavor: "responses",
        root: "usage",
        model_path: "model",
        mappings: [
          { path: "input_tokens", dest: "input_tokens", required: true },
          { path: ["input_tokens_details", "cached_tokens"], dest: "cache_read_tokens", required: false },
          { path: ["input_tokens_details", "cache_write_tokens"], dest: "cache_write_tokens", required: false },
          { path: ["output_tokens_details", "reasoning_tokens"], dest: "output_reasoning_tokens", required: false },
          { path: "output_tokens", dest: "output_tokens", required: true },
        ],
      },
    ],
  },
  together: { api_pattern: "https://api\\.together\\.xyz" },
  typesafe: {
    api_pattern: "https://api\\.typesafe\\.ai",
    extractors: [
      {
        api_flavor: "default",
        root: "usage",
        model_path: "model",
        mappings: [
          { path: "input_tokens", dest: "input_tokens", required: true },
          { path: "output_tokens", dest: "output_tokens", required: true },
        ],
      },
    ],
  },
  voyageai: { api_pattern: "https://api\\.voyageai\\.com" },
  "x-ai": {
    api_pattern: "https://api\\.x\\.ai",
    extractors: [
      {
        api_flavor: "default",
        root: "usage",
        model_path: "model",
        mappings: [
          { path: "prompt_tokens", dest: "input_tokens", required: true },
          { path: "cached_prompt_text_tokens", dest: "cache_read_tokens", required: false },
          { path: "reasoning_tokens", dest: "output_tokens", required: false },
          { path: "reasoning_tokens", dest: "output_reasoning_tokens", required: false },
          { path: "completion_tokens", dest: "output_tokens", required: true },
        ],
      },
      {
        api_flavor: "chat",
        root: "usage",
        model_path: "model",
        mappings: [
          { path: "prompt_tokens", dest: "input_tokens", required: true },
          { path: ["prompt_tokens_details", "cached_tokens"], dest: "cache_read_tokens", required: false },
          { path: ["completion_tokens_details", "audio_tokens"], dest: "output_audio_tokens", required: false },
          { path: ["completion_tokens_details", "reasoning_tokens"], dest: "output_tokens", required: false },
          { path: ["completion_tokens_details", "reasoning_tokens"], dest: "output_reasoning_tokens", required: false },
          { path: "completion_tokens", dest: "output_tokens", required: true },
        ],
      },
      {
        api_flavor: "realtime",
        root: "usage",
        model_path: "model",
        mappings: [
          { path: "input_tokens", dest: "input_tokens", required: false },
          { path: ["input_token_details", "text_tokens"], dest: "input_text_tokens", required: false },
          { path: ["input_token_details", "audio_tokens"], dest: "input_audio_tokens", required: false },
          { path: "output_tokens", dest: "output_tokens", required: false },
          { path: ["output_token_details", "text_tokens"], dest: "output_text_tokens", required: false },
          { path: ["output_token_details", "audio_tokens"], dest: "output_audio_tokens", required: false },
          { path: "billable_audio_seconds", dest: "audio_seconds", required: true },
          { path: "input_text_messages", dest: "input_text_messages", required: false },
        ],
      },
    ],
  },
  zai: {
    api_pattern: "https://api\\.z\\.ai",
    extractors: [
      {
        api_flavor: "chat",
        root: "usage",
        model_path: "model",
        mappings: [
          { path: "prompt_tokens", dest: "input_tokens", required: true },
          { path: ["prompt_tokens_details", "cached_tokens"], dest: "cache_read_tokens", required: false },
          { path: ["completion_tokens_details", "reasoning_tokens"], dest: "output_reasoning_tokens", required: false },
          { path: "completion_tokens", dest: "output_tokens", required: true },
        ],
      },
    ],
  },
  zhipuai: {
    api_pattern: "https://open\\.bigmodel\\.cn",
    extractors: [
      {
        api_flavor: "chat",
        root: "usage",
        model_path: "model",
        mappings: [
          { path: "prompt_tokens", dest: "input_tokens", required: true },
          { path: ["prompt_tokens_details", "cached_tokens"], dest: "cache_read_tokens", required: false },
          { path: ["completion_tokens_details", "reasoning_tokens"], dest: "output_reasoning_tokens", required: false },
          { path: "completion_tokens", dest: "output_tokens", required: true },
        ],
      },
    ],
  },
});
