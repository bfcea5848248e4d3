import { describe, expect, it } from "vitest";
import type { ApiChange, ApiCostEstimate, ApiModel, ApiPrice, ApiSource } from "../src/catalogue/schemas.js";
import type { Dataset } from "../src/domain/dataset.js";
import { type BodyTransform, LIVE_DATES } from "./fake-upstream.js";
import type { TestServer } from "./harness.js";
import { liveFileFixtures, servedAfterLiveRuns } from "./live-support.js";

// Issue 46 §3 Must show (T465, T466), live: a dated introductory price and its successor on ONE model,
// then withdrawn by the maker's page while genai-prices still carries the end date. Served by the
// local fake upstream over the seed of the same (June) copies, in runs in a row. Every payload is a
// REAL recorded copy edited, said here: Anthropic's 2026-05-01 page with Claude Haiku 4.5's row split
// into "[through D]" (its real prices) and "starting D+1" (1.5×), and Anthropic's own Sonnet 5 notes
// (2026-07 and 2026-08, as the public recorders keep them) with this model's name and amounts; and
// genai-prices' 2026-06-01 `data.json` with Haiku 4.5's list followed by a `start_date` D+1 list at 1.5×.
// D is 30 days after the run (the runs are live: their day is today's).

const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const spelled = (day: string) =>
  new Date(`${day}T00:00:00Z`).toLocaleDateString("en-US", {
    month: "long",
    day: "numeric",
    year: "numeric",
    timeZone: "UTC",
  });
const D = iso(Date.now() + 30 * DAY);
const NEXT = iso(Date.parse(`${D}T00:00:00Z`) + DAY);
const AFTER = iso(Date.parse(`${D}T00:00:00Z`) + 6 * DAY);
const MODEL = "anthropic/claude-haiku-4-5";

const text = (f: (page: string) => string): BodyTransform => ({
  decoded: (body) => Buffer.from(f(body.toString("utf8"))),
});
const ROW = /^\| Claude Haiku 4\.5 .*$/m;
const withNote = (page: string, note: string) =>
  page.replace(/\n<Note>\nMTok = /, `\n<Note>\n${note}\n</Note>\n\n<Note>\nMTok = `);

const DATED_PAGE = text((page) =>
  withNote(
    page.replace(
      ROW,
      [
        `| Claude Haiku 4.5 [through ${spelled(D)}](/docs/en/about-claude/pricing) | $1 / MTok | $1.25 / MTok | $2 / MTok | $0.10 / MTok | $5 / MTok |`,
        `| Claude Haiku 4.5 starting ${spelled(NEXT)} | $1.50 / MTok | $1.875 / MTok | $3 / MTok | $0.15 / MTok | $7.50 / MTok |`,
      ].join("\n"),
    ),
    `Introductory pricing of $1/$5 per million input/output tokens is in effect through ${spelled(D)}, after which the standard pricing of $1.50/$7.50 per million input/output tokens will take effect.`,
  ),
);
const WITHDRAWN_PAGE = text((page) =>
  withNote(
    page,
    `The $1/$5 per million input/output token pricing for Claude Haiku 4.5, announced at launch as introductory pricing through ${spelled(D)}, is now the standard price. The previously scheduled increase to $1.50/$7.50 per million input/output tokens on ${spelled(NEXT)} will not occur.`,
  ),
);

type GenaiModel = { id: string; prices: unknown };
/** genai-prices still dating Haiku 4.5: its real list, then 1.5× from D+1. */
const GENAI_DATED: BodyTransform = {
  decoded: (body) => {
    const providers = JSON.parse(body.toString("utf8")) as { id: string; models: GenaiModel[] }[];
    const m = providers.find((p) => p.id === "anthropic")!.models.find((x) => x.id === "claude-haiku-4-5")!;
    m.prices = [
      { prices: m.prices },
      {
        constraint: { start_date: NEXT },
        prices: { input_mtok: 1.5, cache_write_mtok: 1.875, cache_read_mtok: 0.15, output_mtok: 7.5 },
      },
    ];
    return Buffer.from(JSON.stringify(providers));
  },
};

