import type { Channel } from "./channel.js";
import { lookupTable } from "./lookup-table.js";

/**
 * Seller and maker vocabulary (D1, D2). Canonical slugs follow models.dev provider ids; every
 * other source's spelling of a seller is mapped here once, so adapters and identity agree.
 */

/** Maker slugs (D1): the companies that make models. Resellers, gateways and plans never are. */
export const MAKERS: Readonly<Record<string, { name: string; website: string | null; pricingUrl: string | null }>> =
  lookupTable({
    anthropic: {
      name: "Anthropic",
      website: "https://www.anthropic.com",
      pricingUrl: "https://docs.claude.com/en/docs/about-claude/pricing",
    },
    openai: { name: "OpenAI", website: "https://openai.com", pricingUrl: "https://openai.com/api/pricing" },
    google: {
      name: "Google",
      website: "https://ai.google.dev",
      pricingUrl: "https://ai.google.dev/gemini-api/docs/pricing",
    },
    mistral: { name: "Mistral AI", website: "https://mistral.ai", pricingUrl: "https://mistral.ai/pricing" },
    deepseek: {
      name: "DeepSeek",
      website: "https://www.deepseek.com",
      pricingUrl: "https://api-docs.deepseek.com/quick_start/pricing",
    },
    xai: { name: "xAI", website: "https://x.ai", pricingUrl: "https://docs.x.ai/docs/models" },
    meta: { name: "Meta", website: "https://ai.meta.com", pricingUrl: null },
    alibaba: {
      name: "Alibaba (Qwen)",
      website: "https://qwen.ai",
      pricingUrl: "https://www.alibabacloud.com/help/en/model-studio/models",
    },
    moonshotai: {
      name: "Moonshot AI",
      website: "https://www.moonshot.ai",
      pricingUrl: "https://platform.moonshot.ai/docs/pricing",
    },
    zai: { name: "Z.AI (Zhipu)", website: "https://z.ai", pricingUrl: "https://docs.z.ai/guides/overview/pricing" },
    minimax: {
      name: "MiniMax",
      website: "https://www.minimax.io",
      pricingUrl: "https://www.minimax.io/platform/document/pricing",
    },
    cohere: { name: "Cohere", website: "https://cohere.com", pricingUrl: "https://cohere.com/pricing" },
    amazon: {
      name: "Amazon",
      website: "https://aws.amazon.com/ai/generative-ai/nova/",
      pricingUrl: "https://aws.amazon.com/bedrock/pricing/",
    },
    microsoft: { name: "Microsoft", website: "https://azure.microsoft.com", pricingUrl: null },
    nvidia: { name: "NVIDIA", website: "https://www.nvidia.com", pricingUrl: null },
    perplexity: {
      name: "Perplexity",
      website: "https://www.perplexity.ai",
      pricingUrl: "https://docs.perplexity.ai/getting-started/pricing",
    },
    ai21: { name: "AI21 Labs", website: "https://www.ai21.com", pricingUrl: "https://www.ai21.com/pricing" },
    xiaomi: { name: "Xiaomi", website: "https://mimo.xiaomi.com", pricingUrl: null },
    stepfun: { name: "StepFun", website: "https://www.stepfun.com", pricingUrl: null },
    "ibm-granite": { name: "IBM Granite", website: "https://www.ibm.com/granite", pricingUrl: null },
    "black-forest-labs": { name: "Black Forest Labs", website: "https://bfl.ai", pricingUrl: null },
    "stability-ai": { name: "Stability AI", website: "https://stability.ai", pricingUrl: null },
    baidu: { name: "Baidu", website: "https://yiyan.baidu.com", pricingUrl: null },
    bytedance: { name: "ByteDance", website: "https://seed.bytedance.com", pricingUrl: null },
    tencent: { name: "Tencent", website: "https://hunyuan.tencent.com", pricingUrl: null },
    inception: { name: "Inception", website: "https://www.inceptionlabs.ai", pricingUrl: null },
    upstage: { name: "Upstage", website: "https://www.upstage.ai", pricingUrl: null },
    "nous-research": { name: "Nous Research", website: "https://nousresearch.com", pricingUrl: null },
    "allen-ai": { name: "Ai2", website: "https://allenai.org", pricingUrl: null },
    liquid: { name: "Liquid AI", website: "https://www.liquid.ai", pricingUrl: null },
    reka: { name: "Reka", website: "https://www.reka.ai", pricingUrl: null },
    sarvam: { name: "Sarvam AI", website: "https://www.sarvam.ai", pricingUrl: null },
    "arcee-ai": { name: "Arcee AI", website: "https://www.arcee.ai", pricingUrl: null },
    jina: { name: "Jina AI", website: "https://jina.ai", pricingUrl: null },
    voyage: { name: "Voyage AI", website: "https://www.voyageai.com", pricingUrl: null },
    morph: { name: "Morph", website: "https://morphllm.com", pricingUrl: null },
    poolside: { name: "poolside", website: "https://poolside.ai", pricingUrl: null },
    inflection: { name: "Inflection AI", website: "https://inflection.ai", pricingUrl: null },
    "prime-intellect": { name: "Prime Intellect", website: "https://www.primeintellect.ai", pricingUrl: null },
    "essential-ai": { name: "Essential AI", website: "https://www.essential.ai", pricingUrl: null },
    meituan: { name: "Meituan (LongCat)", website: "https://longcat.ai", pricingUrl: null },
    kuaishou: { name: "Kuaishou (Kwaipilot)", website: "https://www.kuaishou.com", pricingUrl: null },
    "inclusion-ai": { name: "inclusionAI", website: "https://www.inclusion-ai.org", pricingUrl: null },
  });

