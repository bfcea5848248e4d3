import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Listing } from "../src/domain/observation.js";
import { officialAnthropicSource } from "../src/sources/official-anthropic/index.js";
import { officialOpenaiSource } from "../src/sources/official-openai/index.js";
import { readStatements } from "../src/sources/shared/page-statements.js";
import type { SourceAdapter } from "../src/sources/source.js";
import {
  DATED_ID,
  type Expected,
  editAnthropic,
  editOpenai,
  expectedTable,
  type Fault,
  type Plan,
  priceTable,
  readEdited,
} from "./page-evolution.js";
import { propertyRuns } from "./property-runs.js";
import { recordedPayload, recordedReport } from "./recorded-payloads.js";

// Issue 46 §6 (T409): from every recorded copy of both makers' pages, the edits a maker's next copy
// would plausibly make (docs/page-evolution.md). Every price the copy states is read the same from the
// edited copy, or the new dimension / validity is read, and nothing else appears; the faults refuse
// the page or publish nothing of what they add. The originals' parses are the cached parse reports
// (T272); one run parses one edited copy (a few ms).

interface Copy {
  readonly adapter: SourceAdapter;
  readonly date: string;
  readonly text: string;
  /** The original's parse, or null for a copy that is a failed page (OpenAI 2026-03-01, T290). */
  readonly original: readonly Listing[] | null;
}

const copiesOf = (adapter: SourceAdapter, dates: readonly string[]): Copy[] =>
  dates.map((date) => {
    const text = recordedPayload(adapter.id, date).files.get("pricing.md") as string;
    let original: readonly Listing[] | null = null;
    try {
      original = recordedReport(adapter, date).listings;
    } catch {
      original = null;
    }
    return { adapter, date, text, original };
  });

const COPIES: readonly Copy[] = [
  ...copiesOf(officialAnthropicSource, [
    "2025-11-01",
    "2025-12-01",
    "2026-02-01",
    "2026-03-01",
    "2026-04-01",
    "2026-05-01",
  ]),
  ...copiesOf(officialOpenaiSource, ["2026-03-01", "2026-06-01"]),
];

/** A copy, shown in a counterexample by its source and date only. */
/**
 * Runs per copy and property: 8 copies, so 64 / 480 edited copies a property in all; one edited copy
 * is read in about 5–30 ms, so one test holds its worker well under a second locally, about 2 s in CI.
 */
const RUNS = { local: 8, full: 60 };

const at = (date: string) => `${date}T00:00:00.000Z`;

const planArb: fc.Arbitrary<Plan> = fc.record({
  frontMatter: fc.boolean(),
  absoluteLinks: fc.boolean(),
  escapeDollars: fc.boolean(),
  nbsp: fc.boolean(),
  credits: fc.boolean(),
  addColumn: fc.option(fc.record({ noneEvery: fc.integer({ min: 1, max: 4 }) }), { nil: null }),
  reorder: fc.option(fc.array(fc.nat(9), { minLength: 6, maxLength: 6 }), { nil: null }),
  rename: fc.option(fc.array(fc.nat(5), { minLength: 6, maxLength: 6 }), { nil: null }),
  datedSplit: fc.option(
    fc.record({
      row: fc.nat(60),
      future: fc.boolean(),
      days: fc.integer({ min: 0, max: 400 }),
      format: fc.nat(2),
    }),
    { nil: null },
  ),
  withdrawal: fc.option(
    fc.record({
      row: fc.nat(60),
      future: fc.boolean(),
      days: fc.integer({ min: 0, max: 400 }),
      format: fc.nat(2),
      rowsStay: fc.boolean(),
      wording: fc.nat(1),
    }),
    { nil: null },
  ),
  twoInCell: fc.option(fc.record({ pair: fc.nat(20) }), { nil: null }),
  thousands: fc.boolean(),
  keyedRows: fc.boolean(),
});

