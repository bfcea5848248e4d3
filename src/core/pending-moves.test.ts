import { describe, expect, it } from "vitest";
import { inventedDataset, inventedPrice } from "../../test/invented-datasets.js";
import { dimension } from "../domain/dimension.js";
import { EMPTY_LISTING_META, type Listing } from "../domain/observation.js";
import { confirmPending, holdPendingMoves } from "./pending-moves.js";

// Issue 46 §4 (T467). Invented listings and a one-price version (the live run over the real pages is
// test/live-page-statements.test.ts): Anthropic's page states Claude Opus 4.1's input; the previous
// version had it at 15 from the page and from two aggregators.
const RUN = "2026-06-02T00:00:00.000Z";
const page = (amount: number, extra = {}): Listing[] => [
  {
    ...EMPTY_LISTING_META,
    seller: "anthropic",
    model: "claude-opus-4-1",
    makerHint: "anthropic",
    prices: [
      { dimension: dimension("input"), amount, unit: "mtok", denomination: "currency", currency: "USD", ...extra },
    ],
  },
];
const previous = (aggregators: number[]) =>
  inventedDataset("2026-06-01T00:00:00.000Z", [
    inventedPrice("anthropic/claude-opus-4-1", "Input", 15, {
      observations: [
        { source: "official-anthropic", amount: 15, fresh: true, listing: "claude-opus-4-1" },
        ...aggregators.map((amount, i) => ({
          source: i === 0 ? ("genai-prices" as const) : ("litellm" as const),
          amount,
          fresh: true,
        })),
      ],
    }),
  ]);
const hold = (now: number, carried: Listing[], aggregators = [15, 15]) =>
  holdPendingMoves("official-anthropic", page(now), carried, previous(aggregators), RUN);

describe("holdPendingMoves", () => {
  it("holds a move more than 1.5x from every aggregator: the old amount, the new one pending", () => {
    const held = hold(45, page(15));
    expect(held.listings[0]!.prices[0]).toMatchObject({ amount: 15, pending: { amount: 45, since: RUN } });
    expect(held.moves).toEqual([
      expect.stringMatching(/^pending move: anthropic\/claude-opus-4-1 .* 15 → 45 \(every aggregator states 15\)/),
    ]);
  });

  it("publishes at once a move an aggregator shares, a small move, a new price, or a page's first run", () => {
    expect(hold(45, page(15), [15, 45]).moves).toEqual([]);
    expect(hold(20, page(15)).moves).toEqual([]);
    expect(hold(45, []).moves).toEqual([]);
    expect(holdPendingMoves("official-anthropic", page(45), null, previous([15]), RUN).moves).toEqual([]);
  });

  it("the next fetch stating the same amount publishes it; the old amount again drops the move", () => {
    const carried = hold(45, page(15)).listings;
    expect(hold(45, carried).listings[0]!.prices[0]).toMatchObject({ amount: 45 });
    expect(hold(45, carried).listings[0]!.prices[0]!.pending).toBeUndefined();
    expect(hold(15, carried).listings[0]!.prices[0]!.pending).toBeUndefined();
  });

  it("a 304 (the same copy again) confirms every held move", () => {
    const carried = hold(45, page(15)).listings;
    const confirmed = confirmPending(carried);
    expect(confirmed.confirmed).toBe(1);
    expect(confirmed.listings[0]!.prices[0]).toEqual(page(45)[0]!.prices[0]);
  });
});
