import { createHash } from "node:crypto";
import { checkAnnouncements, withWithdrawals } from "../core/announcement-guard.js";
import { announcementChanges } from "../core/announcements.js";
import { buildDatasetWithIdentity, type SourceInput } from "../core/build-dataset.js";
import { countMakerCorrections, detectChanges, newHistoryPoints } from "../core/detect-changes.js";
import { type BoundaryResult, screenAtBoundary, screenHistoryAtBoundary } from "../core/listing-boundary.js";
import { confirmPending, holdPendingMoves } from "../core/pending-moves.js";
import { priorFromDataset } from "../core/prior-state.js";
import { renameLastPoints, withRenames } from "../core/renames.js";
import { detectSellerRenames, type SellerRename, withSellerRenames } from "../core/seller-renames.js";
import { checkAgainstLastGood, DEFAULT_GUARD_BOUNDS, guardMessage } from "../core/source-guard.js";
import { lastPointIndex, upstreamPoints } from "../core/upstream-history.js";
import type { Dataset, RunSummary } from "../domain/dataset.js";
import type { Listing, SourceId } from "../domain/observation.js";
import { withoutAddresses } from "../sources/failure-text.js";
import { checkPageAgainstLastGood, checkPageText } from "../sources/shared/page-health.js";
import type { DatedPrice, ParseReport, SourceAdapter, SourcePayload } from "../sources/source.js";
import type { CatalogueStore, SourceState } from "../store/catalogue-store.js";

/**
 * The one per-run pipeline shared by the snapshot replay and the live ingester: parse each
 * source's payload (or take its failure), apply the guards, build the dataset (identity,
 * reconciliation, labels), detect changes and history points, and publish all of it in one store
 * transaction (D9). Sources absent from a run or failing carry their last good listings (T11).
 */

/** What one source brought to a run; a source with no outcome did not run (T11). */
export type SourceOutcome =
  | { readonly kind: "payload"; readonly payload: SourcePayload }
  /** The upstream answered 304 Not Modified for every file: the last good listings are reused unparsed. */
  | { readonly kind: "unchanged" }
  | { readonly kind: "failed"; readonly message: string; readonly httpStatus: number | null };

/**
 * Guards of a live run (issue 7 §5, issue 26 §1): a payload that does not stand the comparison
 * with the source's last good run (`src/core/source-guard.ts`) is a source failure.
 */
export interface RunGuards {
  /** Largest allowed share (0–1) of priced rows, and of models, lost versus the last good run (T190); 0.25 by default. */
  readonly maxRowDrop: number;
  /**
   * Sources whose payload is used this run even when it differs from their last good run beyond
   * the bounds (`tariff ingest --accept`, T194): a real upstream change the operator has checked.
   * An empty payload is never accepted.
   */
  readonly accept?: ReadonlySet<SourceId>;
}

/** A source's failure as recorded in its health (D4). */
export interface SourceFailure {
  readonly message: string;
  readonly httpStatus: number | null;
}

/** What the pipeline carries from one run to the next (loaded once from the store). */
export interface RunContext {
  previous: Dataset | null;
  /**
   * The store's latest version when the context was loaded, then the version this context last
   * published (null: empty store): the publish checks the store still has it (T260).
   */
  latestVersion: string | null;
  readonly states: Map<SourceId, SourceState>;
  readonly lastPoints: Map<string, number>;
  /** YYYY-MM-DD of the store's first run; null on an empty store (the first run's date is used). */
  firstRunDate: string | null;
}

/** One run's inputs. */
export interface RunInput {
  /** D9: run start time, the dataset version. */
  readonly runTime: string;
  readonly outcomes: ReadonlyMap<SourceId, SourceOutcome>;
  /** Null: no guards (recorded snapshots are replayed as recorded, T40). */
  readonly guards: RunGuards | null;
  /** The run's finish time; now when omitted (a replayed live run restores the recorded one, T40). */
  readonly finishedAt?: string;
  readonly onSourceFailed?: (source: SourceId, failure: SourceFailure) => void;
  /** Called right before the publishing transaction (the live run announces its `publishing` stage, T150). */
  readonly beforePublish?: () => void;
}

