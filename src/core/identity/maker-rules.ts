import { lookupTable } from "../../domain/lookup-table.js";
/**
 * Makers by family and by organisation, as reviewed data (issue 12, T61). A family matches whole
 * leading tokens of a model's core spelling (`palm` never matches `palmyra`), checked in order so
 * that a specific family (`llama-3.1-sonar` → Perplexity) wins over a general one (`llama` → Meta).
 * Each entry is exercised by `rules.test.ts` with a real spelling. Pure data.
 */

/** `[pattern over the comparison key, maker]`; the first that matches decides. */
export const FAMILIES: ReadonlyArray<readonly [RegExp, string]> = [
  // Specific models whose name starts with another maker's family.
  [/^llama-[\d.]+-sonar\b|\bsonar\b|^r1-1776\b/, "perplexity"],
  [/^gpt-jt\b|^gpt-neoxt\b/, "togethercomputer"],
  [
    /^nova(-[23])?-(phonecall|general|meeting|voicemail|finance|conversationalai|video|medical|drivethru|automotive|atc)\b|^nova-3\b|^nova(-2)?$/,
    "deepgram",
  ],
  [/^palmyra\b/, "writer"],
  [/^llama-[\d.]+-nemotron\b|^nemotron\b|^nvidia-|^llama-[\d.]+-nemoretriever\b|^llama-nemotron\b/, "nvidia"],
  [/^deepseek-r1-distill-(llama|qwen)\b/, "deepseek"],
  [/^claude\b/, "anthropic"],
  [/^gpt-oss\b/, "openai"],
  [
    /^(gpt|o1|o3|o4|chatgpt|dall-e|whisper|tts|davinci|babbage|codex|sora|omni-moderation|computer-use|text-embedding-3|text-embedding-ada|gpt-image|gpt-realtime|gpt-audio)\b/,
    "openai",
  ],
  [
    /^(gemini|gemma|codegemma|imagen|veo|learnlm|palm|palm-2|chat-bison|text-bison|code-bison|codechat-bison|code-gecko|text-embedding-00\d|textembedding-gecko|text-multilingual-embedding|multimodalembedding|lyria|chirp|medlm)\b/,
    "google",
  ],
  [/^(llama|codellama|code-llama|meta-llama)\b/, "meta"],
  [/^yi-/, "zero-one-ai"],
  [/^mai-ds\b/, "microsoft"],
  [/^text-unicorn\b/, "google"],
  [
    /^(mistral|mixtral|codestral|ministral|magistral|devstral|pixtral|open-mistral|open-mixtral|open-codestral|voxtral)\b/,
    "mistral",
  ],
  [/^deepseek\b/, "deepseek"],
  [/^(qwen[\d.]*|qwq|qvq)\b/, "alibaba"],
  [/^grok\b/, "xai"],
  [/^(kimi|moonshot)\b/, "moonshotai"],
  [/^(glm[\d.]*|chatglm|cogview|cogvideox?|codegeex)\b/, "zai"],
  [/^(minimax|abab)\b/, "minimax"],
  // (Cohere's rerankers by version; Voyage's `rerank-2` is Voyage's own)
  [/^(command|c4ai|aya|embed-english|embed-multilingual|embed-v\d|rerank-(?:v\d|english|multilingual))\b/, "cohere"],
  [/^(nova|titan|amazon)\b/, "amazon"],
  [/^(phi-?[\d.]*|wizardlm)\b/, "microsoft"],
  [/^(jamba|j2)\b/, "ai21"],
  [/^mimo\b/, "xiaomi"],
  [/^step-?[\d.]*\b/, "stepfun"],
  [/^granite\b/, "ibm-granite"],
  [/^flux\b/, "black-forest-labs"],
  [/^ernie\b/, "baidu"],
  [/^(doubao|seed|seedream|seedance|seededit)\b/, "bytedance"],
  [/^hunyuan\b/, "tencent"],
  [/^mercury\b/, "inception"],
  [/^solar\b/, "upstage"],
  [/^hermes\b/, "nous-research"],
  [/^(olmo|molmo)\b/, "allen-ai"],
  [/^lfm\b/, "liquid"],
  [/^longcat\b/, "meituan"],
  [/^(kat-coder|kat-dev)\b/, "kuaishou"],
  [/^(ling|ring)-/, "inclusion-ai"],
  [/^(jina-|jina\b)/, "jina"],
  [/^voyage\b/, "voyage"],
  // Open-weights families whose makers no source lists as sellers (issue 25 §2): TII's Falcon,
  // Stanford's Alpaca, BigCode's StarCoder, Databricks' DBRX, Baichuan
  [/^falcon\b/, "tii"],
  [/^alpaca\b/, "stanford"],
  [/^starcoder\d*\b/, "bigcode"],
  [/^dbrx\b/, "databricks"],
  [/^baichuan\d*\b/, "baichuan"],
  // A host's own models: Fireworks' FireFunction, FireLLaVA, ASR and OCR (issue 25 §2)
  [/^(firefunction|firellava|fireworks-asr|firesearch)\b/, "fireworks-ai"],
  // ElevenLabs' voices and transcription, resold by Runway
  [/^(eleven|scribe)\b/, "elevenlabs"],
  // OpenAI's GPT-3 base models as Azure still lists them (`ada`, `text-curie-001`)
  [/^(ada|babbage|curie|davinci|text-(ada|babbage|curie|davinci)-\d+)$/, "openai"],
];