const COST = "inputTokens=1000000&outputTokens=1000000&requests=20";

async function json<T>(server: TestServer, path: string): Promise<T> {
  const res = await server.get(`/api/v1${path}`);
  expect(res.status, `${path}: ${await res.clone().text()}`).toBe(200);
  return ((await res.json()) as { data: T }).data;
}

/** What a user is told of Haiku 4.5 after a run: its Input and Output today and after D, /cost on both days, the announcement records. */
async function answers(server: TestServer) {
  const price = (m: ApiModel, label: string) => m.prices.find((p) => p.label === label) as ApiPrice;
  const today = await json<ApiModel>(server, `/models/${MODEL}`);
  const after = await json<ApiModel>(server, `/models/${MODEL}?at=${AFTER}`);
  const cost = async (at: string) =>
    (await json<ApiCostEstimate[]>(server, `/cost?model=${MODEL}&${COST}${at}`)).find((e) => e.channel === "direct")
      ?.totals;
  const changes = await json<ApiChange[]>(server, "/changes?kind=price_announced,announcement_withdrawn&limit=500");
  const sources = await json<ApiSource[]>(server, "/sources");
  return {
    input: price(today, "Input"),
    output: price(today, "Output"),
    inputAfter: price(after, "Input"),
    costToday: await cost(""),
    costAfter: await cost(`&at=${AFTER}`),
    changes: changes.filter((c) => c.model === MODEL && (c.label === "Input" || c.label === "Output")),
    page: sources.find((s) => s.source === "official-anthropic")!,
  };
}

const live = liveFileFixtures({ dates: LIVE_DATES });

describe("a maker's page announces an introductory price's end, then withdraws it (issue 46 §3 Must show)", () => {
  it("one model carries effectiveUntil / announced; the page's withdrawal wins over genai-prices' end date", async () => {
    const [announced, withdrawn] = await servedAfterLiveRuns(
      live.seed,
      [
        (u) => {
          u.transform("official-anthropic", DATED_PAGE);
          u.transform("genai-prices", GENAI_DATED);
        },
        (u) => u.transform("official-anthropic", WITHDRAWN_PAGE),
      ],
      answers,
    );
    // Run 1: one model (no `…-through-…` id), its price until D+1, 1.5× announced, verified by the page.
    expect(announced!.page.lastError).toBeNull();
    expect(announced!.input).toMatchObject({
      amount: 1,
      confidence: "verified",
      effectiveUntil: `${NEXT}T00:00:00.000Z`,
      announced: { amount: 1.5, effectiveFrom: `${NEXT}T00:00:00.000Z`, source: "official-anthropic" },
    });
    expect(announced!.output).toMatchObject({ amount: 5, announced: { amount: 7.5 } });
    expect(announced!.inputAfter).toMatchObject({ amount: 1.5 });
    expect(announced!.changes.map((c) => [c.kind, c.label, c.oldAmount, c.newAmount])).toEqual(
      expect.arrayContaining([
        ["price_announced", "Input", 1, 1.5],
        ["price_announced", "Output", 5, 7.5],
      ]),
    );

    // Run 2: the page says the increase will not occur; genai-prices still dates it.
    expect(withdrawn!.page.lastError).toBeNull();
    expect(withdrawn!.page.sentencesForReview).toBe(0);
    expect(withdrawn!.input).toMatchObject({
      amount: 1,
      confidence: "verified",
      effectiveUntil: null,
      announced: null,
    });
    expect(withdrawn!.input.dissenting).toContain("genai-prices"); // its dated price is a dissent (T466)
    expect(withdrawn!.input.sources).not.toContain("genai-prices");
    // ?at= after the date and /cost on it give the standing price, as today.
    expect(withdrawn!.inputAfter).toMatchObject({ amount: 1 });
    expect(withdrawn!.costAfter).toEqual(withdrawn!.costToday);
    expect(announced!.costAfter).not.toEqual(announced!.costToday);
    // /changes with the announcement kinds shows both records.
    const records = withdrawn!.changes.map((c) => [c.kind, c.label, c.oldAmount, c.newAmount]);
    expect(records).toEqual(
      expect.arrayContaining([
        ["price_announced", "Input", 1, 1.5],
        ["price_announced", "Output", 5, 7.5],
        ["announcement_withdrawn", "Input", 1.5, 1],
        ["announcement_withdrawn", "Output", 7.5, 5],
      ]),
    );
  });
});

