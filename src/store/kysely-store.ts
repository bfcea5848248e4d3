import { type Kysely, Migrator, type Selectable } from "kysely";
import type { ChangeRecord, HistoryPoint } from "../domain/change.js";
import type {
  Dataset,
  PublishedModel,
  PublishedPrice,
  PublishedProvider,
  RunRecord,
  SourceHealth,
} from "../domain/dataset.js";
import type { Listing, SourceId } from "../domain/observation.js";
import type { CatalogueStore, RunHistory, SourceState } from "./catalogue-store.js";
import { migrationProvider } from "./migrations.js";
import type { PriceTable, RunTable, StoreSchema } from "./schema.js";
import type { StoreBackend } from "./store-backend.js";

/** Rows per multi-row INSERT: stays under SQLite's 32,766 bound parameters (27 columns per price). */
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
      for (const table of ["provider", "model", "price", "source_health"] as const)
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
      this.#db.selectFrom("model").selectAll().where("dataset_version", "=", v).orderBy("id").execute(),
      this.#db.selectFrom("price").selectAll().where("dataset_version", "=", v).orderBy("ord").execute(),
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
      models: models.map(
        (m): PublishedModel => ({
          id: m.id,
          provider: m.provider,
          slug: m.slug,
          name: m.name,
          family: m.family,
          contextWindow: nullableNumber(m.context_window),
          maxOutputTokens: nullableNumber(m.max_output_tokens),
          openWeights: m.open_weights === 1,
          firstSeenAt: m.first_seen_at,
          lifecycle: {
            state: m.lifecycle_state as PublishedModel["lifecycle"]["state"],
            releasedOn: m.released_on,
            deprecatedOn: m.deprecated_on,
            retiresOn: m.retires_on,
          },
          aliases: JSON.parse(m.aliases) as string[],
          formerIds: JSON.parse(m.former_ids) as string[],
          listed: m.listed === 1,
        }),
      ),
      prices: prices.map(toPrice),
      sources: sources.map(
        (s): SourceHealth => ({
          source: s.source as SourceId,
          lastSuccessAt: s.last_success_at,
          lastError: s.last_error ? (JSON.parse(s.last_error) as SourceHealth["lastError"]) : null,
          rowsLastRun: Number(s.rows_last_run),
          unmatchedLastRun: Number(s.unmatched_last_run),
          ...runOf(s, v),
          rejectedLastRun: Number(s.rejected_last_run),
          rejectedByReason: JSON.parse(s.rejected_by_reason) as Record<string, number>,
          unmappedLastRun: Number(s.unmapped_last_run),
          unmappedByField: JSON.parse(s.unmapped_by_field) as Record<string, number>,
        }),
      ),
    };
  }

  async loadSourceStates(): Promise<Map<SourceId, SourceState>> {
    const rows = await this.#db.selectFrom("source_state").selectAll().execute();
    return new Map(
      rows.map((r) => [
        r.source as SourceId,
        { source: r.source as SourceId, observedAt: r.observed_at, listings: JSON.parse(r.listings) as Listing[] },
      ]),
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
        kind: r.kind as ChangeRecord["kind"],
        modelId: r.model_id,
        modelName: r.model_name,
        providerName: r.provider_name,
        channel: r.channel as ChangeRecord["channel"],
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

  async publish(dataset: Dataset, states: readonly SourceState[], history?: RunHistory): Promise<void> {
    const v = dataset.run.datasetVersion;
    await this.#db.transaction().execute(async (trx) => {
      const r = dataset.run;
      await trx
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
      for (const chunk of chunks(dataset.models)) {
        await trx
          .insertInto("model")
          .values(
            chunk.map((m) => ({
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
      }
      let ord = 0;
      for (const chunk of chunks(dataset.prices)) {
        await trx
          .insertInto("price")
          .values(chunk.map((p) => fromPrice(v, ord++, p)))
          .execute();
      }
      if (dataset.sources.length > 0) {
        await trx
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
        const row = { source: s.source, observed_at: s.observedAt, listings: JSON.stringify(s.listings) };
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
    status: row.status as RunRecord["status"],
    startedAt: row.started_at,
    finishedAt: row.finished_at,
    summary: JSON.parse(row.summary) as RunRecord["summary"],
  };
}

function fromPrice(v: string, ord: number, p: PublishedPrice): PriceTable {
  return {
    dataset_version: v,
    ord,
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
  };
}

function toPrice(r: PriceTable): PublishedPrice {
  return {
    modelId: r.model_id,
    channel: r.channel as PublishedPrice["channel"],
    seller: r.seller,
    label: r.label,
    direction: r.direction as PublishedPrice["direction"],
    modality: r.modality as PublishedPrice["modality"],
    tier: r.tier as PublishedPrice["tier"],
    cache: r.cache as PublishedPrice["cache"],
    contextMin: Number(r.context_min),
    contextMax: nullableNumber(r.context_max),
    qualifiers: JSON.parse(r.qualifiers) as Record<string, string>,
    amount: Number(r.amount),
    unit: r.unit as PublishedPrice["unit"],
    displayUnit: r.display_unit,
    denomination: r.denomination as PublishedPrice["denomination"],
    currency: r.currency,
    confidence: r.confidence as PublishedPrice["confidence"],
    confidenceScore: Number(r.confidence_score),
    sources: JSON.parse(r.sources) as SourceId[],
    dissenting: JSON.parse(r.dissenting) as SourceId[],
    disputed: r.disputed === 1,
    fallbackAmount: nullableNumber(r.fallback_amount),
    effectiveFrom: r.effective_from,
    staleSince: r.stale_since,
    observations: JSON.parse(r.observations) as PublishedPrice["observations"],
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
    return { lastRunStatus: s.last_run_status as SourceHealth["lastRunStatus"], lastRunAt: s.last_run_at };
  const errorAt = s.last_error ? (JSON.parse(s.last_error) as { at: string }).at : null;
  if (s.last_success_at === version) return { lastRunStatus: "succeeded", lastRunAt: version };
  if (errorAt === version) return { lastRunStatus: "failed", lastRunAt: version };
  const times = [s.last_success_at, errorAt].filter((t): t is string => t !== null).sort();
  return { lastRunStatus: "not_run", lastRunAt: times[times.length - 1] ?? null };
}
