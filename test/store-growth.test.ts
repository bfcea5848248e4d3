import { copyFileSync, cpSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import SQLite from "better-sqlite3";
import { afterAll, beforeAll, expect, it } from "vitest";
import { ingestSnapshots } from "../src/ingest/run-ingest.js";
import { SOURCES } from "../src/sources/registry.js";
import { openSqliteStore } from "../src/store/open-store.js";
import { replayDbPath } from "./harness.js";

// Issue 17 §2 "Must show": with prices and models stored as validity intervals (T146), a run that
// changes nothing grows the store by less than 10 % of one full catalogue. Measured on real SQLite
// files: the 12-month replay, then the last month's payloads replayed again as a new run.
const UPSTREAM = "data/upstream";
const LAST = "2026-06-01";
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "tariff-growth-"));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** A snapshot folder holding every source's `LAST` payload under the date `as`. */
function lastMonthAs(root: string, as: string): void {
  for (const source of readdirSync(UPSTREAM)) {
    const from = join(UPSTREAM, source, LAST);
    if (existsSync(from)) cpSync(from, join(root, source, as), { recursive: true });
  }
}

/** Bytes of the pages in use (the file less its free pages, which SQLite reuses before growing). */
function usedBytes(path: string): number {
  const db = new SQLite(path, { readonly: true });
  try {
    const pages = db.pragma("page_count", { simple: true }) as number;
    const free = db.pragma("freelist_count", { simple: true }) as number;
    return (pages - free) * (db.pragma("page_size", { simple: true }) as number);
  } finally {
    db.close();
  }
}

/** Bytes of the tables (and their indexes) that hold the published catalogue, by SQLite's dbstat. */
function catalogueBytes(path: string): number {
  const db = new SQLite(path, { readonly: true });
  try {
    const row = db
      .prepare(
        "select sum(pgsize) as bytes from dbstat where name in ('price_span', 'model_span', 'provider', " +
          "'sqlite_autoindex_price_span_1', 'sqlite_autoindex_model_span_1', 'sqlite_autoindex_provider_1', " +
          "'price_span_valid_to', 'model_span_valid_to')",
      )
      .get() as { bytes: number };
    return row.bytes;
  } finally {
    db.close();
  }
}

// Two full ingestions of a month and a copy of the replay: minutes on a loaded machine, not a timed assertion.
it("replaying the last month again grows the store by less than 10 % of one full catalogue", {
  timeout: 240_000,
}, async () => {
  // One full catalogue: a fresh store holding only the last month's run.
  const single = join(dir, "single.db");
  const singleRoot = join(dir, "single-snap");
  lastMonthAs(singleRoot, LAST);
  const one = await openSqliteStore(single);
  const [published] = await ingestSnapshots(one, singleRoot, SOURCES);
  await one.close();
  const catalogue = catalogueBytes(single);
  expect(published!.prices.length).toBeGreaterThan(10_000);

  // The 12-month replay of the global setup, copied, then the last month again as 2026-07-01.
  const replay = join(dir, "replay.db");
  copyFileSync(await replayDbPath(), replay);
  const before = statSync(replay).size;
  const usedBefore = usedBytes(replay);
  const again = join(dir, "again-snap");
  lastMonthAs(again, "2026-07-01");
  const store = await openSqliteStore(replay);
  const june = (await store.loadDataset())!;
  const [july] = await ingestSnapshots(store, again, SOURCES);
  expect(july!.run.datasetVersion).toBe("2026-07-01T00:00:00.000Z");
  expect((await store.loadDataset())!.prices.length).toBe(july!.prices.length);
  // The June version still reads back whole after the July spans were written.
  expect((await store.loadDataset(june.run.datasetVersion))!.prices).toEqual(june.prices);
  await store.close();
  const after = statSync(replay).size;
  const usedAfter = usedBytes(replay);
  const growth = after - before;
  const usedGrowth = usedAfter - usedBefore;
  const pct = (n: number) => `${((n / catalogue) * 100).toFixed(2)} %`;
  console.log(
    `store growth (issue 17): 12-month replay ${before} B (${usedBefore} B in use), after replaying ${LAST} ` +
      `again ${after} B (${usedAfter} B in use): file +${growth} B = ${pct(growth)}, pages in use +${usedGrowth} B = ` +
      `${pct(usedGrowth)} of one full catalogue (${catalogue} B of price/model/provider pages, ` +
      `${published!.prices.length} prices)`,
  );
  expect(growth).toBeLessThan(catalogue * 0.1);
  expect(usedGrowth).toBeLessThan(catalogue * 0.1);
});