/**
 * Hosts that are also makers (issue 25 §2, T183): under their organisation they list their own
 * models beside copies of other makers' weights (`togethercomputer/llama-2-7b`,
 * `nvidia/DeepSeek-V3.2-NVFP4`). A host is the maker only of the families it trained (the pattern,
 * over the comparison key); any other spelling whose family names another maker is that maker's model.
 */
export const HOST_ORGS: Readonly<Record<string, RegExp>> = lookupTable({
  // Together's own: GPT-JT, GPT-NeoXT, RedPajama, StripedHyena, M2-BERT, OpenChatKit's Pythia-Chat, LLaMA-2-7B-32K
  togethercomputer: /^(gpt-jt|gpt-neoxt|redpajama|stripedhyena|m2-bert|pythia-chat|llama-2-7b-32k)\b/,
  // NVIDIA's own: Nemotron and NeMo Retriever (on Llama or Mistral bases too), NV-Embed, Riva, Cosmos
  nvidia: /nemotron|nemoretriever|nemoguard|rerank-?qa|^nv-|^riva\b|^cosmos\b|^nvidia-/,
});

/**
 * Families whose makers published the weights (issue 25 §2, T183): a host's listing that names the
 * maker's organisation founds the model even when the maker also sells other models itself (Meta's
 * Llama 2 and Code Llama, Alibaba's Qwen1.5, Mistral 7B v0.2, Gemma 2). `[pattern over the
 * comparison key, maker]`; the maker's API-only models (`qwen-max`, `gemini-*`) are not here.
 */
export const OPEN_WEIGHTS: ReadonlyArray<readonly [RegExp, string]> = [
  [/^(llama|codellama|code-llama|meta-llama)\b/, "meta"],
  [
    /^(mistral-7b|mixtral|mistral-nemo|pixtral-12b|codestral-mamba|mathstral|mistral-small-(?:3-\d-)?24b|devstral-small|magistral-small|ministral-3-\d+b|voxtral)\b/,
    "mistral",
  ],
  [/^(gemma|codegemma|paligemma|recurrentgemma|embeddinggemma|flan-t5|t5)\b/, "google"],
  [
    /^(qwen[\d.-]*-(?:\d+(?:-\d+)?b|coder|vl|math|audio|omni|embedding|reranker)|qwq-32b|qvq-72b|qwen-\d+b|qwen-image)\b/,
    "alibaba",
  ],
  [/^deepseek-(v\d|r1|coder|llm|math|vl|prover|ocr|moe)/, "deepseek"],
  [/^gpt-oss\b/, "openai"],
  [/^phi\b/, "microsoft"],
  [/^(glm-4-9b|glm-4-32b|glm-z1|glm-4-1v|glm-4-[5-7]|glm-5|chatglm)\b/, "zai"],
  [/^kimi-(k2|dev|vl|linear)\b/, "moonshotai"],
  [/^minimax-(m1|m2|text-01|vl-01)\b/, "minimax"],
  [/nemotron|^nv-embed/, "nvidia"],
  [/^(c4ai|aya)\b/, "cohere"],
  [/^seed-oss\b/, "bytedance"],
  [/^step-3\b/, "stepfun"],
];

/**
 * Organisations (Hugging Face orgs, router vendor prefixes) → maker. An org that is itself a maker
 * slug or a known alias of one (`meta-llama`, `deepseek-ai`, `qwen`) needs no entry here
 * (`canonicalSeller` settles those); these are the orgs that name a maker under another name.
 */
