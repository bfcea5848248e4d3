import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { brotliCompressSync, gunzipSync, gzipSync } from "node:zlib";
import type { SourceId } from "../src/domain/observation.js";
import { baseUrlVariable, LIVE_UPSTREAMS } from "../src/sources/live-upstreams.js";
import type { SourcePayload } from "../src/sources/source.js";

/**
 * A local stand-in for the real upstreams (issue 7 "Must show"): serves the recorded payloads of
 * `data/upstream` under `/<source>/<path>` as the real server would (gzip or br by Accept-Encoding,
 * ETag / Last-Modified with 304 on a match), and misbehaves per source on demand.
 *
 * To keep runs fast, payloads are cut to three makers' entries (anthropic, mistral, deepseek; the
 * Portkey files of those three). The cut is a test choice; the entries themselves are the real
 * recorded ones. Payloads of misbehaviours (wrong shape, empty, a 90 % row drop) are derived from
 * the real ones or invented where no real payload shows the case (said at each).
 */

/** Misbehaviours of the transport: the server errs, throttles, hangs or sends too much. */
export const TRANSPORT_FAULTS = ["http-500", "http-429", "hang", "huge-body"] as const;
/** Misbehaviours of the payload: answered 200, but the body is broken or lost its rows. */
export const PAYLOAD_FAULTS = ["truncated", "wrong-shape", "empty", "row-drop-90"] as const;
/** The misbehaviours of the Must-show list. */
export const FAULTS = [...TRANSPORT_FAULTS, ...PAYLOAD_FAULTS] as const;
export type Fault = (typeof FAULTS)[number];
export type PayloadFault = (typeof PAYLOAD_FAULTS)[number];

/** Portkey provider files served (and fetched: pass {@link FakeUpstream.env} to the ingester). */
export const FAKE_PORTKEY_PROVIDERS = ["anthropic", "deepseek", "mistral-ai"];

const KEEP = new Set(["anthropic", "mistral", "deepseek", "mistralai", "mistral-ai"]);

/** Which recorded snapshot each source serves. */
export type Dates = Readonly<Record<SourceId, string>>;

/** May 2026 (Anthropic's page: 2025-11), the run the stores are seeded with. */
export const SEED_DATES: Dates = {
  "models-dev": "2026-05-01",
  "genai-prices": "2026-05-01",
  "llm-prices": "2026-05-01",
  portkey: "2026-05-01",
  openrouter: "2026-05-01",
  litellm: "2026-05-01",
  "official-anthropic": "2025-11-01",
};

/** June 2026 (Anthropic's page: 2025-12), the newest recorded payloads. */
export const LIVE_DATES: Dates = {
  "models-dev": "2026-06-01",
  "genai-prices": "2026-06-01",
  "llm-prices": "2026-06-01",
  portkey: "2026-06-01",
  openrouter: "2026-06-01",
  litellm: "2026-06-01",
  "official-anthropic": "2025-12-01",
};

/** One request the fake upstream received. */
export interface SeenRequest {
  readonly source: string;
  readonly path: string;
  readonly at: number;
  readonly headers: IncomingMessage["headers"];
}

export interface FakeUpstream {
  readonly origin: string;
  /** Environment for the ingester: `SOURCE_URL_*` of every source and `PORTKEY_PROVIDERS`. */
  env(): Record<string, string>;
  /** Serve these snapshot dates from now on. */
  serve(dates: Dates): void;
  /** Make one source misbehave (null: behave), on every request or on the next `times` ones. */
  fault(source: SourceId, fault: Fault | null, times?: number): void;
  /** Serve one source's files transformed (null: as recorded), on every request; see {@link BodyTransform}. */
  transform(source: SourceId, transform: BodyTransform | null): void;
  readonly requests: SeenRequest[];
  /** The decoded bytes served for a file, as the ingester should receive them (no fault). */
  payload(source: SourceId, name: string): Buffer;
  close(): Promise<void>;
}

/**
 * A generic rewrite of what one source serves (issue 26 fault tests build their broken payloads
 * from the recorded ones with it): `decoded` rewrites a file's payload before it is compressed,
 * `encoding` forces the content coding, `wire` rewrites the bytes sent (after compression;
 * Content-Length follows them), and `declaredLength` declares another Content-Length than the
 * bytes sent (when it is longer, the connection is closed after the last byte, as a cut transfer).
 */
export interface BodyTransform {
  readonly decoded?: (body: Buffer, file: string) => Buffer;
  readonly encoding?: "gzip" | "br" | "identity";
  readonly wire?: (encoded: Buffer, file: string) => Buffer;
  readonly declaredLength?: (sent: number) => number;
}

