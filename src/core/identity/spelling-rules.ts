import { lookupTable } from "../../domain/lookup-table.js";
/**
 * The spelling grammar of model ids across sources, as reviewed data (issue 12, T60). Every entry
 * is exercised by `rules.test.ts` with a spelling taken from a recorded payload. Pure data.
 *
 * A source spelling is read as `[routing] [seller prefix] core [serving suffix] [router variant]`:
 * routing (org folders, Bedrock region and vendor, Vertex `@`) is dropped; a seller prefix is
 * dropped; a serving suffix becomes a qualifier of the reseller's price; the core, with its version
 * orthography normalized, is what identifies the model.
 */

/** Leading path segments that are a gateway's namespace, never a maker or publisher. */
export const ROUTING_SEGMENTS: ReadonlySet<string> = new Set([
  "accounts",
  "fireworks",
  "models",
  "openrouter",
  "hf",
  "huggingface",
  "custom",
  "ft",
  "auto",
  "route",
  "speech",
  "kilo-auto",
  "deployments",
  "publishers",
  "serverless",
  "workers-ai",
  "cf",
  "@cf",
  "@hf",
  "fal-ai",
  "library",
]);

/**
 * OpenAI's fine-tuning ids (`ft:gpt-4o-2024-08-06`; an earlier version's slug `ft-gpt-4o`): the
 * price of serving a fine-tuned model, a `fine_tuning: inference` dimension of its base (T181).
 */
export const FINE_TUNING_PREFIX = "ft";

/** Bedrock cross-region inference profile prefixes (`eu.anthropic.…`): a `region` qualifier. */
export const BEDROCK_REGIONS: readonly string[] = [
  "us-gov",
  "us",
  "eu",
  "apac",
  "global",
  "jp",
  "au",
  "ca",
  "apne",
  "sa",
];

/** Path segments that start a model's name in a gateway's path (fal's `flux-pro/v1.1-ultra`). */
export const PATH_FAMILIES = /^(flux(-\d)?(-pro)?|seedream|dreamina|imagen\d?|recraft)$/;

/** Path segments that name a task, not a model (fal's `…/text-to-image`). */
export const TASK_SEGMENTS: ReadonlySet<string> = new Set([
  "text-to-image",
  "image-to-image",
  "text-to-video",
  "image-to-video",
  "text-to-audio",
  "text-to-speech",
]);

/** Bedrock vendors whose ids leave their family name out (`deepseek.r1-v1:0` is `deepseek-r1`). */
export const VENDOR_STEMS: Readonly<Record<string, RegExp>> = lookupTable({
  deepseek: /^[vr]\d/,
});

/**
 * Bedrock ids whose version is not in the id, with the version Bedrock's own listing names: AWS
 * lists `deepseek.v3-v1:0` as "DeepSeek-V3.1" (models.dev amazon-bedrock 2026-06-01).
 */
export const BEDROCK_VERSIONS: Readonly<Record<string, string>> = lookupTable({
  "deepseek.v3-v1:0": "deepseek.v3.1-v1:0",
});

/**
 * Router variants after a colon (OpenRouter `:free`, `:extended`…): a `variant` qualifier of the
 * router's own price, never the maker's (issue 12 §6).
 */
export const ROUTER_VARIANTS: ReadonlySet<string> = new Set([
  "free",
  "beta",
  "thinking",
  "extended",
  "online",
  "nitro",
  "floor",
  "exacto",
]);

/**
 * Seller prefixes some resellers put before the maker's id (`databricks-claude-opus-4-1`,
 * `alicloud-qwen-max`, `anthropic-claude-3.5-sonnet`). Stripped only when what remains still names
 * a known family (so `qwen-plus` keeps its `qwen`).
 */
export const SELLER_PREFIXES: readonly string[] = [
  "databricks",
  "alicloud",
  "alibaba",
  "azure",
  "bedrock",
  "vertex",
  "anthropic",
  "openai",
  "google",
  "meta",
  "mistralai",
  "deepseek-ai",
  "amazon",
  "cohere",
  "microsoft",
  "nvidia",
  "xai",
  "x-ai",
  "zai",
  "z-ai",
  "moonshotai",
  "minimax",
  "moonshot",
  "meta-textgeneration",
  "cerebras",
  "groq",
  // Azure's `AI21-Jamba-1.5-Mini`, aihubmix's `xiaomi-mimo-v2.5`
  "ai21",
  "xiaomi",
  "gradient",
  // Mistral's own `labs-` ids (`labs-devstral-small-2512` is Devstral Small 2, issue 25) and `open-`
  // ids of its open models (`open-mistral-nemo` is Mistral Nemo, `open-codestral-mamba` Codestral Mamba)
  "labs",
  "open",
  // aihubmix's coding-plan copies (`coding-glm-5.1`)
  "coding",
];

