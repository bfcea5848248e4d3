import { type ChildProcess, spawn } from "node:child_process";
import { resolve } from "node:path";

/** The checkout's `bin/tariff.js`, run by path as an installation or an MCP client runs it. */
export const TARIFF_BIN = resolve(import.meta.dirname, "..", "bin", "tariff.js");

/** The variables that point a `tariff` at its data, store and address: a child sets its own or has none. */
const PLACE_VARIABLES = ["DATA_DIR", "SNAPSHOTS_DIR", "DATABASE_URL", "REDIS_URL", "XDG_DATA_HOME", "PORT", "HOST"];

/**
 * The environment of a child `tariff` (issue 34 §5: the one copy the spawning suites share): the
 * test's own (the upstream URLs the global setup points at a closed port, T228, included), less
 * every variable that places its data, store or address, with `LOG_LEVEL=warn`, then `extra`.
 */
export function tariffEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: "warn", ...extra };
  for (const name of PLACE_VARIABLES) if (!(name in extra)) delete env[name];
  return env;
}

/**
 * The environment of a child `tariff` on a fresh machine: {@link tariffEnv} with `HOME` a folder of
 * the test's, so the per-user data folder starts empty.
 */
export function freshEnv(home: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return tariffEnv({ HOME: home, ...extra });
}

/** What a finished `tariff` run printed, and how it ended. */
export interface CliResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** A running `tariff` child whose output is collected as it comes. */
export interface CliChild {
  readonly child: ChildProcess;
  /** Resolves with everything on stderr so far once it matches `pattern`. */
  waitForStderr(pattern: RegExp): Promise<string>;
  /** Resolves when the child has exited. */
  readonly done: Promise<CliResult>;
}

/** Starts `node bin/tariff.js <args>` in `cwd` with `env`. */
export function startTariff(args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): CliChild {
  const child = spawn(process.execPath, [TARIFF_BIN, ...args], { cwd, env, stdio: ["pipe", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  const waiters: { pattern: RegExp; resolve: (s: string) => void }[] = [];
  child.stdout?.on("data", (c: Buffer) => {
    stdout += c.toString("utf8");
  });
  child.stderr?.on("data", (c: Buffer) => {
    stderr += c.toString("utf8");
    for (const w of [...waiters])
      if (w.pattern.test(stderr)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(stderr);
      }
  });
  const done = new Promise<CliResult>((resolveDone) => {
    child.on("close", (code, signal) => {
      for (const w of waiters) w.resolve(stderr);
      resolveDone({ code, signal, stdout, stderr });
    });
  });
  return {
    child,
    done,
    waitForStderr: (pattern) =>
      pattern.test(stderr) ? Promise.resolve(stderr) : new Promise((r) => waiters.push({ pattern, resolve: r })),
  };
}

/** Runs `node bin/tariff.js <args>` to its end (stdin closed). */
export function runTariff(args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): Promise<CliResult> {
  const run = startTariff(args, cwd, env);
  run.child.stdin?.end();
  return run.done;
}
