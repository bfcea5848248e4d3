import { describe, expect, it } from "vitest";
import type { PublishedPrice } from "../../domain/dataset.js";
import { type Dimension, dimension } from "../../domain/dimension.js";
import { EMPTY_LISTING_META, type PriceObservation, type SourceId } from "../../domain/observation.js";
import type { BuildInput, PriorState, SourceInput } from "../build-input.js";
import type { ResolvedListing } from "../identity/resolve.js";
import { priorPricesOf } from "../prior-state.js";
import { holdAboveStandard } from "./above-standard.js";
import { collapseRegions } from "./collapse.js";
import { gatherSlots } from "./gather-slots.js";
import { keepHeldProvenance } from "./held-provenance.js";
import { holdAgain } from "./hold-again.js";
import { guardJumps } from "./jump-guard.js";
import { labelPrices } from "./label-prices.js";
import { publishVerdicts } from "./publish-verdicts.js";
import { PRICING_PASSES, pricingContext, reconcileAll } from "./reconcile-all.js";
import { reconcileSlots } from "./reconcile-slots.js";
import { setAsideOutliers } from "./set-aside.js";
import { newPricingState, type PricingContext, type PricingState, type UnlabeledPrice } from "./state.js";
import { dropUnstatedWindows } from "./unstated-windows.js";

// Each pass of pricing (issue 45 §1, T385) run on a state constructed here, never a whole build:
// invented sources, listings and previous versions (the recorded payloads' cases are the replay's,
// which `test/store-dump.ts` compares byte for byte). The state a later pass reads is made by the
// passes before it from invented listings, or written here directly.

const RUN = "2026-06-01T00:00:00.000Z";
const LAST_RUN = "2026-05-01T00:00:00.000Z";
const PAGE = { url: "https://example.com/pricing.md", contentHash: "ab".repeat(32) };

function source(id: SourceId, weight: number, extra: Partial<SourceInput> = {}): SourceInput {
  return { source: id, weight, authoritativeFor: [], listings: [], fresh: true, error: null, ran: true, ...extra };
}

type Price = [direction: Dimension["direction"], amount: number, extra?: Partial<PriceObservation>];

/** A resolved listing of `model` (`maker/slug`) by `source`, sold by `seller` in `channel`. */
function listing(
  src: SourceId,
  model: string,
  prices: readonly Price[],
  extra: Partial<ResolvedListing> & { spelling?: string; seller?: string } = {},
): ResolvedListing {
  const seller = extra.seller ?? model.split("/")[0]!;
  return {
    source: src,
    modelId: model,
    maker: model.split("/")[0]!,
    channel: "direct",
    seller,
    qualifiers: {},
    canonicalSpelling: true,
    ...extra,
    listing: {
      ...EMPTY_LISTING_META,
      seller,
      model: extra.spelling ?? model.split("/")[1]!,
      prices: prices.map(([direction, amount, p]) => ({
        dimension: dimension(direction),
        amount,
        unit: "mtok",
        denomination: "currency",
        currency: "USD",
        ...p,
      })),
    },
  };
}

function build(sources: readonly SourceInput[], prior: PriorState | null = null): BuildInput {
  return { runId: "run", runTime: RUN, finishedAt: RUN, sources, prior };
}

function ctxOf(
  sources: readonly SourceInput[],
  options: { prior?: PriorState | null; coherent?: string[]; openWeights?: string[] } = {},
): PricingContext {
  return pricingContext({
    build: build(sources, options.prior ?? null),
    coherent: new Set(options.coherent ?? []),
    openWeights: new Set(options.openWeights ?? []),
  });
}

/** The state after `passes` over `listings`. */
function run(
  listings: readonly ResolvedListing[],
  ctx: PricingContext,
  passes: readonly ((s: PricingState, c: PricingContext) => void)[],
): PricingState {
  const state = newPricingState(listings);
  for (const pass of passes) pass(state, ctx);
  return state;
}

/** A previous version holding `prices` (as `priorFromDataset` reads one). */
function priorOf(prices: readonly PublishedPrice[]): PriorState {
  return {
    prices: priorPricesOf(prices),
    models: new Map(),
    sources: new Map(),
    published: prices,
  };
}

/** Last run's published prices of `listings` (the whole pass list, run a month earlier). */
function lastRun(listings: readonly ResolvedListing[], sources: readonly SourceInput[]): PublishedPrice[] {
  const ctx = pricingContext({
    build: { ...build(sources), runTime: LAST_RUN },
    coherent: new Set(),
    openWeights: new Set(),
  });
  return reconcileAll(listings, ctx).prices;
}

