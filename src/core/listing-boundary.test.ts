import { describe, expect, it } from "vitest";
import { recordedPayload } from "../../test/recorded-payloads.js";
import { dimension } from "../domain/dimension.js";
import { EMPTY_LISTING_META, type Listing, type PriceObservation } from "../domain/observation.js";
import { openrouterSource } from "../sources/openrouter/index.js";
import { screenAtBoundary, screenHistoryAtBoundary, stripInvisible } from "./listing-boundary.js";

// Issue 33 §2 (T252, T253). The recorded payloads hold no non-finite amount and no control
// character, so the faulty records are invented (a real OpenRouter record with one field changed).

const price = (amount: number, contextMax: number | null = null): PriceObservation => ({
  dimension: dimension("input", { contextMax }),
  amount,
  unit: "mtok",
  denomination: "currency",
  currency: "USD",
});
const listing = (over: Partial<Listing>): Listing => ({
  ...EMPTY_LISTING_META,
  seller: "openrouter",
  model: "anthropic/claude-opus-4.7",
  prices: [price(5)],
  ...over,
});

describe("screenAtBoundary", () => {
  it('OpenRouter "1e308" and "1e999" prompts: that price is dropped and counted, the completion kept', () => {
    const payload = recordedPayload("openrouter", "2026-06-01");
    const json = JSON.parse(payload.files.get("models.json")!) as { data: { id: string; pricing: object }[] };
    const [a, b] = json.data;
    json.data = [
      { ...a!, pricing: { ...a!.pricing, prompt: "1e308" } },
      { ...b!, pricing: { ...b!.pricing, prompt: "1e999" } },
    ];
    const parsed = openrouterSource.parse({ ...payload, files: new Map([["models.json", JSON.stringify(json)]]) });
    expect(parsed.flatMap((l) => l.prices).some((p) => !Number.isFinite(p.amount))).toBe(true);
    const { listings, rejected } = screenAtBoundary(parsed);
    expect(rejected).toEqual({ not_finite: 2 });
    for (const l of listings) {
      expect(l.prices.every((p) => Number.isFinite(p.amount))).toBe(true);
      expect(l.prices.some((p) => p.dimension.direction === "output")).toBe(true);
    }
  });

  it("a non-finite bracket drops its price; a non-finite window becomes unknown", () => {
    const { listings, rejected } = screenAtBoundary([
      listing({ prices: [price(5), price(1, Number.POSITIVE_INFINITY), price(Number.NaN)], contextWindow: Infinity }),
    ]);
    expect(rejected).toEqual({ not_finite: 2 });
    expect(listings[0]!.prices).toEqual([price(5)]);
    expect(listings[0]!.contextWindow).toBeNull();
  });

  it("control characters in ids become U+FFFD; control and format characters leave display text", () => {
    const { listings, rejected } = screenAtBoundary([
      listing({
        model: "anthropic/claude\u0000-opus\u0085",
        seller: "open\u0007router",
        aliases: ["a\u0000b"],
        canonicalSlug: "x\u001by",
        name: "Claude\u0000 Opus\u200b \u202eFast\u0085",
        publisherName: "Anth\u200dropic",
      }),
    ]);
    expect(rejected).toEqual({});
    expect(listings[0]).toMatchObject({
      model: "anthropic/claude\ufffd-opus\ufffd",
      seller: "open\ufffdrouter",
      aliases: ["a\ufffdb"],
      canonicalSlug: "x\ufffdy",
      name: "Claude Opus Fast",
      publisherName: "Anthropic",
    });
  });

  it("a clean listing passes unchanged", () => {
    const clean = listing({ name: "Claude Opus 4.7", aliases: ["claude-opus-4-7"] });
    expect(screenAtBoundary([clean])).toEqual({ listings: [clean], rejected: {} });
    expect(stripInvisible("模型 A-1")).toBe("模型 A-1");
    expect(stripInvisible("DeepSeek R1 (Turbo)\t")).toBe("DeepSeek R1 (Turbo) ");
  });

  it("dated history: a non-finite row is dropped, an id's controls marked", () => {
    const row = { seller: "s", model: "m\u0000", fromDate: null, toDate: null, ...price(1) };
    expect(screenHistoryAtBoundary([row, { ...row, amount: Infinity }])).toEqual([{ ...row, model: "m\ufffd" }]);
  });
});
