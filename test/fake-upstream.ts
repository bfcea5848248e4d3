import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { brotliCompressSync, gunzipSync, gzipSync } from "node:zlib";
import { type SourceId, sourceTable } from "../src/domain/observation.js";
import { SOURCES } from "../src/sources/registry.js";
import type { SourceAdapter, SourcePayload } from "../src/sources/source.js";
import { baseUrlVariable, type LiveFile } from "../src/sources/upstream.js";
import { genericMakerPagePayloads } from "./fake-page.js";

/**
 * A local stand-in for the real upstreams (issue 7 "Must show"): serves the recorded payloads of
 * `data/upstream` under `/<source>/<path>` as the real server would (gzip or br by Accept-Encoding,
 * ETag / Last-Modified with 304 on a match), and misbehaves per source on demand.
 *
 * To keep runs fast, payloads are cut to three makers' entries (anthropic, mistral, deepseek; the
 * Portkey files of those three). The cut is a test choice; the entries themselves are the real
 * recorded ones. Payloads of misbehaviours (wrong shape, empty, a 90 % row drop) are derived from
 * the real ones or invented where no real payload shows the case (said at each).
 *
 * Nothing here names a source (issue 30 §3, T235): each registered source says how its payloads
 * are cut and broken in its own file (`test/payloads/<id>.ts`, a {@link FakePayloads}; issue 45 §3, T394),
 * where it lives in its adapter's upstream, and which dates it serves in its recorded snapshots.
 */

/**
 * How the fake upstream serves one source's recorded payloads (test material, one file per source in
 * `test/payloads/<id>.ts`: `src/` never imports `test/`, issue 45 §3, T394).
 */
export interface FakePayloads {
  /** The value of the source's upstream setting the fake serves and the ingester is given (Portkey: three providers). */
  readonly setting?: readonly string[];
  /** File `name` cut to the entries of the makers `keep` accepts; a file that is not cut comes back unchanged. */
  cut(name: string, text: string, keep: (maker: string) => boolean): string;
  /** Valid JSON of the wrong shape (invented: an upstream schema regression). */
  readonly wrongShape: unknown;
  /** File `name` with no entries, in the upstream's own shape (invented: no recorded payload is empty). */
  empty(name: string, text: string): string;
  /** File `name` keeping only the entries at the positions `keep` accepts. */
  dropRows(name: string, text: string, keep: (index: number) => boolean): string;
  /** File cut short, as a half-written upstream file; default: the first half of its bytes. */
  truncate?(text: string): string;
  /**
   * Recorded copies that are failed pages (OpenAI's 2026-03-01: empty text-token panes, T290): never
   * the seed run's copy, which must succeed; a live run may still be served one to see it fail.
   */
  readonly failedCopies?: readonly string[];
}

/**
 * Every registered source's {@link FakePayloads}, loaded from `test/payloads/<id>.ts`; a maker's page
 * without one (a gated page, T291) is served as {@link genericMakerPagePayloads} (issue 48 §4, T475).
 */
const FAKES: ReadonlyMap<SourceId, FakePayloads> = new Map(
  await Promise.all(
    SOURCES.map(async (a): Promise<[SourceId, FakePayloads]> => {
      const file = new URL(`./payloads/${a.id}.ts`, import.meta.url);
      if (!existsSync(file) && a.pageHealth) return [a.id, genericMakerPagePayloads];
      const module = (await import(`./payloads/${a.id}.ts`)) as { fakePayloads: FakePayloads };
      return [a.id, module.fakePayloads];
    }),
  ),
);

/** How the fake upstream serves and breaks `source`'s payloads (its {@link FakePayloads}). */
export function fakeOf(source: SourceId): FakePayloads {
  const fake = FAKES.get(source);
  if (!fake) throw new Error(`fake upstream: no source ${source} in the registry`);
  return fake;
}

function adapterOf(source: SourceId): SourceAdapter {
  const adapter = SOURCES.find((a) => a.id === source);
  if (!adapter) throw new Error(`fake upstream: no source ${source} in the registry`);
  return adapter;
}

/** The files the fake serves for `source` (its setting's value: the fake's, else the default). */
export function servedFiles(source: SourceId): readonly LiveFile[] {
  const upstream = adapterOf(source).upstream;
  return upstream.files(fakeOf(source).setting ?? upstream.setting?.defaults ?? []);
}

/** Misbehaviours of the transport: the server errs, throttles, hangs or sends too much. */
export const TRANSPORT_FAULTS = ["http-500", "http-429", "hang", "huge-body"] as const;
/** Misbehaviours of the payload: answered 200, but the body is broken or lost its rows. */
export const PAYLOAD_FAULTS = ["truncated", "wrong-shape", "empty", "row-drop-90"] as const;
/** The misbehaviours of the Must-show list. */
export const FAULTS = [...TRANSPORT_FAULTS, ...PAYLOAD_FAULTS] as const;
export type Fault = (typeof FAULTS)[number];
export type PayloadFault = (typeof PAYLOAD_FAULTS)[number];

/** The makers whose entries the fake serves (module comment). */
const KEEP = new Set(["anthropic", "mistral", "deepseek", "mistralai", "mistral-ai"]);

/** Which recorded snapshot each source serves. */
export type Dates = Readonly<Record<SourceId, string>>;