/** The record of a carried list that is no maker's page: no page, no stated end, no held move. */
const CARRIED_RECORD = { listing: "m-1", page: null, validity: null, pending: null };

describe("gatherSlots: one statement per source in each slot (T385, T75, T292, T325, T335)", () => {
  it("files each price under model, channel, seller and dimension; the canonical spelling's amount wins within a source", () => {
    const ctx = ctxOf([source("genai-prices", 0.8), source("litellm", 0.5)]);
    const state = run(
      [
        listing("genai-prices", "acme/m-1", [["output", 9]], { spelling: "m-1-latest", canonicalSpelling: false }),
        listing("genai-prices", "acme/m-1", [
          ["input", 1],
          ["output", 4],
        ]),
        listing("genai-prices", "acme/m-1", [["output", 7]], { spelling: "m-1-alias", canonicalSpelling: false }),
        listing("litellm", "acme/m-1", [["input", 1.0000001]]),
      ],
      ctx,
      [gatherSlots],
    );
    expect(state.slots.size).toBe(2);
    const output = [...state.slots.values()].find((s) => s.dimension.direction === "output")!;
    expect([...output.bySource.keys()]).toEqual(["genai-prices"]);
    expect(output.bySource.get("genai-prices")!.obs.amount).toBe(4);
    expect(output.bySource.get("genai-prices")!.record.listing).toBe("m-1");
    const input = [...state.slots.values()].find((s) => s.dimension.direction === "input")!;
    expect([...input.bySource.keys()]).toEqual(["genai-prices", "litellm"]);
  });

  it("a plan's $0 is a credit, not a free money price; a negative amount is no statement", () => {
    const ctx = ctxOf([source("genai-prices", 0.8)]);
    const state = run(
      [
        listing(
          "genai-prices",
          "acme/m-1",
          [
            ["input", 0],
            ["output", -1],
          ],
          { seller: "acme-coding-plan", channel: "coding_plan" },
        ),
      ],
      ctx,
      [gatherSlots],
    );
    expect(state.slots.size).toBe(1);
    const obs = [...state.slots.values()][0]!.bySource.get("genai-prices")!.obs;
    expect(obs).toMatchObject({ amount: 0, denomination: "credit" });
    expect(obs.currency).not.toBe("USD");
  });

  it("is authoritative only for a current statement of a seller its source speaks for; records the page parsed now and the stated end (T292, T294, T335)", () => {
    const validity = { until: "2026-07-01", next: 2 };
    const ctx = ctxOf([
      source("official-anthropic", 1, { authoritativeFor: ["acme"], firstPartyPage: true, page: PAGE }),
      source("official-openai", 0.6, { authoritativeFor: ["acme"], fresh: false }),
    ]);
    const state = run(
      [
        listing("official-anthropic", "acme/m-1", [["input", 1, { validity }]]),
        listing("official-openai", "acme/m-1", [["input", 1]]),
      ],
      ctx,
      [gatherSlots],
    );
    const slot = [...state.slots.values()][0]!;
    expect(slot.bySource.get("official-anthropic")!.obs.authoritative).toBe(true);
    expect(slot.bySource.get("official-anthropic")!.record).toEqual({
      listing: "m-1",
      page: { ...PAGE, capturedAt: RUN },
      validity,
      pending: null,
    });
    // A carried list that is no maker's page is not current (T292): it votes, it does not speak for the seller.
    expect(slot.bySource.get("official-openai")!.obs.authoritative).toBe(false);
    expect(slot.bySource.get("official-openai")!.record).toEqual(CARRIED_RECORD);
  });
});

