import { z } from "zod";
import { cacheMultipliers } from "../../domain/cache-multipliers.js";
import { CHANNELS, type Channel } from "../../domain/channel.js";
import { confidenceRank } from "../../domain/confidence.js";
import {
  CACHE_TTLS,
  type CostEstimate,
  contextOverflow,
  estimateCost,
  longContextWindow,
  type TokenUsage,
  USAGE_FIELDS,
} from "../../domain/cost.js";
import { CURRENCY_QUALIFIER, KEY_CURRENCY } from "../../domain/currency-qualifier.js";
import type { PublishedModel, PublishedPrice } from "../../domain/dataset.js";
import { axisValuesText, TIERS, type Tier } from "../../domain/dimension.js";
import { makerThresholds } from "../../domain/full-window-tiers.js";
import { offerTrust, statedBySeller } from "../../domain/offer-trust.js";
import { regionalUplift } from "../../domain/regional-uplift.js";
import { tierNotSold } from "../../domain/tier-offers.js";
import { defineEndpoint, enumParam, integerParam, splitList, textParam } from "../endpoint.js";
import { envelope } from "../envelope.js";
import { badRequest } from "../errors.js";
import { COMPARE_IDS, COST_CHANNELS, MAX_TOKENS } from "../params.js";
import { atParam, publishedState, stateMeta } from "../point-in-time.js";
import { CostResponse } from "../response-schemas.js";
import type { ApiCostEstimate } from "../schemas.js";
import { billedAsUndated, undatedModel } from "../undated-twin.js";
import { unknownModel } from "../unknown-model.js";
import { usageFormatParam, usageOf, usageParam } from "../usage-input.js";
import { resolveModelId } from "../view.js";
import { CHANNEL_LIST, MODEL_ID } from "./notes.js";

const tokens = (name: string, description: string) =>
  integerParam(name, 0, MAX_TOKENS, `${description} Integer, 0 to 10^12; default 0.`).default(0);

/**
 * GET /cost (issue 17, T140–T145): what a token workload costs on one model or 2–8 models, in one
 * channel or every channel selling them, ranked cheapest first; one line per usage parameter with
 * the price used, totals per currency or credit denomination, the weakest confidence, and
 * `missing` lines instead of a silent 0. With `at`, the prices in force on that day (T147).
 * @throws CatalogueError bad_request (D13 style, naming the parameter); not_found for an unknown
 * `model` (detail: the id, how new the data is and the nearest ids, T484)
 */
