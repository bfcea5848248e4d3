import { type ChildProcess, spawn } from "node:child_process";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ingestSnapshots } from "../src/ingest/run-ingest.js";
import { SOURCES } from "../src/sources/registry.js";
import type { CatalogueStore } from "../src/store/catalogue-store.js";
import { openPostgresStore } from "../src/store/open-store.js";
import { tariffEnv } from "./cli-support.js";
import { createDatabase, freePort, type PrivateCluster, startPrivateCluster } from "./pg-cluster.js";

// Issue 33 §5 Must show, T263, T318: "PostgreSQL restarted under two workers: the next version
// reaches both in under 5 s". A real restart (`pg_ctl restart -m fast`) of a private PostgreSQL 15
// cluster of this file's (test/pg-cluster.ts: its own folder and port; the shared server on 5432
// keeps running for the other suites), under two `tariff serve` processes following it. Their
// fallback poll is 30 s on PostgreSQL (src/cli/follow-versions.ts): a version served within the
// bound below came by a renewed LISTEN. The figures are measured and printed; the only timed
// assertion is the generous bound.

/** Under the 30 s fallback poll with room for a loaded machine; the figure is 5 s (printed). */
const BOUND_MS = 15_000;
const V1 = "2025-07-01T00:00:00.000Z";
const V2 = "2025-08-01T00:00:00.000Z";
const V3 = "2025-09-01T00:00:00.000Z";

let cluster: PrivateCluster;
let dir: string;
let store: CatalogueStore;
let url: string;
const children: ChildProcess[] = [];

beforeAll(async () => {
  cluster = await startPrivateCluster();
  await createDatabase(cluster.url(), "tariff");
  url = cluster.url("tariff");
  store = await openPostgresStore(url);
  dir = mkdtempSync(join(tmpdir(), "tariff-pg-restart-"));
}, 120_000);

afterAll(async () => {
  for (const child of children) child.kill("SIGKILL");
  await store?.close().catch(() => {});
  await cluster?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Publishes the models.dev snapshot of `date` (the one source, so a run is quick). */
async function publish(date: string): Promise<void> {
  cpSync(join("data/upstream/models-dev", date), join(dir, "snap", "models-dev", date), { recursive: true });
  await ingestSnapshots(store, join(dir, "snap"), SOURCES);
}

/** `tariff serve` on `port` over the cluster's database, live ingestion off: it serves what the test publishes. */
function serve(port: number): ChildProcess {
  const child = spawn(process.execPath, ["bin/tariff.js", "serve"], {
    env: tariffEnv({
      DATABASE_URL: url,
      PORT: String(port),
      DATA_DIR: join(dir, `var-${port}`),
      SNAPSHOTS_DIR: join(dir, "none"),
      INGEST_EVERY: "off",
    }),
    stdio: ["ignore", "ignore", "pipe"],
  });
  children.push(child);
  return child;
}

async function versionOf(port: number): Promise<string | undefined> {
  const res = await fetch(`http://127.0.0.1:${port}/api/v1/meta`).catch(() => null);
  return res?.ok ? (res.headers.get("x-dataset-version") ?? undefined) : undefined;
}

/** Milliseconds from now until `probe` holds (polled every 20 ms), or an error after `ms`. */
async function msUntil(probe: () => Promise<boolean>, ms: number, what: string): Promise<number> {
  const start = performance.now();
  for (;;) {
    if (await probe().catch(() => false)) return performance.now() - start;
    if (performance.now() - start > ms) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The backends LISTENing on the test's database (the two workers' connections). */
async function listeners(): Promise<number[]> {
  const admin = new pg.Client({ connectionString: cluster.url() });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ pid: number }>(
      "select pid from pg_stat_activity where datname = 'tariff' and query ilike 'listen %'",
    );
    return rows.map((r) => r.pid);
  } finally {
    await admin.end();
  }
}

describe("PostgreSQL restarted under two workers (issue 33 §5, T263, T318)", () => {
  it("both LISTEN again, and each next version reaches both well before the 30 s poll", async () => {
    await publish("2025-07-01");
    const ports = [await freePort(), await freePort()];
    for (const port of ports) serve(port);
    for (const port of ports)
      await msUntil(async () => (await versionOf(port)) === V1, 90_000, `worker on ${port} serves ${V1}`);
    await msUntil(async () => (await listeners()).length === 2, 10_000, "two LISTEN connections");
    const before = await listeners();

    // A real restart; the next version is published as soon as the server accepts connections,
    // before the workers' LISTENs are back: each finds it on reconnecting (T263).
    const restartStart = performance.now();
    await cluster.restart();
    const restartMs = performance.now() - restartStart;
    await publish("2025-08-01");
    const afterRestart = await Promise.all(
      ports.map((port) =>
        msUntil(async () => (await versionOf(port)) === V2, 60_000, `worker on ${port} serves ${V2}`),
      ),
    );
    // Both listen again, on new connections.
    await msUntil(
      async () => {
        const now = await listeners();
        return now.length === 2 && !now.some((pid) => before.includes(pid));
      },
      10_000,
      "two new LISTEN connections",
    );
    // An upper bound: the LISTENs were back at the latest when this look saw them.
    const relistenMs = performance.now() - restartStart;

    // The version after: by NOTIFY on the renewed LISTENs.
    await publish("2025-09-01");
    const byNotify = await Promise.all(
      ports.map((port) =>
        msUntil(async () => (await versionOf(port)) === V3, 60_000, `worker on ${port} serves ${V3}`),
      ),
    );

    const figures = {
      restartMs: Math.round(restartMs),
      relistenWithinMs: Math.round(relistenMs),
      nextVersionAfterRestartMs: afterRestart.map(Math.round),
      versionByNotifyMs: byNotify.map(Math.round),
    };
    // The figure (T318): printed for the record, bounded generously.
    process.stdout.write(`pg-restart figures: ${JSON.stringify(figures)}\n`);
    for (const ms of [...afterRestart, ...byNotify]) expect(ms).toBeLessThan(BOUND_MS);
    for (const child of children) expect(child.exitCode, "a worker exited").toBeNull();
  }, 240_000);
});
