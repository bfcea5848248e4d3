import Big from "big.js";
import { roundAmount } from "./amount.js";
import type { CacheMultipliers } from "./cache-multipliers.js";
import { type Confidence, confidenceRank } from "./confidence.js";
import type { AnnouncedPrice } from "./dated-price.js";
import type { CacheKind, Dimension, Direction, Tier } from "./dimension.js";
import { lookupTable } from "./lookup-table.js";
import type { Denomination, Unit } from "./unit.js";

/**
 * What a token workload costs on one offer (one model in one channel and seller): the billing rules
 * of issue 17, pure and exact (decimal arithmetic, D7 rounding). Decisions T140–T145.
 */

/** The usage parameters of `/cost`, exclusive counts (T140): `inputTokens` holds no cached or cache-write token. */
export interface TokenUsage {
  /** Uncached input (prompt) tokens. */
  readonly inputTokens: number;
  /** Input tokens read from the prompt cache (cache hits). */
  readonly cachedInputTokens: number;
  /** Input tokens written to the prompt cache, at the `cacheTtl` write price. */
  readonly cacheWriteTokens: number;
  /** `5m` bills cache writes at `cache: write`, `1h` at `cache: write_1h`. */
  readonly cacheTtl: CacheTtl;
  /** Input tokens written to the 1-hour cache, always at `cache: write_1h` (beside 5-minute writes, T301). */
  readonly cacheWrite1hTokens: number;
  readonly outputTokens: number;
  /** Reasoning (thinking) tokens: billed at the `reasoning` price when the offer has one, else as output (T142). */
  readonly reasoningTokens: number;
  /** Requests the tokens are spread over, evenly; the context bracket is chosen per request (T141). */
  readonly requests: number;
  readonly tier: Tier;
  /** Web searches, billed per call at the offer's `tool: web_search` price (T304). */
  readonly webSearchRequests: number;
  /**
   * Where the request is processed (`us`, `eu`, a cloud region), or null for the global price: a
   * price with this `region` qualifier wins, else a maker's regional rule applies (T303).
   */
  readonly region: string | null;
}

export const CACHE_TTLS = ["5m", "1h"] as const;
export type CacheTtl = (typeof CACHE_TTLS)[number];

/** The token counts of {@link TokenUsage}, in the order lines are listed. */
export const USAGE_FIELDS = [
  "inputTokens",
  "cachedInputTokens",
  "cacheWriteTokens",
  "cacheWrite1hTokens",
  "outputTokens",
  "reasoningTokens",
  "webSearchRequests",
] as const;
export type UsageField = (typeof USAGE_FIELDS)[number];

/** What the cost rules read of a published price (a subset of `PublishedPrice`). */
export interface CostPrice extends Dimension {
  readonly label: string;
  /** Display units, e.g. USD per 1M tokens (D7). */
  readonly amount: number;
  readonly unit: Unit;
  readonly displayUnit: string;
  readonly denomination: Denomination;
  readonly currency: string;
  readonly confidence: Confidence;
  readonly sources: readonly string[];
  /** The price's stated end (T335), ISO 8601 timestamp; absent or null: none stated. */
  readonly effectiveUntil?: string | null;
  /** The price announced from `effectiveUntil` (T335); absent or null: none. */
  readonly announced?: AnnouncedPrice | null;
}

/**
 * A maker's rule that prices a region as a factor of the global price where no source states the
 * regional price itself (T303): the factor, the decision and the maker's page it rests on.
 */
export interface RegionalUplift {
  /** Exact decimal factor, e.g. `"1.1"`. */
  readonly factor: string;
  readonly decision: string;
  readonly source: string;
}

