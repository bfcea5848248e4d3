import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { gunzipSync } from "node:zlib";
import { Ajv } from "ajv";
import formats from "ajv-formats";
import Big from "big.js";
import type { ApiModel, ApiPrice } from "../src/catalogue/schemas.js";
import type { CatalogueView } from "../src/catalogue/view.js";
import { upstreamFiles } from "../src/cli/upstream-files.js";
import { startServer, type TestServer } from "./harness.js";

/** Helpers of the price-file export suites (issue 29): the recorded files, the schemas, a server that exports. */

export const UPSTREAM = resolve("data/upstream");

/** The newest recorded snapshot folder of a source. */
export function newestDate(source: string): string {
  return readdirSync(join(UPSTREAM, source))
    .filter((d) => /^\d{4}-\d{2}-\d{2}$/.test(d))
    .sort()
    .at(-1)!;
}

/** A recorded upstream file, parsed. */
export function recorded<T>(source: string, date: string, file: string): T {
  return JSON.parse(gunzipSync(readFileSync(join(UPSTREAM, source, date, `${file}.gz`))).toString("utf8")) as T;
}

/** A JSON Schema validator (draft 2020-12 keywords used by both schemas; formats checked). */
export function validator(schemaFile: string) {
  const ajv = new Ajv({ allErrors: true, strict: false });
  // ajv-formats is CommonJS: its default export is the plugin under `default` when imported from ESM.
  (formats as unknown as { default: (a: Ajv) => void }).default(ajv);
  return ajv.compile(JSON.parse(readFileSync(resolve("data/schemas", schemaFile), "utf8")));
}

/** An API server whose exports read the bundled recorded files (as `tariff serve` does). */
export function startExportServer(view: CatalogueView): Promise<TestServer> {
  return startServer(view, { services: { upstream: upstreamFiles([UPSTREAM]) } });
}

/** A model's record in one channel (aliases and former ids followed: the test names models, issue 25 may rename them). */
export async function modelRecord(server: TestServer, id: string, channel = "direct", at?: string): Promise<ApiModel> {
  const res = await server.get(`/api/v1/models/${id}?channel=${channel}${at ? `&at=${at}` : ""}`);
  if (res.status !== 200) throw new Error(`${id}: ${res.status}`);
  return ((await res.json()) as { data: ApiModel }).data;
}

/** A record's token price in USD per 1M tokens: text, standard tier unless said, no bracket, no qualifier but `seller`. */
export function tokenPrice(
  model: ApiModel,
  direction: string,
  cache = "none",
  opts: { tier?: string; contextMin?: number } = {},
): ApiPrice | undefined {
  return model.prices.find(
    (p) =>
      p.direction === direction &&
      p.cache === cache &&
      p.modality === "text" &&
      p.tier === (opts.tier ?? "standard") &&
      p.contextMin === (opts.contextMin ?? 0) &&
      p.displayUnit === "USD per 1M tokens" &&
      Object.keys(p.qualifiers).every((k) => k === "seller"),
  );
}

/** USD per 1M tokens as LiteLLM states it: USD per token, exactly. */
export function perTokenOf(amountPerMTok: number): string {
  return new Big(amountPerMTok).div(1_000_000).toString();
}

/** A LiteLLM amount (USD per token) as an exact decimal string. */
export function exact(value: unknown): string {
  return new Big(String(value)).toString();
}
