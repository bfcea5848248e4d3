import { describe, expect, it } from "vitest";
import { ANNOUNCEMENT_FLOOD_MIN, checkAnnouncements, withWithdrawals } from "../src/core/announcement-guard.js";
import { ANNOUNCEMENT_HORIZON_DAYS } from "../src/core/announcement-screen.js";
import { validityOf } from "../src/core/price-validity.js";
import { dayInstant, isCalendarDay } from "../src/domain/calendar-day.js";
import { endedBy } from "../src/domain/dated-price.js";
import type { Listing, SourceId } from "../src/domain/observation.js";
import { type Parsed, parseOutcome } from "../src/ingest/run-pipeline.js";
import { SOURCES } from "../src/sources/registry.js";
import type { SourcePayload } from "../src/sources/source.js";
import type { SourceState } from "../src/store/catalogue-store.js";
import { recordedPayload } from "./recorded-payloads.js";

// Issue 47 §1 (T420–T425): what one record announces never reaches the bill unchecked. Each fault
// is an invented edit of a real recorded payload (no upstream has sent one): genai-prices'
// 2026-06-01 `data.json` with a `start_date` entry added to a real model's price list, and
// llm-prices' 2026-06-01 `historical-v1.json` with one real row's date changed. The payloads are
// read as the live pipeline reads them (`parseOutcome`: the adapter, the boundary, the guards).

const RUN_DAY = "2026-06-01";
const GUARDS = { maxRowDrop: 0.25 };
const adapter = (id: SourceId) => SOURCES.find((a) => a.id === id)!;

type GenaiModel = { id: string; prices: unknown };
type GenaiProvider = { id: string; models: GenaiModel[] };

/**
 * The providers a case reads: genai-prices' OpenAI and OpenRouter lists (a cut, to keep a case well
 * under a second; the flood reads every provider).
 */
const CUT = new Set(["openai", "openrouter"]);

/**
 * genai-prices' recorded 2026-06-01 payload, cut to `keep` (null: whole), with `edit` applied to its
 * providers (an invented edit; no edit: the recorded rows).
 */
function genaiWith(
  edit: (providers: GenaiProvider[]) => void = () => {},
  observedAt = `${RUN_DAY}T00:00:00.000Z`,
  keep: ReadonlySet<string> | null = CUT,
): SourcePayload {
  const payload = recordedPayload("genai-prices", RUN_DAY);
  const providers = (JSON.parse(payload.files.get("data.json")!) as GenaiProvider[]).filter(
    (p) => keep === null || keep.has(p.id),
  );
  edit(providers);
  return { files: new Map([["data.json", JSON.stringify(providers)]]), observedAt };
}

/** The real model `id` of provider `provider`. */
const model = (providers: GenaiProvider[], provider: string, id: string) =>
  providers.find((p) => p.id === provider)!.models.find((m) => m.id === id)!;

/** Adds a `start_date` entry to a model whose recorded prices are one plain list (its list stays the first entry). */
function announce(m: GenaiModel, startDate: string, prices: Record<string, number>): void {
  m.prices = [{ prices: m.prices }, { constraint: { start_date: startDate }, prices }];
}

/** gpt-4o at 999 / 499.5 / 3996 from 2027-01-01: the record of the issue. */
const GPT4O_999 = { input_mtok: 999, cache_read_mtok: 499.5, output_mtok: 3996 };

function parsed(
  source: SourceId,
  payload: SourcePayload,
  carried?: SourceState,
  guards: { maxRowDrop: number; accept?: ReadonlySet<SourceId> } | null = GUARDS,
): Parsed {
  return parseOutcome(adapter(source), { kind: "payload", payload }, carried, guards);
}

function ok(result: Parsed): Exclude<Parsed, { failure: unknown }> {
  if ("failure" in result) throw new Error(`failed: ${result.failure.message}`);
  return result;
}