/** Each registered source's recorded snapshot dates, oldest first. */
function recordedDates(source: SourceId): string[] {
  const dates = readdirSync(join("data/upstream", source)).filter((d) => /^\d{4}-\d{2}-\d{2}$/.test(d));
  // A maker's page recorded once (issue 48: Google, DeepSeek, xAI, Z.ai) seeds and serves that copy.
  if (dates.length < 1) throw new Error(`fake upstream: ${source} needs a recorded snapshot in data/upstream`);
  return dates.sort();
}

/** Each source's newest recorded payloads (June 2026; Anthropic's page: 2026-05): what a live run fetches. */
export const LIVE_DATES: Dates = sourceTable((id) => recordedDates(id).at(-1)!);

/**
 * Each source's payloads before the newest (May 2026; Anthropic's page: 2026-04), the run the stores
 * are seeded with. A source whose earlier copies are all failed pages (OpenAI's page) seeds with its
 * newest, so the live run finds it unchanged.
 */
export const SEED_DATES: Dates = sourceTable((id) => {
  const dates = recordedDates(id);
  const failed = fakeOf(id).failedCopies ?? [];
  return dates.slice(0, -1).findLast((d) => !failed.includes(d)) ?? dates.at(-1)!;
});

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
      bytes = cut(source, name, readRecorded(source, current[source]!, name));
      cache.set(key, bytes);
    }
    return bytes;
  };

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    const [, source, ...rest] = url.pathname.split("/");
    const path = rest.join("/");
    requests.push({ source: source ?? "", path, at: Date.now(), headers: req.headers });
    const id = SOURCES.find((a) => a.id === source)?.id;
    const file = id === undefined ? undefined : servedFiles(id).find((f) => f.path === path);
    if (id === undefined || !file) {
      res.writeHead(404).end("not found");
      return;
    }
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
    // A file not recorded on the day served is not there: 404, as the real upstream answers (T455).
    const day = current[id];
    if (day === undefined || !isRecorded(id, day, file.name)) {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found");
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
      ...Object.fromEntries(SOURCES.map((a) => [baseUrlVariable(a.id), `${origin}/${a.id}/`])),
      ...Object.fromEntries(
        SOURCES.flatMap((a) => {
          const { setting } = a.upstream;
          const served = FAKES.get(a.id)?.setting;
          return setting && served ? [[setting.variable, served.join(",")]] : [];
        }),
      ),
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
  name: string,
  transform?: BodyTransform,
): void {
  const etag = `"${createHash("sha256").update(body).digest("hex").slice(0, 32)}"`;
  const headers: Record<string, string> = {
    etag,
    "last-modified": "Mon, 01 Jun 2026 00:00:00 GMT",
    "content-type": name.endsWith(".md") ? "text/markdown; charset=utf-8" : "application/json",
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
  if (transform?.wire) encoded = transform.wire(encoded, name);
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

/** True when `name` (or `name.gz`) is among the recorded files of `source` on `date`. */
function isRecorded(source: SourceId, date: string, name: string): boolean {
  const dir = join("data/upstream", source, date);
  return existsSync(dir) && readdirSync(dir).some((f) => f === `${name}.gz` || f === name);
}

function readRecorded(source: SourceId, date: string, name: string): Buffer {
  const dir = join("data/upstream", source, date);
  const file = readdirSync(dir).find((f) => f === `${name}.gz` || f === name);
  if (!file) throw new Error(`fake upstream: no ${name} in ${dir}`);
  const bytes = readFileSync(join(dir, file));
  return file.endsWith(".gz") ? gunzipSync(bytes) : bytes;
}

/** Cuts a real payload to the three makers' entries (see the module comment). */
function cut(source: SourceId, name: string, bytes: Buffer): Buffer {
  return Buffer.from(fakeOf(source).cut(name, bytes.toString("utf8"), (maker) => KEEP.has(maker)));
}

/**
 * The payload the fake upstream serves for `source` from the recorded snapshot of `date` (cut to
 * its three makers), misbehaving with `fault` when given, as the ingester would receive it.
 */
export function servedPayload(source: SourceId, date: string, fault: PayloadFault | null = null): SourcePayload {
  const texts = servedFiles(source).map((f): [string, string] => {
    const good = cut(source, f.name, readRecorded(source, date, f.name));
    return [f.name, (fault ? misbehave(source, f.name, good, fault) : good).toString("utf8")];
  });
  return { files: new Map(texts), observedAt: `${date}T00:00:00.000Z` };
}

/** The body of a misbehaving file (the source's own broken payloads, `test/payloads/<id>.ts`). */
function misbehave(source: SourceId, name: string, good: Buffer, fault: PayloadFault): Buffer {
  const fake = fakeOf(source);
  const text = good.toString("utf8");
  if (fault === "truncated")
    return fake.truncate ? Buffer.from(fake.truncate(text)) : good.subarray(0, Math.floor(good.length / 2));
  if (fault === "wrong-shape") return Buffer.from(JSON.stringify(fake.wrongShape));
  if (fault === "empty") return Buffer.from(fake.empty(name, text));
  return Buffer.from(fake.dropRows(name, text, (i) => i % 10 === 0)); // row-drop-90: every tenth entry kept
}
