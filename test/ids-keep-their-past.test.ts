import { describe, expect } from "vitest";
import { callEndpoint } from "../src/catalogue/call.js";
import { ChangesInput, changesEndpoint } from "../src/catalogue/endpoints/changes.js";
import { compareEndpoint } from "../src/catalogue/endpoints/compare.js";
import { historyEndpoint } from "../src/catalogue/endpoints/history.js";
import { modelEndpoint } from "../src/catalogue/endpoints/model.js";
import { CatalogueError } from "../src/catalogue/errors.js";
import { historyFromSpans } from "../src/catalogue/history-spans.js";
import { StoreSpans } from "../src/catalogue/load-view.js";
import type { ApiChange, ApiModel } from "../src/catalogue/schemas.js";
import { buildView, type CatalogueView, resolveModelId } from "../src/catalogue/view.js";
import { SOURCES } from "../src/sources/registry.js";
import { it } from "./fixtures.js";
import { openReplayStore } from "./harness.js";

/**
 * Ids keep their past (issue 36 §1, T320–T322): when identity places a model's listings under a new
 * id between runs (a better spelling found, T66, T182), its `at=` answers, change records, history
 * points and first sighting follow it; the old id answers 308 for every date; a rename publishes no
 * `price_removed` + `price_added` pair. Over the replay of the bundled payloads (2025-07 → 2026-06),
 * answered in memory through the catalogue verbs.
 */

type Status = readonly [status: 200 | 308 | 404, target: string | null];

/** `GET /models/{id}?at=` (`channel`, default direct) as a status, in memory. */
async function modelAt(view: CatalogueView, id: string, at: string, channel = "direct"): Promise<Status> {
  try {
    await callEndpoint(modelEndpoint, view, { input: { channel, at } as never, path: split(id), baseUrl: "" });
    return [200, null];
  } catch (e) {
    if (e instanceof CatalogueError && e.code === "moved") return [308, e.target];
    if (e instanceof CatalogueError && e.code === "not_found") return [404, null];
    throw e;
  }
}

/** The body of a 200 `GET /models/{id}?at=`. */
async function modelBody(view: CatalogueView, id: string, at: string, channel: string): Promise<ApiModel> {
  const answer = await callEndpoint(modelEndpoint, view, {
    input: { channel, at } as never,
    path: split(id),
    baseUrl: "",
  });
  return (answer.body as { data: ApiModel }).data;
}

function split(id: string): { provider: string; model: string } {
  const bar = id.indexOf("/");
  return { provider: id.slice(0, bar), model: id.slice(bar + 1) };
}

/** The days of the bundled runs (one dataset version each), oldest first. */
function runDays(view: CatalogueView): string[] {
  return view.timeline(view.version.slice(0, 10)).versions.map((v) => v.slice(0, 10));
}