export const costEndpoint = defineEndpoint({
  name: "estimate_cost",
  summary: "Cost of a token workload",
  description:
    "Prices a token usage on one model (`model`) or 2–8 models (`models`, ranked cheapest first) in one channel " +
    "or every channel selling them (`channel=all`). Counts are exclusive: `inputTokens` are uncached input tokens " +
    "only. The context bracket is chosen by one request's prompt (input + cached + cache-write tokens, divided " +
    "evenly over `requests`) and the whole request is billed in it (T141); a request longer than the model's " +
    "context window is a 400 naming the fewest `requests` that fit (T200). A usage no price exists for is a " +
    "`missing` line and the estimate has no total (T143). Amounts are exact decimals, 10 significant digits (D7); " +
    "credit-billed plans total in credits, never converted to money; a maker's list in another currency (Moonshot's CNY " +
    "list) is an offer of its own, totalled in that currency, never converted (T510). A dated snapshot (`openai/gpt-4o-2024-08-06`) " +
    "with no price of its own for a line its undated name prices (priority, flex) is priced at the undated name's " +
    "prices when both price the usage alike in the standard tier, and `pricedAs` names it (T347).",
  path: "/cost",
  maxAge: 300,
  input: z.object({
    model: textParam(
      "One model id or alias, `<provider>/<model>`; give `model` or `models`.",
      "anthropic/claude-sonnet-4-5",
    ).optional(),
    models: textParam(
      `Comma-separated model ids or aliases, ${COMPARE_IDS.min} to ${COMPARE_IDS.max}; the estimates are ranked cheapest first. Unknown ids are dropped (meta.found vs meta.requested).`,
      "anthropic/claude-sonnet-4-5,openai/gpt-4o",
    ).optional(),
    channel: enumParam(
      "channel",
      COST_CHANNELS,
      "Sales channel to price in (as on /models/{provider}/{model}); `all` prices every channel that sells the model. Default `direct`.",
    ).default("direct"),
    inputTokens: tokens("inputTokens", "Uncached input tokens (never including cached or cache-write tokens)."),
    cachedInputTokens: tokens("cachedInputTokens", "Input tokens read from the prompt cache (cache hits)."),
    cacheWriteTokens: tokens("cacheWriteTokens", "Input tokens written to the prompt cache."),
    cacheWrite1hTokens: tokens(
      "cacheWrite1hTokens",
      "Input tokens written to the 1-hour prompt cache beside `cacheWriteTokens` at `cacheTtl` (T301).",
    ),
    cacheTtl: enumParam(
      "cacheTtl",
      CACHE_TTLS,
      "Cache lifetime of `cacheWriteTokens`: `5m` (cache write) or `1h` (cache write 1h). Default `5m`.",
    ).default("5m"),
    outputTokens: tokens("outputTokens", "Output tokens (without reasoning tokens)."),
    reasoningTokens: tokens(
      "reasoningTokens",
      "Reasoning (thinking) tokens; billed at a reasoning price where one is published, else as output.",
    ),
    webSearchRequests: integerParam(
      "webSearchRequests",
      0,
      MAX_TOKENS,
      "Web searches the requests ran, billed per call at the offer's web search price (T304). Integer, 0 to 10^12; default 0.",
    ).default(0),
    region: textParam(
      "Where the requests are processed: `global` (default) or a region (`us`, `eu`, `jp`, `us-east5`…). A price " +
        "of that region is used where a source states one, else the maker's regional rule (1.1× for OpenAI data " +
        "residency, Anthropic inference_geo, Vertex and Bedrock regional endpoints, T303).",
      "us",
    ).optional(),
    requests: integerParam(
      "requests",
      1,
      MAX_TOKENS,
      "Requests the tokens are spread over evenly; the context bracket is chosen per request, and one request " +
        "longer than the model's context window is a 400 (T200). Default 1.",
    ).default(1),
    // T480: left out, a usage record's own tier (service_tier, speed) prices it; else the standard tier.
    tier: enumParam(
      "tier",
      TIERS,
      `Service tier: ${axisValuesText("tier")}. Default: the tier a \`usage\` record states it was served in ` +
        `(OpenAI \`service_tier\`, Anthropic \`speed\`), else \`${TIERS[0]}\`; a tier the record contradicts is a 400.`,
    ).optional(),
    at: atParam,
    // issue 29 §3, T211: a provider's usage object or a span's OTel attributes instead of the counts.
    usage: usageParam,
    usageFormat: usageFormatParam,
  }),
  output: CostResponse,
  tool: {
    description:
      "What a token workload costs: give `model` (one id) or `models` (2–8 ids, ranked cheapest first) and the " +
      "usage in tokens — `inputTokens` (uncached input only), `cachedInputTokens` (cache reads), `cacheWriteTokens` " +
      "with `cacheTtl` 5m or 1h, `outputTokens`, `reasoningTokens` — optionally `requests` (the bracket is chosen per " +
      "request; give the number of requests for a monthly total, or one request exceeds the context window: 400), " +
      `\`tier\` (${TIERS.join(", ")}), \`channel\` (default direct; \`all\` for every seller: ` +
      `${CHANNEL_LIST}) and \`at\` (YYYY-MM-DD, the prices of that day). Map API usage objects first: OpenAI's ` +
      "`prompt_tokens` includes `cached_tokens` (inputTokens = prompt_tokens − cached_tokens); Anthropic's " +
      "`input_tokens` excludes `cache_read_input_tokens` and `cache_creation_input_tokens` — or pass the usage object " +
      "itself (OpenAI, Anthropic, Gemini, Bedrock Converse, or a span's gen_ai.usage.* attributes) as `usage`, a JSON " +
      "object or its text, and it is mapped for you, priced in the tier and region it says it was served in (T480). `cacheWrite1hTokens` (1-hour cache writes beside 5-minute ones), " +
      "`webSearchRequests` (billed per call) and `region` (us, eu, a cloud region: its own price or the maker's " +
      "1.1× rule) are optional. Parts of a usage object nobody prices are listed in `unpriced`, with a " +
      "`partialTotals` for the rest. Each estimate lists one " +
      "line per usage with the price used (its `effectiveUntil` and `announced` successor, if a source dates it), `totals` per currency (credits for plans, never money), `confidence` " +
      `(the weakest line), \`missing\` usages nobody prices, in which case \`totals\` is null, and \`pricedAs\`, the ` +
      `undated name whose prices billed a dated snapshot (T347). ${MODEL_ID}`,
  },
  run(view, input) {
    if (input.model !== undefined && input.models !== undefined)
      throw badRequest("give either model (one id) or models (a comma-separated list), not both");
    if (input.model === undefined && input.models === undefined)
      throw badRequest("model or models is required: one <provider>/<model> id, or 2 to 8 comma-separated ids");
    const ids = input.model !== undefined ? [input.model.trim()] : splitList(input.models);
    if (input.models !== undefined && (ids.length < COMPARE_IDS.min || ids.length > COMPARE_IDS.max))
      throw badRequest(
        `models must list ${COMPARE_IDS.min} to ${COMPARE_IDS.max} comma-separated <provider>/<model> ids, got ${ids.length}`,
      );
    if (input.model !== undefined && ids[0] === "") throw badRequest("model must be a <provider>/<model> id");
    const usage = usageOf(input);
    if (USAGE_FIELDS.every((f) => usage[f] === 0) && usage.unpriced.length === 0)
      throw badRequest(`the usage is empty: give at least one of ${USAGE_FIELDS.join(", ")} above 0`);
    const state = publishedState(view, input.at);
    const found: PublishedModel[] = [];
    for (const requested of ids) {
      const id = resolveModelId(view, requested) ?? requested;
      if (found.some((m) => m.id === id)) continue;
      const model = state.model(id);
      if (!model) {
        // T484: how new the data is, and the nearest ids.
        if (input.model !== undefined) throw unknownModel(view, requested, input.at);
        continue;
      }
      found.push(model);
    }
    refuseImpossibleRequests(usage, found);
    if (input.channel === "direct" || input.channel === "all")
      refuseTiersNotSold(usage.tier, found, state.prices.bind(state));
    const seen = new Set<string>();
    const data: ApiCostEstimate[] = [];
    for (const model of found) {
      const id = model.id;
      seen.add(id);
      const pricing = offerPricing(model, state.prices(id));
      // T347, T361: a dated snapshot may be billed at its undated name's prices, offer by offer.
      const undated = undatedModel(view, state, model);
      const undatedPricing = undated ? offerPricing(undated, state.prices(undated.id)) : null;
      for (const [key, prices] of offers(state.prices(id), input.channel)) {
        const [channel, seller] = key.split("\u0000") as [Channel, string];
        const own = pricing.estimate(prices, seller, usage);
        const undatedPrices = undatedPricing ? offers(state.prices(undated!.id), channel).get(key) : undefined;
        const asUndated =
          undatedPricing && undatedPrices
            ? billedAsUndated(own, usage.tier, (which, tier) =>
                which === "own"
                  ? pricing.estimate(prices, seller, { ...usage, tier })
                  : undatedPricing.estimate(undatedPrices, seller, { ...usage, tier }),
              )
            : null;
        const e = asUndated ?? own;
        // T300: the record's unpriced parts make the estimate incomplete; the priced part still totals.
        const complete = e.complete && usage.unpriced.length === 0;
        data.push({
          model: model.id,
          name: model.name,
          channel,
          seller,
          bracket: { ...e.bracket },
          lines: e.lines.map((l) => ({
            ...l,
            sources: [...l.sources],
            uplift: l.uplift ? { ...l.uplift } : null,
            derived: l.derived ? { ...l.derived } : null,
            dissent: l.dissent ? { ...l.dissent, sources: [...l.dissent.sources] } : null,
            announced: l.announced ? { ...l.announced } : null,
          })),
          totals: complete ? (e.totals?.map((t) => ({ ...t })) ?? null) : null,
          partialTotals: e.partialTotals.map((t) => ({ ...t })),
          complete,
          missing: [...e.missing],
          unpriced: usage.unpriced.map((u) => ({ ...u })),
          confidence: e.confidence,
          trust: { trusted: false, makerRatio: null, flags: [] },
          pricedAs: asUndated ? undated!.id : null,
        });
      }
    }
    judgeTrust(data);
    data.sort(compareEstimates);
    return envelope(view, data, {
      ...stateMeta(view, state),
      found: seen.size,
      requested: ids.length,
      channel: input.channel,
      usage: { ...usage, unpriced: usage.unpriced.map((u) => ({ ...u })) },
    });
  },
});

