import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import type { SourceId } from "../src/domain/observation.js";
import { SOURCES } from "../src/sources/registry.js";
import { baseUrlVariable } from "../src/sources/upstream.js";

/**
 * The real upstreams as a live run would find them after the bundled snapshots (issue 27 §5): a
 * local HTTP server on 127.0.0.1 serving the project's own recorded payloads of `data/upstream`,
 * whole (unlike test/fake-upstream.ts, which cuts them to three makers), under the paths the live
 * ingester asks for with its default settings (every Portkey file of `PORTKEY_PROVIDERS`). What it
 * serves is "re-dated": the live run that reads it is dated by the clock, after the bundled runs.
 * ETag with 304 on a match, gzip when accepted, as the real servers.
 */
export interface RecordedUpstream {
  readonly origin: string;
  /** `SOURCE_URL_<ID>` of every source, and nothing else (the ingester's other settings stay default). */
  env(): Record<string, string>;
  /** Requests received, as `<source>/<path>`. */
  readonly requests: string[];
  close(): Promise<void>;
}

/** Which recorded snapshot each source serves. */
export type RecordedDates = Readonly<Record<SourceId, string>>;

/**
 * The newest recorded payload of every registered source, read from `data/upstream/<id>/` (issue 48
 * §4: derived from the registry, no source named here): June 2026 for the aggregators, each maker's
 * page at its last recording (Anthropic's 2026-05-01, the one-off copies of Google, DeepSeek, xAI
 * and Z.ai at theirs; T290, T430).
 */
export const NEWEST_RECORDED: RecordedDates = Object.fromEntries(
  SOURCES.map((a) => [
    a.id,
    readdirSync(join("data/upstream", a.id))
      .filter((d) => /^\d{4}-\d{2}-\d{2}$/.test(d))
      .sort()
      .at(-1)!,
  ]),
) as RecordedDates;

/** Starts the server on a free loopback port. */
export async function startRecordedUpstream(dates: RecordedDates = NEWEST_RECORDED): Promise<RecordedUpstream> {
  const requests: string[] = [];
  const bodies = new Map<string, Buffer>();
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    const [, source, ...rest] = url.pathname.split("/");
    const path = rest.join("/");
    requests.push(`${source}/${path}`);
    const adapter = SOURCES.find((a) => a.id === source);
    // Each source's files with its default settings (every Portkey file of the newest snapshot).
    const file = adapter?.upstream.files(adapter.upstream.setting?.defaults ?? []).find((f) => f.path === path);
    if (!adapter || !file) {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found");
      return;
    }
    const key = `${adapter.id}/${file.name}`;
    let body = bodies.get(key);
    if (!body) {
      body = readRecorded(adapter.id, dates[adapter.id]!, file.name);
      bodies.set(key, body);
    }
    const etag = `"${createHash("sha256").update(body).digest("hex").slice(0, 32)}"`;
    const headers: Record<string, string> = {
      etag,
      "content-type": adapter.id.startsWith("official-") ? "text/markdown; charset=utf-8" : "application/json",
      vary: "accept-encoding",
    };
    if (req.headers["if-none-match"] === etag) {
      res.writeHead(304, headers).end();
      return;
    }
    let encoded = body;
    if (String(req.headers["accept-encoding"] ?? "").includes("gzip")) {
      encoded = gzipSync(body, { level: 1 });
      headers["content-encoding"] = "gzip";
    }
    headers["content-length"] = String(encoded.length);
    res.writeHead(200, headers).end(encoded);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    env: () => Object.fromEntries(SOURCES.map((a) => [baseUrlVariable(a.id), `${origin}/${a.id}/`])),
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function readRecorded(source: SourceId, date: string, name: string): Buffer {
  const dir = join("data/upstream", source, date);
  const file = readdirSync(dir).find((f) => f === `${name}.gz` || f === name);
  if (!file) throw new Error(`recorded upstream: no ${name} in ${dir}`);
  const bytes = readFileSync(join(dir, file));
  return file.endsWith(".gz") ? gunzipSync(bytes) : bytes;
}

/**
 * `SOURCE_URL_<ID>` of every source at a loopback port where nothing listens: a live run fails
 * every source at once (connection refused), reaching no other address.
 */
export async function unreachableSources(): Promise<Record<string, string>> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return Object.fromEntries(SOURCES.map((a) => [baseUrlVariable(a.id), `http://127.0.0.1:${port}/`]));
}