describe("dropUnstatedWindows: a time window the maker's own list does not state is not its price (T534)", () => {
  // Invented rows in the shape of the recorded case: genai-prices' DeepSeek off-peak window (0.135)
  // beside DeepSeek's page of 2026-01-01, which states no window (test/point-in-time covers the replay).
  const OFF_PEAK = { dimension: dimension("input", { qualifiers: { time_window: "1630-0030-utc-off-peak" } }) };
  const SOURCES = [source("official-deepseek", 1, { authoritativeFor: ["acme"] }), source("genai-prices", 0.8)];
  const slotsAfter = (listings: readonly ResolvedListing[]) =>
    run(listings, ctxOf(SOURCES), [gatherSlots, dropUnstatedWindows]);
  const windowed = (state: PricingState) =>
    [...state.slots.values()].filter((s) => s.dimension.qualifiers.time_window !== undefined);

  it("takes out an aggregator's window on an offer the maker's list states without one, and counts it", () => {
    const state = slotsAfter([
      listing("official-deepseek", "acme/m-1", [
        ["input", 0.28],
        ["output", 0.42],
      ]),
      listing("genai-prices", "acme/m-1", [
        ["input", 0.27],
        ["input", 0.135, OFF_PEAK],
      ]),
    ]);
    expect(windowed(state)).toEqual([]);
    expect(state.slots.size).toBe(2);
    expect([...state.windowsUnstated]).toEqual([["genai-prices", 1]]);
  });

  it("keeps the window when the maker's list states one, or when no maker's list covers the model", () => {
    const stated = slotsAfter([
      listing("official-deepseek", "acme/m-1", [
        ["input", 0.27],
        ["input", 0.135, OFF_PEAK],
      ]),
      listing("genai-prices", "acme/m-1", [
        ["input", 0.27],
        ["input", 0.135, OFF_PEAK],
      ]),
    ]);
    expect(windowed(stated).map((s) => [...s.bySource.keys()])).toEqual([["official-deepseek", "genai-prices"]]);
    const uncovered = slotsAfter([
      listing("official-deepseek", "acme/m-2", [["input", 1]]),
      listing("genai-prices", "acme/m-1", [
        ["input", 0.27],
        ["input", 0.135, OFF_PEAK],
      ]),
    ]);
    expect(windowed(uncovered)).toHaveLength(1);
    expect(uncovered.windowsUnstated.size).toBe(0);
  });
});

describe("reconcileSlots: plain and judged, the page carried, the verdict started (T385, T170, T294, T332)", () => {
  it("marks coherent moves in the plain statements only, and starts every verdict at the plain price", () => {
    const key = "acme/m-1|direct|acme|input|text|standard|none|0|||mtok";
    const ctx = ctxOf([source("genai-prices", 0.8), source("litellm", 0.5)], { coherent: [`${key}|genai-prices`] });
    const state = run(
      [listing("genai-prices", "acme/m-1", [["input", 2]]), listing("litellm", "acme/m-1", [["input", 1]])],
      ctx,
      [gatherSlots, reconcileSlots],
    );
    expect([...state.slots.keys()]).toEqual([key]);
    const [context] = state.contexts;
    expect(context!.observations.find((o) => o.source === "genai-prices")!.coherent).toBe(true);
    expect(context!.statements.every((o) => o.coherent === false)).toBe(true);
    expect(context!.prior).toBeNull();
    expect(state.verdicts).toHaveLength(1);
    expect(state.verdicts[0]).toMatchObject({ settled: null, left: context!.observations, price: context!.plain });
    expect(state.verdicts[0]!.aside.size + state.verdicts[0]!.held.size).toBe(0);
  });

  it("a maker's page not parsed now keeps the page of last run's provenance (T294)", () => {
    const sources = [source("official-anthropic", 1, { authoritativeFor: ["acme"], firstPartyPage: true, page: PAGE })];
    const then = lastRun([listing("official-anthropic", "acme/m-1", [["input", 1]])], sources);
    expect(then[0]!.observations[0]!.page).toEqual({ ...PAGE, capturedAt: LAST_RUN });
    const carried = [
      source("official-anthropic", 1, { authoritativeFor: ["acme"], firstPartyPage: true, fresh: false }),
    ];
    const state = run(
      [listing("official-anthropic", "acme/m-1", [["input", 1]])],
      ctxOf(carried, { prior: priorOf(then) }),
      [gatherSlots, reconcileSlots],
    );
    expect(state.contexts[0]!.records.get("official-anthropic")!.page).toEqual({ ...PAGE, capturedAt: LAST_RUN });
    expect(state.contexts[0]!.plain.observations[0]!.page).toEqual({ ...PAGE, capturedAt: LAST_RUN });
  });

  it("reconciles each distinct input once: the second round over the same listings reconciles nothing (T386)", () => {
    const ctx = ctxOf([source("genai-prices", 0.8), source("litellm", 0.5)]);
    const listings = [
      listing("genai-prices", "acme/m-1", [
        ["input", 2],
        ["output", 8],
      ]),
      listing("litellm", "acme/m-1", [["input", 1]]),
    ];
    const first = run(listings, ctx, [gatherSlots, reconcileSlots]);
    // plain and judged of two slots, no prior and no coherent move: judged is plain (one reconciliation each)
    expect(ctx.pricer.counts).toEqual({ asked: 4, reconciled: 2 });
    const second = run(listings, ctx, [gatherSlots, reconcileSlots]);
    expect(ctx.pricer.counts).toEqual({ asked: 8, reconciled: 2 });
    expect(second.contexts[0]!.plain).toBe(first.contexts[0]!.plain);
    // another amount is another input
    run([listing("genai-prices", "acme/m-1", [["input", 3]])], ctx, [gatherSlots, reconcileSlots]);
    expect(ctx.pricer.counts.reconciled).toBe(3);
  });
});

