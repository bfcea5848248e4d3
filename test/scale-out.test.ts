import { type ChildProcess, spawn } from "node:child_process";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ingestSnapshots } from "../src/ingest/run-ingest.js";
import { SOURCES } from "../src/sources/registry.js";
import type { CatalogueStore } from "../src/store/catalogue-store.js";
import { openPostgresStore } from "../src/store/open-store.js";
import { tariffEnv } from "./cli-support.js";
import { createPgDatabase } from "./store-backends.js";

// Issue 5 "Must show" with real processes: two API processes over real PostgreSQL and Redis
// (127.0.0.1:5432 and :6379; these tests fail, never skip, when either is unreachable).
const REDIS_DB = 9;
const REDIS_URL = `redis://127.0.0.1:6379/${REDIS_DB}`;

let dir: string;
let db: { url: string; drop: () => Promise<void> };
let store: CatalogueStore;
const children: ChildProcess[] = [];

function copy(source: string, date: string) {
  cpSync(join("data/upstream", source, date), join(dir, "snap", source, date), { recursive: true });
}

function tariff(args: string[], env: Record<string, string>): ChildProcess {
  const child = spawn(process.execPath, ["bin/tariff.js", ...args], {
    // Live ingestion off (T220, T228): these processes serve what the test publishes.
    env: tariffEnv({
      DATA_DIR: join(dir, "var"),
      SNAPSHOTS_DIR: join(dir, "none"),
      INGEST_EVERY: "off",
      ...env,
    }),
    stdio: ["ignore", "ignore", "pipe"],
  });
  children.push(child);
  return child;
}

function exited(child: ChildProcess): Promise<number> {
  return new Promise((resolve) => child.once("exit", (code) => resolve(code ?? -1)));
}

async function waitFor<T>(probe: () => Promise<T | undefined>, ms: number): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function versionOf(port: number, ip: string): Promise<string | undefined> {
  const res = await fetch(`http://127.0.0.1:${port}/api/v1/meta`, { headers: { "x-forwarded-for": ip } });
  return res.ok ? (res.headers.get("x-dataset-version") ?? undefined) : undefined;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "tariff-scale-"));
  db = await createPgDatabase();
  store = await openPostgresStore(db.url);
  const redis = new Redis(REDIS_URL);
  await redis.flushdb();
  await redis.quit();
});

afterAll(async () => {
  for (const child of children) child.kill("SIGKILL");
  await store.close();
  await db.drop();
  rmSync(dir, { recursive: true, force: true });
});

describe("scale-out on PostgreSQL and Redis (issue 5)", () => {
  it("two API processes serve a new ingestion within 5 s and share the rate limit", async () => {
    copy("models-dev", "2025-07-01");
    await ingestSnapshots(store, join(dir, "snap"), SOURCES);
    const env = { DATABASE_URL: db.url, REDIS_URL, RATE_LIMIT_PER_MINUTE: "5", TRUST_PROXY: "1" };
    const ports = [18_931, 18_932];
    for (const port of ports) tariff(["serve"], { ...env, PORT: String(port) });
    // Each probe uses its own client address (TRUST_PROXY=1), so probing does not eat the limit under test.
    let probe = 0;
    const fresh = () => `198.51.100.${++probe % 250}`;
    for (const port of ports) await waitFor(() => versionOf(port, fresh()), 60_000);
    expect(await versionOf(ports[0]!, fresh())).toBe("2025-07-01T00:00:00.000Z");

    copy("models-dev", "2025-08-01");
    await ingestSnapshots(store, join(dir, "snap"), SOURCES);
    const published = Date.now();
    for (const port of ports)
      await waitFor(
        async () => ((await versionOf(port, fresh())) === "2025-08-01T00:00:00.000Z" ? true : undefined),
        5000,
      );
    expect(Date.now() - published).toBeLessThan(5000);

    // One count across both processes and both paths (T130): /providers is built for the version
    // (the fast path answers it), a query nobody sent before is rendered by the Fastify path.
    const client = { "x-forwarded-for": "203.0.113.7" };
    const paths = ["/api/v1/providers", "/api/v1/models?limit=11", "/api/v1/providers", "/api/v1/models?limit=12"];
    for (let i = 0; i < 5; i++) {
      const path = paths[i % paths.length];
      const res = await fetch(`http://127.0.0.1:${ports[i % 2]}${path}`, { headers: client });
      expect(res.status, path).toBe(200);
      expect(res.headers.get("ratelimit-remaining"), path).toBe(String(4 - i));
      expect(res.headers.get("ratelimit-limit"), path).toBe("5");
    }
    for (const [port, path] of [
      [ports[1], "/api/v1/providers"],
      [ports[0], "/api/v1/providers"],
      [ports[1], "/api/v1/models?limit=13"],
    ] as const) {
      const limited = await fetch(`http://127.0.0.1:${port}${path}`, { headers: client });
      expect(limited.status, path).toBe(429);
      expect(Number(limited.headers.get("retry-after")), path).toBeGreaterThanOrEqual(1);
      expect(limited.headers.get("ratelimit-remaining"), path).toBe("0");
    }
  });

  it("with Redis unreachable the API keeps serving (the limit fails open)", async () => {
    const port = 18_933;
    tariff(["serve"], {
      DATABASE_URL: db.url,
      REDIS_URL: "redis://127.0.0.1:6399",
      RATE_LIMIT_PER_MINUTE: "2",
      PORT: String(port),
    });
    await waitFor(() => versionOf(port, "x"), 60_000);
    // Both paths: /meta is built (fast path), the queries are rendered by the Fastify path.
    for (const path of ["/api/v1/meta", "/api/v1/models?limit=2", "/api/v1/meta", "/api/v1/models?limit=3"]) {
      const res = await fetch(`http://127.0.0.1:${port}${path}`);
      expect(res.status, path).toBe(200);
      expect(res.headers.get("ratelimit-remaining"), path).toBeNull();
    }
  });

  it("two ingesters started at once publish exactly one version per snapshot date", async () => {
    copy("models-dev", "2025-09-01");
    copy("models-dev", "2025-10-01");
    const env = { DATABASE_URL: db.url };
    const a = tariff(["ingest", "--snapshots", join(dir, "snap")], env);
    const b = tariff(["ingest", "--snapshots", join(dir, "snap")], env);
    expect(await Promise.all([exited(a), exited(b)])).toEqual([0, 0]);
    const versions = (await store.listRuns()).map((r) => r.datasetVersion.slice(0, 10));
    expect(versions).toEqual(["2025-07-01", "2025-08-01", "2025-09-01", "2025-10-01"]);
  });

  it("tariff serve --workers 2 serves from two processes sharing the port", async () => {
    const port = 18_934;
    const primary = tariff(["serve", "--workers", "2"], {
      DATABASE_URL: db.url,
      RATE_LIMIT_PER_MINUTE: "0",
      PORT: String(port),
    });
    await waitFor(() => versionOf(port, "x"), 60_000);
    const statuses = await Promise.all(
      Array.from({ length: 40 }, () => fetch(`http://127.0.0.1:${port}/api/v1/providers`).then((r) => r.status)),
    );
    expect(new Set(statuses)).toEqual(new Set([200]));
    primary.kill("SIGTERM");
    expect(await exited(primary)).toBe(0);
  });
});
