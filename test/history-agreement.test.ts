import { describe, expect } from "vitest";
import type { CatalogueView } from "../src/catalogue/view.js";
import { seriesKey } from "../src/core/detect-changes.js";
import type { StoredSpans } from "../src/store/catalogue-store.js";
import { bindShared } from "./fixtures.js";
import { readReplayStore } from "./harness.js";

/**
 * Issue 50 §3 (T456): one story per price. Over the bundled replay, for every model and every run
 * date, the model's history (what `/models/{id}/history` serves, D17) holds at that date exactly the
 * direct prices the run published (what `?at=` answers: the version's own prices, issue 17 §2), and
 * a series that the run no longer publishes is ended (`endedOn`) by then.
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
function formerPrices(published: ReadonlyMap<string, ReadonlyMap<string, number>>, id: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const [former, target] of view.aliasOf)
    if (target === id) for (const [key, amount] of published.get(former) ?? []) out.set(key, amount);
  return out;
}

/** What the model's history says of each series on `day` (YYYY-MM-DD): the last point on or before it, unless ended. */
function historyOn(id: string, day: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const s of view.history.get(id) ?? []) {
    if (s.endedOn !== null && s.endedOn <= day) continue;
    let amount: number | undefined;
    for (const p of s.points) if (p.date <= day) amount = p.amount;
    if (amount !== undefined) out.set(s.seriesKey, amount);
  }
  return out;
}

describe("history, ?at= and the runs tell one story (issue 50 §3, T456)", () => {
  it("every model's history equals the direct prices of every run, on its date", () => {
    expect(versions.length).toBeGreaterThanOrEqual(12);
    const disagreements: string[] = [];
    let compared = 0;
    for (const version of versions) {
      const day = version.slice(0, 10);
      const published = directPrices(version);
      for (const id of view.byId.keys()) {
        const want = published.get(id) ?? formerPrices(published, id);
        const got = historyOn(id, day);
        for (const key of new Set([...want.keys(), ...got.keys()])) {
          compared++;
          if (want.get(key) !== got.get(key))
            disagreements.push(
              `${id} ${day} ${key}: run ${want.get(key) ?? "none"}, history ${got.get(key) ?? "none"}`,
            );
        }
      }
    }
    expect(compared).toBeGreaterThan(15_000);
    if (process.env.SHOW_DISAGREEMENTS) console.log(disagreements.join("\n"));
    expect(disagreements.slice(0, 20), `${disagreements.length} disagreements`).toEqual([]);
  });
});