/** One usage parameter priced (or not) on one offer. */
export interface CostLine {
  readonly usage: UsageField;
  /** Tokens, or calls for `webSearchRequests`. */
  readonly tokens: number;
  /** `priced`, or `missing` when the offer publishes no price for it in the request's bracket and tier (T143). */
  readonly status: "priced" | "missing";
  /** Label of the price used (D27), null when missing. */
  readonly label: string | null;
  /** The price's amount in display units; null when missing. */
  readonly amount: number | null;
  readonly displayUnit: string | null;
  readonly denomination: Denomination | null;
  readonly currency: string | null;
  /** tokens × amount / 1M, in `currency` (credits when `denomination` is credit); null when missing. */
  readonly cost: number | null;
  readonly confidence: Confidence | null;
  readonly sources: readonly string[];
  /** The regional rule applied to the price, when the region's price is the global one × a factor (T303); else null. */
  readonly uplift: { readonly factor: number; readonly decision: string; readonly source: string } | null;
  /**
   * The maker's caching rule, when no source lists this cache price and the maker states it as a
   * factor of the input price of the same tier and bracket (T346): that price's label and the
   * factor (`amount` already includes it); else null.
   */
  readonly derived: {
    readonly from: string;
    readonly factor: number;
    readonly decision: string;
    readonly source: string;
  } | null;
  /**
   * A listed price the maker's own rule overrules (T482 regional rule, T483 "no extra charge"): its
   * amount in display units, its sources and the rule's decision; null when none is overruled.
   */
  readonly dissent: { readonly amount: number; readonly sources: readonly string[]; readonly decision: string } | null;
  /**
   * The stated end of the price used (T335, T360): ISO 8601 timestamp, 00:00 UTC of the first day
   * it no longer applies; null when none is stated or the line is missing.
   */
  readonly effectiveUntil: string | null;
  /**
   * The price announced from `effectiveUntil` (T360), its amount in this line's terms (the regional
   * factor and the caching factor applied as to `amount`, 10 significant digits); null when none is
   * announced (the price ends with no successor, or states no end) or the line is missing.
   */
  readonly announced: { readonly amount: number; readonly effectiveFrom: string; readonly source: string } | null;
}

/** The sum of the lines of one denomination and currency (credits are never converted, D7). */
export interface CostTotal {
  readonly denomination: Denomination;
  readonly currency: string;
  readonly amount: number;
}

/** The context bracket the whole request is billed in (T141). */
export interface CostBracket {
  readonly contextMin: number;
  readonly contextMax: number | null;
  /** Prompt tokens of one request: (input + cached + cache-write) / requests. */
  readonly promptTokensPerRequest: number;
}

/** The cost of a usage on one offer. */
export interface CostEstimate {
  readonly bracket: CostBracket;
  readonly lines: readonly CostLine[];
  /** Per denomination and currency; null when a line is missing: no fake total (T143). */
  readonly totals: readonly CostTotal[] | null;
  /** The sum of the priced lines alone, also when some are missing (T300). */
  readonly partialTotals: readonly CostTotal[];
  readonly complete: boolean;
  /** The usage parameters no price exists for. */
  readonly missing: readonly UsageField[];
  /** The weakest confidence of the priced lines; null when none is priced. */
  readonly confidence: Confidence | null;
}

const MTOK = new Big(1_000_000);

/** The region whose price is the unqualified one (T303). */
export const GLOBAL = "global";

/** The price a usage parameter is billed at: direction and cache kind. */
const PRICE_OF: Readonly<
  Record<Exclude<UsageField, "reasoningTokens" | "webSearchRequests">, { direction: Direction; cache?: CacheKind }>
> = {
  inputTokens: { direction: "input", cache: "none" },
  cachedInputTokens: { direction: "input", cache: "read" },
  cacheWriteTokens: { direction: "input" },
  cacheWrite1hTokens: { direction: "input", cache: "write_1h" },
  outputTokens: { direction: "output", cache: "none" },
};

/** The price a line is billed at, whether it is the region's own, and a listed price a maker's rule overrules. */
interface Found {
  readonly price: CostPrice;
  readonly regional: boolean;
  readonly dissent: CostPrice | null;
}

/** Whether `listed` states `base` × `factor` exactly (same amount, unit and currency). */
function sameAmount(listed: CostPrice, base: CostPrice, factor: string): boolean {
  return (
    listed.unit === base.unit &&
    listed.currency === base.currency &&
    new Big(String(base.amount)).times(factor).eq(String(listed.amount))
  );
}

/** A line's `dissent` (T482, T483): the overruled price and the rule that overrules it. */
function dissentOf(listed: CostPrice, decision: string): NonNullable<CostLine["dissent"]> {
  return { amount: listed.amount, sources: [...listed.sources], decision };
}

/** Calls one amount of a per-call unit pays for (T304); the genai-prices export reads it too (T519). */
export const CALLS_PER_UNIT: Readonly<Partial<Record<Unit, number>>> = { kcalls: 1000, krequests: 1000, request: 1 };