export const ORG_MAKERS: Readonly<Record<string, string>> = lookupTable({
  kwaipilot: "kuaishou",
  facebook: "meta",
  codellama: "meta",
  wizardlm: "microsoft",
  "alibaba-nlp": "alibaba",
  "qwen-ai": "alibaba",
  "mistral-community": "mistral",
  "google-deepmind": "google",
  "microsoft-research": "microsoft",
  "nvidia-ai": "nvidia",
  nv: "nvidia",
  "baidu-research": "baidu",
  "openai-community": "openai",
  "tencent-hunyuan": "tencent",
  "bytedance-research": "bytedance",
  "deepgram-ai": "deepgram",
  huggingfaceh4: "huggingfaceh4",
  "01-ai": "zero-one-ai",
  "zero-one-ai": "zero-one-ai",
});

/**
 * Orgs that are hosts, routers, search APIs or re-uploaders, not makers (issue 12 §6): their
 * prefix says nothing of who made the model, and they are never providers.
 */
export const NON_MAKER_ORGS: ReadonlySet<string> = new Set([
  "openrouter",
  "switchpoint",
  "trytako",
  "pamanseau",
  "meganova-ai",
  "featherless-ai",
  "infermatic",
  "unsloth",
  "lmstudio-community",
  "bartowski",
  "thebloke",
  "mlx-community",
  "togethercomputer-mirror",
  "chutesai",
  "fal-ai",
  "replicate",
  "cloudflare",
  "deepinfra",
  "novita",
  "novita-ai",
  "groq",
  "cerebras",
  "fireworks-ai",
  "sambanova",
  "hyperbolic",
  "nebius",
  "baseten",
  "parasail",
  "lambda",
  "vercel",
  "kilo",
  "nano-gpt",
  "openrouter-ai",
  "~anthropic",
  "perplexity-ai-mirror",
  "opencode",
  "github",
  "azure",
  "bedrock",
  "vertex",
  "vertex_ai",
  "databricks",
  "snowflake",
  "dashscope-intl",
  // path segments of resellers' catalogues seen in the payloads, not organisations
  "tee",
  "routers",
  "ranking",
  "public",
  "imagen4",
  "stable-audio-25",
  "huggyllama",
]);

/**
 * A maker's own platform under another seller slug (issue 12 §6): selling the maker's own model
 * there is the `direct` channel, not a resale.
 */
export const MAKER_PLATFORMS: Readonly<Record<string, string>> = lookupTable({
  "amazon-bedrock": "amazon",
  "meta-llama-api": "meta",
  // models.dev `llama`: Meta's own Llama API
  llama: "meta",
  byteplus: "bytedance",
  volcengine: "bytedance",
  // Sellers that make what they sell, no maker in the seller table (issue 25 §6): their listings
  // found their models (Deepgram's `base-finance`, ElevenLabs' voices, Runway's, Recraft's)
  deepgram: "deepgram",
  elevenlabs: "elevenlabs",
  runwayml: "runwayml",
  recraft: "recraft",
});

/** Display names of makers and publishers that sources lack or spell from slugs (issue 12 §10). */
export const PUBLISHER_NAMES: Readonly<Record<string, string>> = lookupTable({
  "zero-one-ai": "01.AI",
  "bsc-lt": "BSC-LT",
  huggingfaceh4: "Hugging Face H4",
  togethercomputer: "Together",
  deepgram: "Deepgram",
  writer: "Writer",
  kuaishou: "Kuaishou (Kwaipilot)",
  thedrummer: "TheDrummer",
  sao10k: "Sao10K",
  gryphe: "Gryphe",
  neversleep: "NeverSleep",
  "aion-labs": "AionLabs",
  cognitivecomputations: "Cognitive Computations",
  "anthracite-org": "Anthracite",
  alpindale: "Alpindale",
  "eva-unit-01": "EVA",
  arliai: "ArliAI",
  tngtech: "TNG Technology",
  undi95: "Undi95",
  nousresearch: "Nous Research",
  speakleash: "SpeakLeash",
  "hidream-ai": "HiDream.ai",
  relace: "Relace",
  ibm: "IBM",
  "ibm-granite": "IBM Granite",
  tii: "Technology Innovation Institute",
  stanford: "Stanford CRFM",
  bigcode: "BigCode",
  databricks: "Databricks",
  baichuan: "Baichuan",
  "fireworks-ai": "Fireworks AI",
  elevenlabs: "ElevenLabs",
  mancer: "Mancer",
  runwayml: "Runway",
  recraft: "Recraft",
});