function edit(copy: Copy, plan: Plan, fault: Fault | null) {
  return copy.adapter === officialAnthropicSource
    ? editAnthropic(copy.text, copy.date, plan, fault, copy.original ?? [])
    : editOpenai(copy.text, copy.date, plan, fault);
}

/** Checks one edited copy against what its edits must read. */
function holds(copy: Copy, text: string, expected: Expected): void {
  const read = () => readEdited(copy.adapter, text, at(copy.date));
  if (copy.original === null) {
    // A failed page stays failed whatever the edit: never read into prices.
    expect(read).toThrow();
    return;
  }
  if (expected.refuse) {
    expect(read).toThrow(expected.refuse);
    return;
  }
  const report = read();
  expect(priceTable(report.listings)).toEqual(expectedTable(copy.original, expected));
  const known = new Set([...copy.original.map((l) => l.model), ...expected.added.map((a) => a.model)]);
  expect(report.listings.map((l) => l.model).filter((m) => !known.has(m))).toEqual([]);
  expect(
    report.listings.map((l) => l.model).filter((m) => !copy.original?.some((o) => o.model === m) && DATED_ID.test(m)),
  ).toEqual([]);
  for (const key of expected.reported) expect(Object.keys(report.unmapped).some((k) => key.test(k))).toBe(true);
  // No edit writes a dated sentence the page's reviewed wordings cannot read (T465): a withdrawal
  // note is read as one, and applied to a model the page prices, or it would be for review here.
  expect(Object.keys(report.unmapped).filter((k) => k.startsWith("sentence for review:"))).toEqual([]);
  if (expected.withdrawn.length > 0) {
    expect(readStatements(text, () => []).filter((s) => s.kind === "withdrawal").length).toBeGreaterThan(0);
    // One row, no end: none of the withdrawn model's prices keeps a validity (T465), even with the
    // dated rows still on the copy (`rowsStay`).
    for (const id of expected.withdrawn)
      expect(report.listings.find((l) => l.model === id)?.prices.filter((p) => p.validity) ?? []).toEqual([]);
  }
}

describe("page evolution (issue 46 §6)", () => {
  it("the originals parse as recorded (the 168 verified prices' pages) and the failed copy fails", () => {
    expect(COPIES.map((c) => [c.adapter.id, c.date, c.original?.length ?? null])).toEqual([
      ["official-anthropic", "2025-11-01", 9],
      ["official-anthropic", "2025-12-01", 10],
      ["official-anthropic", "2026-02-01", 10],
      ["official-anthropic", "2026-03-01", 12],
      ["official-anthropic", "2026-04-01", 12],
      ["official-anthropic", "2026-05-01", 13],
      ["official-openai", "2026-03-01", null],
      ["official-openai", "2026-06-01", 42],
    ]);
  });

  // One test per copy and property, so one test holds a worker for a bounded time (issue 34 §2).
  describe.each(COPIES.map((c) => [`${c.adapter.id} ${c.date}`, c] as const))("%s", (_, copy) => {
    it("every price is read the same after a maker's plausible edits, and nothing else appears", () => {
      fc.assert(
        fc.property(planArb, (plan) => {
          const { text, expected } = edit(copy, plan, null);
          holds(copy, text, expected);
        }),
        { numRuns: propertyRuns(RUNS) },
      );
    });

    it("faults refuse the page (columns rotated) or publish nothing they add (another maker's rows, a future-dated row)", () => {
      fc.assert(
        fc.property(planArb, fc.constantFrom<Fault>("rotate", "foreign", "futureRow"), (plan, fault) => {
          // A withdrawal naming Opus 4.1 / gpt-4o would (rightly) withdraw the future row's end too.
          const { text, expected } = edit(
            copy,
            fault === "futureRow" ? { ...plan, datedSplit: null, withdrawal: null } : plan,
            fault,
          );
          holds(copy, text, expected);
        }),
        { numRuns: propertyRuns(RUNS) },
      );
    });
  });
});
