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
import type { ModelTable, PriceTable, StoreSchema } from "../src/store/schema.js";
import { openReplayStore } from "./harness.js";
import { createPgDatabase, STORE_KINDS } from "./store-backends.js";

// Migration 0006 (issue 17, T146): a store written before it holds one copy of every price and
// model per dataset version. Such a store is built here at migration 0005 from three real replayed
// versions, written row by row as the publish of that time wrote them; opening it migrates it to
// spans, and every version must load back exactly as it was published.
type LegacySchema = Omit<StoreSchema, "price_span" | "model_span"> & { price: PriceTable; model: ModelTable };

async function writeLegacy(db: Kysely<LegacySchema>, dataset: Dataset): Promise<void> {
  const v = dataset.run.datasetVersion;
  const r = dataset.run;
  await db
    .insertInto("run")
    .values({
      id: r.id,
      dataset_version: v,
      status: r.status,
      started_at: r.startedAt,
      finished_at: r.finishedAt,
      summary: JSON.stringify(r.summary),
    })
    .execute();
  await db
    .insertInto("provider")
    .values(
      dataset.providers.map((p) => ({
        dataset_version: v,
        slug: p.slug,
        name: p.name,
        website: p.website,
        pricing_url: p.pricingUrl,
        official: p.official ? 1 : 0,
        models: p.models,
      })),
    )
    .execute();
  for (let i = 0; i < dataset.models.length; i += 500)
    await db
      .insertInto("model")
      .values(
        dataset.models.slice(i, i + 500).map((m) => ({
          dataset_version: v,
          id: m.id,
          provider: m.provider,
          slug: m.slug,
          name: m.name,
          family: m.family,
          context_window: m.contextWindow,
          max_output_tokens: m.maxOutputTokens,
          open_weights: m.openWeights ? 1 : 0,
          first_seen_at: m.firstSeenAt,
          lifecycle_state: m.lifecycle.state,
          released_on: m.lifecycle.releasedOn,
          deprecated_on: m.lifecycle.deprecatedOn,
          retires_on: m.lifecycle.retiresOn,
          aliases: JSON.stringify(m.aliases),
          former_ids: JSON.stringify(m.formerIds),
          listed: m.listed ? 1 : 0,
        })),
      )
      .execute();
  for (let i = 0; i < dataset.prices.length; i += 500)
    await db
      .insertInto("price")
      .values(
        dataset.prices.slice(i, i + 500).map((p, j) => ({
          dataset_version: v,
          ord: i + j,
          model_id: p.modelId,
          channel: p.channel,
          seller: p.seller,
          label: p.label,
          direction: p.direction,
          modality: p.modality,
          tier: p.tier,
          cache: p.cache,
          context_min: p.contextMin,
          context_max: p.contextMax,
          qualifiers: JSON.stringify(p.qualifiers),
          amount: p.amount,
          unit: p.unit,
          display_unit: p.displayUnit,
          denomination: p.denomination,
          currency: p.currency,
          confidence: p.confidence,
          confidence_score: p.confidenceScore,
          sources: JSON.stringify(p.sources),
          dissenting: JSON.stringify(p.dissenting),
          disputed: p.disputed ? 1 : 0,
          fallback_amount: p.fallbackAmount,
          effective_from: p.effectiveFrom,
          stale_since: p.staleSince,
          observations: JSON.stringify(p.observations),
        })),
      )
      .execute();
  await db
    .insertInto("source_health")
    .values(
      dataset.sources.map((s) => ({
        dataset_version: v,
        source: s.source,
        last_success_at: s.lastSuccessAt,
        last_error: s.lastError ? JSON.stringify(s.lastError) : null,
        rows_last_run: s.rowsLastRun,
        unmatched_last_run: s.unmatchedLastRun,
        last_run_status: s.lastRunStatus,
        last_run_at: s.lastRunAt,
        rejected_last_run: s.rejectedLastRun,
        rejected_by_reason: JSON.stringify(s.rejectedByReason),
        unmapped_last_run: s.unmappedLastRun,
        unmapped_by_field: JSON.stringify(s.unmappedByField),
      })),
    )
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
