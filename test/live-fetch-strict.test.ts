import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import type { Dispatcher } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runLiveIngest } from "../src/ingest/live-run.js";
import { parseOutcome } from "../src/ingest/run-pipeline.js";
import { withoutAddresses } from "../src/sources/failure-text.js";
import { createDispatcher, FetchError, type FetchLimits, fetchFile } from "../src/sources/fetch-source.js";
import { SOURCES } from "../src/sources/registry.js";
import { openSqliteStore } from "../src/store/open-store.js";
import { type FakeUpstream, LIVE_DATES, startFakeUpstream } from "./fake-upstream.js";
import { cloneSeed, makeSeed, QUIET, type Seed, testConfig } from "./live-support.js";

// issue 26 §1 (a truncated or undecodable body) and §7 (lastError says what failed, never a URL),
// with real undici and zlib against the local fake upstream. The broken bodies are the recorded
// payloads, cut or re-encoded here; the few protocol edges the fake does not play (an unknown
// content coding, a redirect, credentials) are answered by a bespoke loopback server, said at each.

const LIMITS: FetchLimits = {
  timeoutMs: 30_000,
  retries: 1,
  retryMinMs: 10,
  maxRetryAfterMs: 120_000,
  maxBytes: 20 * 1024 * 1024,
  userAgent: "Tariff test",
};

let upstream: FakeUpstream;
let dispatcher: Dispatcher;
beforeAll(async () => {
  upstream = await startFakeUpstream(LIVE_DATES);
  dispatcher = createDispatcher(LIMITS);
});
afterAll(async () => {
  await dispatcher.close();
  await upstream.close();
});

/** Fetches models.dev's file from the fake; the FetchError when it fails. */
async function modelsDev(): Promise<{ text: string } | FetchError> {
  const url = `${upstream.origin}/models-dev/api.json`;
  try {
    const got = await fetchFile({ url, name: "api.json" }, null, LIMITS, dispatcher);
    if (got.notModified) throw new Error("unexpected 304");
    return { text: got.text };
  } catch (error) {
    if (error instanceof FetchError) return error;
    throw error;
  }
}

describe("strict decoding (T192)", () => {
  const recorded = () => upstream.payload("models-dev", "api.json").toString("utf8");

  it.each(["gzip", "br", "identity"] as const)("a whole %s body is read as recorded", async (encoding) => {
    upstream.transform("models-dev", { encoding });
    expect(await modelsDev()).toEqual({ text: recorded() });
  });

  it.each(["gzip", "br"] as const)(
    "a %s stream cut short (Content-Length agreeing) is an error, not a shorter document",
    async (encoding) => {
      upstream.transform("models-dev", { encoding, wire: (bytes) => bytes.subarray(0, bytes.length - 40) });
      const error = await modelsDev();
      expect(error).toBeInstanceOf(FetchError);
      expect((error as FetchError).message).toBe(
        `api.json: ${encoding} body is truncated or corrupt (unexpected end of file) (2 attempts)`,
      );
    },
  );

  it("a gzip stream with a corrupt byte is an error", async () => {
    upstream.transform("models-dev", {
      encoding: "gzip",
      wire: (bytes) => Buffer.concat([bytes.subarray(0, 100), Buffer.from([bytes[100]! ^ 0xff]), bytes.subarray(101)]),
    });
    expect((await modelsDev()) as FetchError).toMatchObject({
      message: expect.stringMatching(/^api\.json: gzip body is truncated or corrupt \(.+\) \(2 attempts\)$/),
      httpStatus: null,
    });
  });

  it.each(["gzip", "identity"] as const)(
    "a %s body that ends before its Content-Length (the connection closed) is an error",
    async (encoding) => {
      upstream.transform("models-dev", {
        encoding,
        wire: (bytes) => bytes.subarray(0, Math.floor(bytes.length / 2)),
        declaredLength: (sent) => sent * 2 + 1,
      });
      const error = (await modelsDev()) as FetchError;
      expect(error).toBeInstanceOf(FetchError);
      expect(error.message).toMatch(
        /^api\.json: body ended after \d+ of the \d+ bytes of its Content-Length \(2 attempts\)$/,
      );
    },
  );

  it("a body that is not UTF-8 is an error (not replaced by U+FFFD), at once", async () => {
    upstream.transform("models-dev", {
      encoding: "identity",
      wire: (bytes) => Buffer.concat([bytes, Buffer.from([0xff])]),
    });
    expect(((await modelsDev()) as FetchError).message).toBe("api.json: body is not UTF-8 text (1 attempt)");
  });

  it("the cut body of Anthropic's page fails that source in a live run, and the others still update", async () => {
    upstream.transform("models-dev", null);
    const seed: Seed = await makeSeed();
    const { dir, cleanup } = cloneSeed(seed);
    const fake = await startFakeUpstream(LIVE_DATES);
    fake.transform("official-anthropic", { encoding: "gzip", wire: (gz) => gz.subarray(0, Math.floor(gz.length / 2)) });
    const store = await openSqliteStore(join(dir, "tariff.db"));
    try {
      const result = await runLiveIngest(store, SOURCES, testConfig(fake, dir), QUIET);
      expect(result.dataset.run.summary.failed).toEqual({
        "official-anthropic":
          "official-anthropic: pricing.md: gzip body is truncated or corrupt (unexpected end of file) (2 attempts)",
      });
      const health = result.dataset.sources.find((s) => s.source === "official-anthropic")!;
      expect(health.lastSuccessAt).toBe(seed.dataset.run.datasetVersion);
      // The seed is May's: every other source moved to June.
      for (const s of result.dataset.sources.filter((h) => h.source !== "official-anthropic"))
        expect(s.lastSuccessAt).toBe(result.dataset.run.datasetVersion);
    } finally {
      await store.close();
      await fake.close();
      cleanup();
      seed.cleanup();
    }
  });
});