/**
 * Serving suffixes a reseller appends to the maker's id, and the qualifier each becomes on the
 * reseller's price. Tried only after the full spelling matched no model, so a maker's own id that
 * ends the same way (`gpt-4-turbo`, `kimi-k2-thinking`, `grok-4-fast`) is never cut.
 */
export const SERVING_SUFFIXES: Readonly<Record<string, Readonly<Record<string, string>>>> = lookupTable<
  Readonly<Record<string, string>>
>({
  fp8: { quantization: "fp8" },
  fp4: { quantization: "fp4" },
  fp16: { quantization: "fp16" },
  nvfp4: { quantization: "nvfp4" },
  bf16: { quantization: "bf16" },
  int4: { quantization: "int4" },
  int8: { quantization: "int8" },
  awq: { quantization: "awq" },
  gguf: { quantization: "gguf" },
  tee: { variant: "tee" },
  turbo: { variant: "turbo" },
  fast: { variant: "fast" },
  thinking: { variant: "thinking" },
  think: { variant: "thinking" },
  free: { variant: "free" },
  tput: { variant: "throughput" },
  maas: {},
  // Hugging Face's `-hf` (weights converted to its format): `meta-llama/Llama-2-7b-chat-hf`
  hf: {},
  cs: {},
  cloud: {},
  // Azure's fine-tuned deployments (`gpt-4o.ft`): serving a fine-tuned model is a dimension of its base (T181)
  ft: { fine_tuning: "inference" },
  // Fireworks' basic deployment tier (`llama4-maverick-instruct-basic`), Groq's context-length and
  // speculative-decoding ids (`mixtral-8x7b-32768`, `llama-3.3-70b-specdec`), Together's Lite (INT4)
  // and Reference servings (`Meta-Llama-3-8B-Instruct-Lite`), issue 25
  basic: {},
  "32768": {},
  specdec: { variant: "specdec" },
  "instruct-lite": { variant: "lite" },
  // routing.run's quantized copies (`route/deepseek-v4-pro-6bit`)
  "4bit": { quantization: "4bit" },
  "6bit": { quantization: "6bit" },
  "8bit": { quantization: "8bit" },
  // nano-gpt's cheaper routes of the maker's model (`deepseek-chat-cheaper`)
  cheaper: { variant: "cheaper" },
  // DeepInfra's batch deployments of embedding models (`Qwen/Qwen3-Embedding-4B-batch`)
  batch: { variant: "batch" },
  reference: { variant: "reference" },
  original: {},
  dynamic: {},
  serverless: {},
  "instruct-turbo": { variant: "turbo" },
  // reasoning effort presets some resellers list as models (`o4-mini-high`, `gpt-5.3-codex-xhigh`)
  minimal: { reasoning_effort: "minimal" },
  low: { reasoning_effort: "low" },
  medium: { reasoning_effort: "medium" },
  high: { reasoning_effort: "high" },
  xhigh: { reasoning_effort: "xhigh" },
});

/**
 * Version orthography: rewrites applied to a lower-cased core before comparison, in order.
 * Each pair is a pattern and its replacement; see `rules.test.ts` for the real spellings.
 */
