import { lookupTable } from "../../domain/lookup-table.js";
/**
 * The small reviewed override file of identity (issue 12, T62): what the grammar and the family
 * table cannot decide, one line each with its reason. Keys are comparison keys (see `spelling.ts`).
 */

/** Spellings that name a product, plan or router, not a model: never published as a model. */
export const NOT_MODELS: Readonly<Record<string, string>> = lookupTable({
  "claude-code": "Anthropic's coding agent product, sold as a plan, not a model id",
  "openrouter-auto": "OpenRouter's router, which picks another model per request",
  auto: "a router's automatic model choice",
  "switchpoint-router": "Switchpoint's router, which picks another model per request",
  "kilo-auto-free": "Kilo's router",
});

/**
 * One seller's spellings that name another model than the same spelling elsewhere (T367): seller
 * slug (canonical) → the spelling's key → [the maker's spelling it means, reason]. Read before
 * everything else of identity, in every source that lists the seller.
 */
export const SELLER_SPELLINGS: Readonly<
  Record<string, Readonly<Record<string, readonly [spelling: string, reason: string]>>>
> = lookupTable({
  azure: lookupTable({
    ada: [
      "text-embedding-ada-002",
      "Azure OpenAI's `ada` is the embedding model: LiteLLM's `azure/ada` is mode embedding, genai-prices' Azure `ada` matches `text-embedding-ada-002`, all at 0.1 / 0; OpenAI's own `ada` is the legacy completion model (0.4 / 0.4)",
    ] as const,
  }),
});

/** Spellings whose maker the rules get wrong: key → maker, with the reason. */
export const MAKER_OVERRIDES: Readonly<Record<string, readonly [maker: string, reason: string]>> = lookupTable({
  "gpt-jt-6b-v1": ["togethercomputer", "Together's own fine-tune of GPT-J (EleutherAI), not OpenAI's"],
  "palmyra-x5": ["writer", "Writer's Palmyra, not Google's PaLM"],
  "mythomax-l2-13b": ["gryphe", "Gryphe's merge of Llama 2 fine-tunes"],
});

/**
 * Pairs that share a maker and a display name and still are two models, with the reason (the
 * collision check of the golden test accepts exactly these).
 */
export const DISTINCT: ReadonlyArray<readonly [a: string, b: string, reason: string]> = [
  [
    "alibaba/qwen-plus-character",
    "alibaba/qwen-plus-character-ja",
    "two role-play models, Japanese apart, one display name at Alibaba Cloud",
  ],
];

/**
 * A maker's family id that names one of its snapshots where the grammar cannot tell which (two
 * snapshots would claim it, T182): maker → family key → [snapshot key, reason]. Applied only when no
 * source prices the two apart (issue 25 §1).
 */
export const FAMILY_IDS: Readonly<
  Record<string, Readonly<Record<string, readonly [snapshot: string, reason: string]>>>
> = {
  xai: {
    "grok-4-20": [
      "grok-4-20-reasoning-0309",
      "OpenRouter serves x-ai/grok-4.20 as x-ai/grok-4.20-20260309, 'a reasoning model'; Portkey prices both alike",
    ],
  },
};

/**
 * A maker's API alias that serves one of its snapshots at a time, not a model of its own prices
 * (issue 36 §5, T327): maker → alias key → reason. In a run where a source names the snapshot the
 * alias serves (a listing of the alias whose display name is exactly one other model's, at the
 * maker's price for the alias), the alias's direct prices are that snapshot's too
 * (`passes/alias-snapshots.ts`). `-latest` aliases are placed on their snapshot by pass 4 (T184).
 */
export const SNAPSHOT_ALIASES: Readonly<Record<string, Readonly<Record<string, string>>>> = lookupTable({
  deepseek: lookupTable({
    "deepseek-chat":
      "DeepSeek's API name of its current chat model (V3, V3-0324, V3.1, V3.1-Terminus, V3.2-Exp, V3.2, then V4 Flash in non-thinking mode)",
    "deepseek-reasoner":
      "DeepSeek's API name of its current reasoning model (R1, R1-0528, then V3.1 to V3.2 and V4 Flash in thinking mode)",
  }),
});