/** A maker's direct price stated by `direct` alone, and the same price at 1 on OpenRouter by two others. */
function outlierCase(direct: readonly ResolvedListing[]): ResolvedListing[] {
  const reseller = { channel: "reseller_1" as const, seller: "openrouter" };
  return [
    ...direct,
    listing("models-dev", "acme/m-1", [["input", 1]], reseller),
    listing("openrouter", "acme/m-1", [["input", 1]], reseller),
  ];
}

const OUTLIER_SOURCES = [
  source("genai-prices", 0.9),
  source("litellm", 0.5),
  source("models-dev", 0.6),
  source("openrouter", 0.6),
];

describe("setAsideOutliers: a lone outlier on the maker's price loses (T332)", () => {
  it("sets the outlier's source aside, the rest of the slot still voting", () => {
    const listings = outlierCase([
      listing("genai-prices", "acme/m-1", [["input", 10]]),
      listing("litellm", "acme/m-1", [["input", 1]]),
    ]);
    const state = run(listings, ctxOf(OUTLIER_SOURCES), [gatherSlots, reconcileSlots]);
    const i = state.contexts.findIndex((c) => c.slot.channel === "direct");
    expect(state.contexts[i]!.judged).toMatchObject({ amount: 10, sources: ["genai-prices"] });
    setAsideOutliers(state, ctxOf(OUTLIER_SOURCES));
    expect([...state.verdicts[i]!.aside]).toEqual(["genai-prices"]);
    expect(state.verdicts[i]!.left.map((o) => o.source)).toEqual(["litellm"]);
    expect(state.verdicts[i]!.settled).toBeNull();
  });

  it("publishes the agreement, low, when no statement of the slot is left", () => {
    const ctx = ctxOf(OUTLIER_SOURCES);
    const state = run(outlierCase([listing("genai-prices", "acme/m-1", [["input", 10]])]), ctx, [
      gatherSlots,
      reconcileSlots,
      setAsideOutliers,
    ]);
    const i = state.contexts.findIndex((c) => c.slot.channel === "direct");
    const settled = state.verdicts[i]!.settled!;
    expect(settled).toMatchObject({
      amount: 1,
      confidence: "low",
      sources: ["models-dev", "openrouter"],
      dissenting: ["genai-prices"],
    });
    expect(settled.disputed).toBe(true);
    expect(state.verdicts[i]!.price).toBe(settled);
  });

  it("does not judge a source that shows a market move (a dated price in effect, T170), nor open weights", () => {
    const dated = listing("genai-prices", "acme/m-1", [["input", 10]]);
    const moved = {
      ...dated,
      listing: { ...dated.listing, pricesDated: { kind: "effective" as const, on: "2026-05-20" } },
    };
    const one = run(outlierCase([moved]), ctxOf(OUTLIER_SOURCES), [gatherSlots, reconcileSlots, setAsideOutliers]);
    expect(one.verdicts.every((v) => v.settled === null && v.aside.size === 0)).toBe(true);
    const open = ctxOf(OUTLIER_SOURCES, { openWeights: ["acme/m-1"] });
    const two = run(outlierCase([dated]), open, [gatherSlots, reconcileSlots, setAsideOutliers]);
    expect(two.verdicts.every((v) => v.settled === null && v.aside.size === 0)).toBe(true);
  });
});

const TWO = [source("genai-prices", 0.9), source("litellm", 0.5)];