/** The prices of `seller`'s listing of `id`. */
const pricesOf = (listings: readonly Listing[], seller: string, id: string) =>
  listings.find((l) => l.seller === seller && l.model === id)?.prices ?? [];

const lastGoodRuns = new Map<string, SourceState>();
/** The last good run: the recorded payload itself (cut as the case's), parsed on the run's day. */
function lastGood(keep: ReadonlySet<string> | null = CUT): SourceState {
  const key = keep === null ? "all" : [...keep].join();
  let state = lastGoodRuns.get(key);
  if (!state) {
    const payload = genaiWith(undefined, undefined, keep);
    state = {
      source: "genai-prices",
      observedAt: payload.observedAt,
      listings: ok(parsed("genai-prices", payload, undefined, null)).listings,
    };
    lastGoodRuns.set(key, state);
  }
  return state;
}

describe("calendar days (T420)", () => {
  it("are real days of the calendar, compared as instants", () => {
    for (const d of ["2027-13-45", "2027-02-30", "2026-02-29", "2027-00-10", "27-01-01", "2027-1-1", ""])
      expect(isCalendarDay(d), d).toBe(false);
    for (const d of ["2028-02-29", "2027-12-31", "9999-01-01"]) expect(isCalendarDay(d), d).toBe(true);
    // As text, "2027-13-45" sorts before "2028-01-01"; it is no day at all, so it ends nothing.
    expect(endedBy({ effectiveUntil: "2027-13-45T00:00:00.000Z" }, "2028-01-01")).toBe(false);
    expect(endedBy({ effectiveUntil: "2027-01-01T00:00:00.000Z" }, "2027-01-01")).toBe(true);
    expect(endedBy({ effectiveUntil: "2027-01-01T00:00:00.000Z" }, "2026-12-31")).toBe(false);
    expect(dayInstant("2027-01-01")! - dayInstant("2026-12-31")!).toBe(86_400_000);
  });
});

describe("an announcement is judged like a price at the adapter boundary (T421, T422)", () => {
  it("gpt-4o at 999 / 499.5 / 3996 from 2027-01-01: refused (×400 jump, 3996 above the bound), the price stays", () => {
    const payload = genaiWith((p) => announce(model(p, "openai", "gpt-4o"), "2027-01-01", GPT4O_999));
    // The adapter reads the record as an announcement of all three prices…
    const raw = adapter("genai-prices").parseReport!(payload).listings;
    expect(pricesOf(raw, "openai", "gpt-4o").map((x) => x.validity?.next)).toEqual([999, 3996, 499.5]);
    // …and the boundary refuses each, counted with its reason; today's prices are untouched.
    const result = ok(parsed("genai-prices", payload, lastGood()));
    expect(result.rejected).toEqual({ announced_jump: 2, announced_out_of_bounds: 1 });
    const prices = pricesOf(result.listings, "openai", "gpt-4o");
    expect(prices.map((x) => x.amount)).toEqual([2.5, 10, 1.25]);
    expect(prices.filter((x) => x.validity)).toEqual([]);
  });

  it(`year 9999 lies beyond the ${ANNOUNCEMENT_HORIZON_DAYS}-day horizon; a plausible announcement within it stands`, () => {
    const payload = genaiWith((p) => {
      announce(model(p, "openai", "gpt-4o"), "9999-01-01", { input_mtok: 2, cache_read_mtok: 1, output_mtok: 8 });
      announce(model(p, "openrouter", "gpt-4o"), "2027-01-01", { input_mtok: 2, cache_read_mtok: 1, output_mtok: 8 });
    });
    const result = ok(parsed("genai-prices", payload, lastGood()));
    expect(result.rejected).toEqual({ beyond_horizon: 3 });
    expect(pricesOf(result.listings, "openai", "gpt-4o").filter((x) => x.validity)).toEqual([]);
    expect(pricesOf(result.listings, "openrouter", "gpt-4o").map((x) => x.validity)).toEqual([
      { until: "2027-01-01", next: 2 },
      { until: "2027-01-01", next: 8 },
      { until: "2027-01-01", next: 1 },
    ]);
  });

  it('"2027-13-45" and "2027-02-30" (and a past-looking "2025-13-45"): refused records, never in force', () => {
    const payload = genaiWith((p) => {
      const m = model(p, "openai", "gpt-4o");
      m.prices = [
        { prices: m.prices },
        { constraint: { start_date: "2025-13-45" }, prices: GPT4O_999 },
        { constraint: { start_date: "2027-13-45" }, prices: { input_mtok: 2, output_mtok: 8 } },
        { constraint: { start_date: "2027-02-30" }, prices: { input_mtok: 2, output_mtok: 8 } },
      ];
    });
    const result = ok(parsed("genai-prices", payload, lastGood()));
    expect(result.rejected).toEqual({ invalid_date: 3 });
    const prices = pricesOf(result.listings, "openai", "gpt-4o");
    expect(prices.map((x) => [x.amount, x.validity])).toEqual([
      [2.5, undefined],
      [10, undefined],
      [1.25, undefined],
    ]);
  });

  it("llm-prices: a real dated row with to_date 2027-02-30 is a refused record, counted", () => {
    const payload = recordedPayload("llm-prices", RUN_DAY);
    const history = JSON.parse(payload.files.get("historical-v1.json")!) as { prices: Record<string, unknown>[] };
    const row = history.prices.find((r) => r.to_date === "2025-02-08")!;
    row.to_date = "2027-02-30";
    const edited = { ...payload, files: new Map([...payload.files, ["historical-v1.json", JSON.stringify(history)]]) };
    const result = ok(parsed("llm-prices", edited, undefined, null));
    expect(result.rejected).toEqual({ invalid_date: 1 });
    expect(result.history?.some((r) => r.toDate === "2027-02-30")).toBe(false);
    expect(pricesOf(result.listings, "deepseek", "deepseek-chat").filter((x) => x.validity)).toEqual([]);
  });
});

