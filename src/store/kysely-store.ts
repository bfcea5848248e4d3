import { type Kysely, Migrator, type Transaction } from "kysely";
import type { HistoryPoint, PublishedChange } from "../domain/change.js";
import type { Dataset, PublishedModel, PublishedPrice, RunRecord } from "../domain/dataset.js";
import type { SourceId } from "../domain/observation.js";
import { comparePrices } from "../domain/price-order.js";
import type { SourceAttempt } from "../domain/source-attempt.js";
import {
  type CatalogueStore,
  IngestLockLostError,
  type RunHistory,
  type SourceState,
  type Span,
  type StoredSpans,
} from "./catalogue-store.js";
import { COLUMN, decode, encode, JSON_COLUMN } from "./columns.js";
import { migrationProvider } from "./migrations.js";
import {
  changeRow,
  fromModel,
  fromPrice,
  historyRow,
  providerRow,
  runRow,
  sourceHealthRow,
  toChange,
  toHistoryPoint,
  toModel,
  toPrice,
  toProvider,
  toRun,
  toSourceHealth,
} from "./rows.js";
import type { StoreSchema } from "./schema.js";
import { PRICE_COLUMNS, type SpanTables, writeSpans } from "./spans.js";
import type { StoreBackend } from "./store-backend.js";
import { namedWriteError } from "./write-errors.js";

/** Rows per multi-row INSERT: stays under SQLite's 32,766 bound parameters. */
const CHUNK = 1000;

/** Rows per page of the span reads (`loadSpansAt`, `loadDataset`): a page reads and decodes in a few ms (T199, T266). */
const SPAN_PAGE = 200;

/** Rows per page of `loadChanges`: a page reads and decodes in a few ms (T266). */
const CHANGE_PAGE = 1000;

/** Lets the event loop run what waits (requests) before the next page. */
function turn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Reads a keyset-paged query to its end, a turn of the event loop between pages (T266), so a
 * serving process answers requests while a large read goes on. `page(after)` runs the query for the
 * rows whose key (`keyOf`) follows `after` (null: from the first), at most `size` of them, in key
 * order; a shorter page is the last. Each row is mapped as it arrives.
 */
