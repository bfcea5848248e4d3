import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { loadView } from "../src/catalogue/load-view.js";
import type { CatalogueView } from "../src/catalogue/view.js";
import { type PublishedPrice, priceKey } from "../src/domain/dataset.js";
import { dimensionKey } from "../src/domain/dimension.js";
import { runLiveIngest } from "../src/ingest/live-run.js";
import { SOURCES } from "../src/sources/registry.js";
import { openSqliteStore } from "../src/store/open-store.js";
import { LIVE_DATES, startFakeUpstream } from "./fake-upstream.js";
import { copyReplayStore, judgedNow, loadReplay, startServer } from "./harness.js";
import { QUIET, testConfig } from "./live-support.js";

// issue 46 §5 Must show (T460, T463): a copy of the bundled replay served today has no `verified`
// price (its makers' pages were last read on its 2026-06-01 run, months ago); after one live run
// against the local fake upstream serving the recorded pages (OpenAI's 2026-06-01 copy, Anthropic's
// 2026-05-01), the prices those pages state are `verified` again, every one the replay's last run
// made `verified`.

const PAGES = ["official-openai", "official-anthropic"];

interface Price {
  confidence: string;
  sources: string[];
  pageStale?: unknown;
}

const key = (p: PublishedPrice) => priceKey(p, dimensionKey(p));

/** Direct prices of a view a maker's page among `PAGES` agrees with, `verified`. */
const pagePrices = (view: CatalogueView) =>
  [...view.pricesByModel.values()]
    .flat()
    .filter((p) => p.channel === "direct" && p.sources.some((s) => PAGES.includes(s)) && p.confidence === "verified");

let dir: string;
let before: CatalogueView;
let after: CatalogueView;
/** The page prices `verified` as of the replay's last run, by price key. */
let asBuilt: Set<string>;

beforeAll(async () => {
  const replay = await loadReplay();
  await replay.store.close();
  asBuilt = new Set(pagePrices(replay.view).map(key));
  // The same store served today (the copy below is the replay's), judged as a server would judge it.
  before = judgedNow(replay.view);
  dir = await copyReplayStore(mkdtempSync(join(tmpdir(), "tariff-live-verified-")));
  const store = await openSqliteStore(join(dir, "tariff.db"));
  try {
    const upstream = await startFakeUpstream(LIVE_DATES);
    try {
      await runLiveIngest(store, SOURCES, testConfig(upstream, dir), QUIET);
    } finally {
      await upstream.close();
    }
    after = (await loadView(store, SOURCES))!;
  } finally {
    await store.close();
  }
  // Two view loads and a live run: a minute or more on a loaded 2-core machine.
}, 400_000);
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

it("served today before the live run: no price is verified", () => {
  const verified = [...before.pricesByModel.values()].flat().filter((p) => p.confidence === "verified");
  expect(verified).toEqual([]);
  expect(asBuilt.size).toBeGreaterThan(300);
});

it("after the live run: the page prices are verified again, as the replay's last run made them", async () => {
  // Every one the replay's last run made verified (the live run's own build may add some).
  const now = new Set(pagePrices(after).map(key));
  expect([...asBuilt].filter((k) => !now.has(k))).toEqual([]);
  // Through the API too: the model list's direct prices a page agrees with.
  const server = await startServer(after);
  try {
    const models = (
      (await (await server.get("/api/v1/models?limit=500&provider=openai,anthropic")).json()) as {
        data: { prices: Price[] }[];
      }
    ).data;
    const served = models.flatMap((m) => m.prices).filter((p) => p.sources.some((s) => PAGES.includes(s)));
    expect(served.filter((p) => p.confidence === "verified").length).toBe(now.size);
    expect(served.filter((p) => p.pageStale)).toEqual([]);
    console.info(
      `page prices verified: ${asBuilt.size} as the replay built them, ${now.size} after the live run (` +
        PAGES.map(
          (s) => `${s} ${pagePrices(after).filter((p) => (p.sources as readonly string[]).includes(s)).length}`,
        ).join(", ") +
        `), ${[...now].filter((k) => !asBuilt.has(k)).length} of them added by the live run's own build`,
    );
  } finally {
    await server.close();
  }
});
