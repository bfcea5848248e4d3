import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseInput } from "../catalogue/endpoint.js";
import {
  genaiPricesExportEndpoint,
  litellmExportEndpoint,
  modelsDevExportEndpoint,
} from "../catalogue/endpoints/exports.js";
import { loadConfig } from "../config.js";
import { loadCurrentView, storeLine } from "./load-view.js";
import { EXPORT_FILES, type ExportFormat } from "./price-file-commands.js";
import { upstreamFiles } from "./upstream-files.js";

/** The endpoint that builds each price file: the CLI writes exactly the bytes the API serves. */
const ENDPOINT_OF = {
  litellm: litellmExportEndpoint,
  "models-dev": modelsDevExportEndpoint,
  "genai-prices": genaiPricesExportEndpoint,
} as const;

/**
 * `tariff export <format> <dir>` (issue 29 §1, T210): builds the price file(s) of the current
 * dataset version (or of the version in force on `--at`) from the local store, as the API serves
 * them, and writes each under the name its consumer reads (atomically: a temporary name, then
 * renamed). What it wrote is said on stderr.
 * @throws CatalogueError for a malformed, future or too early `--at` (its message is the problem's detail)
 */
export async function exportFiles(format: string, dir: string, opts: { at?: string; baseUrl?: string }): Promise<void> {
  const input = parseInput(litellmExportEndpoint.input, opts.at === undefined ? {} : { at: opts.at });
  const config = loadConfig();
  process.stderr.write(`tariff export: ${storeLine(config)}\n`);
  const view = await loadCurrentView(config);
  if (input.at !== undefined) await view.loadTimeline(input.at);
  const context = {
    baseUrl: opts.baseUrl ?? config.publicBaseUrl?.replace(/\/+$/, "") ?? `http://127.0.0.1:${config.port}`,
    upstream: upstreamFiles([config.live.archiveDir, config.snapshotsDir]),
  };
  const target = resolve(dir);
  mkdirSync(target, { recursive: true });
  const formats = format === "all" ? (Object.keys(EXPORT_FILES) as ExportFormat[]) : [format as ExportFormat];
  for (const f of formats) {
    const body = ENDPOINT_OF[f].run(view, input, { provider: "", model: "" }, context) as object & {
      meta?: { datasetVersion?: string };
    };
    const path = join(target, EXPORT_FILES[f]);
    const tmp = `${path}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(body));
    renameSync(tmp, path);
    const entries = Array.isArray(body) ? `${body.length} providers` : `${Object.keys(body).length} entries`;
    process.stderr.write(
      `tariff export: wrote ${path} (${f}, ${entries}, dataset version ${body.meta?.datasetVersion ?? view.version})\n`,
    );
  }
}