/**
 * Prices a token usage on the prices of ONE offer (one model, channel and seller).
 *
 * Rules (issue 17): only text prices per 1M tokens in the requested tier and without qualifiers
 * other than `seller` take part (T144); the bracket is chosen by one request's prompt size and the
 * whole request — cache lines included — is billed in it (T141), also when only the maker's own
 * prices (`makerThresholds`, from {@link billedThresholds} of the direct channel) state the bracket;
 * a cache line no source prices is the input price of its tier and bracket × the maker's caching
 * multiplier, where the maker states one (`caching`, T346); a usage with no price is a
 * `missing` line and the estimate has no total (T143); amounts are exact decimals rounded to 10
 * significant digits only at the end (D7).
 */
export function estimateCost(
  prices: readonly CostPrice[],
  usage: TokenUsage,
  makerThresholds: readonly number[] = [],
  regionalUplift: RegionalUplift | null = null,
  caching: CacheMultipliers | null = null,
): CostEstimate {
  const candidates = tokenPrices(prices, usage.tier, usage.region);
  const perRequest = promptTokensPerRequest(usage);
  let bracket = chooseBracket(candidates, perRequest);
  // T141: the maker's long-context threshold binds every channel; an offer that states no price
  // beyond it has no known price for such a request (its lines are missing, never the base price).
  for (const t of makerThresholds)
    if (t > bracket.contextMin && perRequest.gt(t)) bracket = { contextMin: t, contextMax: null };
  const inBracket = candidates.filter(
    (p) => p.contextMin === bracket.contextMin && p.contextMax === bracket.contextMax,
  );
  // T303: the region's own price first, else the global one (`region: global` before the unqualified
  // price), × the maker's rule when the request is regional.
  const region = usage.region === GLOBAL ? null : usage.region;
  const find = (direction: Direction, cache: CacheKind): Found | null => {
    const fits = inBracket.filter((p) => p.direction === direction && p.cache === cache);
    const own = region === null ? undefined : fits.find((p) => p.qualifiers.region === region);
    const global =
      fits.find((p) => p.qualifiers.region === GLOBAL) ?? fits.find((p) => p.qualifiers.region === undefined);
    // T482: where the maker states the regional rule, a region's row that is not the global price × its
    // factor (an aggregator copying the global price) is a dissent beside the rule's price.
    if (own && global && regionalUplift && !sameAmount(own, global, regionalUplift.factor))
      return { price: global, regional: false, dissent: own };
    if (own) return { price: own, regional: true, dissent: null };
    return global ? { price: global, regional: false, dissent: null } : null;
  };

  const lines: CostLine[] = [];
  const exact = new Map<string, { denomination: Denomination; currency: string; amount: Big }>();
  for (const field of USAGE_FIELDS) {
    const tokens = usage[field];
    if (tokens <= 0) continue;
    let found: Found | null;
    let cache: CacheKind | null = null;
    if (field === "reasoningTokens") found = find("reasoning", "none") ?? find("output", "none");
    else if (field === "webSearchRequests") {
      const search = webSearchPrice(prices);
      found = search ? { price: search, regional: true, dissent: null } : null;
    } else {
      cache =
        field === "cacheWriteTokens"
          ? usage.cacheTtl === "1h"
            ? "write_1h"
            : "write"
          : (PRICE_OF[field].cache ?? "none");
      found = find(PRICE_OF[field].direction, cache);
    }
    // T346: a cache price no source lists, from the input price of the tier and bracket × the maker's factor;
    // T483: a rule that is the maker's price wins over a listed one, which is then a dissent.
    let derived: CostLine["derived"] = null;
    const factor = caching && cache !== null && cache !== "none" ? caching.factors[cache] : undefined;
    if (factor !== undefined && (!found || caching!.overrides)) {
      const base = find("input", "none");
      if (base) {
        const listed = found && !sameAmount(found.price, base.price, factor) ? found.price : null;
        found = { ...base, dissent: listed ?? base.dissent };
        derived = {
          from: base.price.label,
          factor: Number(factor),
          decision: caching!.decision,
          source: caching!.source,
        };
      }
    }
    if (!found) {
      lines.push(missingLine(field, tokens));
      continue;
    }
    const price = found.price;
    // T303: a token price that is not the region's own, for a request the maker bills regionally.
    const uplift = region !== null && !found.regional ? regionalUplift : null;
    // The line's factors (T303 region, T346 caching), applied alike to the price and its announced successor (T360).
    const factored = (raw: number) => {
      let a = new Big(String(raw));
      if (uplift) a = a.times(uplift.factor);
      if (derived) a = a.times(derived.factor);
      return a;
    };
    const amount = factored(price.amount);
    const cost = new Big(tokens).times(amount).div(price.unit === "mtok" ? MTOK : (CALLS_PER_UNIT[price.unit] ?? 1));
    const key = `${price.denomination}|${price.currency}`;
    const sum = exact.get(key);
    if (sum) sum.amount = sum.amount.plus(cost);
    else exact.set(key, { denomination: price.denomination, currency: price.currency, amount: cost });
    lines.push({
      usage: field,
      tokens,
      status: "priced",
      label: derived ? `${CACHE_WORDS[cache!]} at ${derived.factor}× ${price.label}` : price.label,
      amount: roundAmount(amount),
      displayUnit: price.displayUnit,
      denomination: price.denomination,
      currency: price.currency,
      cost: roundAmount(cost),
      confidence: price.confidence,
      sources: [...price.sources],
      uplift: uplift ? { factor: Number(uplift.factor), decision: uplift.decision, source: uplift.source } : null,
      derived,
      // T482 for a regional row the maker's rule overrules, the caching rule's own decision (T483) for a listed cache price.
      dissent: found.dissent ? dissentOf(found.dissent, derived?.decision ?? "T482") : null,
      effectiveUntil: price.effectiveUntil ?? null,
      announced: price.announced
        ? {
            amount: roundAmount(factored(price.announced.amount)),
            effectiveFrom: price.announced.effectiveFrom,
            source: price.announced.source,
          }
        : null,
    });
  }
  const missing = lines.filter((l) => l.status === "missing").map((l) => l.usage);
  const priced = lines.filter((l) => l.confidence !== null);
  const confidence = priced.length === 0 ? null : weakest(priced.map((l) => l.confidence as Confidence));
  const partialTotals = [...exact.values()]
    .sort((a, b) => (a.denomination + a.currency < b.denomination + b.currency ? -1 : 1))
    .map((t) => ({ denomination: t.denomination, currency: t.currency, amount: roundAmount(t.amount) }));
  return {
    bracket: { ...bracket, promptTokensPerRequest: roundAmount(perRequest) },
    lines,
    totals: missing.length > 0 ? null : partialTotals,
    partialTotals,
    complete: missing.length === 0,
    missing,
    confidence,
  };
}

