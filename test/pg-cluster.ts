import { execFile, execFileSync } from "node:child_process";
import { chownSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import pg from "pg";

const run = promisify(execFile);

/**
 * A private PostgreSQL cluster for a test that restarts its server (issue 33 §5, T318): the
 * machine's PostgreSQL 15 binaries (`pg_config --bindir`), a data folder of the test's in the temp
 * folder, a free port on 127.0.0.1, trust authentication for `postgres`, no fsync. The shared server
 * on 5432 that other tests use is never touched. As root (the test machine) every command runs as
 * the `postgres` user (`runuser`), since PostgreSQL refuses to run as root. Commands run through
 * `execFile`, the test's event loop free. When PostgreSQL is missing the test fails; it never skips.
 */
export interface PrivateCluster {
  /** The cluster's port on 127.0.0.1. */
  readonly port: number;
  /** The URL of `database` on the cluster, as user `postgres`. */
  url(database?: string): string;
  /** A real restart (`pg_ctl restart -m fast`): every connection ends; resolves once it accepts connections again. */
  restart(): Promise<void>;
  /** Stops the server (`-m immediate`) and removes its folder. */
  stop(): Promise<void>;
}

/** A port nobody listens on now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Initializes and starts a private cluster (a few seconds on the test machine). */
export async function startPrivateCluster(): Promise<PrivateCluster> {
  const bin = execFileSync("pg_config", ["--bindir"], { encoding: "utf8" }).trim();
  const dir = mkdtempSync(join(tmpdir(), "tariff-pg-"));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }));
    const gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }));
    chownSync(dir, uid, gid);
  }
  const pgRun = (tool: string, args: readonly string[]) =>
    asRoot ? run("runuser", ["-u", "postgres", "--", join(bin, tool), ...args]) : run(join(bin, tool), [...args]);
  const data = join(dir, "data");
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=50`;
  const ctl = (...args: string[]) => pgRun("pg_ctl", ["-D", data, "-l", join(dir, "log"), "-w", "-t", "60", ...args]);
  await pgRun("initdb", ["-D", data, "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8", "--locale=C.UTF-8"]);
  await ctl("-o", options, "start");
  const url = (database = "postgres") => `postgres://postgres@127.0.0.1:${port}/${database}`;
  return {
    port,
    url,
    async restart() {
      await ctl("-m", "fast", "-o", options, "restart");
    },
    async stop() {
      await ctl("-m", "immediate", "stop").catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Creates `name` on the cluster at `adminUrl`. */
export async function createDatabase(adminUrl: string, name: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
}
