import { type Kysely, Migrator, type Selectable } from "kysely";
import { z } from "zod";
import type { ChangeRecord, HistoryPoint } from "../domain/change.js";
import type {
  Dataset,
  PublishedModel,
  PublishedPrice,
  PublishedProvider,
  RunRecord,
  SourceHealth,
} from "../domain/dataset.js";
import { priceKey } from "../domain/dataset.js";
import { dimensionKey } from "../domain/dimension.js";
import type { SourceId } from "../domain/observation.js";
import { comparePrices } from "../domain/price-order.js";
import type { CatalogueStore, RunHistory, SourceState, StoredSpans } from "./catalogue-store.js";
import { COLUMN, DIMENSION_COLUMN, decode, dimensionColumns, dimensionOf, encode, JSON_COLUMN } from "./columns.js";
import { migrationProvider } from "./migrations.js";
import type { ModelSpanTable, PriceSpanTable, RunTable, StoreSchema } from "./schema.js";
import { type ModelSpanRow, PRICE_COLUMNS, type PriceSpanRow, type SpanTables, writeSpans } from "./spans.js";
import type { StoreBackend } from "./store-backend.js";

/** Rows per multi-row INSERT: stays under SQLite's 32,766 bound parameters. */
const CHUNK = 1000;

/**
 * {@link CatalogueStore} over Kysely; the same code serves SQLite and PostgreSQL (the dialect is
 * chosen by the caller, see `open-store.ts`).
 */
export class KyselyCatalogueStore implements CatalogueStore {
  readonly #db: Kysely<StoreSchema>;
  readonly #backend: StoreBackend;

  constructor(db: Kysely<StoreSchema>, backend: StoreBackend) {
    this.#db = db;
    this.#backend = backend;
  }

  withIngestLock<T>(fn: () => Promise<T>, options: { wait?: boolean } = {}): Promise<T> {
    return this.#backend.withLock(fn, options.wait ?? true);
  }