// Issue 46 §4 (T467): the fault matrix's new columns that publish, each from the real June copy edited.

/** Claude Opus 4.1's Input and its pending move, /sources' counts, and the model's fast-mode prices, after a run. */
async function opusAndFast(server: TestServer, dataset: Dataset) {
  const opus = await json<ApiModel>(server, "/models/anthropic/claude-opus-4-1");
  const sources = await json<ApiSource[]>(server, "/sources");
  const removed = await json<ApiChange[]>(server, "/changes?kind=price_removed&limit=500");
  return {
    input: opus.prices.find((p) => p.label === "Input")!,
    page: sources.find((s) => s.source === "official-anthropic")!,
    haikuFast: dataset.prices.filter((p) => p.modelId === MODEL && p.channel === "direct" && p.tier === "priority"),
    removedHaiku: removed.filter((c) => c.model === MODEL),
  };
}

const OPUS_41_INPUT = text((page) => page.replace(/^(\| Claude Opus 4\.1\s+\| )\$15 \/ MTok/m, "$1$45 / MTok"));
const FAST_ON_HAIKU = text((page) =>
  page.replace("Currently supported on Opus 4.6:", "Currently supported on Opus 4.6 and Haiku 4.5:"),
);

describe("a page moving a price against every aggregator waits for the next fetch (issue 46 §4 Must show)", () => {
  it("first sighting pending (on the price and in /sources), never the price; the next fetch publishes it", async () => {
    const [first, second] = await servedAfterLiveRuns(
      live.seed,
      [(u) => u.transform("official-anthropic", OPUS_41_INPUT), () => {}],
      opusAndFast,
    );
    expect(first!.page.lastError).toBeNull();
    expect(first!.input).toMatchObject({
      amount: 15,
      pending: { source: "official-anthropic", amount: 45 },
    });
    expect(first!.page.pendingMoves).toBe(1);
    expect(Object.keys(first!.page.unmappedByField).filter((k) => k.startsWith("pending move:"))).toEqual([
      expect.stringMatching(/^pending move: anthropic\/claude-opus-4-1 .* 15 → 45 \(every aggregator states 15\)/),
    ]);
    // The next fetch states the same: published, the maker's word (the aggregators dissent).
    expect(second!.input.amount).toBe(45);
    expect(second!.input.pending).toBeUndefined();
    expect(second!.page.pendingMoves).toBe(0);
  });

  it("a corrected page removes what the bad one added, recorded as price_removed", async () => {
    const [bad, corrected] = await servedAfterLiveRuns(
      live.seed,
      [(u) => u.transform("official-anthropic", FAST_ON_HAIKU), (u) => u.transform("official-anthropic", null)],
      opusAndFast,
    );
    // The bad copy names Haiku 4.5 in fast mode: 30 / 150, which no aggregator states (nothing to wait for).
    expect(bad!.haikuFast.map((p) => [p.direction, p.amount, p.sources])).toEqual([
      ["input", 30, ["official-anthropic"]],
      ["output", 150, ["official-anthropic"]],
    ]);
    const labels = bad!.haikuFast.map((p) => p.label);
    // The corrected copy: gone now — not served on at `medium` with `staleSince` — and recorded.
    expect(corrected!.haikuFast).toEqual([]);
    expect(corrected!.removedHaiku.filter((c) => labels.includes(c.label)).map((c) => c.kind)).toEqual([
      "price_removed",
      "price_removed",
    ]);
  });
});