describe("a source's announcements are part of its guard (T424, T425)", () => {
  it("1,194 announcements in one payload fail the source as a flood", () => {
    let announced = 0;
    const payload = genaiWith(
      (providers) => {
        for (const p of providers)
          for (const m of p.models) {
            if (announced >= 1194 || Array.isArray(m.prices) || typeof m.prices !== "object") continue;
            const list = m.prices as Record<string, unknown>;
            const next = Object.fromEntries(
              Object.entries(list)
                .filter(([, v]) => typeof v === "number" && v > 0)
                .map(([k, v]) => [k, (v as number) * 0.9]),
            );
            if (Object.keys(next).length === 0) continue;
            announce(m, "2026-09-01", next);
            announced += Object.keys(next).length;
          }
      },
      undefined,
      null,
    );
    expect(announced).toBeGreaterThanOrEqual(1194);
    const result = parsed("genai-prices", payload, lastGood(null));
    expect("failure" in result && result.failure.message).toMatch(
      /^genai-prices: guard announcement-flood: \d+ prices announce an end or successor new since the last good run, which announced 0 \(more than the allowed 40\)/,
    );
  });

  it("the recorded history passes: its 10 announcements at once (Claude 4.6's brackets, read before 2026-03-13)", () => {
    // The 2026-04-01 copy read on 2026-03-10, against the 2026-03-01 copy read on 2026-03-01.
    const before = recordedPayload("genai-prices", "2026-03-01");
    const carried: SourceState = {
      source: "genai-prices",
      observedAt: before.observedAt,
      listings: ok(parsed("genai-prices", before, undefined, null)).listings,
    };
    const now = { ...recordedPayload("genai-prices", "2026-04-01"), observedAt: "2026-03-10T00:00:00.000Z" };
    const result = ok(parsed("genai-prices", now, carried));
    const dated = result.listings.flatMap((l) => l.prices.filter((x) => x.validity));
    expect(dated.length).toBeGreaterThan(0);
    expect(dated.length).toBeLessThan(ANNOUNCEMENT_FLOOD_MIN);
    expect(result.rejected).toEqual({});
  });

  it("an announcement switched off and on fails the source; after 30 days it may be stated again", () => {
    const cheaper = { input_mtok: 2, cache_read_mtok: 1, output_mtok: 8 };
    const on = (day: string) =>
      genaiWith((p) => announce(model(p, "openai", "gpt-4o"), "2027-01-01", cheaper), `${day}T00:00:00.000Z`);
    const off = (day: string) => genaiWith(undefined, `${day}T00:00:00.000Z`);
    const state = (payload: SourcePayload, listings: readonly Listing[]): SourceState => ({
      source: "genai-prices",
      observedAt: payload.observedAt,
      listings,
    });
    // Run 1 announces; run 2 withdraws it (remembered on the stored listing); run 3 states it again.
    const p1 = on("2026-06-01");
    const run1 = ok(parsed("genai-prices", p1, lastGood()));
    const p2 = off("2026-06-02");
    const run2 = ok(parsed("genai-prices", p2, state(p1, run1.listings)));
    expect(pricesOf(run2.listings, "openai", "gpt-4o").map((x) => x.withdrawn)).toEqual([
      { until: "2027-01-01", next: 2, on: "2026-06-02" },
      { until: "2027-01-01", next: 8, on: "2026-06-02" },
      { until: "2027-01-01", next: 1, on: "2026-06-02" },
    ]);
    const run3 = parsed("genai-prices", on("2026-06-03"), state(p2, run2.listings));
    expect("failure" in run3 && run3.failure.message).toMatch(
      /^genai-prices: guard announcement-flip: 3 announcements withdrawn within the last 30 days are stated again \(e\.g\. openai\/gpt-4o until 2027-01-01, withdrawn on 2026-06-02\)/,
    );
    // The memory is carried while the price states nothing, and forgotten after 30 days.
    const carriedOn = withWithdrawals(run2.listings, state(p2, run2.listings), "2026-06-20");
    expect(
      checkAnnouncements(
        ok(parsed("genai-prices", on("2026-06-20"), undefined, null)).listings,
        state(p2, carriedOn),
        "2026-06-20",
      )?.guard,
    ).toBe("announcement-flip");
    expect(
      checkAnnouncements(
        ok(parsed("genai-prices", on("2026-07-03"), undefined, null)).listings,
        state(p2, run2.listings),
        "2026-07-03",
      ),
    ).toBeNull();
  });
});

