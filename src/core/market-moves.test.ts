import { describe, expect, it } from "vitest";
import { inventedDataset, inventedPrice } from "../../test/invented-datasets.js";
import type { Listing, SourceId } from "../domain/observation.js";
import { convertedBy } from "./currency-moves.js";
import { detectChanges } from "./detect-changes.js";
import { correctsContext, heldRemoval } from "./held-removals.js";
import { loneMover } from "./pricing/lone-move.js";
import type { SourceObservation } from "./reconcile.js";
import { detectSellerRenames, withSellerRenames } from "./seller-renames.js";

// Issue 52's rules on invented rows (test/invented-datasets.ts), each on its smallest case; the real
// cases of the bundled replay (firmware → frogbot, Berget's euro list, Grok 4.20's lone move, held
// removals) are pinned in test/market-moves.test.ts.
const V1 = "2026-05-01T00:00:00.000Z";
const V2 = "2026-06-01T00:00:00.000Z";

/** An aggregator's fresh statement in USD per 1M tokens (invented: only the amounts matter here). */
const FRESH_USD_PER_MTOK = { unit: "mtok", denomination: "currency", currency: "USD", fresh: true } as const;

function statement(source: SourceId, amount: number, extra: Partial<SourceObservation> = {}): SourceObservation {
  return { source, amount, ...FRESH_USD_PER_MTOK, weight: 0.5, authoritative: false, ...extra };
}

describe("loneMover (issue 52 §4, T496)", () => {
  // LiteLLM alone repointing xai/grok-code-fast-1's cache read 0.02 → 0.2 (the issue's example,
  // on never-seen payloads: invented here) against models.dev, Portkey and genai-prices.
  const then = inventedPrice("xai/grok-code-fast-1", "Input (cache read)", 0.02, {
    observations: ["litellm", "models-dev", "portkey", "genai-prices"].map((s) => ({
      source: s as SourceId,
      amount: 0.02,
      fresh: true,
    })),
  });
  const now = { amount: 0.2, confidence: "medium" as const };
  const others = [statement("models-dev", 0.02), statement("portkey", 0.02), statement("genai-prices", 0.02)];

  it("holds the one source that moved now against sources still stating the old amount", () => {
    expect(loneMover(then, now, [statement("litellm", 0.2), ...others])).toBe("litellm");
  });
  it("holds nothing when a second source moved too, or nobody dissents", () => {
    expect(loneMover(then, now, [statement("litellm", 0.2), statement("portkey", 0.2)])).toBeNull();
    expect(loneMover(then, now, [statement("litellm", 0.2)])).toBeNull();
  });
  it("holds nothing from the seller's own list, a coherent move (T170), a verified price, or a source first seen now", () => {
    expect(loneMover(then, now, [statement("litellm", 0.2, { authoritative: true }), ...others])).toBeNull();
    expect(loneMover(then, now, [statement("litellm", 0.2, { coherent: true }), ...others])).toBeNull();
    expect(loneMover(then, { ...now, confidence: "verified" }, [statement("litellm", 0.2), ...others])).toBeNull();
    expect(loneMover(then, now, [statement("openrouter", 0.2), ...others])).toBeNull();
  });
  it("holds it again on the same evidence (T375), not once the dissent is gone", () => {
    const heldThen = {
      ...then,
      observations: then.observations.map((o) => (o.source === "litellm" ? { ...o, amount: 0.2, loneMove: true } : o)),
    };
    expect(loneMover(heldThen, now, [statement("litellm", 0.2), ...others])).toBe("litellm");
    expect(loneMover(heldThen, now, [statement("litellm", 0.2), statement("portkey", 0.2)])).toBeNull();
  });
  it("holds it again when the vote kept the old amount by itself (T523), not a plain dissent or a source joined", () => {
    // The second run on the same evidence: the mover no longer left the published amount, so the vote
    // keeps 0.02 (T80); it is still the held lone move, not merely outvoted (test/live-market-moves.test.ts).
    const heldThen = {
      ...then,
      observations: then.observations.map((o) => (o.source === "litellm" ? { ...o, amount: 0.2, loneMove: true } : o)),
    };
    const kept = { amount: 0.02, confidence: "low" as const };
    expect(loneMover(heldThen, kept, [statement("litellm", 0.2), ...others])).toBe("litellm");
    // Not held: a dissent that was never held, one that moved again, one another source now joins,
    // or one nobody dissents from any more.
    const plainThen = {
      ...then,
      observations: then.observations.map((o) => (o.source === "litellm" ? { ...o, amount: 0.2 } : o)),
    };
    expect(loneMover(plainThen, kept, [statement("litellm", 0.2), ...others])).toBeNull();
    expect(loneMover(heldThen, kept, [statement("litellm", 0.3), ...others])).toBeNull();
    expect(loneMover(heldThen, kept, [statement("litellm", 0.2), statement("portkey", 0.2), ...others])).toBeNull();
    expect(loneMover(heldThen, kept, [statement("litellm", 0.2)])).toBeNull();
  });
});

