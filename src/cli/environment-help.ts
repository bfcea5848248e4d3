import { BUNDLED_SNAPSHOTS_DIR, defaultDataDir } from "../config.js";
import { DEFAULT_TIMEOUTS } from "../http/limits.js";

/** One environment variable as the help lists it. */
interface Variable {
  readonly name: string;
  readonly fallback: string;
  readonly meaning: string;
}

/**
 * The environment `tariff` reads (README "Configuration"; `CONFIG_VARIABLES` of config.ts), with
 * the defaults of this installation and user (the data folder and the bundled snapshots' path).
 */
export const ENVIRONMENT = (): readonly Variable[] => [
  { name: "PORT", fallback: "8787", meaning: "port of the API" },
  { name: "HOST", fallback: "127.0.0.1", meaning: "interface to listen on (0.0.0.0 serves other hosts)" },
  { name: "DATA_DIR", fallback: defaultDataDir(), meaning: "folder of the SQLite store tariff.db" },
  { name: "SNAPSHOTS_DIR", fallback: BUNDLED_SNAPSHOTS_DIR, meaning: "snapshots replayed into an empty store" },
  { name: "DATABASE_URL", fallback: "unset", meaning: "postgres:// URL: PostgreSQL instead of SQLite" },
  { name: "REDIS_URL", fallback: "unset", meaning: "Redis shared by the rate limit of several processes" },
  { name: "RATE_LIMIT_PER_MINUTE", fallback: "300", meaning: "requests per minute per client IP; 0 turns it off" },
  { name: "TRUST_PROXY", fallback: "unset", meaning: "trusted proxies: a hop count, or addresses/CIDR ranges" },
  { name: "PUBLIC_BASE_URL", fallback: "unset", meaning: "absolute base URL of links (RSS)" },
  { name: "RETAIN_VERSIONS", fallback: "30", meaning: "dataset versions whose rows are kept" },
  { name: "LOG_LEVEL", fallback: "info", meaning: "pino level: silent, fatal, error, warn, info, debug, trace" },
  { name: "HEADERS_TIMEOUT_MS", fallback: String(DEFAULT_TIMEOUTS.headersMs), meaning: "time to receive headers" },
  { name: "REQUEST_TIMEOUT_MS", fallback: String(DEFAULT_TIMEOUTS.requestMs), meaning: "time to receive a request" },
  {
    name: "KEEP_ALIVE_TIMEOUT_MS",
    fallback: String(DEFAULT_TIMEOUTS.keepAliveMs),
    meaning: "idle time of a kept-alive connection",
  },
  { name: "SOURCE_URL_<ID>", fallback: "public URL", meaning: "base URL of a source's live payload" },
  { name: "PORTKEY_PROVIDERS", fallback: "43 files", meaning: "Portkey pricing files to fetch, comma-separated" },
  { name: "ARCHIVE_DIR", fallback: "$DATA_DIR/archive", meaning: "raw payload archive of live runs" },
  { name: "INGEST_TIMEOUT_MS", fallback: "30000", meaning: "per-attempt timeout of an upstream request" },
  { name: "INGEST_RETRIES", fallback: "3", meaning: "retries of network errors, timeouts, 429 and 5xx" },
  { name: "INGEST_RETRY_MIN_MS", fallback: "1000", meaning: "first backoff delay" },
  { name: "INGEST_MAX_RETRY_AFTER_MS", fallback: "120000", meaning: "longest Retry-After honoured" },
  { name: "INGEST_MAX_BYTES", fallback: "20971520", meaning: "size cap of a decoded upstream body" },
  { name: "INGEST_USER_AGENT", fallback: "Tariff/0.1 (…)", meaning: "User-Agent of upstream requests" },
  { name: "INGEST_MAX_ROW_DROP", fallback: "0.5", meaning: "share of rows a source may lose before it fails" },
];

/** The help's "Environment" section (issue 15): one line per variable, its default in brackets. */
export function environmentHelp(): string {
  const variables = ENVIRONMENT();
  const width = Math.max(...variables.map((v) => v.name.length)) + 2;
  const lines = variables.map((v) => `  ${v.name.padEnd(width)}${v.meaning} [${v.fallback}]`);
  return `\nEnvironment (default in brackets):\n${lines.join("\n")}\n`;
}