async function readPages<K, R, T>(
  size: number,
  page: (after: K | null) => Promise<R[]>,
  keyOf: (row: R) => K,
  map: (row: R) => T,
): Promise<T[]> {
  const out: T[] = [];
  for (let after: K | null = null; ; ) {
    const rows = await page(after);
    for (const r of rows) out.push(map(r));
    if (rows.length < size) return out;
    after = keyOf(rows[rows.length - 1]!);
    await turn();
  }
}

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
    const providers = await this.#db
      .selectFrom("provider")
      .selectAll()
      .where("dataset_version", "=", v)
      .orderBy("slug")
      .execute();
    const sources = await this.#db
      .selectFrom("source_health")
      .selectAll()
      .where("dataset_version", "=", v)
      .orderBy("source")
      .execute();
    // The span tables are the bulk of a version: read in pages (T266), so a server loading a new
    // version keeps answering requests while it does.
    const models = (await this.#modelSpansAt(v)).map((s) => s.value);
    const prices = (await this.#priceSpansAt(v, true)).map((s) => s.value);
    return {
      run: toRun(run),
      providers: providers.map(toProvider),
      models,
      prices: prices.sort(comparePrices),
      sources: sources.map((s) => toSourceHealth(s, v)),
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

  async loadChanges(): Promise<PublishedChange[]> {
    // Every change ever published grows with the store: keyset pages over the primary key
    // (dataset_version, seq), a turn of the event loop between them (T266).
    return readPages(
      CHANGE_PAGE,
      (after: { readonly version: string; readonly seq: number } | null) => {
        let query = this.#db.selectFrom("change_record").selectAll();
        if (after !== null) {
          const { version, seq } = after;
          query = query.where((eb) =>
            eb.or([
              eb("dataset_version", ">", version),
              eb.and([eb("dataset_version", "=", version), eb("seq", ">", seq)]),
            ]),
          );
        }
        return query.orderBy("dataset_version").orderBy("seq").limit(CHANGE_PAGE).execute();
      },
      (r) => ({ version: r.dataset_version, seq: r.seq }),
      toChange,
    );
  }

  async loadHistory(options?: { readonly upstreamDated?: boolean }): Promise<HistoryPoint[]> {
    const rows = await this.#db
      .selectFrom("history_point")
      .selectAll()
      .$if(options?.upstreamDated === true, (q) => q.where("recorded_by", "like", "upstream:%"))
      .orderBy("model_id")
      .orderBy("series_key")
      .orderBy("date")
      .orderBy("seq")
      .execute();
    return rows.map(toHistoryPoint);
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

  /**
   * In keyset pages over the primary key (price_key, valid_from) with a turn of the event loop
   * between pages (T266), like {@link #priceSpansAt}: read in one query, the direct spans blocked a
   * serving process's loop for 110–390 ms at every publish (issue 47 §3, T503).
   */
  async loadDirectSpans(): Promise<Span<PublishedPrice>[]> {
    return readPages(
      SPAN_PAGE,
      (after: readonly [string, string] | null) => {
        let query = this.#db
          .selectFrom("price_span")
          .select(["valid_from", "valid_to", ...PRICE_COLUMNS.filter((c) => c !== "observations")])
          .where("channel", "=", "direct");
        if (after !== null)
          query = query.where((eb) => eb(eb.refTuple("price_key", "valid_from"), ">", eb.tuple(after[0], after[1])));
        return query.orderBy("price_key").orderBy("valid_from").limit(SPAN_PAGE).execute();
      },
      (r) => [r.price_key, r.valid_from] as const,
      (r) => ({ from: r.valid_from, to: r.valid_to, value: toPrice({ ...r, observations: "[]" }) }),
    );
  }

  async loadSpansAt(version: string): Promise<StoredSpans> {
    // Evidence is provenance for ingestion; point-in-time answers do not read it.
    return { prices: await this.#priceSpansAt(version, false), models: await this.#modelSpansAt(version) };
  }

  /**
   * The price spans open at version `v`, in keyset pages of {@link SPAN_PAGE} over the primary key
   * (price_key, valid_from) with a turn of the event loop between pages (T266): a key has at most
   * one span open at a version, so `price_key > last` resumes exactly after the previous page.
   * Without `evidence`, the observations are neither read nor decoded (each price's are `[]`).
   */
  async #priceSpansAt(v: string, evidence: boolean): Promise<Span<PublishedPrice>[]> {
    const columns = evidence ? PRICE_COLUMNS : PRICE_COLUMNS.filter((c) => c !== "observations");
    return readPages(
      SPAN_PAGE,
      (after: string | null) => {
        let query = this.#db
          .selectFrom("price_span")
          .select(["valid_from", "valid_to", ...columns])
          .where("valid_from", "<=", v)
          .where((eb) => eb.or([eb("valid_to", "is", null), eb("valid_to", ">", v)]));
        if (after !== null) query = query.where("price_key", ">", after);
        return query.orderBy("price_key").limit(SPAN_PAGE).execute();
      },
      (r) => r.price_key,
      (r) => ({ from: r.valid_from, to: r.valid_to, value: toPrice(evidence ? r : { ...r, observations: "[]" }) }),
    );
  }

  /** The model spans open at version `v`, by id, in keyset pages like {@link #priceSpansAt} (T266). */
  async #modelSpansAt(v: string): Promise<Span<PublishedModel>[]> {
    return readPages(
      SPAN_PAGE,
      (after: string | null) => {
        let query = this.#db
          .selectFrom("model_span")
          .selectAll()
          .where("valid_from", "<=", v)
          .where((eb) => eb.or([eb("valid_to", "is", null), eb("valid_to", ">", v)]));
        if (after !== null) query = query.where("id", ">", after);
        return query.orderBy("id").limit(SPAN_PAGE).execute();
      },
      (r) => r.id,
      (r) => ({ from: r.valid_from, to: r.valid_to, value: toModel(r) }),
    );
  }

  async recordAttempts(attempts: readonly SourceAttempt[]): Promise<void> {
    if (attempts.length === 0) return;
    await this.#db.transaction().execute(async (trx) => {
      for (const a of attempts) {
        const row = {
          at: a.at,
          status: a.status,
          error_message: a.error?.message ?? null,
          http_status: a.error?.httpStatus ?? null,
        };
        await trx
          .insertInto("source_attempt")
          .values({ source: a.source, ...row })
          .onConflict((oc) => oc.column("source").doUpdateSet(row))
          .execute();
      }
    });
  }

  async loadAttempts(): Promise<SourceAttempt[]> {
    const rows = await this.#db.selectFrom("source_attempt").selectAll().orderBy("source").execute();
    return rows.map((r) => ({
      source: decode(COLUMN.source, r.source, "source_attempt.source"),
      at: r.at,
      status: decode(COLUMN.sourceAttemptStatus, r.status, "source_attempt.status"),
      error: r.error_message === null ? null : { message: r.error_message, httpStatus: r.http_status },
    }));
  }

  async publish(
    dataset: Dataset,
    states: readonly SourceState[],
    history?: RunHistory,
    options: { readonly basedOn?: string | null } = {},
  ): Promise<void> {
    const v = dataset.run.datasetVersion;
    // The error that ended the transaction: a failed ROLLBACK after it must not hide it (T265).
    let cause: unknown = null;
    try {
      await this.#db.transaction().execute(async (trx) => {
        try {
          await this.#publishIn(trx, dataset, states, history, options);
        } catch (error) {
          cause = error;
          throw error;
        }
      });
    } catch (error) {
      throw namedWriteError(cause ?? error, `dataset ${v} is not published`);
    }
  }

  async #publishIn(
    trx: Transaction<StoreSchema>,
    dataset: Dataset,
    states: readonly SourceState[],
    history: RunHistory | undefined,
    options: { readonly basedOn?: string | null },
  ): Promise<void> {
    const v = dataset.run.datasetVersion;
    await this.#backend.beginPublish(trx);
    // Spans are written in version order (D9: versions only grow); an older version would corrupt them.
    const newest = await trx
      .selectFrom("run")
      .select("dataset_version")
      .orderBy("dataset_version", "desc")
      .limit(1)
      .executeTakeFirst();
    // T260: another ingester published since this run loaded its base, so this run lost the
    // ingest lock; what it computed would record that ingester's changes a second time.
    if (options.basedOn !== undefined && (newest?.dataset_version ?? null) !== options.basedOn)
      throw new IngestLockLostError(
        `dataset ${v} is not published: another ingester published ${newest?.dataset_version} while this run ` +
          `built on ${options.basedOn ?? "an empty store"} (the run lost its ingest lock)`,
      );
    if (newest && newest.dataset_version >= v)
      throw new Error(`dataset version ${v} is not newer than the store's latest ${newest.dataset_version}`);
    await trx.insertInto("run").values(runRow(dataset.run)).execute();
    for (const chunk of chunks(dataset.providers))
      await trx
        .insertInto("provider")
        .values(chunk.map((p) => providerRow(v, p)))
        .execute();
    // The span tables are part of StoreSchema; Kysely types a narrower database invariantly.
    await writeSpans(
      trx as unknown as Kysely<SpanTables>,
      v,
      dataset.prices.map(fromPrice),
      dataset.models.map(fromModel),
    );
    if (dataset.sources.length > 0)
      await trx
        .insertInto("source_health")
        .values(dataset.sources.map((s) => sourceHealthRow(v, s)))
        .execute();
    let seq = 0;
    for (const chunk of chunks(history?.changes ?? []))
      await trx
        .insertInto("change_record")
        .values(chunk.map((c) => changeRow(v, seq++, c)))
        .execute();
    for (const chunk of chunks(history?.points ?? []))
      await trx
        .insertInto("history_point")
        .values(chunk.map(historyRow))
        .onConflict((oc) => oc.doNothing())
        .execute();
    await this.#backend.afterPublish(trx, v);
    for (const s of states) {
      const row = { source: s.source, observed_at: s.observedAt, listings: encode(JSON_COLUMN.listings, s.listings) };
      await trx
        .insertInto("source_state")
        .values(row)
        .onConflict((oc) => oc.column("source").doUpdateSet({ observed_at: row.observed_at, listings: row.listings }))
        .execute();
    }
  }

  async close(): Promise<void> {
    await this.#backend.close();
    await this.#db.destroy();
  }
}

function* chunks<T>(items: readonly T[]): Generator<T[]> {
  for (let i = 0; i < items.length; i += CHUNK) yield items.slice(i, i + CHUNK);
}
