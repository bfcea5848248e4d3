import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import SQLite from "better-sqlite3";
import { Kysely, Migrator, PostgresDialect, SqliteDialect } from "kysely";
import pg from "pg";
import { describe, expect, it } from "vitest";
import type { Dataset } from "../src/domain/dataset.js";
import { migrationProvider } from "../src/store/migrations.js";
import { openPostgresStore, openSqliteStore } from "../src/store/open-store.js";
import { fromModel, fromPrice, providerRow, runRow, sourceHealthRow } from "../src/store/rows.js";
import type { ModelTable, PriceTable, StoreSchema } from "../src/store/schema.js";
import { openReplayStore } from "./harness.js";
import { createPgDatabase, STORE_KINDS } from "./store-backends.js";

// Migration 0006 (issue 17, T146): a store written before it holds one copy of every price and
// model per dataset version. Such a store is built here at migration 0005 from three real replayed
// versions, written row by row as the publish of that time wrote them (the same columns and
// encodings as today's rows, `src/store/rows.ts`, less the span interval and identity, plus the
// version and order); opening it migrates it to spans, and every version must load back exactly as
// it was published.
type LegacySchema = Omit<StoreSchema, "price_span" | "model_span"> & { price: PriceTable; model: ModelTable };

async function writeLegacy(db: Kysely<LegacySchema>, dataset: Dataset): Promise<void> {
  const v = dataset.run.datasetVersion;
  await db.insertInto("run").values(runRow(dataset.run)).execute();
  await db
    .insertInto("provider")
    .values(dataset.providers.map((p) => providerRow(v, p)))
    .execute();
  for (let i = 0; i < dataset.models.length; i += 500)
    await db
      .insertInto("model")
      .values(dataset.models.slice(i, i + 500).map((m) => ({ dataset_version: v, ...fromModel(m) })))
      .execute();
  // One copy of every price per version, numbered in the version's order; no identity column.
  for (let i = 0; i < dataset.prices.length; i += 500)
    await db
      .insertInto("price")
      .values(
        dataset.prices.slice(i, i + 500).map((p, j) => {
          // No identity column, and no `validity` (migration 0008, T335).
          const { price_key: _key, validity: _validity, ...row } = fromPrice(p);
          return { dataset_version: v, ord: i + j, ...row };
        }),
      )
      .execute();
  await db
    .insertInto("source_health")
    .values(dataset.sources.map((s) => sourceHealthRow(v, s)))
    .execute();
}

describe.each(STORE_KINDS)("migration 0006 on %s", (kind) => {
  it("turns an older store's per-version copies into spans; every version loads back exactly", async () => {
    const replay = await openReplayStore();
    const datasets: Dataset[] = [];
    for (const run of (await replay.listRuns()).slice(0, 3))
      datasets.push((await replay.loadDataset(run.datasetVersion))!);
    await replay.close();

    const dir = mkdtempSync(join(tmpdir(), "tariff-migration-"));
    const pgDb = kind === "postgres" ? await createPgDatabase() : null;
    try {
      const path = join(dir, "old.db");
      const db = new Kysely<LegacySchema>({
        dialect: pgDb
          ? new PostgresDialect({ pool: new pg.Pool({ connectionString: pgDb.url, max: 2 }) })
          : new SqliteDialect({ database: new SQLite(path) }),
      });
      const { error } = await new Migrator({ db, provider: migrationProvider }).migrateTo("0005_issue13_source_health");
      expect(error).toBeUndefined();
      for (const dataset of datasets) await writeLegacy(db, dataset);
      await db.destroy();

      const store = pgDb ? await openPostgresStore(pgDb.url) : await openSqliteStore(path);
      try {
        for (const dataset of datasets) expect(await store.loadDataset(dataset.run.datasetVersion)).toEqual(dataset);
        const spans = await store.loadSpans();
        const copies = datasets.reduce((n, d) => n + d.prices.length, 0);
        // Fewer rows than the copies: prices unchanged between versions share one span.
        expect(spans.prices.length).toBeLessThan(copies);
        expect(spans.prices.length).toBeGreaterThanOrEqual(datasets[2]!.prices.length);
      } finally {
        await store.close();
      }
    } finally {
      await pgDb?.drop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