/** A bespoke loopback server for the edges the fake upstream does not play. */
async function edgeServer(handle: (req: IncomingMessage, res: ServerResponse) => void): Promise<{
  origin: string;
  close(): Promise<void>;
}> {
  const server: Server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe("protocol edges (a bespoke loopback server: the fake upstream does not play these)", () => {
  it("an unknown content coding fails at once, saying which", async () => {
    const edge = await edgeServer((_, res) => res.writeHead(200, { "content-encoding": "zstd" }).end("xx"));
    try {
      await expect(fetchFile({ url: `${edge.origin}/f`, name: "f.json" }, null, LIMITS, dispatcher)).rejects.toThrow(
        'f.json: unsupported Content-Encoding "zstd" (1 attempt)',
      );
    } finally {
      await edge.close();
    }
  });

  it("redirects are followed; credentials in the URL are sent as Basic authorization", async () => {
    const seen: (string | undefined)[] = [];
    const edge = await edgeServer((req, res) => {
      seen.push(req.headers.authorization);
      if (req.url === "/old") res.writeHead(302, { location: "/new" }).end();
      else res.writeHead(200, { "content-encoding": "gzip" }).end(gzipSync('{"ok":true}'));
    });
    try {
      const url = `${edge.origin.replace("http://", "http://ops:s%40cret@")}/old`;
      const got = await fetchFile({ url, name: "f.json" }, null, LIMITS, dispatcher);
      expect(got).toMatchObject({ notModified: false, text: '{"ok":true}' });
      const basic = `Basic ${Buffer.from("ops:s@cret").toString("base64")}`;
      expect(seen).toEqual([basic, basic]);
    } finally {
      await edge.close();
    }
  });
});

describe("redirects only to the source's own host or one its registry entry allows (issue 33 §5, T264)", () => {
  it("a redirect to another host is refused without reading its answer; an allowed host is followed, without the credentials", async () => {
    const elsewhere: (string | undefined)[] = [];
    const other = await edgeServer((req, res) => {
      elsewhere.push(req.headers.authorization);
      res.writeHead(200).end('{"from":"elsewhere"}');
    });
    const edge = await edgeServer((_, res) => res.writeHead(302, { location: `${other.origin}/f` }).end());
    try {
      const url = `${edge.origin.replace("http://", "http://ops:s%40cret@")}/f`;
      await expect(fetchFile({ url, name: "f.json" }, null, LIMITS, dispatcher)).rejects.toThrow(
        /^f\.json: HTTP 302 redirect to another host refused \(1 attempt\)$/,
      );
      expect(elsewhere).toEqual([]);
      const allowed = [new URL(other.origin).host];
      const got = await fetchFile({ url, name: "f.json", redirectHosts: allowed }, null, LIMITS, dispatcher);
      expect(got).toMatchObject({ notModified: false, text: '{"from":"elsewhere"}' });
      expect(elsewhere).toEqual([undefined]);
    } finally {
      await edge.close();
      await other.close();
    }
  });

  it.each(["file:///etc/passwd", "ftp://127.0.0.1/f", "data:application/json,{}"])(
    "a redirect to another scheme (%s) is refused",
    async (location) => {
      const edge = await edgeServer((_, res) => res.writeHead(301, { location }).end());
      try {
        await expect(fetchFile({ url: `${edge.origin}/f`, name: "f.json" }, null, LIMITS, dispatcher)).rejects.toThrow(
          /^f\.json: HTTP 301 redirect to another scheme refused \(1 attempt\)$/,
        );
      } finally {
        await edge.close();
      }
    },
  );

  it("a redirect loop on the same host ends after 5 redirects", async () => {
    const edge = await edgeServer((req, res) => res.writeHead(307, { location: `${req.url}x` }).end());
    try {
      await expect(fetchFile({ url: `${edge.origin}/f`, name: "f.json" }, null, LIMITS, dispatcher)).rejects.toThrow(
        /^f\.json: more than 5 redirects \(1 attempt\)$/,
      );
    } finally {
      await edge.close();
    }
  });

  it("no fragment of an answer reaches lastError: a JSON parser's quote of the text is cut", () => {
    const source = SOURCES.find((a) => a.id === "models-dev")!;
    const outcome = parseOutcome(
      source,
      {
        kind: "payload",
        payload: { files: new Map([["api.json", "<html>session=s3cr3t; internal build 7</html>"]]), observedAt: "" },
      },
      undefined,
      null,
    );
    expect("failure" in outcome && outcome.failure.message).toBe(
      "models-dev: api.json is not JSON: an unexpected character (the answer is not quoted)",
    );
    expect(withoutAddresses("x: Unexpected token 'a', \"abc\" is not valid JSON")).toBe(
      "x: an unexpected character (the answer is not quoted)",
    );
  });
});

describe("lastError says what failed, never where (T193)", () => {
  it("a SOURCE_URL_* override with credentials and an internal address: the error names neither", async () => {
    // A port nothing listens on (the test's own range), behind credentials in the URL.
    const dir = mkdtempSync(join(tmpdir(), "tariff-lasterror-"));
    const store = await openSqliteStore(join(dir, "tariff.db"));
    try {
      const config = testConfig(upstream, dir, {
        SOURCE_URL_MODELS_DEV: "http://ops:hunter2@127.0.0.1:8829/internal/models-dev/",
        SOURCE_URL_GENAI_PRICES: `${upstream.origin.replace("http://", "http://ops:hunter2@")}/nowhere/`,
      });
      const result = await runLiveIngest(store, SOURCES, config, QUIET);
      const errors = result.dataset.sources.filter((s) => s.lastError).map((s) => [s.source, s.lastError!.message]);
      expect(Object.fromEntries(errors)).toEqual({
        "models-dev": "models-dev: api.json: network error (ECONNREFUSED: connection refused) (2 attempts)",
        "genai-prices": "genai-prices: data.json: HTTP 404 Not Found (1 attempt)",
      });
      for (const [, message] of errors) expect(message).not.toMatch(/hunter2|ops:|127\.0\.0\.1|8829|internal|http/);
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a failure message holding an address (an older archive's, a parser's) is scrubbed before it is published", () => {
    const adapter = SOURCES[0]!;
    const outcome = {
      kind: "failed",
      message: "models-dev: GET https://ops:pw@pricing.internal.example/api.json: HTTP 500 (connect 10.0.0.7:443)",
      httpStatus: 500,
    } as const;
    expect(parseOutcome(adapter, outcome, undefined, null)).toEqual({
      failure: { message: "models-dev: GET <address>: HTTP 500 (connect <address>)", httpStatus: 500 },
    });
  });

  it.each([
    ["http://user:pw@host.internal:8080/a?b=c", "<address>"],
    ["see ftp://x.example/y, then", "see <address>, then"],
    ["user:secret@db.internal:5432 refused", "<address> refused"],
    ["[::1]:8821 and 192.168.1.20", "<address> and <address>"],
    ["HTTP 500 Internal Server Error (2 attempts)", "HTTP 500 Internal Server Error (2 attempts)"],
    [
      "guard scale-shift: ×1000 (last good run 2026-05-01T00:00:00.000Z)",
      "guard scale-shift: ×1000 (last good run 2026-05-01T00:00:00.000Z)",
    ],
  ])("withoutAddresses(%j) = %j", (text, expected) => {
    expect(withoutAddresses(text)).toBe(expected);
  });
});
