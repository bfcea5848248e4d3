import type { CatalogueStore, StoredSpans } from "../store/catalogue-store.js";
import { type BackoffPolicy, backoffMs } from "./backoff.js";
import { StoreUnavailableError } from "./errors.js";
import { historyFromSpans } from "./history-spans.js";
import { buildTimeline, type PointInTimeSource, type PriceTimeline } from "./timeline.js";
import { buildViewInSteps, type CatalogueView, type SourceRecordInfo } from "./view.js";

/**
 * Opens a store for the point-in-time index loaded on first use (T165), and closes it after.
 * A long-lived server's views read their spans through it after `store` itself was closed.
 */
export type StoreOpener = () => Promise<{ store: CatalogueStore; release(): Promise<void> }>;

/** Settings of {@link StoreSpans}. */
export interface StoreSpansOptions {
  /** Waits between attempts after failures (default 1 s doubling to 60 s). */
  readonly backoff?: BackoffPolicy;
  /** The store opened for reads is closed after this long without one, ms (default 30 s; 0: after each read). */
  readonly idleMs?: number;
  /** Told of each failed read and the wait before the next attempt (a server logs it). */
  readonly onFailure?: (error: unknown, retryInMs: number) => void;
  /** The clock, ms (tests). */
  readonly now?: () => number;
}

/** The default backoff of {@link StoreSpans}: 1 s, 2 s, 4 s … at most 60 s between attempts. */
export const STORE_BACKOFF: BackoffPolicy = { baseMs: 1000, capMs: 60_000 };

/** What a client is told while the store cannot be read. */
const UNAVAILABLE_DETAIL = "the price history cannot be read right now; retry later";

/**
 * The point-in-time reads of a server (issue 26 §4, T199): one store opened on the first `at=`
 * question and kept for the next ones (closed after `idleMs` without a read), so a question
 * neither opens a connection nor runs migrations. A failed read (the store is down) closes it and
 * starts a backoff ({@link backoffMs}, {@link STORE_BACKOFF}): until it ends every read fails at
 * once with {@link StoreUnavailableError}, whose `retryAfterSeconds` is what is left of the wait,
 * without touching the store; the first read after it tries again, and a success ends the backoff.
 * One instance serves every view of a process.
 */
export class StoreSpans implements PointInTimeSource {
  readonly #open: StoreOpener;
  readonly #policy: BackoffPolicy;
  readonly #idleMs: number;
  readonly #onFailure: ((error: unknown, retryInMs: number) => void) | undefined;
  readonly #now: () => number;
  #opened: Promise<{ store: CatalogueStore; release(): Promise<void> }> | null = null;
  #active = 0;
  #idle: NodeJS.Timeout | null = null;
  #failures = 0;
  #retryAt = 0;
  /** How many times the store was opened (tests: no open per question). */
  opens = 0;

  constructor(open: StoreOpener, options: StoreSpansOptions = {}) {
    this.#open = open;
    this.#policy = options.backoff ?? STORE_BACKOFF;
    this.#idleMs = options.idleMs ?? 30_000;
    this.#onFailure = options.onFailure;
    this.#now = options.now ?? Date.now;
  }

  /** Every published version, oldest first. */
  async versions(): Promise<readonly string[]> {
    const runs = await this.#read((store) => store.listRuns());
    return runs.map((r) => r.datasetVersion);
  }

  /** What one version published (`loadSpansAt`: paged, the loop free between pages). */
  spansAt(version: string): Promise<StoredSpans> {
    return this.#read((store) => store.loadSpansAt(version));
  }

  /** Every span of every version (the CLI's many-day questions). */
  spans(): Promise<StoredSpans> {
    return this.#read((store) => store.loadSpans());
  }

  /** Closes the store held for reads, if any. */
  async close(): Promise<void> {
    if (this.#idle) clearTimeout(this.#idle);
    this.#idle = null;
    await this.#release();
  }

  async #read<T>(fn: (store: CatalogueStore) => Promise<T>): Promise<T> {
    const started = this.#now();
    if (started < this.#retryAt)
      throw new StoreUnavailableError(UNAVAILABLE_DETAIL, Math.max(1, Math.ceil((this.#retryAt - started) / 1000)));
    if (this.#idle) clearTimeout(this.#idle);
    this.#idle = null;
    this.#active++;
    try {
      if (!this.#opened) {
        this.opens++;
        this.#opened = this.#open();
      }
      const result = await fn((await this.#opened).store);
      this.#failures = 0;
      return result;
    } catch (error) {
      void this.#release();
      // Reads that were under way together fail together: the backoff grows once for them.
      if (started >= this.#retryAt) {
        this.#failures++;
        this.#retryAt = this.#now() + backoffMs(this.#failures, this.#policy);
        this.#onFailure?.(error, this.#retryAt - this.#now());
      }
      const wait = Math.max(1, Math.ceil((this.#retryAt - this.#now()) / 1000));
      throw new StoreUnavailableError(UNAVAILABLE_DETAIL, wait, { cause: error });
    } finally {
      this.#active--;
      if (this.#active === 0 && this.#opened) {
        if (this.#idleMs === 0) void this.#release();
        else {
          this.#idle = setTimeout(() => void this.#release(), this.#idleMs);
          this.#idle.unref();
        }
      }
    }
  }

  async #release(): Promise<void> {
    const opened = this.#opened;
    this.#opened = null;
    if (!opened) return;
    try {
      await (await opened).release();
    } catch {
      // It never opened, or closing a broken connection failed: nothing is held either way.
    }
  }
}

/**
 * Builds the view of a stored dataset version (the latest when `version` is omitted) with the
 * permanent record of changes, history and price spans (T146); null when the store holds no version.
 * With `spansFrom`, the point-in-time index is read per `at=` question, one version at a time,
 * through it (T165, T199); without, every span is read now from `store`.
 * @param now the moment its `/sources` health and its prices' `verified` are judged at (T310, T460)
 */
export async function loadView(
  store: CatalogueStore,
  registry: readonly SourceRecordInfo[],
  version?: string,
  spansFrom?: PointInTimeSource,
  now: Date = new Date(),
): Promise<CatalogueView | null> {
  const dataset = await store.loadDataset(version);
  if (!dataset) return null;
  // A server loading a new version keeps answering between the steps (the embedded store reads
  // synchronously): requests wait for one step at most, not for the whole load (issue 27 §1).
  await turn();
  const changes = await store.loadChanges();
  await turn();
  // T456: the history is told by the published spans, as `?at=` and `/changes` are.
  const {
    points: history,
    ended,
    gaps,
  } = historyFromSpans(await store.loadDirectSpans(), await store.loadHistory({ upstreamDated: true }));
  await turn();
  // The spans are read per `at=` question, not at start (T165, T199). The timeline ends at the
  // version served: a view of an older version answers `at=` as of then.
  let timeline: PriceTimeline | PointInTimeSource;
  if (spansFrom) timeline = spansFrom;
  else {
    const [runs, spans] = await Promise.all([store.listRuns(), store.loadSpans()]);
    const versions = runs.map((r) => r.datasetVersion).filter((v) => v <= dataset.run.datasetVersion);
    timeline = buildTimeline(versions, spans);
  }
  // T310: `/sources` says each source's last live attempt, published or not.
  const attempts = await store.loadAttempts();
  // Built in steps between requests too (T267): a publish no longer pauses a serving process.
  return buildViewInSteps(dataset, registry, now, { changes, history, ended, gaps, timeline, attempts });
}

/** Lets the event loop run what waits (requests) before the next step. */
function turn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