/**
 * T200: a request longer than a model's context window cannot be sent, so it has no price; the
 * bracket is chosen per request (T141), never from a monthly total given as one request. One 400
 * names every model the usage does not fit and the fewest requests that would.
 * @throws CatalogueError bad_request
 */
function refuseImpossibleRequests(usage: TokenUsage, models: readonly PublishedModel[]): void {
  const over = models.flatMap((m) => {
    const o = contextOverflow(usage, m);
    return o ? [{ id: m.id, listed: m.contextWindow, long: longContextWindow(m) !== null, ...o }] : [];
  });
  if (over.length === 0) return;
  const count = new Intl.NumberFormat("en");
  const prompt = count.format(over[0]!.promptTokensPerRequest);
  // T342: a long-context window is named as such beside the listed one, as the model's answer states both.
  const window = (o: (typeof over)[number]) =>
    o.long && o.listed !== null
      ? `${count.format(o.contextLimit)} tokens with its long-context window; ${count.format(o.listed)} listed`
      : `${count.format(o.contextLimit)} tokens`;
  const windows = over.map((o) => `${o.id} (${window(o)})`).join(", ");
  const needed = Math.max(...over.map((o) => o.minRequests));
  throw badRequest(
    `one request's prompt would be ${prompt} tokens (inputTokens + cachedInputTokens + cacheWriteTokens over ` +
      `requests=${count.format(usage.requests)}), more than the context window of ${windows}: no request can be ` +
      `that long. Give requests, the number of requests the tokens are spread over (at least ${count.format(needed)}); ` +
      "the context bracket is chosen per request",
  );
}