/**
 * The price of one web search on an offer (T304): its `tool: web_search` price per call, per 1K
 * calls or per request, with no qualifier but `seller`; without a plain one, search-context-size
 * variants that all state one amount. Null when the offer publishes none. The genai-prices export
 * writes the same price (T519).
 */
export function webSearchPrice<P extends Pick<CostPrice, "direction" | "qualifiers" | "unit" | "amount" | "currency">>(
  prices: readonly P[],
): P | null {
  const searches = prices.filter(
    (p) =>
      p.direction === "tool" &&
      p.qualifiers.tool === "web_search" &&
      CALLS_PER_UNIT[p.unit] !== undefined &&
      Object.keys(p.qualifiers).every((k) => k === "seller" || k === "tool" || k === "context_size"),
  );
  const plain = searches.find((p) => p.qualifiers.context_size === undefined);
  if (plain) return plain;
  // Search-context-size variants that all state one amount are that one price (LiteLLM lists
  // Anthropic's and Google's flat fee under each size).
  const amounts = new Set(searches.map((p) => `${p.amount}|${p.unit}|${p.currency}`));
  return amounts.size === 1 ? (searches.find((p) => p.qualifiers.context_size === "medium") ?? searches[0]!) : null;
}

/**
 * Context windows a maker documents beyond the window its model is listed with (T200): reviewed
 * data, one line per model with its reason. The sources list Claude Sonnet 4 and 4.5 at 200K tokens
 * (their default window) while Anthropic prices prompts above 200K: its pricing page
 * (data/upstream/official-anthropic/2025-12-01/pricing.md.gz, "Long context pricing") says the 1M
 * token context window is available for Claude Sonnet 4 and Sonnet 4.5 only.
 */
