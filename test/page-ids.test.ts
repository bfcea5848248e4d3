import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiSource } from "../src/catalogue/schemas.js";
import type { Dataset } from "../src/domain/dataset.js";
import type { CatalogueStore } from "../src/store/catalogue-store.js";
import { loadReplay, startServer, type TestServer } from "./harness.js";

// Issue 46 Must show (T406, T468): over the bundled replay, no model id the catalogue has ever founded
// (its models, tombstones included: ids are permanent, T66) spells a date as a page writes it, a month
// or a dated qualifier; and `/sources` serves each maker's page's count of unmatched rows.

const MONTHS =
  "january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept?|oct|nov|dec";
/** A month name as a word of the id (`claude-x-through-january`), not inside another word. */
const MONTH = new RegExp(`(?:^|[-_/.])(?:${MONTHS.replace("|may|", "|")})(?=$|[-_/.])`, "i");
const QUALIFIER = /(?:^|[-_/.(])(?:through|thru|until|starting|effective|introductory)(?=$|[-_/.)])/i;
/** A date as prose writes it, slugified (`1-november-2025`, `january-1-2027`), or prose's own marks. */
const PROSE_DATE = new RegExp(
  `\\d{1,2}-(?:${MONTHS})-\\d{4}|(?:${MONTHS})-\\d{1,2}(?:st|nd|rd|th)?,?-\\d{4}|[(), ]`,
  "i",
);

let dataset: Dataset;
let store: CatalogueStore;
let server: TestServer;

beforeAll(async () => {
  const replay = await loadReplay();
  dataset = replay.dataset;
  store = replay.store;
  server = await startServer(replay.view);
});
afterAll(async () => {
  await server.close();
  await store.close();
});

describe("model ids over the bundled replay (issue 46 Must show)", () => {
  it("no id contains a month, a dated qualifier or a date written as prose", () => {
    const ids = dataset.models.map((m) => m.id);
    expect(ids.length).toBeGreaterThan(1000);
    // The check can fail: the ids the old parsers founded (docs/page-evolution.md) are caught.
    for (const old of ["anthropic/claude-opus-3-through-1-november-2025", "openai/gpt-4o-(starting-january-1,-2027)"])
      expect(MONTH.test(old) || QUALIFIER.test(old) || PROSE_DATE.test(old), old).toBe(true);
    const dated = ids.filter((id) => MONTH.test(id) || QUALIFIER.test(id) || PROSE_DATE.test(id));
    expect(dated).toEqual([]);
    // A maker's own snapshot id (gpt-4o-2024-05-13) names a release, not a page's dated price: kept.
    expect(ids).toContain("openai/gpt-4o-2024-05-13");
  });
});

describe("/sources counts a maker's page's unmatched rows (issue 46 §2, T468)", () => {
  it("serves unmatchedPageRows, sentencesForReview and pendingMoves, each the sum of its entries", async () => {
    const res = await server.get("/api/v1/sources");
    const sources = ((await res.json()) as { data: ApiSource[] }).data;
    for (const id of ["official-anthropic", "official-openai"]) {
      const s = sources.find((x) => x.source === id)!;
      const sum = (prefix: string) =>
        Object.entries(s.unmappedByField).reduce((n, [k, v]) => (k.startsWith(prefix) ? n + v : n), 0);
      expect(s.unmatchedPageRows, id).toBe(sum("unmatched row: "));
      expect(s.sentencesForReview, id).toBe(sum("sentence for review: "));
      expect(s.pendingMoves, id).toBe(0); // the replay has no guards, so nothing waits (T467)
      // Every recorded copy's rows all name their maker's models (T406): 0 unmatched per page.
      expect(s.unmatchedPageRows, id).toBe(0);
    }
    for (const s of sources) expect(typeof s.unmatchedPageRows).toBe("number");
  });
});
