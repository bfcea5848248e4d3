import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import envPaths from "env-paths";
import { z } from "zod";
import { DEFAULT_TIMEOUTS, type ServerTimeouts } from "./http/limits.js";
import { LIVE_VARIABLES, type LiveConfig, parseLiveConfig } from "./ingest/live-config.js";

/**
 * The snapshots bundled with the installation (`data/upstream/` beside the code), found from this
 * file, never from the current folder: `tariff` started anywhere (as an MCP client starts it)
 * replays them (issue 15, T94).
 */
export const BUNDLED_SNAPSHOTS_DIR = fileURLToPath(new URL("../data/upstream", import.meta.url));

/**
 * The per-user data folder of the store when `DATA_DIR` is unset (issue 15, T94), by the
 * platform's convention (env-paths): `$XDG_DATA_HOME/tariff` or `~/.local/share/tariff` on Linux,
 * `~/Library/Application Support/tariff` on macOS, `%LOCALAPPDATA%\tariff\Data` on Windows.
 */
export function defaultDataDir(): string {
  return envPaths("tariff", { suffix: "" }).data;
}

/**
 * Configuration from the environment, parsed once and frozen (the only module that reads
 * `process.env`). See the README's configuration table.
 */
const Env = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8787),
  HOST: z.string().min(1).default("127.0.0.1"),
  DATA_DIR: z.string().min(1).optional(),
  SNAPSHOTS_DIR: z.string().min(1).optional(),
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(0).default(300),
  TRUST_PROXY: z.string().optional(),
  PUBLIC_BASE_URL: z.url().optional(),
  HEADERS_TIMEOUT_MS: z.coerce.number().int().min(1).default(DEFAULT_TIMEOUTS.headersMs),
  REQUEST_TIMEOUT_MS: z.coerce.number().int().min(1).default(DEFAULT_TIMEOUTS.requestMs),
  KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().min(1).default(DEFAULT_TIMEOUTS.keepAliveMs),
  DATABASE_URL: z.string().optional(),
  REDIS_URL: z.string().optional(),
  RETAIN_VERSIONS: z.coerce.number().int().min(1).default(30),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
});

/** Every variable {@link loadConfig} reads (`SOURCE_URL_<ID>` aside), for the CLI's help and its test. */
export const CONFIG_VARIABLES: readonly string[] = [...Object.keys(Env.shape), ...LIVE_VARIABLES];

export interface Config {
  readonly port: number;
  readonly host: string;
  /** Folder of the embedded store; the SQLite file is `<dataDir>/tariff.db`. */
  readonly dataDir: string;
  /** True when `dataDir` is the per-user default ({@link defaultDataDir}), not `DATA_DIR`. */
  readonly dataDirIsDefault: boolean;
  readonly databasePath: string;
  /** Snapshots replayed into an empty store on first start (default {@link BUNDLED_SNAPSHOTS_DIR}). */
  readonly snapshotsDir: string;
  /** D24; 0 turns the limit off. */
  readonly rateLimitPerMinute: number;
  /** D24: a hop count, or a list of addresses / CIDR ranges; undefined = trust no proxy. */
  readonly trustProxy: number | string[] | undefined;
  readonly publicBaseUrl: string | undefined;
  readonly logLevel: z.infer<typeof Env>["LOG_LEVEL"];
  /** PostgreSQL URL (issue 5); unset = the embedded SQLite store at `databasePath`. */
  readonly databaseUrl: string | undefined;
  /** Redis URL sharing the D24 rate limit across processes; unset = per process. */
  readonly redisUrl: string | undefined;
  /** Dataset versions whose published rows are kept (issue 5 §6); history and changes are never pruned. */
  readonly retainVersions: number;
  /** Timeouts against slow clients: headers, whole request, keep-alive idle (ms). */
  readonly timeouts: ServerTimeouts;
  /** Live ingestion (issue 7): upstream URLs, fetch limits, guards, raw payload archive. */
  readonly live: LiveConfig;
}

/**
 * Parses the environment.
 * @throws Error listing every invalid variable
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = Env.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
    throw new Error(`invalid configuration:\n  ${lines.join("\n  ")}`);
  }
  const e = parsed.data;
  const dataDir = resolve(e.DATA_DIR ?? defaultDataDir());
  return Object.freeze({
    port: e.PORT,
    host: e.HOST,
    dataDir,
    dataDirIsDefault: e.DATA_DIR === undefined,
    databasePath: resolve(dataDir, "tariff.db"),
    snapshotsDir: resolve(e.SNAPSHOTS_DIR ?? BUNDLED_SNAPSHOTS_DIR),
    rateLimitPerMinute: e.RATE_LIMIT_PER_MINUTE,
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    publicBaseUrl: e.PUBLIC_BASE_URL,
    logLevel: e.LOG_LEVEL,
    databaseUrl: e.DATABASE_URL && e.DATABASE_URL.trim() !== "" ? e.DATABASE_URL : undefined,
    redisUrl: e.REDIS_URL && e.REDIS_URL.trim() !== "" ? e.REDIS_URL : undefined,
    retainVersions: e.RETAIN_VERSIONS,
    timeouts: {
      headersMs: e.HEADERS_TIMEOUT_MS,
      requestMs: e.REQUEST_TIMEOUT_MS,
      keepAliveMs: e.KEEP_ALIVE_TIMEOUT_MS,
    },
    live: parseLiveConfig(env, dataDir),
  });
}

function parseTrustProxy(value: string | undefined): number | string[] | undefined {
  if (value === undefined || value.trim() === "") return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  return value
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}
