import { resolve } from "node:path";
import { z } from "zod";
import type { SourceId } from "../domain/observation.js";
import type { FetchLimits } from "../sources/fetch-source.js";
import { baseUrlVariable, LIVE_UPSTREAMS, PORTKEY_PROVIDERS } from "../sources/live-upstreams.js";

/** Live-ingestion settings (issue 7), parsed from the environment by `loadConfig` (README table). */
export interface LiveConfig {
  /** Base URL per source (`SOURCE_URL_<ID>`), ending in `/`. */
  readonly baseUrls: Readonly<Record<SourceId, string>>;
  /** Portkey provider files to fetch. */
  readonly portkeyProviders: readonly string[];
  /** Raw payload archive, replayable with `tariff ingest --snapshots <archiveDir>`. */
  readonly archiveDir: string;
  readonly fetch: FetchLimits;
  /** Largest share (0–1) of price rows a source may lose versus its last good run. */
  readonly maxRowDrop: number;
}

const Env = z.object({
  ARCHIVE_DIR: z.string().min(1).optional(),
  PORTKEY_PROVIDERS: z.string().optional(),
  INGEST_TIMEOUT_MS: z.coerce.number().int().min(1).default(30_000),
  INGEST_RETRIES: z.coerce.number().int().min(0).max(10).default(3),
  INGEST_RETRY_MIN_MS: z.coerce.number().int().min(0).default(1_000),
  INGEST_MAX_RETRY_AFTER_MS: z.coerce.number().int().min(0).default(120_000),
  INGEST_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1)
    .default(20 * 1024 * 1024),
  INGEST_USER_AGENT: z.string().min(1).default("Tariff/0.1 (open AI-model price catalogue; live ingester)"),
  INGEST_MAX_ROW_DROP: z.coerce.number().min(0).max(1).default(0.5),
});

/** The live-ingestion variables (besides `SOURCE_URL_<ID>`), for the CLI's help. */
export const LIVE_VARIABLES: readonly string[] = Object.keys(Env.shape);

/**
 * Parses the live-ingestion variables of `env`.
 * @throws Error listing every invalid variable
 */
export function parseLiveConfig(env: NodeJS.ProcessEnv, dataDir: string): LiveConfig {
  const parsed = Env.safeParse(env);
  const issues = parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
  const baseUrls = {} as Record<SourceId, string>;
  for (const u of LIVE_UPSTREAMS) {
    const name = baseUrlVariable(u.source);
    const value = env[name];
    if (value !== undefined && !z.url().safeParse(value).success) issues.push(`${name}: not a URL`);
    baseUrls[u.source] = value ? (value.endsWith("/") ? value : `${value}/`) : u.baseUrl;
  }
  if (!parsed.success || issues.length > 0) throw new Error(`invalid configuration:\n  ${issues.join("\n  ")}`);
  const e = parsed.data;
  const portkey = e.PORTKEY_PROVIDERS?.split(",")
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  return Object.freeze({
    baseUrls,
    portkeyProviders: portkey && portkey.length > 0 ? portkey : PORTKEY_PROVIDERS,
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