/**
 * T481: a tier the maker's page sells for other models only (Anthropic's fast mode: Opus 4.6) has no
 * price on the maker's own offer of this model, whatever an aggregator lists: one 400 names the
 * model, the rule and the sources of the rows it overrules.
 * @throws CatalogueError bad_request
 */
function refuseTiersNotSold(
  tier: Tier,
  models: readonly PublishedModel[],
  pricesOf: (id: string) => readonly PublishedPrice[],
): void {
  for (const model of models) {
    const rule = tierNotSold(model, model.provider, tier);
    if (!rule) continue;
    const listed = pricesOf(model.id).filter((p) => p.channel === "direct" && p.tier === tier);
    const sources = [...new Set(listed.flatMap((p) => p.sources))].sort();
    throw badRequest(
      `${model.id} is not sold in the ${tier} tier by its maker: ${rule.name} is sold for ${rule.models.join(", ")} ` +
        `only (${rule.source}, ${rule.decision})` +
        (sources.length > 0
          ? `; the ${tier} prices listed for it (${sources.join(", ")}) are not the maker's offer`
          : ""),
    );
  }
}

/**
 * How one model's offers are priced (T141): each offer's prices with the maker's long-context
 * thresholds of the tier asked and of the standard tier (makers keep their long-context thresholds
 * in batch, flex and priority), which bind every offer, the maker's regional rule (T303) and
 * prompt-caching multipliers (T346).
 */
function offerPricing(model: PublishedModel, all: readonly PublishedPrice[]) {
  const direct = all.filter((p) => p.channel === "direct");
  const thresholds = new Map<string, number[]>();
  return {
    estimate(prices: readonly PublishedPrice[], seller: string, usage: TokenUsage): CostEstimate {
      let maker = thresholds.get(usage.tier);
      if (!maker) {
        // T141: the maker's thresholds of the tier asked and of the standard tier (makers keep their
        // long-context thresholds in batch, flex and priority) bind every offer — not in a tier the
        // maker prices across the full window (Anthropic's fast mode, T371).
        maker = makerThresholds(model, direct, usage.tier);
        thresholds.set(usage.tier, maker);
      }
      return estimateCost(
        prices,
        usage,
        maker,
        regionalUplift(model, seller, usage.region),
        cacheMultipliers(model, seller),
      );
    },
  };
}

/**
 * A model's prices per offer (channel, seller and currency) of the requested channel, or of every
 * channel (`all`). A seller's list in another currency than USD (Moonshot's CNY list, T508) is an
 * offer of its own, estimated and totalled in that currency (T510): its prices, which all carry the
 * qualifier `currency`, are given to the estimate without it (they are that offer's plain prices),
 * so a CNY amount is never added to, or chosen beside, a USD one.
 */