/** What one run published. */
export interface RunResult {
  readonly dataset: Dataset;
  readonly changes: number;
  /** Sources that failed this run, with why. */
  readonly failures: ReadonlyMap<SourceId, SourceFailure>;
}

/** Loads what the next run builds on: the latest dataset, last good listings, last history points. */
export async function loadRunContext(store: CatalogueStore): Promise<RunContext> {
  const latest = await store.latestRun();
  return {
    previous: latest ? await store.loadDataset() : null,
    latestVersion: latest?.datasetVersion ?? null,
    states: await store.loadSourceStates(),
    lastPoints: lastPointIndex(await store.loadHistory()),
    firstRunDate: (await store.listRuns())[0]?.datasetVersion.slice(0, 10) ?? null,
  };
}

/** Price rows of a parse: the unit of `rowsLastRun` and of the row-drop guard. */
export function countRows(listings: readonly Listing[]): number {
  return listings.reduce((n, l) => n + l.prices.length, 0);
}

/**
 * Runs the pipeline for one run time and publishes one dataset version; updates `ctx` for the next.
 * @throws Error when the store refuses the publish (e.g. the version exists); nothing is published then
 * @throws IngestLockLostError when another ingester published since `ctx` was loaded (T260)
 */
export async function publishRun(
  store: CatalogueStore,
  ctx: RunContext,
  adapters: readonly SourceAdapter[],
  input: RunInput,
): Promise<RunResult> {
  const { runTime } = input;
  const inputs: SourceInput[] = [];
  const fresh: SourceState[] = [];
  const dated: { source: SourceId; rows: readonly DatedPrice[] }[] = [];
  const failures = new Map<SourceId, SourceFailure>();
  for (const adapter of adapters) {
    const base = {
      source: adapter.id,
      weight: adapter.info.weight,
      makerSpellings: adapter.info.makerSpellings ?? false,
      authoritativeFor: adapter.info.authoritativeFor,
      firstPartyPage: adapter.pageHealth !== undefined,
    };
    const carried = ctx.states.get(adapter.id);
    const outcome = input.outcomes.get(adapter.id);
    if (!outcome) {
      inputs.push({ ...base, listings: carried?.listings ?? [], fresh: false, error: null, ran: false });
      continue;
    }
    const parsed = parseOutcome(adapter, outcome, carried, input.guards);
    const result = heldMoves(adapter, outcome, parsed, carried, ctx.previous, input);
    if ("failure" in result) {
      failures.set(adapter.id, result.failure);
      input.onSourceFailed?.(adapter.id, result.failure);
      inputs.push({ ...base, listings: carried?.listings ?? [], fresh: false, error: result.failure, ran: true });
      continue;
    }
    inputs.push({
      ...base,
      ...(adapter.pageHealth ? pageEvidenceOf(adapter, outcome, ctx.previous) : {}),
      listings: result.listings,
      fresh: true,
      error: null,
      ran: true,
      ...(result.unmapped ? { unmapped: result.unmapped } : {}),
      ...(result.rejected ? { boundaryRejected: result.rejected } : {}),
    });
    fresh.push({ source: adapter.id, observedAt: runTime, listings: result.listings });
    if (result.history) dated.push({ source: adapter.id, rows: result.history });
  }
  let computed: Computed;
  try {
    computed = computeRun(ctx, input, inputs, dated);
  } catch (error) {
    // T257: a fault the computation meets in one source's payload costs that source, not the run.
    const isolated = isolateFault(ctx, input, inputs, dated, error);
    if (!isolated) throw error;
    computed = isolated.computed;
    failures.set(isolated.source, isolated.failure);
    input.onSourceFailed?.(isolated.source, isolated.failure);
    fresh.splice(
      fresh.findIndex((s) => s.source === isolated.source),
      1,
    );
  }
  const { dataset, changes, points, firstRunDate } = computed;
  input.beforePublish?.();
  await store.publish(dataset, fresh, { changes, points }, { basedOn: ctx.latestVersion });
  ctx.latestVersion = dataset.run.datasetVersion;
  for (const s of fresh) ctx.states.set(s.source, s);
  ctx.lastPoints.clear();
  for (const [k, v] of computed.lastPoints) ctx.lastPoints.set(k, v);
  for (const p of points)
    if (!p.recordedBy.startsWith("upstream:")) ctx.lastPoints.set(`${p.modelId}|${p.seriesKey}`, p.amount);
  ctx.previous = dataset;
  ctx.firstRunDate = firstRunDate;
  return { dataset, changes: changes.length, failures };
}