/**
 * Other spellings of makers and sellers across sources → canonical slug. A slug not listed here
 * is already canonical (models.dev's own provider ids).
 */
export const SELLER_ALIASES: Readonly<Record<string, string>> = lookupTable({
  // makers as other sources spell them
  "x-ai": "xai",
  grok: "xai",
  "mistral-ai": "mistral",
  mistralai: "mistral",
  "meta-llama": "meta",
  "meta-llama-api": "meta",
  qwen: "alibaba",
  dashscope: "alibaba",
  "z-ai": "zai",
  zhipu: "zai",
  "z.ai": "zai",
  thudm: "zai",
  moonshot: "moonshotai",
  "deepseek-ai": "deepseek",
  "amazon-nova": "amazon",
  palm: "google",
  gemini: "google",
  "google-ai-studio": "google",
  "cohere-ai": "cohere",
  "ai21-labs": "ai21",
  "perplexity-ai": "perplexity",
  stabilityai: "stability-ai",
  "black-forest": "black-forest-labs",
  "reka-ai": "reka",
  nousresearch: "nous-research",
  allenai: "allen-ai",
  ibm: "ibm-granite",
  "microsoft-ai": "microsoft",
  minimaxai: "minimax",
  "stepfun-ai": "stepfun",
  xiaomimimo: "xiaomi",
  "moonshotai-intl": "moonshotai",
  "zai-org": "zai",
  "bytedance-seed": "bytedance",
  rekaai: "reka",
  essentialai: "essential-ai",
  sarvamai: "sarvam",
  bfl: "black-forest-labs",
  kimi: "moonshotai",
  inclusionai: "inclusion-ai",
  "moonshot-ai": "moonshotai",
  "jina-ai": "jina",
  stability: "stability-ai",
  "vercel-ai-gateway": "vercel",
  novita_ai: "novita-ai",
  "bedrock-mantle": "amazon-bedrock",
  bedrock_mantle: "amazon-bedrock",
  flux: "black-forest-labs",
  "flux-pro": "black-forest-labs",
  ideogramai: "ideogram",
  "meituan-longcat": "meituan",
  "01-ai": "zero-one-ai",
  kwaivgi: "kuaishou",
  kwaipilot: "kuaishou",
  primeintellect: "prime-intellect",
  // resellers
  bedrock: "amazon-bedrock",
  aws: "amazon-bedrock",
  "aws-bedrock": "amazon-bedrock",
  "vertex-ai": "google-vertex",
  vertex_ai: "google-vertex",
  "vertex_ai-anthropic_models": "google-vertex",
  "google-vertex-anthropic": "google-vertex",
  "azure-openai": "azure",
  "azure-ai": "azure",
  azure_ai: "azure",
  "azure-cognitive-services": "azure",
  "together-ai": "togetherai",
  together_ai: "togetherai",
  together: "togetherai",
  fireworks_ai: "fireworks-ai",
  fireworks: "fireworks-ai",
  "workers-ai": "cloudflare-workers-ai",
  novita: "novita-ai",
  deepinfra: "deepinfra",
});