  async watchVersions(onVersion: (version: string) => void, options: { pollMs?: number } = {}) {
    let last = (await this.latestRun())?.datasetVersion ?? "";
    const check = async (hint?: string) => {
      const latest = hint && hint > last ? hint : ((await this.latestRun())?.datasetVersion ?? "");
      if (latest > last) {
        last = latest;
        onVersion(latest);
      }
    };
    const timer = setInterval(() => {
      check().catch(() => {});
    }, options.pollMs ?? this.#backend.defaultPollMs);
    timer.unref();
    const stopPush = await this.#backend.listen((version) => {
      check(version).catch(() => {});
    });
    return async () => {
      clearInterval(timer);
      await stopPush();
    };
  }

  async pruneVersions(keep: number): Promise<string[]> {
    const old = await this.#db
      .selectFrom("run")
      .select("dataset_version")
      .where("retained", "=", 1)
      .orderBy("dataset_version", "desc")
      .offset(Math.max(0, keep))
      .limit(1_000_000)
      .execute();
    const versions = old.map((r) => r.dataset_version);
    if (versions.length === 0) return [];
    await this.#db.transaction().execute(async (trx) => {
      // Price and model spans are the point-in-time record (T147): never pruned, like history.
      for (const table of ["provider", "source_health"] as const)
        await trx.deleteFrom(table).where("dataset_version", "in", versions).execute();
      await trx.updateTable("run").set({ retained: 0 }).where("dataset_version", "in", versions).execute();
    });
    return versions;
  }

  /** @throws Error naming the failed migration */
  async migrate(): Promise<void> {
    const { error, results } = await new Migrator({ db: this.#db, provider: migrationProvider }).migrateToLatest();
    if (error) {
      const failed = results?.find((r) => r.status === "Error")?.migrationName ?? "unknown";
      throw new Error(`store migration ${failed} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  async latestRun(): Promise<RunRecord | null> {
    const row = await this.#db
      .selectFrom("run")
      .selectAll()
      .orderBy("dataset_version", "desc")
      .limit(1)
      .executeTakeFirst();
    return row ? toRun(row) : null;
  }

  async listRuns(): Promise<RunRecord[]> {
    const rows = await this.#db.selectFrom("run").selectAll().orderBy("dataset_version", "asc").execute();
    return rows.map(toRun);
  }

  async loadDataset(version?: string): Promise<Dataset | null> {
    const run = version
      ? await this.#db.selectFrom("run").selectAll().where("dataset_version", "=", version).executeTakeFirst()
      : await this.#db
          .selectFrom("run")
          .selectAll()
          .where("retained", "=", 1)
          .orderBy("dataset_version", "desc")
          .limit(1)
          .executeTakeFirst();
    if (!run || run.retained === 0) return null;
    const v = run.dataset_version;
    const [providers, models, prices, sources] = await Promise.all([
      this.#db.selectFrom("provider").selectAll().where("dataset_version", "=", v).orderBy("slug").execute(),
      this.#db
        .selectFrom("model_span")
        .selectAll()
        .where("valid_from", "<=", v)
        .where((eb) => eb.or([eb("valid_to", "is", null), eb("valid_to", ">", v)]))
        .orderBy("id")
        .execute(),
      this.#db
        .selectFrom("price_span")
        .selectAll()
        .where("valid_from", "<=", v)
        .where((eb) => eb.or([eb("valid_to", "is", null), eb("valid_to", ">", v)]))
        .execute(),
      this.#db.selectFrom("source_health").selectAll().where("dataset_version", "=", v).orderBy("source").execute(),
    ]);
    return {
      run: toRun(run),
      providers: providers.map(
        (p): PublishedProvider => ({
          slug: p.slug,
          name: p.name,
          website: p.website,
          pricingUrl: p.pricing_url,
          official: p.official === 1,
          models: Number(p.models),
        }),
      ),
      models: models.map(toModel),
      prices: prices.map(toPrice).sort(comparePrices),
      sources: sources.map(
        (s): SourceHealth => ({
          source: decode(COLUMN.source, s.source, "source_health.source"),
          lastSuccessAt: s.last_success_at,
          lastError: s.last_error ? decode(JSON_COLUMN.lastError, s.last_error, "source_health.last_error") : null,
          rowsLastRun: Number(s.rows_last_run),
          unmatchedLastRun: Number(s.unmatched_last_run),
          ...runOf(s, v),
          rejectedLastRun: Number(s.rejected_last_run),
          rejectedByReason: decode(JSON_COLUMN.counts, s.rejected_by_reason, "source_health.rejected_by_reason"),
          unmappedLastRun: Number(s.unmapped_last_run),
          unmappedByField: decode(JSON_COLUMN.counts, s.unmapped_by_field, "source_health.unmapped_by_field"),
        }),
      ),
    };
  }

  async loadSourceStates(): Promise<Map<SourceId, SourceState>> {
    const rows = await this.#db.selectFrom("source_state").selectAll().execute();
    return new Map(
      rows.map((r): [SourceId, SourceState] => {
        const source = decode(COLUMN.source, r.source, "source_state.source");
        const listings = decode(JSON_COLUMN.listings, r.listings, "source_state.listings");
        return [source, { source, observedAt: r.observed_at, listings }];
      }),
    );
  }

  async loadChanges(): Promise<ChangeRecord[]> {
    const rows = await this.#db
      .selectFrom("change_record")
      .selectAll()
      .orderBy("dataset_version")
      .orderBy("seq")
      .execute();
    return rows.map(
      (r): ChangeRecord => ({
        kind: decode(COLUMN.changeKind, r.kind, "change_record.kind"),
        modelId: r.model_id,
        modelName: r.model_name,
        providerName: r.provider_name,
        channel: decode(COLUMN.channel, r.channel, "change_record.channel"),
        seller: r.seller,
        label: r.label,
        displayUnit: r.display_unit,
        oldAmount: nullableNumber(r.old_amount),
        newAmount: nullableNumber(r.new_amount),
        deltaPct: nullableNumber(r.delta_pct),
        occurredAt: r.occurred_at,
      }),
    );
  }

  async loadHistory(): Promise<HistoryPoint[]> {
    const rows = await this.#db
      .selectFrom("history_point")
      .selectAll()
      .orderBy("model_id")
      .orderBy("series_key")
      .orderBy("date")
      .orderBy("seq")
      .execute();
    return rows.map(
      (r): HistoryPoint => ({
        modelId: r.model_id,
        seriesKey: r.series_key,
        label: r.label,
        displayUnit: r.display_unit,
        date: r.date,
        amount: Number(r.amount),
        seq: Number(r.seq),
        recordedBy: r.recorded_by,
      }),
    );
  }

  async loadSpans(): Promise<StoredSpans> {
    const [prices, models] = await Promise.all([
      this.#db
        .selectFrom("price_span")
        .select(["valid_from", "valid_to", ...PRICE_COLUMNS.filter((c) => c !== "observations")])
        .execute(),
      this.#db.selectFrom("model_span").selectAll().execute(),
    ]);
    return {
      // Evidence is provenance for ingestion; point-in-time answers do not read it.
      prices: prices.map((r) => ({
        from: r.valid_from,
        to: r.valid_to,
        value: toPrice({ ...r, observations: "[]" }),
      })),
      models: models.map((r) => ({ from: r.valid_from, to: r.valid_to, value: toModel(r) })),
    };
  }

  async publish(dataset: Dataset, states: readonly SourceState[], history?: RunHistory): Promise<void> {
    const v = dataset.run.datasetVersion;
    await this.#db.transaction().execute(async (trx) => {
      // Spans are written in version order (D9: versions only grow); an older version would corrupt them.
      const newest = await trx
        .selectFrom("run")
        .select("dataset_version")
        .orderBy("dataset_version", "desc")
        .limit(1)
        .executeTakeFirst();
      if (newest && newest.dataset_version >= v)
        throw new Error(`dataset version ${v} is not newer than the store's latest ${newest.dataset_version}`);
      const r = dataset.run;
      await trx
        .insertInto("run")
        .values({
          id: r.id,
          dataset_version: v,
          status: r.status,
          started_at: r.startedAt,
          finished_at: r.finishedAt,
          summary: encode(JSON_COLUMN.runSummary, r.summary),
        })
        .execute();
      for (const chunk of chunks(dataset.providers)) {
        await trx
          .insertInto("provider")
          .values(
            chunk.map((p) => ({
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
      }
      // The span tables are part of StoreSchema; Kysely types a narrower database invariantly.
      await writeSpans(
        trx as unknown as Kysely<SpanTables>,
        v,
        dataset.prices.map(fromPrice),
        dataset.models.map(fromModel),
      );
      if (dataset.sources.length > 0) {
        await trx
          .insertInto("source_health")
          .values(
            dataset.sources.map((s) => ({
              dataset_version: v,
              source: s.source,
              last_success_at: s.lastSuccessAt,
              last_error: s.lastError ? encode(JSON_COLUMN.lastError, s.lastError) : null,
              rows_last_run: s.rowsLastRun,
              unmatched_last_run: s.unmatchedLastRun,
              last_run_status: s.lastRunStatus,
              last_run_at: s.lastRunAt,
              rejected_last_run: s.rejectedLastRun,
              rejected_by_reason: encode(JSON_COLUMN.counts, s.rejectedByReason),
              unmapped_last_run: s.unmappedLastRun,
              unmapped_by_field: encode(JSON_COLUMN.counts, s.unmappedByField),
            })),
          )
          .execute();
      }
      let seq = 0;
      for (const chunk of chunks(history?.changes ?? [])) {
        await trx
          .insertInto("change_record")
          .values(
            chunk.map((c) => ({
              dataset_version: v,
              seq: seq++,
              kind: c.kind,
              model_id: c.modelId,
              model_name: c.modelName,
              provider_name: c.providerName,
              channel: c.channel,
              seller: c.seller,
              label: c.label,
              display_unit: c.displayUnit,
              old_amount: c.oldAmount,
              new_amount: c.newAmount,
              delta_pct: c.deltaPct,
              occurred_at: c.occurredAt,
            })),
          )
          .execute();
      }
      for (const chunk of chunks(history?.points ?? [])) {
        await trx
          .insertInto("history_point")
          .values(
            chunk.map((point) => ({
              model_id: point.modelId,
              series_key: point.seriesKey,
              date: point.date,
              seq: point.seq,
              label: point.label,
              display_unit: point.displayUnit,
              amount: point.amount,
              recorded_by: point.recordedBy,
            })),
          )
          .onConflict((oc) => oc.doNothing())
          .execute();
      }
      await this.#backend.afterPublish(trx, v);
      for (const s of states) {
        const row = { source: s.source, observed_at: s.observedAt, listings: encode(JSON_COLUMN.listings, s.listings) };
        await trx
          .insertInto("source_state")
          .values(row)
          .onConflict((oc) => oc.column("source").doUpdateSet({ observed_at: row.observed_at, listings: row.listings }))
          .execute();
      }
    });
  }

  async close(): Promise<void> {
    await this.#backend.close();
    await this.#db.destroy();
  }
}

function* chunks<T>(items: readonly T[]): Generator<T[]> {
  for (let i = 0; i < items.length; i += CHUNK) yield items.slice(i, i + CHUNK);
}

function nullableNumber(v: number | string | bigint | null): number | null {
  return v === null ? null : Number(v);
}

function toRun(row: Selectable<RunTable>): RunRecord {
  return {
    id: row.id,
    datasetVersion: row.dataset_version,
    status: decode(COLUMN.runStatus, row.status, "run.status"),
    startedAt: row.started_at,
    finishedAt: row.finished_at,
    summary: decode(JSON_COLUMN.runSummary, row.summary, "run.summary"),
  };
}

function fromPrice(p: PublishedPrice): PriceSpanRow {
  return {
    price_key: priceKey(p, dimensionKey(p)),
    model_id: p.modelId,
    channel: p.channel,
    seller: p.seller,
    label: p.label,
    ...dimensionColumns(p),
    amount: p.amount,
    unit: p.unit,
    display_unit: p.displayUnit,
    denomination: p.denomination,
    currency: p.currency,
    confidence: p.confidence,
    confidence_score: p.confidenceScore,
    sources: encode(JSON_COLUMN.sources, p.sources),
    dissenting: encode(JSON_COLUMN.sources, p.dissenting),
    disputed: p.disputed ? 1 : 0,
    fallback_amount: p.fallbackAmount,
    effective_from: p.effectiveFrom,
    stale_since: p.staleSince,
    observations: encode(JSON_COLUMN.evidence, p.observations),
  };
}

/** A price row, its enum and JSON columns decoded in one pass (T163). */
const PriceRow = z.object({
  channel: COLUMN.channel,
  ...DIMENSION_COLUMN,
  unit: COLUMN.unit,
  denomination: COLUMN.denomination,
  confidence: COLUMN.confidence,
  sources: JSON_COLUMN.sources,
  dissenting: JSON_COLUMN.sources,
  observations: JSON_COLUMN.evidence,
});

function fromModel(m: PublishedModel): ModelSpanRow {
  return {
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
    aliases: encode(JSON_COLUMN.strings, m.aliases),
    former_ids: encode(JSON_COLUMN.strings, m.formerIds),
    listed: m.listed ? 1 : 0,
  };
}

function toModel(m: Selectable<ModelSpanTable>): PublishedModel {
  return {
    id: m.id,
    provider: m.provider,
    slug: m.slug,
    name: m.name,
    family: m.family,
    contextWindow: nullableNumber(m.context_window),
    maxOutputTokens: nullableNumber(m.max_output_tokens),
    openWeights: Number(m.open_weights) === 1,
    firstSeenAt: m.first_seen_at,
    lifecycle: {
      state: decode(COLUMN.lifecycleState, m.lifecycle_state, "model_span.lifecycle_state"),
      releasedOn: m.released_on,
      deprecatedOn: m.deprecated_on,
      retiresOn: m.retires_on,
    },
    aliases: decode(JSON_COLUMN.strings, m.aliases, "model_span.aliases"),
    formerIds: decode(JSON_COLUMN.strings, m.former_ids, "model_span.former_ids"),
    listed: Number(m.listed) === 1,
  };
}

function toPrice(r: Selectable<PriceSpanTable>): PublishedPrice {
  const c = decode(PriceRow, r, "price_span");
  return {
    modelId: r.model_id,
    channel: c.channel,
    seller: r.seller,
    label: r.label,
    ...dimensionOf(c, r),
    amount: Number(r.amount),
    unit: c.unit,
    displayUnit: r.display_unit,
    denomination: c.denomination,
    currency: r.currency,
    confidence: c.confidence,
    confidenceScore: Number(r.confidence_score),
    sources: c.sources,
    dissenting: c.dissenting,
    disputed: Number(r.disputed) === 1,
    fallbackAmount: nullableNumber(r.fallback_amount),
    effectiveFrom: r.effective_from,
    staleSince: r.stale_since,
    observations: c.observations,
  };
}

/**
 * Last-run status and time of a health row; rows published before migration 0004 have neither
 * and get them from what they do say (a success or an error at the row's own version, else absent).
 */
function runOf(
  s: {
    last_run_status: string | null;
    last_run_at: string | null;
    last_success_at: string | null;
    last_error: string | null;
  },
  version: string,
): Pick<SourceHealth, "lastRunStatus" | "lastRunAt"> {
  if (s.last_run_status !== null)
    return {
      lastRunStatus: decode(COLUMN.sourceRunStatus, s.last_run_status, "source_health.last_run_status"),
      lastRunAt: s.last_run_at,
    };
  const errorAt = s.last_error ? decode(JSON_COLUMN.lastError, s.last_error, "source_health.last_error").at : null;
  if (s.last_success_at === version) return { lastRunStatus: "succeeded", lastRunAt: version };
  if (errorAt === version) return { lastRunStatus: "failed", lastRunAt: version };
  const times = [s.last_success_at, errorAt].filter((t): t is string => t !== null).sort();
  return { lastRunStatus: "not_run", lastRunAt: times[times.length - 1] ?? null };
}