export const DOCUMENTED_CONTEXT_WINDOWS: Readonly<Record<string, readonly [tokens: number, reason: string]>> =
  lookupTable({
    "anthropic/claude-sonnet-4-5": [
      1_000_000,
      "Anthropic's pricing page: the 1M token context window (beta) is available for Sonnet 4.5, billed at the > 200K rates",
    ],
    "anthropic/claude-sonnet-4-0": [
      1_000_000,
      "Anthropic's pricing page: the 1M token context window (beta) is available for Sonnet 4, billed at the > 200K rates",
    ],
  });

/**
 * The window a maker documents for a model beyond the one it is listed with (T200, T342), in tokens:
 * Sonnet 4.5's 1M long-context window beside its listed 200K; null when the listed window is the
 * longest. The model answer's `longContextWindow`, the web model page and `/cost`'s refusal all
 * read it, so they state the same two windows.
 */
export function longContextWindow(model: {
  readonly id: string;
  readonly contextWindow: number | null;
}): number | null {
  const documented = DOCUMENTED_CONTEXT_WINDOWS[model.id]?.[0] ?? null;
  return documented !== null && (model.contextWindow === null || documented > model.contextWindow) ? documented : null;
}

/**
 * The longest prompt one request to a model can carry, in tokens (T200): its listed context window,
 * or the larger window its maker documents ({@link DOCUMENTED_CONTEXT_WINDOWS}); null when no window
 * is known (then no request is refused for its length).
 */
export function requestContextLimit(model: {
  readonly id: string;
  readonly contextWindow: number | null;
}): number | null {
  return longContextWindow(model) ?? model.contextWindow;
}

/** Prompt tokens of one request (T141): (input + cached + cache-write) / requests, exact. */
export function promptTokensPerRequest(usage: TokenUsage): Big {
  return promptTokens(usage).div(usage.requests);
}

/** All prompt tokens of a usage: input + cached + cache-write (both lifetimes) (T141, T305). */
function promptTokens(usage: TokenUsage): Big {
  return new Big(usage.inputTokens)
    .plus(usage.cachedInputTokens)
    .plus(usage.cacheWriteTokens)
    .plus(usage.cacheWrite1hTokens);
}

/** A usage whose requests cannot fit a model's context window (T200). */
export interface ContextOverflow {
  /** Prompt tokens of one request, 10 significant digits. */
  readonly promptTokensPerRequest: number;
  /** The model's longest prompt ({@link requestContextLimit}). */
  readonly contextLimit: number;
  /** The fewest requests the same tokens must be spread over to fit. */
  readonly minRequests: number;
}

/**
 * Whether one request of the usage would be longer than the model accepts (T200): the bracket is
 * chosen per request (T141), so a monthly total given as one request (`requests` = 1, the default)
 * is not a long-context request, it is impossible. Null when it fits or no window is known.
 */
export function contextOverflow(
  usage: TokenUsage,
  model: { readonly id: string; readonly contextWindow: number | null },
): ContextOverflow | null {
  const limit = requestContextLimit(model);
  if (limit === null || limit <= 0) return null;
  const prompt = promptTokens(usage);
  const perRequest = prompt.div(usage.requests);
  if (perRequest.lte(limit)) return null;
  return {
    promptTokensPerRequest: roundAmount(perRequest),
    contextLimit: limit,
    minRequests: Number(prompt.div(limit).round(0, Big.roundUp).toFixed(0)),
  };
}

/**
 * The prices that can bill token counts in a tier: text, per 1M tokens, no qualifier but `seller`
 * (T144) — and `region` when it is the region asked for (T303).
 */
function tokenPrices(prices: readonly CostPrice[], tier: Tier, region: string | null = null): CostPrice[] {
  return prices.filter(
    (p) =>
      p.unit === "mtok" &&
      p.modality === "text" &&
      p.tier === tier &&
      Object.entries(p.qualifiers).every(
        ([k, v]) => k === "seller" || (k === "region" && (v === region || v === GLOBAL)),
      ),
  );
}

/**
 * The prompt-length thresholds (N of `> N tokens`) at which an offer's token prices change in a
 * tier, restated thresholds merged (T145): what the maker's own prices impose on every channel (T141).
 */
