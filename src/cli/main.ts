import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { Command, InvalidArgumentError } from "commander";
import { isSourceId, SOURCE_IDS, type SourceId } from "../domain/observation.js";
import { SNAPSHOTS_LAYOUT, snapshotRunFolders } from "../ingest/snapshots-folder.js";
import { DEFAULT_INGEST_EVERY, loadConfig, parseIngestEvery } from "./config.js";
import { environmentHelp } from "./environment-help.js";
import { registerPriceFileCommands } from "./price-file-commands.js";
import { abortOnStopSignal, InterruptedError, onStopSignal, stopSignalOf } from "./signals.js";

// Each command imports what it runs when it runs (issue 16, T134): `tariff --help` loads no
// framework, store driver or SDK, and `serve` loads no MCP SDK, ingester or Redis client it does not use.

const { version } = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
  version: string;
};

/** The `tariff` command line: a thin shell over serve() and ingestSnapshots(). */
const program = new Command()
  .name("tariff")
  .description("Tariff: an open catalogue of AI-model prices, served as a read-only HTTP/JSON API")
  .version(version, "-V, --version", "print the version of tariff")
  .addHelpText("after", environmentHelp())
  .showHelpAfterError();

program
  .command("serve")
  .description("serve API v1 (replays the bundled snapshots first when the store is empty)")
  .option(
    "--ingest-every <duration>",
    `run live ingestion in the background every <duration> (e.g. 15m, 6h), or off; default INGEST_EVERY (${DEFAULT_INGEST_EVERY})`,
    parseInterval,
  )
  .option("--workers <n>", "API processes sharing the port (node:cluster); default 1", parseWorkers)
  .action(async (opts: { ingestEvery?: number | null; workers?: number }) => {
    const { serve } = await import("./serve.js");
    await serve(loadConfig(), { ingestEveryMs: opts.ingestEvery, workers: opts.workers });
  });

program
  .command("ingest")
  .description(
    "run live ingestion once; with --snapshots, ingest a folder laid out as <source>/<YYYY-MM-DD>/<files> " +
      "(or a live-run archive), one run per folder",
  )
  .option("--snapshots <dir>", `folder of recorded upstream payloads, laid out as ${SNAPSHOTS_LAYOUT}`)
  .option(
    "--accept <sources>",
    "live run only: use these sources' payloads (comma-separated ids) even where they fail the comparison " +
      "with their last good run (a real upstream change you have checked; an empty payload is never used)",
    parseSourceList,
  )
  .action(async (opts: { snapshots?: string; accept?: ReadonlySet<string> }) => {
    const config = loadConfig();
    if (opts.snapshots === undefined) {
      interruptLiveIngestion();
      const live = opts.accept ? { ...config, live: { ...config.live, accept: checkAccepted(opts.accept) } } : config;
      await (await import("./ingest-live.js")).ingestLiveOnce(live);
      return;
    }
    if (opts.accept)
      throw new InvalidArgumentError("--accept applies to a live run: recorded snapshots replay as recorded (T40)");
    const [{ openStore }, { ingestSnapshots }, { SOURCES }, { consoleReporter }, { storeLabel }] = await Promise.all([
      import("../store/open-store.js"),
      import("../ingest/run-ingest.js"),
      import("../sources/registry.js"),
      import("./progress.js"),
      import("./load-view.js"),
    ]);
    const snapshots = resolve(opts.snapshots);
    // Said before the store is opened, so a wrong folder creates no store (issue 15).
    const folders = snapshotRunFolders(snapshots);
    const store = await openStore(config);
    try {
      const skipped: string[] = [];
      const reporter = { ...consoleReporter(), skipped: (date: string) => void skipped.push(date) };
      // One ingester at a time (issue 5 §2): a second one waits, then skips what the first published.
      const stop = abortOnStopSignal(
        (signal) => `${signal}: stopping after the run in progress; the runs published so far stay`,
      );
      const runs = await store
        .withIngestLock(() => ingestSnapshots(store, snapshots, SOURCES, reporter, stop.signal))
        .finally(() => stop.release());
      const pruned = await store.pruneVersions(config.retainVersions);
      const latest = (await store.latestRun())?.datasetVersion;
      const why =
        skipped.length === 0
          ? ""
          : runs.length === 0
            ? `: the store is up to date; its latest dataset version ${latest} is not older than any of the ` +
              `${folders.length} snapshot folder(s) in ${snapshots}`
            : `; ${skipped.length} snapshot folder(s) skipped, not newer than what the store held`;
      process.stderr.write(
        `${runs.length} dataset version(s) published to ${storeLabel(config)}${why}` +
          (pruned.length > 0
            ? `; ${pruned.length} old version(s) pruned (RETAIN_VERSIONS=${config.retainVersions})`
            : "") +
          "\n",
      );
      const signal = stopSignalOf(stop.signal);
      if (signal) throw new InterruptedError(signal, `ingestion stopped by ${signal}`);
    } finally {
      await store.close();
    }
  });

