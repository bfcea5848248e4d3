import { resolve } from "node:path";
import { z } from "zod";
import { type SourceId, sourceTable } from "../domain/observation.js";
import { envInteger } from "../env-var.js";
import type { FetchLimits } from "../sources/fetch-source.js";
import { adapterOf, SOURCES } from "../sources/registry.js";
import { baseUrlVariable } from "../sources/upstream.js";

/** Live-ingestion settings (issue 7), parsed from the environment by `loadConfig` (README table). */
export interface LiveConfig {
  /** Base URL per source (`SOURCE_URL_<ID>`), ending in `/`. */
  readonly baseUrls: Readonly<Record<SourceId, string>>;
  /** Each source's setting (Portkey's provider files), `[]` for a source without one (T235). */
  readonly settings: Readonly<Record<SourceId, readonly string[]>>;
  /** Raw payload archive, replayable with `tariff ingest --snapshots <archiveDir>`. */
  readonly archiveDir: string;
  readonly fetch: FetchLimits;
  /** Largest share (0–1) of priced rows, and of models, a source may lose versus its last good run (T190). */
  readonly maxRowDrop: number;
  /**
   * Sources whose payload this run uses even when it fails the comparison with their last good run
   * (`tariff ingest --accept`, T194); set per run by the CLI, never from the environment.
   */
  readonly accept?: ReadonlySet<SourceId>;
}

/** The sources' own settings (`PORTKEY_PROVIDERS`), declared in their folders (T235). */
const SETTINGS = SOURCES.flatMap((a) => (a.upstream.setting ? [{ source: a.id, ...a.upstream.setting }] : []));

/** The live-ingestion variables, each with its help text (`description`, `fallback`). */
export const LIVE_ENV = z.object({
  ...Object.fromEntries(
    SETTINGS.map((s) => [
      s.variable,
      z.string().optional().meta({ description: s.description, fallback: s.fallbackHelp }),
    ]),
  ),
  ARCHIVE_DIR: z
    .string()
    .min(1)
    .optional()
    .meta({ description: "raw payload archive of live runs", fallback: "$DATA_DIR/archive" }),
  INGEST_TIMEOUT_MS: envInteger({ min: 1, fallback: 30_000 }, "per-attempt timeout of an upstream request"),
  INGEST_RETRIES: envInteger({ min: 0, max: 10, fallback: 3 }, "retries of network errors, timeouts, 429 and 5xx"),
  INGEST_RETRY_MIN_MS: envInteger({ min: 0, fallback: 1_000 }, "first backoff delay"),
  INGEST_MAX_RETRY_AFTER_MS: envInteger({ min: 0, fallback: 120_000 }, "longest Retry-After honoured"),
  INGEST_MAX_BYTES: envInteger({ min: 1, fallback: 20 * 1024 * 1024 }, "size cap of a decoded upstream body"),
  INGEST_USER_AGENT: z
    .string()
    .min(1)
    .default("Tariff/0.1 (open AI-model price catalogue; live ingester)")
    .meta({ description: "User-Agent of upstream requests", fallback: "Tariff/0.1 (…)" }),
  INGEST_MAX_ROW_DROP: z.coerce.number().min(0).max(1).default(0.25).meta({
    description: "share of priced rows (or models) a source may lose against its last good run before it fails",
  }),
});
const Env = LIVE_ENV;

/** The live-ingestion variables (besides `SOURCE_URL_<ID>`), for the CLI's help. */
export const LIVE_VARIABLES: readonly string[] = Object.keys(Env.shape);

/**
 * Parses the live-ingestion variables of `env`.
 * @throws Error listing every invalid variable
 */
export function parseLiveConfig(env: NodeJS.ProcessEnv, dataDir: string): LiveConfig {
  const parsed = Env.safeParse(env);
  const issues = parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
  const baseUrls = sourceTable((id) => {
    const name = baseUrlVariable(id);
    const value = env[name];
    if (value !== undefined && !z.url().safeParse(value).success) issues.push(`${name}: not a URL`);
    return value ? (value.endsWith("/") ? value : `${value}/`) : adapterOf(id).upstream.baseUrl;
  });
  if (!parsed.success || issues.length > 0) throw new Error(`invalid configuration:\n  ${issues.join("\n  ")}`);
  const e = parsed.data;
  const settings: Record<SourceId, readonly string[]> = sourceTable(() => []);
  for (const s of SETTINGS) {
    const list = env[s.variable]
      ?.split(",")
      .map((v) => v.trim())
      .filter((v) => v.length > 0);
    settings[s.source] = list && list.length > 0 ? list : s.defaults;
  }
  return Object.freeze({
    baseUrls,
    settings,
    archiveDir: resolve(e.ARCHIVE_DIR ?? resolve(dataDir, "archive")),
    fetch: {
      timeoutMs: e.INGEST_TIMEOUT_MS,
      retries: e.INGEST_RETRIES,
      retryMinMs: e.INGEST_RETRY_MIN_MS,
      maxRetryAfterMs: e.INGEST_MAX_RETRY_AFTER_MS,
      maxBytes: e.INGEST_MAX_BYTES,
      userAgent: e.INGEST_USER_AGENT,
    },
    maxRowDrop: e.INGEST_MAX_ROW_DROP,
  });
}
