import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { callEndpoint } from "../catalogue/call.js";
import { type Endpoint, parseInput } from "../catalogue/endpoint.js";
import {
  genaiPricesExportEndpoint,
  litellmExportEndpoint,
  modelsDevExportEndpoint,
} from "../catalogue/endpoints/exports.js";
import { loadConfig } from "./config.js";
import { endpointServices } from "./endpoint-services.js";
import { loadCurrentView, storeLine } from "./load-view.js";
import { EXPORT_FILES, type ExportFormat } from "./price-file-commands.js";

/** The endpoint that builds each price file: the CLI writes exactly the bytes the API serves. */
const ENDPOINT_OF: Readonly<Record<ExportFormat, Endpoint<typeof litellmExportEndpoint.input>>> = {
  litellm: litellmExportEndpoint,
  "models-dev": modelsDevExportEndpoint,
  "genai-prices": genaiPricesExportEndpoint,
};

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
  const services = endpointServices(config);
  const baseUrl = opts.baseUrl ?? config.publicBaseUrl?.replace(/\/+$/, "") ?? `http://127.0.0.1:${config.port}`;
  const target = resolve(dir);
  mkdirSync(target, { recursive: true });
  const formats = format === "all" ? (Object.keys(EXPORT_FILES) as ExportFormat[]) : [format as ExportFormat];
  for (const f of formats) {
    // The `at` version's index and the recorded files are loaded by callEndpoint, as for the API (T275).
    const { body, version, headers } = await callEndpoint(ENDPOINT_OF[f], view, { input, baseUrl }, services);
    const path = join(target, EXPORT_FILES[f]);
    const tmp = `${path}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(body));
    renameSync(tmp, path);
    const entries = Array.isArray(body) ? `${body.length} providers` : `${Object.keys(body as object).length} entries`;
    // What the endpoint's headers say about the file (the LiteLLM export's kept keys, T526), as the API sends them.
    const said = Object.entries(headers ?? {}).map(([name, value]) => `, ${name}: ${value}`);
    process.stderr.write(
      `tariff export: wrote ${path} (${f}, ${entries}, dataset version ${version}${said.join("")})\n`,
    );
  }
}