describe("an announcement's confidence follows its sources (T423)", () => {
  const runTime = "2026-06-01T00:00:00.000Z";
  const statedBy =
    (...sources: SourceId[]) =>
    (s: SourceId) =>
      sources.includes(s) ? { until: "2027-01-01", next: 2 } : null;
  // The registry's weights: genai-prices 0.8, llm-prices 0.6; official-openai speaks for OpenAI.
  const voice = (s: SourceId) => ({
    weight: adapter(s).info.weight,
    authoritative: s === "official-openai",
  });

  it("the maker's page, which states no end, outranks an aggregator's date: none is published", () => {
    expect(validityOf(["official-openai", "genai-prices"], statedBy("genai-prices"), runTime, voice)).toEqual({
      effectiveUntil: null,
      announced: null,
    });
  });

  it("one aggregator alone is never verified; two agreeing are high", () => {
    const lone = validityOf(["genai-prices"], statedBy("genai-prices"), runTime, voice).announced;
    expect(lone).toEqual({
      amount: 2,
      effectiveFrom: "2027-01-01T00:00:00.000Z",
      source: "genai-prices",
      confidence: "medium",
      confidenceScore: 0.7,
    });
    const both = validityOf(["genai-prices", "llm-prices"], statedBy("genai-prices", "llm-prices"), runTime, voice);
    expect(both.announced?.confidence).toBe("high");
    expect(validityOf(["llm-prices"], statedBy("llm-prices"), runTime, voice).announced?.confidence).toBe("low");
  });
});