export function billedThresholds(prices: readonly CostPrice[], tier: Tier): number[] {
  return usableBrackets(tokenPrices(prices, tier))
    .map((b) => b.contextMin)
    .filter((n) => n > 0)
    .sort((a, b) => a - b);
}

/** How a derived line's label names its cache kind (T346): `Cache read at 0.1× Input (batch)`. */
const CACHE_WORDS: Readonly<Record<CacheKind, string>> = {
  none: "Input",
  read: "Cache read",
  write: "Cache write",
  write_1h: "Cache write 1h",
};

function missingLine(usage: UsageField, tokens: number): CostLine {
  return {
    usage,
    tokens,
    status: "missing",
    label: null,
    amount: null,
    displayUnit: null,
    denomination: null,
    currency: null,
    cost: null,
    confidence: null,
    sources: [],
    uplift: null,
    derived: null,
    dissent: null,
    effectiveUntil: null,
    announced: null,
  };
}

/** The weakest of some confidence levels (D8 order). */
export function weakest(levels: readonly Confidence[]): Confidence {
  return levels.reduce((a, b) => (confidenceRank(b) < confidenceRank(a) ? b : a));
}

/**
 * The bracket a request of `perRequest` prompt tokens falls in (T141): a bracket starting at 0
 * holds every prompt up to its `contextMax`; one starting at N > 0 holds prompts of MORE than N
 * tokens (T7: `> 200K tokens`), up to its `contextMax` inclusive. The matching bracket with the
 * highest start wins. Two brackets above the base that state the same amounts at different
 * thresholds are one long-context price list stated twice: the better supported one is used (T145).
 * Without any matching bracket the base `[0, open)` is returned (its lines are then missing).
 */
export function chooseBracket(
  prices: readonly CostPrice[],
  perRequest: Big,
): { contextMin: number; contextMax: number | null } {
  const usable = usableBrackets(prices);
  let best: { contextMin: number; contextMax: number | null } | null = null;
  for (const b of usable) {
    const above = b.contextMin === 0 || perRequest.gt(b.contextMin);
    const below = b.contextMax === null || perRequest.lte(b.contextMax);
    if (above && below && (!best || b.contextMin > best.contextMin)) best = b;
  }
  return best ? { contextMin: best.contextMin, contextMax: best.contextMax } : { contextMin: 0, contextMax: null };
}

/** The brackets of some prices, restated thresholds merged (T145). */
function usableBrackets(
  prices: readonly CostPrice[],
): { contextMin: number; contextMax: number | null; prices: CostPrice[] }[] {
  const brackets = new Map<string, { contextMin: number; contextMax: number | null; prices: CostPrice[] }>();
  for (const p of prices) {
    const key = `${p.contextMin}|${p.contextMax ?? ""}`;
    const b = brackets.get(key);
    if (b) b.prices.push(p);
    else brackets.set(key, { contextMin: p.contextMin, contextMax: p.contextMax, prices: [p] });
  }
  return withoutRestatedThresholds([...brackets.values()]);
}

/**
 * T145: among brackets above the base whose prices say the same (the same amount per direction and
 * cache kind), keep one: the one whose weakest price is the stronger, then with more sources on its
 * prices, then the higher threshold (the lower bill).
 */
function withoutRestatedThresholds<B extends { contextMin: number; prices: CostPrice[] }>(brackets: B[]): B[] {
  const signature = (b: B) =>
    b.prices
      .map((p) => `${p.direction}|${p.cache}|${p.amount}|${p.denomination}|${p.currency}`)
      .sort()
      .join(";");
  const support = (b: B) => ({
    rank: Math.min(...b.prices.map((p) => confidenceRank(p.confidence))),
    sources: b.prices.reduce((n, p) => n + p.sources.length, 0),
  });
  const kept = new Map<string, B>();
  const result: B[] = [];
  for (const b of brackets) {
    if (b.contextMin === 0) {
      result.push(b);
      continue;
    }
    const sig = signature(b);
    const other = kept.get(sig);
    if (!other) {
      kept.set(sig, b);
      continue;
    }
    const [sb, so] = [support(b), support(other)];
    const better =
      sb.rank !== so.rank
        ? sb.rank > so.rank
        : sb.sources !== so.sources
          ? sb.sources > so.sources
          : b.contextMin > other.contextMin;
    if (better) kept.set(sig, b);
  }
  return [...result, ...kept.values()];
}