describe("at= follows the model across ids (T320)", () => {
  it("every model id of the 2026-06-01 catalogue answers 200 (or 308 to a 200) on each run day since its firstSeenAt", async ({
    replay,
  }) => {
    const { view } = replay;
    const days = runDays(view);
    expect(days.length).toBe(12);
    const exceptions: string[] = [];
    let asked = 0;
    for (const { model } of view.models) {
      for (const day of days) {
        if (day < model.firstSeenAt.slice(0, 10)) continue;
        asked++;
        let [status, target] = await modelAt(view, model.id, day);
        if (status === 308) [status] = await modelAt(view, target!, day);
        if (status !== 200) exceptions.push(`${model.id} at=${day}: ${status}`);
      }
    }
    // Before T320: 342 exceptions on 77 models (all of them models with former ids), of 9,828 questions.
    expect(asked).toBeGreaterThan(9000);
    expect(exceptions).toEqual([]);
  });

  // Issue 48 (T430, T434): since Mistral's own docs are a source, its 2026-01-01 copy names
  // `ministral-8b-2512` (data/upstream/official-mistral/2026-01-01/ministral-3-8b-25-12.ts.gz, apiNames
  // ['ministral-8b-2512', 'ministral-8b-latest']) from the model's first version, so Fireworks'
  // `ministral-3-8b-instruct-2512` is a spelling of it and never an id of its own. The former id that
  // version published is Bedrock's undated `mistral.ministral-3-8b-instruct` (its own model until the
  // ids merged).
  it("mistral/ministral-8b-2512 answers at=2026-01-15 with what the catalogue carried as ministral-3-8b-instruct", async ({
    replay,
  }) => {
    const { view } = replay;
    const id = "mistral/ministral-8b-2512";
    const old = "mistral/ministral-3-8b-instruct";
    expect(view.byId.get(id)?.model.formerIds).toContain(old);
    expect(view.byId.get(id)?.model.firstSeenAt).toBe("2026-01-01T00:00:00.000Z");
    // The example: 404 before T320.
    expect(await modelAt(view, id, "2026-01-15")).toEqual([200, null]);
    const model = await modelBody(view, id, "2026-01-15", "all");
    expect(model).toMatchObject({ id, provider: "mistral", slug: "ministral-8b-2512" });
    // OpenRouter's 0.15 / 0.15 on 2026-01-01, as Mistral's own file states it.
    const openrouter = model.prices.filter((p) => p.channel === "reseller_1");
    expect(openrouter.map((p) => [p.label, p.amount])).toEqual([
      ["Input", 0.15],
      ["Output", 0.15],
    ]);
    // Bedrock's prices as published under the old id on 2026-01-01: the spans of the old id, answered
    // under the model's id too.
    const spans = (view.timeline("2026-01-15").prices.get(old) ?? []).filter(
      (s) => s.from === "2026-01-01T00:00:00.000Z",
    );
    expect(spans.length).toBeGreaterThan(0);
    expect(spans.length).toBeLessThan(model.prices.length);
    // The old id answers 308 to the model for every date, before and after the rename.
    for (const day of runDays(view)) expect(await modelAt(view, old, day)).toEqual([308, id]);
    // /compare (and /cost, through the same state) find the model on that day under today's id too.
    const compared = await callEndpoint(compareEndpoint, view, {
      input: { models: `${id},mistral/ministral-14b-2512`, at: "2026-01-15" },
      baseUrl: "",
    });
    expect((compared.body as { meta: { found: number } }).meta.found).toBe(2);
  });

  it("a server reading one version's spans per question (T165, T199) answers the same", async ({ replay }) => {
    const spans = new StoreSpans(async () => {
      const store = await openReplayStore();
      return { store, release: () => store.close() };
    });
    // The replay's dataset with a point-in-time source instead of the whole timeline in memory.
    const lazy = buildView(replay.dataset, SOURCES, new Date(), { changes: [], history: [], timeline: spans });
    try {
      for (const day of ["2026-01-15", "2026-03-01"])
        expect(await modelBody(lazy, "mistral/ministral-8b-2512", day, "all")).toEqual(
          await modelBody(replay.view, "mistral/ministral-8b-2512", day, "all"),
        );
    } finally {
      await spans.close();
    }
  });

  it("a model's own prices stand at= beside a former id's that the same version published (T66's merge)", async ({
    replay,
  }) => {
    const { view } = replay;
    let checked = 0;
    for (const { model } of view.models) {
      if (model.formerIds.length === 0) continue;
      const timeline = view.timeline(view.version.slice(0, 10));
      for (const version of timeline.versions) {
        const own = (timeline.prices.get(model.id) ?? []).filter(
          (s) => s.from <= version && (s.to === null || s.to > version),
        );
        if (own.length === 0) continue;
        const answered = (await modelBody(view, model.id, version.slice(0, 10), "all")).prices;
        for (const s of own) {
          const same = answered.find(
            (p) =>
              p.channel === s.value.channel &&
              p.seller === s.value.seller &&
              p.label === s.value.label &&
              p.qualifiers !== undefined &&
              JSON.stringify(p.qualifiers) === JSON.stringify(s.value.qualifiers) &&
              p.contextMin === s.value.contextMin,
          );
          expect(same?.amount, `${model.id} ${s.value.channel}/${s.value.seller} ${s.value.label} at ${version}`).toBe(
            s.value.amount,
          );
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(100);
  });

  it("where a version published several former ids of a model, the one with the most prices names it and every price is one of theirs", async ({
    replay,
  }) => {
    const { view } = replay;
    const timeline = view.timeline(view.version.slice(0, 10));
    const openAt = <T>(spans: readonly { from: string; to: string | null; value: T }[] | undefined, v: string) =>
      (spans ?? []).filter((s) => s.from <= v && (s.to === null || s.to > v)).map((s) => s.value);
    let cases = 0;
    for (const { model } of view.models)
      for (const version of timeline.versions) {
        if (openAt(timeline.models.get(model.id), version).length > 0) continue;
        const formers = model.formerIds
          .map((f) => ({
            model: openAt(timeline.models.get(f), version)[0],
            prices: openAt(timeline.prices.get(f), version),
          }))
          .filter((f) => f.model !== undefined);
        if (formers.length < 2) continue;
        cases++;
        const most = Math.max(...formers.map((f) => f.prices.length));
        const answered = await modelBody(view, model.id, version.slice(0, 10), "all");
        expect(answered.id).toBe(model.id);
        expect(formers.filter((f) => f.prices.length === most).map((f) => f.model!.name)).toContain(answered.name);
        expect(answered.prices.length).toBeGreaterThanOrEqual(most);
        const theirs = new Set(
          formers.flatMap((f) => f.prices.map((p) => `${p.channel}|${p.seller}|${p.label}|${p.amount}`)),
        );
        for (const p of answered.prices)
          expect(theirs.has(`${p.channel}|${p.seller}|${p.label}|${p.amount}`)).toBe(true);
      }
    // 11 in the replay (Mistral Small 3.1's two spellings, Gemini 2.5 Flash Preview's 05-20 and thinking ids…)
    expect(cases).toBeGreaterThan(5);
  });

  it("every former id answers 308 to its model on every run day, and for its history", async ({ replay }) => {
    const { view } = replay;
    const days = runDays(view);
    const wrong: string[] = [];
    let formers = 0;
    for (const { model } of view.models) {
      for (const former of model.formerIds) {
        if (view.byId.has(former)) continue; // an id that is a model again answers as itself
        formers++;
        for (const day of days) {
          const [status, target] = await modelAt(view, former, day);
          if (status !== 308 || target !== model.id) wrong.push(`${former} at=${day}: ${status} ${target}`);
        }
        try {
          historyEndpoint.run(view, { from: undefined, to: undefined } as never, split(former), { baseUrl: "" });
          wrong.push(`${former}/history: 200`);
        } catch (e) {
          if (!(e instanceof CatalogueError && e.code === "moved" && e.target === model.id))
            wrong.push(`${former}/history: ${String(e)}`);
        }
      }
    }
    expect(formers).toBeGreaterThan(50);
    expect(wrong).toEqual([]);
  });
});

describe("change records, history and first sighting follow the model (T321, T66)", () => {
  it("/changes?provider=&model= finds the records published under a model's former ids", async ({ replay }) => {
    const { view } = replay;
    const underFormer = view.published.filter((e) => !view.byId.has(e.change.modelId));
    // 915 records of the replay were published under ids that are former ids now.
    expect(underFormer.length).toBeGreaterThan(500);
    for (const entry of underFormer) {
      const now = resolveModelId(view, entry.change.modelId);
      expect(now, entry.change.modelId).not.toBeNull();
      expect(`${entry.provider}/${entry.slug}`).toBe(now);
    }
    const all = "price_increase,price_decrease,price_removed,unit_change,price_added,coverage_added,reference_changed";
    const changesOf = async (model: string) =>
      (
        (
          await callEndpoint(changesEndpoint, view, {
            input: changesInput({ provider: "mistral", model, kind: all }),
            baseUrl: "",
          })
        ).body as { data: ApiChange[] }
      ).data;
    const now = await changesOf("ministral-8b-2512");
    // Issue 48 (T430): Mistral's own 2026-01-01 file names `ministral-8b-2512` from the model's first
    // version, so the 2026-01 additions of OpenRouter, Fireworks and Mistral were published under it;
    // Bedrock's (`mistral.ministral-3-8b-instruct`, its own model then) under the former id
    // ministral-3-8b-instruct. The record keeps the id it was published under (a stable feed item),
    // the filter follows the model.
    const january = now.filter((c) => c.occurredAt.startsWith("2026-01-01"));
    const underOld = january.filter((c) => c.model === "mistral/ministral-3-8b-instruct");
    expect(january.length).toBe(8);
    expect(underOld.length).toBe(2);
    expect(new Set(january.map((c) => c.model))).toEqual(
      new Set(["mistral/ministral-8b-2512", "mistral/ministral-3-8b-instruct"]),
    );
    // Asking by the id a record was published under still finds it.
    const old = await changesOf("ministral-3-8b-instruct");
    expect(old.filter((c) => c.occurredAt.startsWith("2026-01-01")).map((c) => c.occurredAt)).toEqual(
      underOld.map((c) => c.occurredAt),
    );
  });

  it("every history point of a renamed model's one former id, before its own first point, is in its history (T456)", async ({
    replay,
  }) => {
    const { view } = replay;
    const store = await openReplayStore();
    // The history is told by the published spans (T456), as the view loads it.
    const { points } = historyFromSpans(await store.loadDirectSpans(), await store.loadHistory());
    await store.close();
    const ownFirst = new Map<string, string>();
    const formers = new Map<string, Set<string>>();
    for (const p of points) {
      if (view.byId.has(p.modelId)) {
        if (p.date < (ownFirst.get(p.modelId) ?? "9999")) ownFirst.set(p.modelId, p.date);
      } else {
        const now = resolveModelId(view, p.modelId);
        if (now) formers.set(now, (formers.get(now) ?? new Set()).add(p.modelId));
      }
    }
    const underFormer = points.filter((p) => {
      const now = view.byId.has(p.modelId) ? null : resolveModelId(view, p.modelId);
      return now !== null && formers.get(now)!.size === 1 && p.date < (ownFirst.get(now) ?? "9999");
    });
    expect(underFormer.length).toBeGreaterThan(20);
    for (const p of underFormer) {
      const now = resolveModelId(view, p.modelId)!;
      const series = (view.history.get(now) ?? []).find((s) => s.seriesKey === p.seriesKey);
      expect(series?.points, `${p.modelId} → ${now} ${p.seriesKey}`).toContainEqual({ ...p, modelId: now });
    }
  });

  it("a model's firstSeenAt is no later than the first version that published any of its former ids", async ({
    replay,
  }) => {
    const { view } = replay;
    const timeline = view.timeline(view.version.slice(0, 10));
    for (const { model } of view.models)
      for (const former of model.formerIds) {
        const first = (timeline.models.get(former) ?? []).map((s) => s.from).sort()[0];
        if (first) expect(model.firstSeenAt <= first, `${model.id} vs ${former}`).toBe(true);
      }
  });

  it("no rename publishes a price_removed + price_added pair: a removal under an id that answers as another model has no addition on it in that channel and seller, that run or the next", ({
    replay,
  }) => {
    const { view } = replay;
    const versions = view.timeline(view.version.slice(0, 10)).versions;
    const additions = new Set(
      view.published
        .filter((e) => e.change.kind === "price_added" || e.change.kind === "coverage_added")
        .map((e) => `${e.change.modelId}|${e.change.channel}|${e.change.seller}|${e.change.publishedIn}`),
    );
    const pairs: string[] = [];
    for (const e of view.published) {
      if (e.change.kind !== "price_removed") continue;
      const now = resolveModelId(view, e.change.modelId);
      if (!now || now === e.change.modelId) continue;
      const at = versions.indexOf(e.change.publishedIn);
      for (const v of [versions[at], versions[at - 1]])
        if (additions.has(`${now}|${e.change.channel}|${e.change.seller}|${v}`))
          pairs.push(`${e.change.modelId} → ${now} ${e.change.channel}/${e.change.seller} ${e.change.label} ${v}`);
    }
    expect(pairs).toEqual([]);
  });
});

/** The `/changes` input of a query: the whole history (`since` the epoch), as the transport validates it. */
function changesInput(q: { provider: string; model: string; kind: string }) {
  return ChangesInput.parse({ ...q, since: "1970-01-01T00:00:00.000Z", limit: 500 });
}