/** The five named resellers of D2, seller slug → channel. */
const NAMED_RESELLER_CHANNEL: Readonly<Record<string, Channel>> = lookupTable({
  openrouter: "reseller_1",
  "amazon-bedrock": "reseller_2",
  azure: "reseller_3",
  "google-vertex": "reseller_4",
  togetherai: "reseller_5",
});

/**
 * A maker's own cloud (issue 36 §2, T325): the cloud's price list for the maker's own models is the
 * maker's price, published in `direct` under the maker as seller (no `seller` qualifier), where the
 * cloud's and the maker's statements reconcile as one price. `all`: every model of the maker the
 * cloud sells; `unpriced`: only a model the maker's own API lists no price for in the run (the
 * maker's API price is its direct price; the cloud's stays a resale beside it). Channel only: a
 * cloud here founds no model unless identity's `MAKER_PLATFORMS` says so too.
 */
export const MAKER_CLOUDS: Readonly<
  Record<string, { readonly maker: string; readonly scope: "all" | "unpriced"; readonly reason: string }>
> = lookupTable({
  "amazon-bedrock": {
    maker: "amazon",
    scope: "all",
    reason:
      "Amazon sells Nova and Titan through Bedrock: Bedrock's price list is Amazon's list price (pricingUrl in MAKERS)",
  },
  azure: {
    maker: "microsoft",
    scope: "all",
    reason: "Microsoft sells its Phi and MAI models through Azure AI Foundry: no other list price of Microsoft's",
  },
  "google-vertex": {
    maker: "google",
    scope: "unpriced",
    reason: "Google prices its models in the Gemini API; Vertex is Google's list price only where that API has none",
  },
});

/**
 * Sellers whose listed amounts are usage included in a subscription, not money per unit
 * (coding plans, token plans, seat licences). A $0 there means "included", never "free".
 */
export const PLAN_SELLERS: Readonly<Record<string, "coding_plan" | "token_plan" | "subscription">> = lookupTable({
  "alibaba-coding-plan": "coding_plan",
  "alibaba-coding-plan-cn": "coding_plan",
  "kimi-for-coding": "coding_plan",
  "kuae-cloud-coding-plan": "coding_plan",
  "minimax-coding-plan": "token_plan",
  "minimax-cn-coding-plan": "token_plan",
  "tencent-coding-plan": "coding_plan",
  "umans-ai-coding-plan": "coding_plan",
  "zai-coding-plan": "coding_plan",
  "zhipuai-coding-plan": "coding_plan",
  "xiaomi-token-plan-ams": "token_plan",
  "xiaomi-token-plan-cn": "token_plan",
  "xiaomi-token-plan-sgp": "token_plan",
  "alibaba-token-plan": "token_plan",
  "github-copilot": "subscription",
  gitlab: "subscription",
  firepass: "subscription",
  // models.dev lists these at cost 0: free tiers, seat licences, local runtimes (upstream README)
  llama: "subscription",
  lmstudio: "subscription",
  "github-models": "subscription",
  iflowcn: "subscription",
  modelscope: "subscription",
  nova: "subscription",
  "privatemode-ai": "subscription",
  "tencent-tokenhub": "subscription",
  "atomic-chat": "subscription",
  poolside: "subscription",
});

/** Canonical slug of a seller or maker as any source spells it (lower-cased, aliases resolved). */
export function canonicalSeller(raw: string): string {
  const slug = raw.trim().toLowerCase();
  return SELLER_ALIASES[slug] ?? slug;
}

/** True when the canonical slug names a maker (D1). */
export function isMaker(slug: string): boolean {
  return Object.hasOwn(MAKERS, slug);
}

/**
 * The channel (D2) in which `seller` sells a model made by `maker`.
 * Plans go by their kind; a seller-id containing `coding-plan` / `token-plan` counts as a plan.
 */
export function channelOf(seller: string, maker: string): Channel {
  if (seller === maker) return "direct";
  const named = NAMED_RESELLER_CHANNEL[seller];
  if (named) return named;
  const plan = planKind(seller);
  if (plan === "coding_plan" || plan === "token_plan") return plan;
  return "other";
}

/** Plan kind of a seller, or null when it bills money per unit. */
export function planKind(seller: string): "coding_plan" | "token_plan" | "subscription" | null {
  const known = PLAN_SELLERS[seller];
  if (known) return known;
  if (seller.includes("coding-plan") || seller.includes("for-coding")) return "coding_plan";
  if (seller.includes("token-plan")) return "token_plan";
  return null;
}
