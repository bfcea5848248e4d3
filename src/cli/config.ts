import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import envPaths from "env-paths";
import { z } from "zod";
import { envInteger } from "../env-var.js";
import { DEFAULT_TIMEOUTS, type ServerTimeouts } from "../http/limits.js";
import { LIVE_ENV, LIVE_VARIABLES, type LiveConfig, parseLiveConfig } from "../ingest/live-config.js";

/**
 * The snapshots bundled with the installation (`data/upstream/` beside the code), found from this
 * file, never from the current folder: `tariff` started anywhere (as an MCP client starts it)
 * replays them (issue 15, T94).
 */
export const BUNDLED_SNAPSHOTS_DIR = fileURLToPath(new URL("../../data/upstream", import.meta.url));

/**
 * The per-user data folder of the store when `DATA_DIR` is unset (issue 15, T94), by the
 * platform's convention (env-paths): `$XDG_DATA_HOME/tariff` or `~/.local/share/tariff` on Linux,
 * `~/Library/Application Support/tariff` on macOS, `%LOCALAPPDATA%\tariff\Data` on Windows.
 */
export function defaultDataDir(): string {
  return envPaths("tariff", { suffix: "" }).data;
}

/**
 * How often `tariff serve` runs live ingestion by default (T220): hourly. Conditional requests make
 * a run in which nothing moved cheap (most answers are 304 Not Modified) and such a run publishes
 * nothing (T221), while a price move reaches the catalogue within the hour.
 */
export const DEFAULT_INGEST_EVERY = "1h";

/**
 * Parses a duration: a number and a unit, `ms`, `s`, `m`, `h` or `d` (`90s`, `15m`, `1h`).
 * @throws Error when the text is not such a duration or is under one second
 */
export function parseDuration(text: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)$/.exec(text.trim());
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
  if (!m) throw new Error(`invalid duration ${JSON.stringify(text)} (expected e.g. 30s, 15m, 1h)`);
  const ms = Number(m[1]) * unit[m[2] as keyof typeof unit];
  if (ms < 1000) throw new Error(`duration ${JSON.stringify(text)} is under one second`);
  return ms;
}

/**
 * The live-ingestion interval of `tariff serve` (T220): a duration in ms, or null for `off`.
 * @throws Error as {@link parseDuration}, naming `off` as the other choice
 */
export function parseIngestEvery(text: string): number | null {
  if (text.trim().toLowerCase() === "off") return null;
  try {
    return parseDuration(text);
  } catch (error) {
    throw new Error(`${(error as Error).message}, or off`);
  }
}