/** A ListedIndex stand-in over invented listings: `source|seller|model` → context window, and offers. */
function listedOf(listings: Record<string, number | null>, offers: Record<string, SourceId[]>) {
  return {
    listingNow: (source: SourceId, seller: string, model: string) => {
      const key = `${source}|${seller}|${model}`;
      return key in listings ? { contextWindow: listings[key] ?? null } : undefined;
    },
    offeredBy: (p: { modelId: string; channel: string; seller: string }) =>
      new Set(offers[`${p.modelId}|${p.channel}|${p.seller}`] ?? []),
    whereListed: () => "absent" as const,
  };
}

describe("heldRemoval and correctsContext (issue 52 §3, T495)", () => {
  const cacheWrite = inventedPrice("anthropic/claude-x", "Input (cache write) (seller: acme)", 3.75, {
    channel: "other",
    seller: "acme",
    observations: [{ source: "models-dev", amount: 3.75, fresh: true, listing: "claude-x" }],
  });
  const offer = "anthropic/claude-x|other|acme";

  it("holds a recorder's drop while another source lists the offer, per recorder", () => {
    expect(heldRemoval(cacheWrite, listedOf({}, { [offer]: ["portkey"] }))).toEqual(["models-dev"]);
  });
  it("removes when no other source lists the offer, or the recorder kept the listing (it dropped the price)", () => {
    expect(heldRemoval(cacheWrite, listedOf({}, {}))).toBeNull();
    expect(
      heldRemoval(cacheWrite, listedOf({ "models-dev|acme|claude-x": 200_000 }, { [offer]: ["portkey"] })),
    ).toBeNull();
  });
  it("never holds the seller's own list dropping the offer", () => {
    const own = { ...cacheWrite, observations: [{ ...cacheWrite.observations[0]!, authoritative: true }] };
    expect(heldRemoval(own, listedOf({}, { [offer]: ["portkey"] }))).toBeNull();
  });

  // LiteLLM dropping an Azure > 272K bracket while setting the context to 272K (the issue's
  // example, on never-seen payloads: invented here).
  const bracket = inventedPrice("openai/gpt-x", "Input (> 272K tokens)", 2.5, {
    channel: "reseller_3",
    seller: "azure",
    contextMin: 272_000,
    observations: [{ source: "litellm", amount: 2.5, fresh: true, listing: "azure/gpt-x" }],
  });
  it("a bracket gone with the context set to its threshold is a correction, not a removal", () => {
    const corrected = listedOf({ "litellm|azure|azure/gpt-x": 272_000 }, {});
    expect(correctsContext(bracket, corrected)).toBe(true);
    expect(correctsContext(bracket, listedOf({ "litellm|azure|azure/gpt-x": 1_000_000 }, {}))).toBe(false);
    const changes = detectChanges(inventedDataset(V1, [bracket]), inventedDataset(V2, []), corrected);
    expect(changes).toEqual([]);
    const removed = detectChanges(inventedDataset(V1, [bracket]), inventedDataset(V2, []), listedOf({}, {}));
    expect(removed.map((c) => c.kind)).toEqual(["price_removed"]);
  });
});