export const ORTHOGRAPHY: ReadonlyArray<readonly [RegExp, string]> = [
  // Fireworks' `p` for a dot between digits: qwen2p5 → qwen2.5, llama-v3p1 → llama-v3.1, kimi-k2p5
  [/(\d)p(\d)/g, "$1.$2"],
  // `llama-v3.1` → `llama-3.1`
  [/\bllama-v(\d)/g, "llama-$1"],
  // `llama3.1-8b`, `llama3-70b` → `llama-3.1-8b`, `llama-3-70b`
  [/\bllama(\d)/g, "llama-$1"],
  // `gemma3:12b`, `gemma2-9b-it` (Ollama, Groq) → `gemma-3-12b`, `gemma-2-9b-it`
  [/\bgemma(\d)/g, "gemma-$1"],
  // FLUX.1 is the generation of BFL's `flux-dev`, `flux-kontext-pro`… (`FLUX.1-Kontext-pro`,
  // `flux_1-schnell`); FLUX 1.1 Pro is `flux-pro-1.1`; fal's `flux-pro/v1.1-ultra` drops the `v`
  [/\bflux[.-]1[.-]1-pro\b/g, "flux-pro-1.1"],
  [/\bflux[.-]1-(?=[a-z])/g, "flux-"],
  [/\bflux-pro-v(\d)/g, "flux-pro-$1"],
  // Azure's deployments: `phi35-mini-instruct`, `phi4` → `phi-3.5-mini-instruct`, `phi-4`; `tts`,
  // `tts-hd` are OpenAI's `tts-1`, `tts-1-hd`; Cohere's `embed-v-4-0` is `embed-v4.0`
  [/\bphi(\d)(\d)(?=-|$)/g, "phi-$1.$2"],
  [/\bphi(\d)(?=-|$)/g, "phi-$1"],
  [/^tts(-hd)?$/g, "tts-1$1"],
  [/\bembed-v-(\d)-0\b/g, "embed-v$1"],
  // Recraft's `recraftv3` and the resellers' `recraft-v3`
  [/\brecraft-?v(\d)/g, "recraft-v$1"],
  // Google's Imagen and Veo ids name a generation and a tag around `generate`
  // (`imagen-4.0-fast-generate-001`, `veo-3.1-generate-preview`); resellers name the generation
  // (`google/imagen-4-fast`, `google/veo-3.1`)
  [/\b(imagen|veo)-(\d)(?:\.0)?(\.\d)?-(fast-|ultra-)?generate-/g, "$1-$2$3-$4"],
  // Anthropic's "Claude 3.5 Sonnet v2" is the 2024-10-22 snapshot; ElevenLabs' `elevenlabs-v3` is `eleven-v3`
  [/\bclaude-3[.-]5-sonnet-v2$/g, "claude-3-5-sonnet-20241022"],
  [/\belevenlabs-v(\d)$/g, "eleven-v$1"],
  // Imagen 4 as fal spells it (`imagen4`)
  [/\bimagen(\d)/g, "imagen-$1"],
  // Gemini's `.0` versions: `gemini-3.0-pro-preview` is `gemini-3-pro-preview`; Gemini 1.0 Pro is
  // the maker's `gemini-pro`
  [/\bgemini-1\.0-pro\b/g, "gemini-pro"],
  [/\b(gemini-\d)\.0\b/g, "$1"],
  // Vertex's `claude-3-5-sonnet-v2@20241022`: the `v2` beside the snapshot date is no model of its own
  [/\b(claude-\S+?)-v2(?=@|-\d{8})/g, "$1"],
  // `solar-pro3` (Upstage) is `solar-pro-3`
  [/\bsolar-pro(\d)/g, "solar-pro-$1"],
  // Poe's names of the makers' snapshots: `gpt-4o-aug` (2024-08-06), `gpt-4-classic[-0314]`,
  // `gpt-3.5-turbo-raw`, `claude-sonnet-3.5-june` (2024-06-20); StepFun's `step3`
  [/\bgpt-4o-aug$/g, "gpt-4o-2024-08-06"],
  [/\bgpt-4-classic\b/g, "gpt-4"],
  [/\bgpt-3\.5-turbo-raw$/g, "gpt-3.5-turbo"],
  [/\bclaude-sonnet-3\.5-june$/g, "claude-3-5-sonnet-20240620"],
  [/\bstep(\d)$/g, "step-$1"],
  // DigitalOcean's `deepseek-3.2` is DeepSeek V3.2
  [/\bdeepseek-(\d)/g, "deepseek-v$1"],
  // Fireworks' `code-llama-7b` is Code Llama 7B
  [/\bcode-llama\b/g, "codellama"],
  // `glm4.7` → `glm-4.7`
  [/\bglm(\d)/g, "glm-$1"],
  // Fireworks' `qwen-v2p5-14b-instruct`, `qwen-qwq-32b-preview` → `qwen2.5-14b-instruct`, `qwq-32b-preview`
  [/\bqwen-v(\d)/g, "qwen$1"],
  [/\bqwen-qwq\b/g, "qwq"],
  // `qwen-2.5` / `qwen-3` → `qwen2.5` / `qwen3` (Qwen 1's `qwen-7b` is a size, kept)
  [/\bqwen-(\d)(?![\d.]*b\b)/g, "qwen$1"],
  // `qwen25-` → `qwen2.5-`
  [/\bqwen(\d)(\d)(?=-|$)/g, "qwen$1.$2"],
  // Azure's `gpt-35-turbo` → `gpt-3.5-turbo`
  [/\bgpt-35\b/g, "gpt-3.5"],
  // `claude-opus4-6`, `claude-sonnet4` → `claude-opus-4-6`, `claude-sonnet-4`
  [/\b(opus|sonnet|haiku)(\d)/g, "$1-$2"],
  // `claude-opus-41` → `claude-opus-4-1` (two digits right after the family name)
  [/\b(opus|sonnet|haiku)-(\d)(\d)(?=-|$)/g, "$1-$2-$3"],
  // `claude-4.0-sonnet` → `claude-4-sonnet` (a `.0` minor is the major)
  [/\b(claude-\d)\.0\b/g, "$1"],
  // Bedrock / Groq version tags that are not identity: `-v1`, `-v1:0`, `:0`
  [/(-v\d+)?:\d+$/g, ""],
  // Amazon names Nova by its Bedrock id, `amazon.nova-lite-v1:0`; the `-v1` there is Bedrock's API
  // version tag, which resellers copy (`amazon/nova-lite-v1`, LiteLLM's `amazon-nova/nova-lite-v1`):
  // Nova Lite, not a second model (issue 36 §2, T326). Deepgram's Nova ids carry no `-v1`.
  [/\b(nova-(?:\d-)?(?:micro|lite|pro|premier|sonic|canvas|reel|omni)(?:-[a-z0-9]+)*)-v1$/g, "$1"],
  // Mistral 7B's instruct versions as resellers spell them: `-v0.3`, `-v03`, Fireworks' `-v3` → `-v0.3`
  [/\b(mistral-7b(?:-instruct)?)-v0?\.?(\d)\b/g, "$1-v0.$2"],
  // Mixtral had one release: `-v0.1` names no other model (`mixtral-8x7b-instruct-v0.1`)
  [/\b(mixtral-8x\d+b(?:-instruct)?)-v0\.1\b/g, "$1"],
  // Llama 3.2 11B and 90B exist only as vision models: `llama3-2-11b-instruct` is the vision one
  [/\b(llama-?3[.-]2-(?:11|90)b)-vision\b/g, "$1"],
  // Bedrock's Cohere `command-text-v14`, `command-light-text-v14`: Cohere's Command and Command Light
  [/\bcommand(-light)?-text\b/g, "command$1"],
  // `embed-english-v3.0` ≡ `embed-english-v3`: a `.0` minor after a `v` version is the major
  [/(-v\d+)\.0\b/g, "$1"],
  // Bedrock's `anthropic.claude-v2` is Claude 2
  [/\bclaude-v(\d)\b/g, "claude-$1"],
  // nano-gpt's `mistral-small-31-24b-instruct` is Mistral Small 3.1
  [/\b(mistral-small)-3([12])(?=-)/g, "$1-3.$2"],
  // `mistral-small3.2` (regolo) → `mistral-small-3.2`
  [/\b(mistral-(?:small|medium|large))(\d)/g, "$1-$2"],
  // xAI's pre-release spellings of one generation (issue 25 §1): `-beta`, `-experimental`, their
  // snapshot date, `-gv2`, `-exp-sa`/`-exp-ma` are no model of their own; `-latest` goes last
  [/\b(grok-\d[a-z0-9.-]*?)-(?:experimental-beta|experimental|beta)(?:-\d{4})?(?=-|$)/g, "$1"],
  [/\b(grok-\S+?)-(?:gv2|exp-sa|exp-ma)$/g, "$1"],
  [/\b(grok-\S+?)-latest-((?:non-)?reasoning)$/g, "$1-$2-latest"],
  // xAI's date before the variant (`grok-4.20-0309-reasoning`) is a snapshot date like any other: last
  [/\b(grok-[\d.-]+?)-(\d{4})-((?:non-)?reasoning|multi-agent)(-latest)?$/g, "$1-$3-$2$4"],
  // GitLab Duo's `duo-chat-opus-4-5`, `duo-chat-gpt-5-1`: the maker's model behind a product prefix
  [/^duo-chat-(?=(?:opus|sonnet|haiku)-\d)/g, "claude-"],
  [/^duo-chat-(?=gpt-)/g, ""],
];