function offers(
  prices: readonly PublishedPrice[],
  channel: (typeof COST_CHANNELS)[number],
): Map<string, PublishedPrice[]> {
  const result = new Map<string, PublishedPrice[]>();
  for (const p of prices) {
    if (channel !== "all" && p.channel !== channel) continue;
    const { [CURRENCY_QUALIFIER]: currency, ...qualifiers } = p.qualifiers;
    const key = `${p.channel}\u0000${p.seller}\u0000${currency ?? ""}`;
    const price = currency === undefined ? p : { ...p, qualifiers };
    const list = result.get(key);
    if (list) list.push(price);
    else result.set(key, [price]);
  }
  return result;
}

/** An estimate's one money total (complete, one currency), or null. */
function moneyTotal(e: CostEstimate): { currency: string; amount: number } | null {
  return e.totals?.length === 1 && e.totals[0]!.denomination === "currency" ? e.totals[0]! : null;
}

/**
 * T340: each estimate's `trust`, judged on its total against the maker's own (the model's direct
 * estimate) for the same usage and currency, its weakest confidence, and the fewest agreeing
 * sources behind a priced line. An estimate without one money total is compared with nothing.
 */
function judgeTrust(data: ApiCostEstimate[]): void {
  // The maker's total per model and currency: a maker with a USD and a CNY list has two (T510).
  const makers = new Map<string, { currency: string; amount: number }>();
  for (const e of data) {
    const total = moneyTotal(e);
    if (e.channel === "direct" && total) makers.set(`${e.model}|${total.currency}`, total);
  }
  for (const e of data) {
    const total = moneyTotal(e);
    const maker = e.channel === "direct" || !total ? undefined : makers.get(`${e.model}|${total.currency}`);
    const priced = e.lines.filter((l) => l.status === "priced");
    const trust = offerTrust({
      confidence: e.confidence,
      amount: total?.amount ?? 0,
      makerAmount: total && maker && maker.currency === total.currency ? maker.amount : null,
      agreeingSources: priced.length === 0 ? 0 : Math.min(...priced.map((l) => l.sources.length)),
      sellerStated: priced.length > 0 && priced.every((l) => statedBySeller(e.seller, l.sources)),
    });
    e.trust = { ...trust, flags: [...trust.flags] };
  }
}

/**
 * Ranking (T144, amended by T340, T452): complete estimates with one money total a buyer can trust
 * (`trust.trusted`) first, by currency (USD first, T510) then amount; then the maker's own untrusted ones (a low
 * confidence maker's price is still the maker's word), then the other complete money estimates, the
 * same way; then complete estimates in credits or several currencies (not comparable by amount);
 * then incomplete ones. Ties: stronger confidence, then model id, channel order (D2) and seller.
 */
function compareEstimates(a: ApiCostEstimate, b: ApiCostEstimate): number {
  // T452: with no trusted offer, the maker's own price heads the rest, the cheaper unconfirmed below it.
  const group = (e: ApiCostEstimate) =>
    !e.totals ? 4 : !moneyTotal(e) ? 3 : e.trust.trusted ? 0 : e.channel === "direct" ? 1 : 2;
  const [ga, gb] = [group(a), group(b)];
  if (ga !== gb) return ga - gb;
  if (ga <= 2) {
    const [ta, tb] = [a.totals![0]!, b.totals![0]!];
    // USD, the currency every source states, before a maker's other lists (T510), then by code.
    if (ta.currency !== tb.currency)
      return ta.currency === KEY_CURRENCY ? -1 : tb.currency === KEY_CURRENCY ? 1 : ta.currency < tb.currency ? -1 : 1;
    if (ta.amount !== tb.amount) return ta.amount - tb.amount;
  }
  const rank = (e: CostEstimate) => (e.confidence ? confidenceRank(e.confidence) : -1);
  return (
    rank(b) - rank(a) ||
    (a.model < b.model ? -1 : a.model > b.model ? 1 : 0) ||
    CHANNELS.indexOf(a.channel) - CHANNELS.indexOf(b.channel) ||
    (a.seller < b.seller ? -1 : a.seller > b.seller ? 1 : 0)
  );
}