program
  .command("mcp")
  .description(
    "serve the assistant connector (MCP) over stdio from the local store (replays the bundled snapshots when empty)",
  )
  .action(async () => {
    const config = loadConfig();
    const [{ loadCurrentView, storeLine, storeSpans }, { serveMcpStdio }, { endpointServices }] = await Promise.all([
      import("./load-view.js"),
      import("../mcp/stdio.js"),
      import("./endpoint-services.js"),
    ]);
    process.stderr.write(`tariff mcp: ${storeLine(config)}\n`);
    // The `at=` answers read through one store kept open between questions (T199).
    const spans = storeSpans(config);
    const view = await loadCurrentView(config, spans);
    onStopSignal((signal) => {
      process.stderr.write(`tariff mcp: ${signal}: stopping (closing stdio; the store is left as it is)\n`);
      return () => spans.close();
    });
    await serveMcpStdio(view, endpointServices(config));
  });

program
  .command("identity")
  .description(
    "report on model identity: with --unmatched, the listings of the latest run that matched no model " +
      "(source, seller, spelling, reason, nearest model), so a maintainer can add a rule",
  )
  .option("--unmatched", "list the unmatched listings of the latest run")
  .option("--source <id>", "only this source's listings")
  .option("--reason <text>", "only reasons containing this text")
  .option("--json", "print JSON rows instead of text")
  .action(async (opts: { unmatched?: boolean; source?: string; reason?: string; json?: boolean }) => {
    if (!opts.unmatched) throw new InvalidArgumentError("nothing to report: pass --unmatched");
    const config = loadConfig();
    const [{ storeExists, storeLabel }, { openStore }, { formatUnmatched, selectUnmatched }] = await Promise.all([
      import("./load-view.js"),
      import("../store/open-store.js"),
      import("./identity-report.js"),
    ]);
    if (!storeExists(config))
      throw new Error(
        `no store at ${storeLabel(config)} yet: run \`tariff serve\` or \`tariff ingest --snapshots <dir>\` first`,
      );
    const store = await openStore(config);
    try {
      const run = await store.latestRun();
      if (!run)
        throw new Error(
          `no run in ${storeLabel(config)} yet: run \`tariff ingest --snapshots data/upstream\` or \`tariff serve\` first`,
        );
      const rows = run.summary.unmatched ?? [];
      const filter = {
        ...(opts.source ? { source: opts.source } : {}),
        ...(opts.reason ? { reason: opts.reason } : {}),
      };
      process.stdout.write(
        opts.json ? `${JSON.stringify(selectUnmatched(rows, filter), null, 2)}\n` : formatUnmatched(rows, filter),
      );
    } finally {
      await store.close();
    }
  });

registerPriceFileCommands(program); // issue 29: `tariff export` and `tariff cost`

/**
 * `--accept models-dev,genai-prices`: comma-separated source ids (T194), checked against the
 * registered ids when the live run starts ({@link checkAccepted}); `--help` loads no adapter (T134).
 * @throws InvalidArgumentError when the list names no source
 */
function parseSourceList(text: string): ReadonlySet<string> {
  const ids = text
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  if (ids.length === 0) throw new InvalidArgumentError("no source");
  return new Set(ids);
}

/**
 * The `--accept` ids, each a registered source's (T194; `SOURCE_IDS`, so no adapter is loaded, T399).
 * @throws InvalidArgumentError naming an unknown id and the known ones
 */
function checkAccepted(ids: ReadonlySet<string>): ReadonlySet<SourceId> {
  const unknown = [...ids].filter((id) => !isSourceId(id));
  if (unknown.length > 0)
    throw new InvalidArgumentError(`unknown source ${unknown.join(", ")}; the sources are ${SOURCE_IDS.join(", ")}`);
  return new Set([...ids].filter(isSourceId));
}

/**
 * SIGINT/SIGTERM during a live run say what is kept (issue 15, T97): the run is published in one
 * transaction, so the run in progress is dropped and the runs before it stay; exit 130/143.
 */
function interruptLiveIngestion(): void {
  const stop = (signal: "SIGINT" | "SIGTERM") => {
    process.stderr.write(
      `tariff: ${signal}: ingestion stopped; the run in progress is not published, runs published before it stay\n`,
    );
    process.exit(signal === "SIGINT" ? 130 : 143);
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

/** `--ingest-every`: a duration of at least one second, or `off` (T220). */
function parseInterval(value: string): number | null {
  try {
    return parseIngestEvery(value);
  } catch (error) {
    throw new InvalidArgumentError((error as Error).message);
  }
}

/** `--workers`: a whole number from 1 to 64. */
function parseWorkers(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1 || n > 64) throw new InvalidArgumentError("expected a whole number from 1 to 64");
  return n;
}

program.parseAsync(process.argv).catch((error: unknown) => {
  process.stderr.write(`tariff: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(error instanceof InterruptedError ? error.exitCode : 1);
});