/** Tokens that a reseller adds or drops without naming another model; compared last (loose key). */
export const LOOSE_TOKENS: ReadonlySet<string> = new Set([
  "instruct",
  "it",
  "chat",
  "hf",
  "versatile",
  "instant",
  "v1",
  "basic",
]);

/** Token patterns resellers add or drop without naming another model: Llama 4's expert count (`17b-128e`). */
export const LOOSE_PATTERNS: readonly RegExp[] = [/^\d+e$/];

/**
 * Size tokens (`17b`, `a22b`, `8x7b`, `300m`): a reseller that omits them still names the model when
 * the maker has only one size of it (the catalogue's sizeless level, issue 25 §1).
 */
export const SIZE_TOKEN = /^(?:a?\d+(?:\.\d+)?[bm]|\d+x\d+b|\d+e)$/;

/**
 * A trailing snapshot date: `-20250514`, `-2024-08-06`, `-0613`, `-2507`, `-05-06`, ByteDance's
 * `-250915`, Cohere's `-08-2024`.
 */
export const SNAPSHOT_DATE = /-(\d{8}|\d{4}-\d{2}-\d{2}|\d{2}-20\d{2}|\d{6}|\d{2}-\d{2}|\d{4})$/;

/** Google's stable version tag (`gemini-2.0-flash-001`): a snapshot marker, not a date. */
export const VERSION_TAG = /-00\d$/;