describe("holdAgain: last run's held statements are held again on last run's evidence (T375)", () => {
  /** Last run's price of the slot, `a`'s 10 held back beside `b`'s 1 (as the jump guard left it). */
  function heldLastRun(): PublishedPrice[] {
    const [p] = lastRun(
      [listing("genai-prices", "acme/m-1", [["input", 1]]), listing("litellm", "acme/m-1", [["input", 1]])],
      TWO,
    );
    return [
      {
        ...p!,
        observations: [
          { ...p!.observations[0]!, amount: 10, held: true },
          { ...p!.observations[1]!, amount: 1 },
        ],
      },
    ];
  }

  it("holds the source again when every source states last run's amount", () => {
    const ctx = ctxOf(TWO, { prior: priorOf(heldLastRun()) });
    const state = run(
      [listing("genai-prices", "acme/m-1", [["input", 10]]), listing("litellm", "acme/m-1", [["input", 1]])],
      ctx,
      [gatherSlots, reconcileSlots, holdAgain],
    );
    expect([...state.verdicts[0]!.held]).toEqual(["genai-prices"]);
    expect(state.verdicts[0]!.left.map((o) => o.source)).toEqual(["litellm"]);
  });

  it("judges afresh once a statement changed", () => {
    const ctx = ctxOf(TWO, { prior: priorOf(heldLastRun()) });
    const state = run(
      [listing("genai-prices", "acme/m-1", [["input", 11]]), listing("litellm", "acme/m-1", [["input", 1]])],
      ctx,
      [gatherSlots, reconcileSlots, holdAgain],
    );
    expect(state.verdicts[0]!.held.size).toBe(0);
    expect(state.verdicts[0]!.left).toHaveLength(2);
  });

  it("leaves a source set aside (T332) aside, not held", () => {
    const ctx = ctxOf(TWO, { prior: priorOf(heldLastRun()) });
    const state = run(
      [listing("genai-prices", "acme/m-1", [["input", 10]]), listing("litellm", "acme/m-1", [["input", 1]])],
      ctx,
      [gatherSlots, reconcileSlots],
    );
    state.verdicts[0]!.aside = new Set(["genai-prices"]);
    holdAgain(state);
    expect(state.verdicts[0]!.held.size).toBe(0);
  });
});

describe("guardJumps: an unexplained 5× jump does not replace an amount a source still states (T176)", () => {
  const then = () =>
    lastRun([listing("genai-prices", "acme/m-1", [["input", 1]]), listing("litellm", "acme/m-1", [["input", 1]])], TWO);

  it("holds the sources of the jumping amount and prices the slot on the rest", () => {
    const ctx = ctxOf(TWO, { prior: priorOf(then()) });
    const state = run(
      [listing("genai-prices", "acme/m-1", [["input", 10]]), listing("litellm", "acme/m-1", [["input", 1]])],
      ctx,
      [gatherSlots, reconcileSlots],
    );
    expect(state.verdicts[0]!.price.amount).toBe(10);
    guardJumps(state, ctx);
    expect([...state.verdicts[0]!.held]).toEqual(["genai-prices"]);
    expect(state.verdicts[0]!.price).toMatchObject({ amount: 1, sources: ["litellm"] });
  });

  it("lets the jump through when no source still states last run's amount", () => {
    const ctx = ctxOf(TWO, { prior: priorOf(then()) });
    const state = run(
      [listing("genai-prices", "acme/m-1", [["input", 10]]), listing("litellm", "acme/m-1", [["input", 2]])],
      ctx,
      [gatherSlots, reconcileSlots, guardJumps],
    );
    expect(state.verdicts[0]!.held.size).toBe(0);
    expect(state.verdicts[0]!.price.amount).toBe(10);
  });

  it("skips a settled slot", () => {
    const ctx = ctxOf(TWO, { prior: priorOf(then()) });
    const state = run(
      [listing("genai-prices", "acme/m-1", [["input", 10]]), listing("litellm", "acme/m-1", [["input", 1]])],
      ctx,
      [gatherSlots, reconcileSlots],
    );
    const settled = { ...state.verdicts[0]!.price, amount: 3 };
    state.verdicts[0]!.settled = settled;
    state.verdicts[0]!.price = settled;
    guardJumps(state, ctx);
    expect(state.verdicts[0]!.price).toBe(settled);
  });
});