function isIngestEvery(text: string): boolean {
  try {
    parseIngestEvery(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * Configuration from the environment, parsed once and frozen (the only module that reads
 * `process.env`). See the README's configuration table.
 */
const Env = z.object({
  PORT: envInteger({ min: 0, max: 65535, fallback: 8787 }, "port of the API"),
  HOST: z
    .string()
    .min(1)
    .default("127.0.0.1")
    .meta({ description: "interface to listen on (0.0.0.0 serves other hosts)" }),
  DATA_DIR: z
    .string()
    .min(1)
    .optional()
    .meta({ description: "folder of the SQLite store tariff.db", fallback: () => defaultDataDir() }),
  SNAPSHOTS_DIR: z
    .string()
    .min(1)
    .optional()
    .meta({ description: "snapshots replayed into an empty store", fallback: () => BUNDLED_SNAPSHOTS_DIR }),
  DATABASE_URL: z.string().optional().meta({ description: "postgres:// URL: PostgreSQL instead of SQLite" }),
  REDIS_URL: z.string().optional().meta({ description: "Redis shared by the rate limit of several processes" }),
  RATE_LIMIT_PER_MINUTE: envInteger({ min: 0, fallback: 300 }, "requests per minute per client IP; 0 turns it off"),
  TRUST_PROXY: z.string().optional().meta({ description: "trusted proxies: a hop count, or addresses/CIDR ranges" }),
  PUBLIC_BASE_URL: z.url().optional().meta({ description: "absolute base URL of links (RSS)" }),
  RETAIN_VERSIONS: envInteger({ min: 1, fallback: 30 }, "dataset versions whose rows are kept"),
  INGEST_EVERY: z
    .string()
    .refine(isIngestEvery, { error: "expected a duration such as 30m, 1h or 6h (at least 1s), or off" })
    .default(DEFAULT_INGEST_EVERY)
    .meta({ description: "how often `tariff serve` runs live ingestion (30m, 6h…); off turns it off" }),
  LOG_LEVEL: z
    .enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"])
    .default("info")
    .meta({ description: "pino level: silent, fatal, error, warn, info, debug, trace" }),
  HEADERS_TIMEOUT_MS: envInteger({ min: 1, fallback: DEFAULT_TIMEOUTS.headersMs }, "time to receive headers"),
  REQUEST_TIMEOUT_MS: envInteger({ min: 1, fallback: DEFAULT_TIMEOUTS.requestMs }, "time to receive a request"),
  KEEP_ALIVE_TIMEOUT_MS: envInteger(
    { min: 1, fallback: DEFAULT_TIMEOUTS.keepAliveMs },
    "idle time of a kept-alive connection",
  ),
  IDLE_TIMEOUT_MS: envInteger(
    { min: 1, fallback: DEFAULT_TIMEOUTS.idleMs },
    "idle time of a connection while a request is answered (a client that does not read)",
  ),
});

/** Every variable {@link loadConfig} reads (`SOURCE_URL_<ID>` aside), for the CLI's help and its test. */
export const CONFIG_VARIABLES: readonly string[] = [...Object.keys(Env.shape), ...LIVE_VARIABLES];

/** One environment variable as the CLI's help lists it: what it sets, and its default here. */
export interface VariableDoc {
  readonly name: string;
  readonly meaning: string;
  readonly fallback: string;
}

/**
 * The environment `tariff` reads, documented once on the schemas that parse it (`description`,
 * and `fallback` where the default is computed or unset means something): the CLI's help is built
 * from this (issue 15, issue 19 duplicates).
 */
export function environmentDocs(): VariableDoc[] {
  const docs: VariableDoc[] = [];
  for (const [name, schema] of [...Object.entries(Env.shape), ...Object.entries(LIVE_ENV.shape)] as [
    string,
    z.ZodType,
  ][]) {
    const meta = schema.meta();
    if (typeof meta?.description !== "string") continue; // test-only variables are undocumented
    const fallback =
      typeof meta.fallback === "function"
        ? String(meta.fallback())
        : typeof meta.fallback === "string"
          ? meta.fallback
          : schema instanceof z.ZodDefault
            ? String(schema.def.defaultValue)
            : "unset";
    docs.push({ name, meaning: meta.description, fallback });
  }
  // The base URLs head the live-ingestion variables (the sources' settings first, T235).
  const at = docs.findIndex((d) => LIVE_VARIABLES.includes(d.name));
  docs.splice(at, 0, {
    name: "SOURCE_URL_<ID>",
    fallback: "public URL",
    meaning: "base URL of a source's live payload",
  });
  return docs;
}

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
  /** How often `tariff serve` runs live ingestion, ms; null when off (`INGEST_EVERY`, T220). */
  readonly ingestEveryMs: number | null;
  /** True when `INGEST_EVERY` is unset: the interval is the default (the start log says where it came from). */
  readonly ingestEveryIsDefault: boolean;
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
      idleMs: e.IDLE_TIMEOUT_MS,
    },
    live: parseLiveConfig(env, dataDir),
    ingestEveryMs: parseIngestEvery(e.INGEST_EVERY),
    ingestEveryIsDefault: env.INGEST_EVERY === undefined,
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