/**
 * A maker's page parsed now in a live run, with its moves against every aggregator held until the
 * next fetch (issue 46 §4, T467), each counted in `/sources` (`pending move: …`). Anything else as parsed.
 */
function heldMoves(
  adapter: SourceAdapter,
  outcome: SourceOutcome,
  parsed: Parsed,
  carried: SourceState | undefined,
  previous: Dataset | null,
  input: RunInput,
): Parsed {
  if ("failure" in parsed || !adapter.pageHealth || outcome.kind === "failed" || !input.guards) return parsed;
  if (outcome.kind === "unchanged") {
    // The same copy again (304): the next fetch states each held move.
    const confirmed = confirmPending(parsed.listings);
    if (confirmed.confirmed === 0) return parsed;
    // Its counts as the copy's parse left them, the moves now published taken out.
    const counts = previous?.sources.find((s) => s.source === adapter.id)?.unmappedByField ?? {};
    const unmapped = Object.fromEntries(Object.entries(counts).filter(([k]) => !k.startsWith("pending move: ")));
    return { ...parsed, listings: confirmed.listings, unmapped };
  }
  if (input.guards.accept?.has(adapter.id)) return parsed; // `--accept`: the operator checked the page
  const held = holdPendingMoves(adapter.id, parsed.listings, carried?.listings ?? null, previous, input.runTime);
  if (held.moves.length === 0) return parsed;
  const unmapped: Record<string, number> = { ...(parsed.unmapped ?? {}) };
  for (const m of held.moves) unmapped[m] = (unmapped[m] ?? 0) + 1;
  const sorted = Object.fromEntries(Object.entries(unmapped).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return { ...parsed, listings: held.listings, unmapped: sorted };
}

/**
 * The copy of a maker's page a run stands on (T294): the one it parsed now, or, when the page
 * answered 304 Not Modified, the copy the previous version read (same address and hash), which the
 * 304 confirms at this run — as the archive's replay of that run (the reused copy) reads it.
 */
function pageEvidenceOf(
  adapter: SourceAdapter,
  outcome: SourceOutcome,
  previous: Dataset | null,
): { page?: { readonly url: string; readonly contentHash: string } } {
  if (outcome.kind === "payload") return { page: pageOf(adapter, outcome.payload) };
  if (outcome.kind !== "unchanged") return {};
  for (const price of previous?.prices ?? [])
    for (const o of price.observations)
      if (o.source === adapter.id && o.page) return { page: { url: o.page.url, contentHash: o.page.contentHash } };
  return {};
}

/** The run summary's record of this run's seller renames (T493): absent when none. */
function renamedSellers(renames: readonly SellerRename[]): Partial<Pick<RunSummary, "sellerRenames">> {
  return renames.length === 0
    ? {}
    : { sellerRenames: renames.map((r) => ({ source: r.source, from: r.from, to: r.to, aliases: [r.from, r.to] })) };
}

/** What a run computes from its inputs before publishing (pure, no store). */
interface Computed {
  readonly dataset: Dataset;
  readonly changes: ReturnType<typeof detectChanges>;
  readonly points: ReturnType<typeof newHistoryPoints>;
  readonly firstRunDate: string;
  /** `ctx.lastPoints` after this run's renames (a copy: a computation that throws leaves `ctx` as it was). */
  readonly lastPoints: Map<string, number>;
}

/** Builds the dataset, its changes and history points from the run's inputs (T257: no side effect on `ctx`). */
function computeRun(
  ctx: RunContext,
  input: RunInput,
  inputs: readonly SourceInput[],
  dated: readonly { source: SourceId; rows: readonly DatedPrice[] }[],
): Computed {
  const { runTime } = input;
  // A seller renamed in a source is read under its new name in the previous version (T493); the old
  // name's API base URL is in the source's last good listings (T515).
  const lastGood = new Map([...ctx.states].map(([source, state]) => [source, state.listings]));
  const sellerRenames = ctx.previous ? detectSellerRenames(ctx.previous, inputs, lastGood) : [];
  const before = ctx.previous && withSellerRenames(ctx.previous, sellerRenames);
  const {
    dataset: built,
    spellings,
    renames,
    listed,
  } = buildDatasetWithIdentity({
    runId: `run-${runTime}`,
    runTime,
    finishedAt: input.finishedAt ?? new Date().toISOString(),
    sources: inputs,
    prior: before ? priorFromDataset(before) : null,
  });
  const firstRunDate = ctx.firstRunDate ?? runTime.slice(0, 10);
  const previous = before && withRenames(before, renames);
  // The maker's corrections of our published amounts are counted in the run's summary (T293).
  const corrections = countMakerCorrections(previous, built);
  const summary = { ...built.run.summary, corrections, ...renamedSellers(sellerRenames) };
  const dataset = { ...built, run: { ...built.run, summary } };
  // Announced ends and their withdrawal (issue 37 §4, T337) beside the market's changes.
  const changes = [...detectChanges(previous, dataset, listed), ...announcementChanges(previous, dataset)];
  const lastPoints = new Map(ctx.lastPoints);
  renameLastPoints(lastPoints, renames);
  const points = [...upstreamPoints(dated, spellings, firstRunDate), ...newHistoryPoints(dataset, lastPoints)];
  return { dataset, changes, points, firstRunDate, lastPoints };
}

/**
 * When the run's computation throws, finds the one fresh source whose payload causes it (T257):
 * each fresh source in turn is taken as failed, its last good listings carried (T11), until the
 * computation succeeds. That source fails with the fault named in its `lastError`; the others
 * publish. Null when no single source explains the fault (the run then fails as before).
 */
function isolateFault(
  ctx: RunContext,
  input: RunInput,
  inputs: readonly SourceInput[],
  dated: readonly { source: SourceId; rows: readonly DatedPrice[] }[],
  error: unknown,
): { source: SourceId; failure: SourceFailure; computed: Computed } | null {
  const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  for (const [i, s] of inputs.entries()) {
    if (!s.fresh) continue;
    const failure = {
      message: withoutAddresses(`${s.source}: a record of its payload broke the run's computation (${reason})`),
      httpStatus: null,
    };
    const { unmapped: _u, boundaryRejected: _b, ...rest } = s;
    const failed: SourceInput = {
      ...rest,
      listings: ctx.states.get(s.source)?.listings ?? [],
      fresh: false,
      error: failure,
    };
    try {
      const computed = computeRun(
        ctx,
        input,
        inputs.map((other, j) => (j === i ? failed : other)),
        dated.filter((d) => d.source !== s.source),
      );
      return { source: s.source, failure, computed };
    } catch {
      // not this source alone
    }
  }
  return null;
}

/**
 * The evidence of a maker's page parsed now (T294): the page's public address (the adapter's own
 * upstream, never a `SOURCE_URL_*` override) and the SHA-256 of its files' text, in file order.
 */
function pageOf(adapter: SourceAdapter, payload: SourcePayload): { url: string; contentHash: string } {
  const files = adapter.upstream.files(adapter.upstream.setting?.defaults ?? []);
  const hash = createHash("sha256");
  for (const f of files) hash.update(payload.files.get(f.name) ?? "");
  return { url: new URL(files[0]?.path ?? "", adapter.upstream.baseUrl).toString(), contentHash: hash.digest("hex") };
}

/** One source's parsed outcome: its listings (and history, unknown fields), or why it failed. */
export type Parsed =
  | {
      listings: readonly Listing[];
      history: readonly DatedPrice[] | null;
      /** Unknown price fields (T70); null when the payload was not parsed now (304). */
      unmapped: Readonly<Record<string, number>> | null;
      /** Prices the adapter boundary dropped, per reason (T252); absent when the payload was not parsed now. */
      rejected?: BoundaryResult["rejected"];
    }
  | { failure: SourceFailure };

/** The boundary's result with the records the adapter itself refused (T420) added to its counts. */
function withAdapterRejections(boundary: BoundaryResult, refused: ParseReport["rejected"]): BoundaryResult {
  const entries = Object.entries(refused ?? {}).filter(([, n]) => (n ?? 0) > 0);
  if (entries.length === 0) return boundary;
  const rejected: Record<string, number> = { ...boundary.rejected };
  for (const [reason, n] of entries) rejected[reason] = (rejected[reason] ?? 0) + (n ?? 0);
  return { ...boundary, rejected };
}

/**
 * Parses one source's outcome and applies the guards (issue 7 §5, issue 26 §1): a thrown parse
 * error, an empty payload, and a payload that fails the comparison with `carried` (the last good
 * parse: row or model drop, maker spread, schema, unit or scale change, T190–T192) are that
 * source's failure, with the message its `lastError` shows — never a URL (T193).
 */
export function parseOutcome(
  adapter: SourceAdapter,
  outcome: SourceOutcome,
  carried: SourceState | undefined,
  guards: RunGuards | null,
): Parsed {
  const fail = (message: string, httpStatus: number | null = null): Parsed => ({
    failure: { message: withoutAddresses(message), httpStatus },
  });
  if (outcome.kind === "failed") return fail(outcome.message, outcome.httpStatus);
  if (outcome.kind === "unchanged") {
    if (!carried) return fail(`${adapter.id}: 304 Not Modified but no last good parse`, 304);
    return { listings: carried.listings, history: null, unmapped: null };
  }
  let listings: Listing[];
  let unmapped: Readonly<Record<string, number>> = {};
  let history: readonly DatedPrice[] | null = null;
  let refused: ParseReport["rejected"] = {};
  let boundary: BoundaryResult;
  try {
    for (const [file, spec] of Object.entries(adapter.pageHealth ?? {}))
      checkPageText(adapter.id, file, outcome.payload.files.get(file) ?? "", spec);
    if (adapter.parseReport) ({ listings, unmapped, rejected: refused = {} } = adapter.parseReport(outcome.payload));
    else listings = adapter.parse(outcome.payload);
    if (adapter.parseHistory) history = adapter.parseHistory(outcome.payload);
    // T252/T253: one bad record costs that record (non-finite amounts, control characters), counted;
    // so does an announcement judged like a price at the payload's day (issue 47 §1, T420–T422).
    boundary = withAdapterRejections(screenAtBoundary(listings, outcome.payload.observedAt), refused);
    listings = boundary.listings;
    if (history) history = screenHistoryAtBoundary(history);
    if (guards) {
      const bounds = { ...DEFAULT_GUARD_BOUNDS, maxDrop: guards.maxRowDrop };
      const failure = checkAgainstLastGood(listings, carried ?? null, bounds);
      if (failure && (failure.guard === "empty" || !guards.accept?.has(adapter.id)))
        return fail(guardMessage(adapter.id, failure, carried?.observedAt ?? null));
      // Issue 47 §1 (T424, T425): a flood of announcements, or one switched off and on, fails the source.
      const day = outcome.payload.observedAt;
      const announced = checkAnnouncements(listings, carried ?? null, day);
      if (announced && !guards.accept?.has(adapter.id))
        return fail(guardMessage(adapter.id, announced, carried?.observedAt ?? null));
      listings = withWithdrawals(listings, carried ?? null, day);
      // A maker's own page (issue 35 §2, T291): stricter than the general guards.
      if (adapter.pageHealth && !guards.accept?.has(adapter.id)) {
        const health = checkPageAgainstLastGood(listings, carried?.listings ?? null);
        if (health) return fail(`${adapter.id}: ${health} (last good copy ${carried?.observedAt ?? "none"})`);
      }
    }
  } catch (err) {
    // A parse error, or an adapter's malformed listing the boundary or the guards meet (T257).
    const message = err instanceof Error ? err.message : String(err);
    return fail(message.startsWith(`${adapter.id}: `) ? message : `${adapter.id}: ${message}`);
  }
  return { listings, history, unmapped, rejected: boundary.rejected };
}