describe("keepHeldProvenance and publishVerdicts (T332, T176, T375)", () => {
  it("keeps the sources set aside and held as dissenting, disputed, a held statement marked; counts each held source once", () => {
    const ctx = ctxOf([source("genai-prices", 0.9), source("litellm", 0.5), source("portkey", 0.4)]);
    const state = run(
      [
        listing("genai-prices", "acme/m-1", [["input", 10]]),
        listing("litellm", "acme/m-1", [["input", 1]]),
        listing("portkey", "acme/m-1", [
          ["input", 30],
          ["output", 3],
        ]),
      ],
      ctx,
      [gatherSlots, reconcileSlots],
    );
    const verdict = state.verdicts[0]!;
    verdict.aside = new Set(["portkey"]);
    verdict.held.add("genai-prices");
    verdict.price = ctx.pricer.price(
      state.contexts[0]!.slot,
      [state.contexts[0]!.observations[1]!],
      state.contexts[0]!.records,
      null,
    );
    keepHeldProvenance(state);
    expect(verdict.price).toMatchObject({
      amount: 1,
      sources: ["litellm"],
      dissenting: ["portkey", "genai-prices"],
      disputed: true,
    });
    expect(verdict.price.observations.map((o) => [o.source, o.held === true])).toEqual([
      ["genai-prices", true],
      ["litellm", false],
      ["portkey", false],
    ]);
    // the slot nothing was taken from is as reconciled
    expect(state.verdicts[1]!.price).toBe(state.contexts[1]!.plain);
    publishVerdicts(state);
    expect(state.reconciled).toEqual([verdict.price, state.contexts[1]!.plain]);
    expect([...state.held]).toEqual([["genai-prices", 1]]);
  });
});

/** An unlabeled price of `acme/m-1` sold directly, by `sources`. */
function price(d: Dimension, amount: number, sources: readonly SourceId[]): UnlabeledPrice {
  return {
    modelId: "acme/m-1",
    channel: "direct",
    seller: "acme",
    ...d,
    amount,
    unit: "mtok",
    displayUnit: "USD/1M tokens",
    denomination: "currency",
    currency: "USD",
    confidence: "high",
    confidenceScore: 0.8,
    sources,
    dissenting: [],
    disputed: false,
    fallbackAmount: null,
    effectiveFrom: RUN,
    staleSince: null,
    observations: sources.map((source) => ({ source, amount, fresh: true })),
  };
}

describe("holdAboveStandard, collapseRegions, labelPrices (T331, T76)", () => {
  it("holds a one-source batch price above its standard price, counting its source (T331)", () => {
    const state = newPricingState([]);
    state.reconciled = [
      price(dimension("input"), 1, ["genai-prices", "litellm"]),
      price(dimension("input", { tier: "batch" }), 2, ["genai-prices"]),
      price(dimension("output", { tier: "batch" }), 2, ["genai-prices", "litellm"]),
    ];
    holdAboveStandard(state);
    expect(state.reconciled.map((p) => p.tier)).toEqual(["standard", "batch"]);
    expect([...state.aboveStandard]).toEqual([["genai-prices", 1]]);
  });

  it("collapses a price repeated per region into one row and labels every row of a model and channel apart (T76)", () => {
    const state = newPricingState([]);
    state.reconciled = [
      price(dimension("output"), 4, ["genai-prices"]),
      price(dimension("input", { qualifiers: { region: "eu" } }), 1, ["genai-prices"]),
      price(dimension("input", { qualifiers: { region: "us" } }), 1, ["genai-prices"]),
    ];
    collapseRegions(state);
    expect(state.reconciled.map((p) => [p.direction, p.qualifiers])).toEqual([
      ["input", {}],
      ["output", {}],
    ]);
    labelPrices(state);
    expect(state.prices.map((p) => p.label)).toEqual([expect.any(String), expect.any(String)]);
    expect(new Set(state.prices.map((p) => p.label)).size).toBe(2);
  });
});

describe("PRICING_PASSES (T385)", () => {
  it("run in the order of the decisions, and a round over invented listings publishes labelled prices", () => {
    expect(PRICING_PASSES.map((p) => p.name)).toEqual([
      "gatherSlots",
      "dropUnstatedWindows",
      "reconcileSlots",
      "setAsideOutliers",
      "holdAgain",
      "guardJumps",
      "holdLoneMoves",
      "keepHeldProvenance",
      "publishVerdicts",
      "holdAboveStandard",
      "collapseRegions",
      "labelPrices",
    ]);
    const result = reconcileAll(
      outlierCase([listing("genai-prices", "acme/m-1", [["input", 10]])]),
      ctxOf(OUTLIER_SOURCES),
    );
    expect(result.prices.map((p) => [p.channel, p.amount, p.confidence])).toEqual([
      ["direct", 1, "low"],
      ["reseller_1", 1, expect.any(String)],
    ]);
    expect(result.prices.every((p) => p.label.length > 0)).toBe(true);
  });
});
