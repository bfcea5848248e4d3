import type { USAGE_FIELDS } from "../../domain/cost.js";
import { mapUsage } from "../../domain/usage.js";
import type { RequestTokens } from "./usage-object.js";

/**
 * A usage log read in the browser for the calculator (issue 38 §7, T348): JSON Lines (or one JSON
 * array) of the records `tariff cost` reads — `/cost` token fields, a provider usage object or a
 * whole response, OpenTelemetry attributes — each mapped by `mapUsage` of `src/domain/usage.ts`
 * (T211, T277) and summed. The calculator prices the sum as a daily workload: the log's tokens per
 * day of the days it spans, with its average request. Pure; `tariff cost` prices a log record by
 * record at each day's prices (T216), which the page says.
 */
export interface LogSummary {
  /** Records read and summed. */
  readonly records: number;
  /** Lines that are not a record with usage (not JSON, no usage fields, counts that do not add up). */
  readonly unreadable: number;
  /** Calendar days (UTC) from the first record's to the last's, both counted; null without times. */
  readonly days: number | null;
  /** Exclusive token counts summed over the records. */
  readonly totals: RequestTokens;
}

/** The `/cost` token fields a record may give itself (T140), as the calculator names them. */
const OWN_FIELDS: readonly [keyof RequestTokens, (typeof USAGE_FIELDS)[number]][] = [
  ["input", "inputTokens"],
  ["cached", "cachedInputTokens"],
  ["write", "cacheWriteTokens"],
  ["output", "outputTokens"],
  ["reasoning", "reasoningTokens"],
];

const TIME_FIELDS = ["timestamp", "time", "ts", "created_at", "createdAt", "created", "start_time", "date"];
const DAY_MS = 86_400_000;

/** A record's time in ms since the epoch (ISO text, epoch seconds or milliseconds), or null. */
function timeOf(record: Readonly<Record<string, unknown>>): number | null {
  for (const name of TIME_FIELDS) {
    const raw = record[name];
    if (typeof raw === "number" && Number.isFinite(raw)) return raw >= 1e12 ? raw : raw * 1000;
    if (typeof raw === "string" && raw.trim() !== "") {
      const t = /^\d+$/.test(raw) ? Number(raw) * (raw.length >= 12 ? 1 : 1000) : Date.parse(raw);
      if (Number.isFinite(t)) return t;
    }
  }
  return null;
}

/** The exclusive counts of one record: its own `/cost` fields, else its usage object mapped (T211). */
function countsOf(record: Readonly<Record<string, unknown>>): RequestTokens {
  if (OWN_FIELDS.some(([, f]) => record[f] !== undefined)) {
    const counts = OWN_FIELDS.map(([key, f]) => {
      const n = Number(record[f] ?? 0);
      if (!Number.isSafeInteger(n) || n < 0) throw new Error(`${f} is not a count`);
      return [key, n] as const;
    });
    return Object.fromEntries(counts) as unknown as RequestTokens;
  }
  const usage = typeof record.usage === "string" ? { ...record, usage: JSON.parse(record.usage) } : record;
  const m = mapUsage(usage);
  return {
    input: m.inputTokens,
    cached: m.cachedInputTokens,
    write: m.cacheWriteTokens + m.cacheWrite1hTokens,
    output: m.outputTokens,
    reasoning: m.reasoningTokens,
  };
}

/** Sums a log's records (see {@link LogSummary}); never throws for a bad line, it is counted unreadable. */
export function summarizeLog(text: string): LogSummary {
  const trimmed = text.trim();
  let rows: unknown[];
  if (trimmed.startsWith("[")) {
    try {
      rows = JSON.parse(trimmed) as unknown[];
    } catch {
      rows = [undefined];
    }
  } else
    rows = trimmed
      .split(/\r?\n/)
      .filter((l) => l.trim() !== "")
      .map((l) => {
        try {
          return JSON.parse(l) as unknown;
        } catch {
          return undefined;
        }
      });
  const totals = { input: 0, cached: 0, write: 0, output: 0, reasoning: 0 };
  let records = 0;
  let unreadable = 0;
  let first: number | null = null;
  let last: number | null = null;
  for (const row of rows) {
    if (typeof row !== "object" || row === null || Array.isArray(row)) {
      unreadable++;
      continue;
    }
    const record = row as Record<string, unknown>;
    try {
      const counts = countsOf(record);
      for (const key of Object.keys(totals) as (keyof RequestTokens)[]) totals[key] += counts[key];
      records++;
    } catch {
      unreadable++;
      continue;
    }
    const t = timeOf(record);
    if (t !== null) {
      first = first === null ? t : Math.min(first, t);
      last = last === null ? t : Math.max(last, t);
    }
  }
  const days = first === null || last === null ? null : Math.floor(last / DAY_MS) - Math.floor(first / DAY_MS) + 1;
  return { records, unreadable, days, totals };
}
