import { describe, expect } from "vitest";
import type { CatalogueView } from "../src/catalogue/view.js";
import { seriesKey } from "../src/domain/dimension.js";
import type { StoredSpans } from "../src/store/catalogue-store.js";
import { bindShared } from "./fixtures.js";
import { readReplayStore } from "./harness.js";

/**
 * Issue 50 §3 (T456): one story per price. Over the bundled replay, for every model and every run
 * date, the model's history (what `/models/{id}/history` serves, D17) holds at that date exactly the
 * direct prices the run published (what `?at=` answers: the version's own prices, issue 17 §2), and
 * a series that the run no longer publishes is ended (`endedOn`) or away (`gaps`) by then.
 */

let view: CatalogueView;
let versions: readonly string[];
let spans: StoredSpans;

const it = bindShared("api", async (boundView) => {
  view = boundView;
  [versions, spans] = await readReplayStore(async (store) => [
    (await store.listRuns()).map((r) => r.datasetVersion),
    await store.loadSpans(),
  ]);
});

/** Direct prices that `version` published (its open spans, as `?at=` reads them) by `modelId` → seriesKey → amount. */
function directPrices(version: string): Map<string, Map<string, number>> {
  const byModel = new Map<string, Map<string, number>>();
  for (const { from, to, value: p } of spans.prices) {
    if (p.channel !== "direct" || from > version || (to !== null && to <= version)) continue;
    const series = byModel.get(p.modelId) ?? new Map<string, number>();
    series.set(seriesKey(p), p.amount);
    byModel.set(p.modelId, series);
  }
  return byModel;
}

/**
 * A renamed model's prices before it had its own (issue 12 §11): in a version that published none
 * under `id`, what its former ids published (their history is the model's, and `?at=` on them
 * answers the model, T67).
 */
function formerPrices(
  published: ReadonlyMap<string, ReadonlyMap<string, number>>,
  id: string,
  version: string,
): Map<string, number> {
  const formers = formerIds.get(id) ?? [];
  // Several former ids are an alias family, not a rename: none of them is the model's history; and
  // a former id speaks only before the model's own first price.
  if (formers.length !== 1 || version >= (firstOwnSpan.get(id) ?? "9999")) return new Map();
  return new Map(published.get(formers[0]!));
}

/** The former ids of each model (`aliasOf`) that published a direct price in some version. */
const formerIds = new Map<string, string[]>();
/** Each model's first direct span under its own id (ISO). */
const firstOwnSpan = new Map<string, string>();

/** What the model's history says of each series on `day` (YYYY-MM-DD): the last point on or before it, unless ended. */
function historyOn(id: string, day: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const s of view.history.get(id) ?? []) {
    if (s.endedOn !== null && s.endedOn <= day) continue;
    if (s.gaps.some(([from, to]) => from <= day && day < to)) continue;
    let amount: number | undefined;
    for (const p of s.points) if (p.date <= day) amount = p.amount;
    if (amount !== undefined) out.set(s.seriesKey, amount);
  }
  return out;
}

describe("history, ?at= and the runs tell one story (issue 50 §3, T456)", () => {
  it("every model's history equals the direct prices of every run, on its date", () => {
    expect(versions.length).toBeGreaterThanOrEqual(12);
    const priced = new Set(spans.prices.filter((s) => s.value.channel === "direct").map((s) => s.value.modelId));
    for (const { from, value } of spans.prices)
      if (value.channel === "direct" && from < (firstOwnSpan.get(value.modelId) ?? "9999"))
        firstOwnSpan.set(value.modelId, from);
    for (const [former, target] of view.aliasOf)
      if (priced.has(former) && !view.byId.has(former))
        formerIds.set(target, [...(formerIds.get(target) ?? []), former]);
    const disagreements: string[] = [];
    const renamed: string[] = [];
    let compared = 0;
    for (const version of versions) {
      const day = version.slice(0, 10);
      const published = directPrices(version);
      for (const id of view.byId.keys()) {
        const want = published.get(id) ?? formerPrices(published, id, version);
        const got = historyOn(id, day);
        for (const key of new Set([...want.keys(), ...got.keys()])) {
          compared++;
          if (want.get(key) !== got.get(key))
            (formerIds.has(id) ? renamed : disagreements).push(
              `${id} ${day} ${key}: run ${want.get(key) ?? "none"}, history ${got.get(key) ?? "none"}`,
            );
        }
      }
    }
    expect(compared).toBeGreaterThan(15_000);
    if (process.env.SHOW_DISAGREEMENTS) console.log([...disagreements, ...renamed].join("\n"));
    expect(disagreements.slice(0, 20), `${disagreements.length} disagreements`).toEqual([]);
    // Models whose history joins a former id's (renames, issue 12 §11): 56 disagreed before T507
    // (a former-only series never ended; a former id's later gap hid the model's own prices).
    expect(renamed.slice(0, 20), `${renamed.length} disagreements on renamed models`).toEqual([]);
  });
});
