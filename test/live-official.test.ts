import { describe, expect, it } from "vitest";
import { priceKey } from "../src/domain/dataset.js";
import { dimensionKey } from "../src/domain/dimension.js";
import type { SourceId } from "../src/domain/observation.js";
import { type BodyTransform, type Dates, LIVE_DATES } from "./fake-upstream.js";
import { liveFileFixtures, servedAfterLiveRun, servedPrices } from "./live-support.js";

// issue 35 §2 Must show (T291): the makers' pages behind a health gate. Each broken page of the fault
// matrix is served by the local upstream during a whole live run over a store seeded with the same
// (good) payloads: the page's source fails, `/sources` says why, and no published price changes —
// its last good copy keeps its place (T178).

const text = (f: (page: string) => string): BodyTransform => ({
  decoded: (body) => Buffer.from(f(body.toString("utf8"))),
});

/** The OpenAI page with the panes of `tiers` emptied (their rows removed; the components stay). */
function withoutPanes(page: string, tiers: readonly string[]): string {
  let tier = "";
  return page
    .split("\n")
    .filter((line) => {
      tier = /\btier="([a-z]+)"/.exec(line)?.[1] ?? tier;
      return !(tiers.includes(tier) && /^\s*\["/.test(line));
    })
    .join("\n");
}

interface PageFault {
  readonly name: string;
  readonly source: SourceId;
  /** What the fake serves: a rewrite of the live copy, or another recorded copy. */
  readonly serve: { transform: BodyTransform } | { dates: Dates };
  readonly reason: RegExp;
}

const FAULTS: readonly PageFault[] = [
  {
    // Invented: no home page was recorded. A docs site's home page, answered 200 at the page's address.
    name: "a soft 404 (the site's home page, 200)",
    source: "official-anthropic",
    serve: {
      transform: text(
        () =>
          `<!DOCTYPE html><html lang="en"><head><title>Claude Docs</title></head><body><h1>Welcome to Claude Docs</h1>${"<p>Get started.</p>".repeat(1500)}</body></html>`,
      ),
    },
    reason:
      /^official-anthropic: pricing\.md: health: soft 404 \(an HTML document where the page's Markdown twin was asked for\)$/,
  },
  {
    // Invented: Cloudflare's challenge page, as it is served to a bot.
    name: "an interstitial (Just a moment…)",
    source: "official-openai",
    serve: {
      transform: text(
        () =>
          '<!DOCTYPE html><html><head><title>Just a moment...</title></head><body><div id="cf-chl-widget"></div><script src="/cdn-cgi/challenge-platform/h/g/orchestrate/chl_page/v1"></script></body></html>',
      ),
    },
    reason: /^official-openai: pricing\.md: health: interstitial \(a bot-check page, marker .*\), not the price page$/,
  },
  {
    // The real page with two of its four text-token tables (batch, priority) emptied.
    name: "half the tables gone",
    source: "official-openai",
    serve: { transform: text((page) => withoutPanes(page, ["batch", "priority"])) },
    // The general row-drop guard (T190) sees it first; the page's own gate would too (page-health.test.ts).
    reason:
      /^official-openai: (guard row-drop|health): \d+ of \d+ priced rows of the last good (run|copy) are gone \(-?(3[3-9]|4\d|5\d)\.\d %/,
  },
  {
    // The real page with one amount slipped ×100 (Claude Haiku 3 input $0.25 → $25).
    name: "a ×100 slip of one amount",
    source: "official-anthropic",
    serve: {
      transform: text((page) => page.replace(/^(\| Claude Haiku 3\s+\| )\$0\.25 \/ MTok/m, "$1$25 / MTok")),
    },
    reason:
      /^official-anthropic: health: claude-haiku-3 input moved by a unit factor ×100 \(0\.25 → 25\) against the last good copy \(last good copy /,
  },
  {
    // Issue 46 §4 (T408), edited from the real page: every Model pricing row's price cells rotated by one
    // under their headers (same cell count) — output below input on every row; the whole page is refused.
    name: "price columns rotated by one",
    source: "official-anthropic",
    serve: {
      transform: text((page) =>
        page.replace(/^(\| Claude [^|]+\|)((?:[^|\n]+\|){5})[ \t]*$/gm, (_, model: string, prices: string) => {
          const cells = prices.split("|").slice(0, 5);
          return `${model}${[cells[4], ...cells.slice(0, 4)].join("|")}|`;
        }),
      ),
    },
    reason:
      /^official-anthropic: pricing\.md: health: incoherent rows: rule output_below_input on 13 of 13 rows \(e\.g\. .*\); the whole page is refused$/,
  },
  {
    // The real recorded 2026-03-01 copy: empty text-token panes.
    name: "the 2026-03 copy with empty panes",
    source: "official-openai",
    serve: { dates: { ...LIVE_DATES, "official-openai": "2026-03-01" } },
    reason: /^official-openai: pricing\.md states no text-token prices/,
  },
];

const live = liveFileFixtures({ dates: LIVE_DATES });

describe("a maker's page that fails the health gate: no published price changes, /sources says why", () => {
  it("the seed believes both makers' pages", () => {
    const health = (id: string) => live.seed.dataset.sources.find((s) => s.source === id);
    expect(health("official-anthropic")?.lastError).toBeNull();
    expect(health("official-openai")?.lastError).toBeNull();
    expect(live.seed.dataset.prices.some((p) => p.modelId.startsWith("openai/") && p.confidence === "verified")).toBe(
      true,
    );
  });

  it.each(FAULTS)("$name ($source)", async (c) => {
    const served = await servedAfterLiveRun(
      live.seed,
      (u) => {
        if ("transform" in c.serve) u.transform(c.source, c.serve.transform);
        else u.serve(c.serve.dates);
      },
      async () => undefined,
    );
    expect(served.dataset.run.status).toBe("partial");
    expect(Object.keys(served.dataset.run.summary.failed)).toEqual([c.source]);
    const failed = served.sources.find((s) => s.source === c.source)!;
    expect(failed.lastError?.message).toMatch(c.reason);
    expect(failed.lastSuccessAt).toBe(live.seed.dataset.run.datasetVersion);
    for (const other of served.sources.filter((s) => s.source !== c.source)) expect(other.lastError).toBeNull();

    // The page's last good copy still speaks within its 35 days (T292): what it states stays verified
    // wherever another source re-confirmed it in this run.
    const verifiedBefore = live.seed.dataset.prices.filter(
      (p) =>
        p.confidence === "verified" &&
        p.sources.some((s) => !s.startsWith("official-") && p.observations.some((o) => o.source === s && o.fresh)),
    );
    expect(verifiedBefore.length).toBeGreaterThan(0);
    for (const p of verifiedBefore) {
      const now = served.dataset.prices.find((q) => priceKey(q, dimensionKey(q)) === priceKey(p, dimensionKey(p)));
      expect(now?.confidence, priceKey(p, dimensionKey(p))).toBe("verified");
    }
    const before = servedPrices(live.seed.dataset);
    const after = servedPrices(served.dataset);
    const changed = [...new Set([...before.keys(), ...after.keys()])].filter((k) => before.get(k) !== after.get(k));
    expect(changed).toEqual([]);
  });
});

// Issue 46 §2 (T406), edited from the real page: rows naming another maker's models on Anthropic's page.
// The run succeeds, nothing is published from them, and `/sources` counts them as unmatched rows.
it("another maker's rows on a maker's page: unmatched, counted in /sources, never published", async () => {
  const rows = [
    "| GPT-4o | $2.50 / MTok | - | - | $1.25 / MTok | $10 / MTok |",
    "| Gemini 2.5 Pro | $1.25 / MTok | - | - | $0.31 / MTok | $10 / MTok |",
  ];
  const served = await servedAfterLiveRun(
    live.seed,
    (u) =>
      u.transform(
        "official-anthropic",
        text((page) => page.replace(/^(\| Claude Haiku 3 .*)$/m, `$1\n${rows.join("\n")}`)),
      ),
    async () => undefined,
  );
  const record = served.sources.find((s) => s.source === "official-anthropic")!;
  expect(record.lastError).toBeNull();
  expect(Object.entries(record.unmappedByField).filter(([k]) => k.startsWith("unmatched row:"))).toEqual([
    [
      'unmatched row: Model pricing: "gemini 2.5 pro" — another maker\'s model (google: "Gemini 2.5 Pro"); a page lists only its maker\'s models',
      1,
    ],
    [
      'unmatched row: Model pricing: "gpt-4o" — another maker\'s model (openai: "GPT-4o"); a page lists only its maker\'s models',
      1,
    ],
  ]);
  expect(
    served.dataset.prices.filter(
      (p) => p.sources.includes("official-anthropic") && !p.modelId.startsWith("anthropic/"),
    ),
  ).toEqual([]);
  const before = servedPrices(live.seed.dataset);
  const after = servedPrices(served.dataset);
  expect([...new Set([...before.keys(), ...after.keys()])].filter((k) => before.get(k) !== after.get(k))).toEqual([]);
});

// Issue 46 §4 (T407, T467), edited from the real page: a future-dated row above the real one, and a
// cell that states a future price beside today's. The run succeeds and no published amount changes:
// the row is an announcement of Claude Opus 4.1 (its end and successor), the cell an unmatched row.
it.each([
  {
    name: "a future-dated row above the real one",
    edit: (page: string) =>
      page.replace(
        /^\| Claude Opus 4\.1 .*$/m,
        (row) =>
          `| Claude Opus 4.1 (starting January 1, 2027) | $30 / MTok | $37.50 / MTok | $60 / MTok | $3 / MTok | $150 / MTok |\n${row}`,
      ),
    unmatched: [],
    announced: { effectiveUntil: "2027-01-01T00:00:00.000Z", amount: 30 },
  },
  {
    name: "a cell stating a future price beside today's",
    edit: (page: string) =>
      page.replace(
        /^(\| Claude Opus 4\.1\s+\| )\$15 \/ MTok/m,
        (_, start: string) => `${start}starting January 1, 2027: $20 / MTok (until then $15)`,
      ),
    unmatched: [
      'unmatched row: Model pricing: "claude opus 4.1" — its input cell is no price in the page\'s unit ("starting january 1, 2027: $20 / mtok (until then $15)")',
    ],
    announced: null,
  },
])("$name: changes no published price", async (c) => {
  const served = await servedAfterLiveRun(
    live.seed,
    (u) => u.transform("official-anthropic", text(c.edit)),
    async () => undefined,
  );
  const record = served.sources.find((s) => s.source === "official-anthropic")!;
  expect(record.lastError).toBeNull();
  expect(Object.keys(record.unmappedByField).filter((k) => k.startsWith("unmatched row:"))).toEqual(c.unmatched);
  const before = servedPrices(live.seed.dataset);
  const after = servedPrices(served.dataset);
  expect([...new Set([...before.keys(), ...after.keys()])].filter((k) => before.get(k) !== after.get(k))).toEqual([]);
  const input = served.dataset.prices.find(
    (p) => p.modelId === "anthropic/claude-opus-4-1" && p.channel === "direct" && p.label === "Input",
  );
  expect(input?.amount).toBe(15);
  if (c.announced)
    expect(input).toMatchObject({
      effectiveUntil: c.announced.effectiveUntil,
      announced: { amount: c.announced.amount, source: "official-anthropic" },
    });
  else expect(input?.effectiveUntil ?? null).toBeNull();
});