describe("currency changes (issue 52 §2, T494)", () => {
  it("a row moved by the list's factor, to the new amount's rounding", () => {
    expect(convertedBy({ amount: 0.9 }, { amount: 0.99 }, 1.1)).toBe(true);
    expect(convertedBy({ amount: 0.08 }, { amount: 0.09 }, 1.1)).toBe(true);
    expect(convertedBy({ amount: 0.3 }, { amount: 0.44 }, 1.1)).toBe(false);
  });

  it("a euro seller's whole list ×0.96 is currency_change; a row moved by more stays a market move", () => {
    const row = (model: string, amount: number) =>
      inventedPrice(model, "Input (seller: scaleway)", amount, { channel: "other", seller: "scaleway" });
    const before = [row("a/m1", 1), row("a/m2", 0.5), row("a/m3", 2), row("a/m4", 0.25)];
    const after = [row("a/m1", 0.96), row("a/m2", 0.48), row("a/m3", 1.92), row("a/m4", 0.1)];
    const kinds = detectChanges(inventedDataset(V1, before), inventedDataset(V2, after)).map((c) => [
      c.modelId,
      c.kind,
    ]);
    expect(kinds).toEqual([
      ["a/m1", "currency_change"],
      ["a/m2", "currency_change"],
      ["a/m3", "currency_change"],
      ["a/m4", "price_decrease"],
    ]);
  });

  it("the same move of a USD seller stays price moves", () => {
    const row = (model: string, amount: number) =>
      inventedPrice(model, "Input (seller: acme)", amount, { channel: "other", seller: "acme" });
    const changes = detectChanges(
      inventedDataset(V1, [row("a/m1", 1), row("a/m2", 0.5), row("a/m3", 2)]),
      inventedDataset(V2, [row("a/m1", 0.96), row("a/m2", 0.48), row("a/m3", 1.92)]),
    );
    expect(changes.map((c) => c.kind)).toEqual(["price_decrease", "price_decrease", "price_decrease"]);
  });
});

describe("seller renames (issue 52 §1, T493)", () => {
  const row = (seller: string, model: string, amount: number) =>
    inventedPrice(`acme/${model}`, `Input (seller: ${seller})`, amount, {
      channel: "other",
      seller,
      qualifiers: { seller },
      observations: [{ source: "models-dev", amount, fresh: true, listing: model }],
    });
  const listing = (seller: string, model: string, amount: number): Listing =>
    ({ seller, model, prices: [{ amount }] }) as unknown as Listing;
  const previous = inventedDataset(V1, [row("old", "m1", 1), row("old", "m2", 2), row("old", "m3", 3)]);

  it("a seller gone while a new one lists the same listings at the same amounts is renamed", () => {
    const now = [listing("new", "m1", 1), listing("new", "m2", 2), listing("new", "m3", 3), listing("new", "m4", 4)];
    const renames = detectSellerRenames(previous, [{ source: "models-dev", fresh: true, listings: now }]);
    expect(renames).toEqual([{ source: "models-dev", from: "old", to: "new", sameListings: 3, sameApi: null }]);
    const renamed = withSellerRenames(previous, renames).prices[0]!;
    expect([renamed.seller, renamed.qualifiers.seller, renamed.label]).toEqual(["new", "new", "Input (seller: new)"]);
  });

  it("no rename when the amounts differ, or when two new sellers would take it", () => {
    const moved = [listing("new", "m1", 1.5), listing("new", "m2", 2.5), listing("new", "m3", 3)];
    expect(detectSellerRenames(previous, [{ source: "models-dev", fresh: true, listings: moved }])).toEqual([]);
    const two = ["a", "b"].flatMap((s) => [listing(s, "m1", 1), listing(s, "m2", 2), listing(s, "m3", 3)]);
    expect(detectSellerRenames(previous, [{ source: "models-dev", fresh: true, listings: two }])).toEqual([]);
  });
});
