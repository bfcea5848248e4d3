import { canonicalSeller, isMaker } from "../domain/sellers.js";

/**
 * Spelling normalization of model ids across sources (D1). Pure.
 *
 * Sources spell one model many ways: `anthropic/claude-opus-4` (routers), `claude-opus-4@20250514`
 * (Vertex), `eu.anthropic.claude-opus-4-20250514-v1:0` (Bedrock inference profiles),
 * `deepseek-ai/DeepSeek-V3` (Together). {@link parseModelSpelling} strips what is routing and keeps
 * what is identity; qualifiers that still distinguish a price (a Bedrock region profile, an
 * OpenRouter `:free` variant) are returned apart.
 */
export interface ModelSpelling {
  /** Vendor named in the spelling (`anthropic` from `anthropic/…` or `anthropic.…`), canonical, or null. */
  readonly vendor: string | null;
  /** Cleaned slug: lower-case, prefixes and routing suffixes gone, dots kept (`claude-3.5-sonnet`). */
  readonly slug: string;
  /** Comparison key: `slug` with `.`, `_`, `@`, `:` and spaces as `-` (`claude-3-5-sonnet`). */
  readonly key: string;
  /** Qualifiers the spelling carries (`region` for Bedrock profiles, `variant` for `:free`). */
  readonly qualifiers: Readonly<Record<string, string>>;
}

const BEDROCK_REGION_PREFIX = /^(us|eu|apac|global|us-gov|jp|au|ca|apne|sa)\.(?=[a-z0-9-]+\.)/;
const BEDROCK_VERSION_SUFFIX = /(-v\d+(?::\d+)?|:\d+)$/;
const VARIANT_SUFFIX = /:(free|beta|thinking|extended|online|nitro|floor|exacto)$/;

/** Parses one source spelling of a model id. */
export function parseModelSpelling(raw: string): ModelSpelling {
  // Synthetic's `hf:` marks a Hugging Face repo id; the repo id itself is the spelling.
  let s = raw.trim().toLowerCase().replace(/^hf:/, "");
  const qualifiers: Record<string, string> = {};
  let vendor: string | null = null;

  const variant = VARIANT_SUFFIX.exec(s);
  if (variant?.[1]) {
    qualifiers.variant = variant[1];
    s = s.slice(0, variant.index);
  }
  if (s.includes("/")) {
    const parts = s.split("/").filter((p) => p.length > 0);
    const first = parts[0];
    if (first && parts.length > 1 && isMaker(canonicalSeller(first))) vendor = canonicalSeller(first);
    s = parts[parts.length - 1] ?? s;
  }
  // genai-prices' `regional.` marks the standard in-region price: no qualifier.
  s = s.replace(/^regional\.(?=[a-z0-9-]+\.)/, "");
  const region = BEDROCK_REGION_PREFIX.exec(s);
  if (region?.[1]) {
    qualifiers.region = region[1];
    s = s.slice(region[0].length);
  }
  const dot = s.indexOf(".");
  if (dot > 0) {
    const prefix = s.slice(0, dot);
    if (isMaker(canonicalSeller(prefix)) && /[a-z]/.test(s.slice(dot + 1, dot + 2))) {
      vendor ??= canonicalSeller(prefix);
      s = s.slice(dot + 1);
      s = s.replace(BEDROCK_VERSION_SUFFIX, "");
    }
  }
  s = s.replace(/@(default|latest)$/, "").replace(/@/, "-");
  return { vendor, slug: s, key: comparisonKey(s), qualifiers };
}

/** Punctuation-insensitive comparison form of a slug. */
export function comparisonKey(slug: string): string {
  return slug
    .toLowerCase()
    .replace(/[._@:\s]+/g, "-")
    .replace(/-+/g, "-")
    .replace(/^-|-$/g, "");
}

const DATE_SUFFIX = /-(\d{8}|\d{4}-\d{2}-\d{2}|\d{2}-\d{2}|\d{4})$/;

/**
 * The key of a model family member without snapshot markers: a trailing date (`-20250514`,
 * `-2024-08-06`, `-0613`), `-latest`, or a `-0` minor version (`claude-opus-4-0` is Opus 4).
 */
export function baseKey(key: string): string {
  let k = key;
  for (let i = 0; i < 3; i++) {
    const next = k
      .replace(/-latest$/, "")
      .replace(DATE_SUFFIX, "")
      .replace(/(?<=\d)-0$/, "");
    if (next === k) break;
    k = next;
  }
  return k.length > 0 ? k : key;
}

/** Word-order-insensitive key (`claude-4-opus` ≍ `claude-opus-4`), the last resort of matching. */
export function sortedTokenKey(key: string): string {
  return baseKey(key).split("-").sort().join("-");
}

/** True when the key ends in a snapshot marker (date, `-latest`, `-0`). */
export function isSnapshotKey(key: string): boolean {
  return baseKey(key) !== key;
}

const MAKER_PATTERNS: ReadonlyArray<readonly [RegExp, string]> = [
  [/^claude/, "anthropic"],
  [
    /^(gpt-oss|gpt|o1|o3|o4|chatgpt|text-embedding-3|text-embedding-ada|dall-e|whisper|tts-|davinci|babbage|codex|sora|omni-moderation|computer-use)/,
    "openai",
  ],
  [/^(gemini|gemma|imagen|veo|learnlm|palm|chat-bison|text-bison|text-embedding-00|textembedding-gecko)/, "google"],
  [/^(llama|meta-llama|codellama)/, "meta"],
  [/^(mistral|mixtral|codestral|ministral|magistral|devstral|pixtral|open-mistral|open-mixtral|voxtral)/, "mistral"],
  [/^deepseek/, "deepseek"],
  [/^(qwen|qwq|qvq)/, "alibaba"],
  [/^grok/, "xai"],
  [/^(kimi|moonshot)/, "moonshotai"],
  [/^(glm|chatglm|cogview|cogvideo)/, "zai"],
  [/^(minimax|abab)/, "minimax"],
  [/^(command|c4ai|aya|embed-english|embed-multilingual|rerank-)/, "cohere"],
  [/^(nova-|titan|amazon)/, "amazon"],
  [/^phi-/, "microsoft"],
  [/^nemotron/, "nvidia"],
  [/^(sonar|r1-1776)/, "perplexity"],
  [/^(jamba|j2-)/, "ai21"],
  [/^mimo/, "xiaomi"],
  [/^step-/, "stepfun"],
  [/^granite/, "ibm-granite"],
  [/^flux/, "black-forest-labs"],
  [/^ernie/, "baidu"],
  [/^(doubao|seed-)/, "bytedance"],
  [/^hunyuan/, "tencent"],
  [/^mercury/, "inception"],
  [/^solar/, "upstage"],
  [/^hermes/, "nous-research"],
  [/^(olmo|molmo)/, "allen-ai"],
  [/^lfm/, "liquid"],
];

/** Maker inferred from a model slug or display name by well-known family prefixes; null when unknown. */
export function makerFromFamily(slugOrName: string): string | null {
  const s = comparisonKey(slugOrName);
  for (const [pattern, maker] of MAKER_PATTERNS) if (pattern.test(s)) return maker;
  return null;
}
