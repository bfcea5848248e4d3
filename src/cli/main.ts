import { Command } from "commander";
import { loadConfig } from "../config.js";
import { ingestSnapshots } from "../ingest/run-ingest.js";
import { serveMcpStdio } from "../mcp/stdio.js";
import { SOURCES } from "../sources/registry.js";
import { openSqliteStore } from "../store/open-store.js";
import { loadCurrentView } from "./load-view.js";
import { consoleReporter } from "./progress.js";
import { serve } from "./serve.js";

/** The `tariff` command line: a thin shell over serve() and ingestSnapshots(). */
const program = new Command()
  .name("tariff")
  .description("Tariff: an open catalogue of AI-model prices, served as a read-only HTTP/JSON API")
  .showHelpAfterError();

program
  .command("serve")
  .description("serve API v1 (replays the bundled snapshots first when the store is empty)")
  .action(async () => {
    await serve(loadConfig());
  });

program
  .command("ingest")
  .description("ingest a snapshot folder laid out as <source>/<YYYY-MM-DD>/<files>, one run per date")
  .requiredOption("--snapshots <dir>", "folder of recorded upstream payloads")
  .action(async (opts: { snapshots: string }) => {
    const config = loadConfig();
    const store = await openSqliteStore(config.databasePath);
    try {
      const runs = await ingestSnapshots(store, opts.snapshots, SOURCES, consoleReporter());
      process.stderr.write(`${runs.length} dataset version(s) published to ${config.databasePath}\n`);
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
    await serveMcpStdio(await loadCurrentView(loadConfig()));
  });

program.parseAsync(process.argv).catch((error: unknown) => {
  process.stderr.write(`tariff: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