/** Starts a fake upstream on 127.0.0.1 (a free port). */
export async function startFakeUpstream(dates: Dates = LIVE_DATES): Promise<FakeUpstream> {
  let current = dates;
  const faults = new Map<SourceId, { fault: Fault; remaining: number }>();
  const transforms = new Map<SourceId, BodyTransform>();
  const requests: SeenRequest[] = [];
  const cache = new Map<string, Buffer>();
  const payload = (source: SourceId, name: string): Buffer => {
    const key = `${source}/${current[source]}/${name}`;
    let bytes = cache.get(key);
    if (!bytes) {
      bytes = trim(source, name, readRecorded(source, current[source], name));
      cache.set(key, bytes);
    }
    return bytes;
  };

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    const [, source, ...rest] = url.pathname.split("/");
    const path = rest.join("/");
    requests.push({ source: source ?? "", path, at: Date.now(), headers: req.headers });
    const upstream = LIVE_UPSTREAMS.find((u) => u.source === source);
    const file = upstream?.files({ portkeyProviders: FAKE_PORTKEY_PROVIDERS }).find((f) => f.path === path);
    if (!upstream || !file) {
      res.writeHead(404).end("not found");
      return;
    }
    const id = upstream.source;
    const entry = faults.get(id);
    const fault = entry && entry.remaining > 0 ? entry.fault : undefined;
    if (entry) entry.remaining -= 1;
    if (fault === "hang") return; // never answers; the socket is destroyed on close
    if (fault === "http-500") {
      res.writeHead(500, { "content-type": "text/plain" }).end("upstream exploded");
      return;
    }
    if (fault === "http-429") {
      res.writeHead(429, { "retry-after": "1", "content-type": "text/plain" }).end("slow down");
      return;
    }
    if (fault === "huge-body") {
      streamHuge(res, 50 * 1024 * 1024);
      return;
    }
    const body = fault ? misbehave(id, file.name, payload(id, file.name), fault) : payload(id, file.name);
    const transform = transforms.get(id);
    send(req, res, transform?.decoded ? transform.decoded(body, file.name) : body, id, file.name, transform);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    env: () => ({
      ...Object.fromEntries(LIVE_UPSTREAMS.map((u) => [baseUrlVariable(u.source), `${origin}/${u.source}/`])),
      PORTKEY_PROVIDERS: FAKE_PORTKEY_PROVIDERS.join(","),
    }),
    serve: (d) => {
      current = d;
    },
    fault: (source, f, times = Number.POSITIVE_INFINITY) => {
      if (f) faults.set(source, { fault: f, remaining: times });
      else faults.delete(source);
    },
    transform: (source, t) => {
      if (t) transforms.set(source, t);
      else transforms.delete(source);
    },
    requests,
    payload,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A 200 with ETag / Last-Modified (304 on If-None-Match), br or gzip as accepted (or as `transform` says). */
function send(
  req: IncomingMessage,
  res: ServerResponse,
  body: Buffer,
  source: string,
  file = "",
  transform?: BodyTransform,
): void {
  const etag = `"${createHash("sha256").update(body).digest("hex").slice(0, 32)}"`;
  const headers: Record<string, string> = {
    etag,
    "last-modified": "Mon, 01 Jun 2026 00:00:00 GMT",
    "content-type": source === "official-anthropic" ? "text/markdown; charset=utf-8" : "application/json",
    vary: "accept-encoding",
  };
  if (req.headers["if-none-match"] === etag) {
    res.writeHead(304, headers).end();
    return;
  }
  const accept = String(req.headers["accept-encoding"] ?? "");
  // Like the real CDNs, some answer br and some gzip: alternate by source so both are exercised.
  const preferBr = source.length % 2 === 0;
  const coding =
    transform?.encoding ?? (accept.includes("br") && preferBr ? "br" : accept.includes("gzip") ? "gzip" : "identity");
  let encoded = body;
  if (coding === "br") {
    encoded = brotliCompressSync(body);
    headers["content-encoding"] = "br";
  } else if (coding === "gzip") {
    encoded = gzipSync(body);
    headers["content-encoding"] = "gzip";
  }
  if (transform?.wire) encoded = transform.wire(encoded, file);
  const declared = transform?.declaredLength?.(encoded.length) ?? encoded.length;
  headers["content-length"] = String(declared);
  if (declared > encoded.length) {
    res.writeHead(200, headers);
    res.write(encoded, () => res.destroy());
    return;
  }
  res.writeHead(200, headers).end(encoded);
}

/** Streams `total` bytes of one JSON string, chunked (no Content-Length), until the client goes. */
function streamHuge(res: ServerResponse, total: number): void {
  res.writeHead(200, { "content-type": "application/json" });
  const chunk = Buffer.alloc(64 * 1024, "x");
  let sent = 0;
  res.write('{"pad":"');
  const pump = () => {
    while (sent < total && !res.destroyed) {
      sent += chunk.length;
      if (!res.write(chunk)) {
        res.once("drain", pump);
        return;
      }
    }
    if (!res.destroyed) res.end('"}');
  };
  res.on("error", () => {});
  pump();
}

function readRecorded(source: SourceId, date: string, name: string): Buffer {
  const dir = join("data/upstream", source, date);
  const file = readdirSync(dir).find((f) => f === `${name}.gz` || f === name);
  if (!file) throw new Error(`fake upstream: no ${name} in ${dir}`);
  const bytes = readFileSync(join(dir, file));
  return file.endsWith(".gz") ? gunzipSync(bytes) : bytes;
}

type Json = Record<string, unknown>;

/** Cuts a real payload to the three makers' entries (see the module comment). */
function trim(source: SourceId, name: string, bytes: Buffer): Buffer {
  if (!name.endsWith(".json") || source === "llm-prices" || source === "portkey") return bytes;
  const json: unknown = JSON.parse(bytes.toString("utf8"));
  let out: unknown = json;
  if (source === "models-dev") out = Object.fromEntries(Object.entries(json as Json).filter(([k]) => KEEP.has(k)));
  if (source === "genai-prices") out = (json as Json[]).filter((p) => KEEP.has(String(p.id)));
  if (source === "openrouter")
    out = {
      ...(json as Json),
      data: ((json as { data: Json[] }).data ?? []).filter((m) => KEEP.has(String(m.id).split("/")[0] ?? "")),
    };
  if (source === "litellm")
    out = Object.fromEntries(
      Object.entries(json as Record<string, Json>).filter(([, v]) => KEEP.has(String(v.litellm_provider))),
    );
  return Buffer.from(JSON.stringify(out));
}

/**
 * The payload the fake upstream serves for `source` from the recorded snapshot of `date` (cut to
 * its three makers), misbehaving with `fault` when given, as the ingester would receive it.
 */
export function servedPayload(source: SourceId, date: string, fault: PayloadFault | null = null): SourcePayload {
  const files = LIVE_UPSTREAMS.find((u) => u.source === source)!.files({ portkeyProviders: FAKE_PORTKEY_PROVIDERS });
  const texts = files.map((f): [string, string] => {
    const good = trim(source, f.name, readRecorded(source, date, f.name));
    return [f.name, (fault ? misbehave(source, f.name, good, fault) : good).toString("utf8")];
  });
  return { files: new Map(texts), observedAt: `${date}T00:00:00.000Z` };
}

/** The body of a misbehaving file. */
function misbehave(source: SourceId, name: string, good: Buffer, fault: Fault): Buffer {
  const text = good.toString("utf8");
  if (fault === "truncated") {
    // JSON cut in half, as a half-written upstream file; Anthropic's page cut inside its first
    // price row (the page is markdown, so a cut elsewhere would still be a valid page).
    if (source !== "official-anthropic") return good.subarray(0, Math.floor(good.length / 2));
    const row = text.indexOf("| Claude");
    return Buffer.from(text.slice(0, row + 12));
  }
  if (fault === "wrong-shape") return Buffer.from(JSON.stringify(WRONG_SHAPE[source]));
  if (fault === "empty") return Buffer.from(emptyOf(source, name, text));
  return Buffer.from(dropRows(source, text)); // row-drop-90
}

/** Valid JSON of the wrong shape per source (invented: an upstream schema regression). */
const WRONG_SHAPE: Record<SourceId, unknown> = {
  "models-dev": [{ id: "anthropic", models: [] }],
  "genai-prices": { providers: "moved to v3" },
  "llm-prices": { updated_at: "2026-06-01", prices: { moved: true } },
  portkey: ["not", "an", "object"],
  openrouter: { data: { models: [] } },
  litellm: [{ model: "gpt-4o" }],
  "official-anthropic": { detail: "Moved Permanently" },
};

/** The empty payload of each upstream's own shape (invented: no recorded payload is empty). */
function emptyOf(source: SourceId, name: string, text: string): string {
  switch (source) {
    case "models-dev":
    case "litellm":
    case "portkey":
      return "{}";
    case "genai-prices":
      return "[]";
    case "llm-prices":
      return name.startsWith("current") ? '{"updated_at":"2026-06-01","prices":[]}' : '{"prices":[]}';
    case "openrouter":
      return '{"data":[]}';
    case "official-anthropic":
      return text
        .split("\n")
        .filter((l) => !l.startsWith("| Claude"))
        .join("\n");
  }
}

/** Keeps every tenth entry (of the real payload): a 90 % row drop. */
function dropRows(source: SourceId, text: string): string {
  const tenth = <T>(xs: T[]) => xs.filter((_, i) => i % 10 === 0);
  if (source === "official-anthropic") {
    let n = 0;
    return text
      .split("\n")
      .filter((l) => !l.startsWith("| Claude") || n++ % 10 === 0)
      .join("\n");
  }
  const json = JSON.parse(text) as Json | Json[];
  switch (source) {
    case "models-dev":
      return JSON.stringify(
        Object.fromEntries(
          Object.entries(json as Record<string, Json>).map(([k, p]) => [
            k,
            { ...p, models: Object.fromEntries(tenth(Object.entries(p.models as Json))) },
          ]),
        ),
      );
    case "genai-prices":
      return JSON.stringify((json as Json[]).map((p) => ({ ...p, models: tenth(p.models as Json[]) })));
    case "llm-prices":
      return JSON.stringify({ ...(json as Json), prices: tenth((json as Json).prices as Json[]) });
    case "openrouter":
      return JSON.stringify({ ...(json as Json), data: tenth((json as Json).data as Json[]) });
    case "litellm":
    case "portkey":
      return JSON.stringify(Object.fromEntries(tenth(Object.entries(json as Json))));
  }
}
