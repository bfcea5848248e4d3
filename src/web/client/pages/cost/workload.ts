import { currentParams, query } from "../../api.js";
import { formatTokenCount, parseTokenCount } from "../../token-count.js";
import type { RequestTokens } from "../../usage-object.js";

/** `/cost` takes up to 8 models (api-v1.md, T140). */
export const MAX_MODELS = 8;
/** The API's largest token count (T140): 10^12. */
export const MAX_TOKENS = 1_000_000_000_000;
/** A month of daily usage (T348): 30 days, said beside every daily workload. */
export const DAYS_PER_MONTH = 30;
/**
 * The prompt of one request assumed when a daily or monthly workload gives no request size (T348):
 * 10,000 tokens, below every long-context threshold (128K at the least), so the base prices apply;
 * the page says so and asks for the size when requests are longer.
 */
export const ASSUMED_REQUEST_PROMPT = 10_000;

/** How the counts are stated: per request (× requests a month), per day or per month (T348). */
export const PERIODS = ["day", "month", "request"] as const;
export type Period = (typeof PERIODS)[number];
export const PERIOD_NAMES: Readonly<Record<Period, string>> = {
  day: "a day",
  month: "a month",
  request: "per request",
};

/** The token counts of the form, by the calculator's names. */
export type TokenKey = keyof RequestTokens;

/**
 * The workload as the URL holds it (T208, T348): token counts `per` day, month or request;
 * `requests` a month (per request only); `size`, the average prompt of one request (per day or
 * month; 0 when not given).
 */
export interface Workload extends RequestTokens {
  readonly per: Period;
  readonly requests: number;
  readonly size: number;
  readonly ttl: "5m" | "1h";
}

/** The token count fields, as [key, label, hint]: the two every workload has … */
export const MAIN_FIELDS = [
  ["input", "Input tokens", "Uncached prompt tokens, e.g. 2M or 500K"],
  ["output", "Output tokens", "Answer tokens, without reasoning"],
] as const;
/** … and those of prompt caching and reasoning, behind a disclosure. */
export const MORE_FIELDS = [
  ["cached", "Cached input tokens", "Prompt tokens read from the cache (cache hits)"],
  ["write", "Cache-write tokens", "Prompt tokens written to the cache"],
  ["reasoning", "Reasoning tokens", "Thinking tokens, billed as output where no reasoning price exists"],
] as const;
const FIELDS = [...MAIN_FIELDS, ...MORE_FIELDS];
/** Every token count of a workload. */
export const TOKEN_KEYS = FIELDS.map(([key]) => key);

/** The workload of the URL's parameters; a missing or malformed count is 0 (requests: 1000). */
export function readWorkload(params: Readonly<Record<string, string | undefined>>): Workload {
  const n = (key: string, fallback = 0) => {
    const v = Number(params[key]);
    return Number.isSafeInteger(v) && v >= 0 ? v : fallback;
  };
  // A link of the per-request calculator (issue 28: `requests` and tokens per request) reads as it did.
  const per: Period = (PERIODS as readonly string[]).includes(params.per ?? "")
    ? (params.per as Period)
    : params.requests !== undefined
      ? "request"
      : "day";
  return {
    per,
    requests: Math.max(1, n("requests", 1000)),
    size: n("size"),
    input: n("input"),
    cached: n("cached"),
    write: n("write"),
    output: n("output"),
    reasoning: n("reasoning"),
    ttl: params.ttl === "1h" ? "1h" : "5m",
  };
}

/** A month of a workload: the monthly counts, the requests they are spread over, and whether their size is assumed. */
export interface Month {
  readonly tokens: RequestTokens;
  readonly requests: number;
  readonly assumedSize: boolean;
}

/**
 * A month of the workload in `/cost`'s terms (T348): the monthly counts and the requests they are
 * spread over — the requests a month given, else the prompt tokens over the average request size
 * (given, or {@link ASSUMED_REQUEST_PROMPT}), at least one.
 */
export function monthOf(w: Workload): Month {
  const factor = w.per === "day" ? DAYS_PER_MONTH : w.per === "month" ? 1 : w.requests;
  const tokens = Object.fromEntries(TOKEN_KEYS.map((k) => [k, w[k] * factor])) as unknown as RequestTokens;
  if (w.per === "request") return { tokens, requests: w.requests, assumedSize: false };
  const prompt = tokens.input + tokens.cached + tokens.write;
  const size = w.size > 0 ? w.size : ASSUMED_REQUEST_PROMPT;
  return { tokens, requests: Math.max(1, Math.ceil(prompt / size)), assumedSize: w.size === 0 };
}

/** The prompt tokens of one request of a month (cached and written included), rounded up. */
export function promptPerRequest(month: Month): number {
  const t = month.tokens;
  return Math.ceil((t.input + t.cached + t.write) / month.requests);
}

/** The form's text of each field: what was typed, kept as typed ("2M") until it settles in the URL. */
export type FormText = Readonly<Record<TokenKey | "requests" | "size", string>>;

/** A workload as the form shows it: each count as people write it ("2M"), empty for 0. */
export function textOf(w: Workload): FormText {
  const t = (n: number) => (n > 0 ? formatTokenCount(n) : "");
  return {
    input: t(w.input),
    output: t(w.output),
    cached: t(w.cached),
    write: t(w.write),
    reasoning: t(w.reasoning),
    requests: String(w.requests),
    size: t(w.size),
  };
}

/**
 * The typed text read as counts (T348): the workload, and the fields that are not a count or more
 * than {@link MAX_TOKENS} (read as 0 here; the page keeps the URL's workload while any is bad).
 */
export function parseForm(
  text: FormText,
  per: Period,
  ttl: Workload["ttl"],
): { readonly workload: Workload; readonly bad: readonly string[] } {
  const bad: string[] = [];
  const value = (key: keyof FormText) => {
    const n = parseTokenCount(text[key]);
    if (n === null || n > MAX_TOKENS) bad.push(key);
    return n ?? 0;
  };
  const workload: Workload = {
    per,
    ttl,
    input: value("input"),
    output: value("output"),
    cached: value("cached"),
    write: value("write"),
    reasoning: value("reasoning"),
    requests: Math.max(1, value("requests")),
    size: value("size"),
  };
  return { workload, bad };
}

/** Parameters a link of the page changes: a value to set, null to drop. */
export type CostLinkChange = Partial<Record<string, string | number | null>>;

/**
 * The page's address with `w` as its workload and `next` changed (T208): models, channel, tier and
 * day from the address as it is when the link is followed; defaults are left out of the URL.
 */
export function costHref(w: Workload, next: CostLinkChange): string {
  const now = currentParams();
  return `/cost${query({
    models: now.models,
    per: w.per,
    requests: w.per === "request" ? w.requests : null,
    size: w.per !== "request" && w.size > 0 ? w.size : null,
    input: w.input || null,
    cached: w.cached || null,
    write: w.write || null,
    output: w.output || null,
    reasoning: w.reasoning || null,
    ttl: w.ttl === "1h" ? "1h" : null,
    channel: now.channel === "all" ? null : now.channel,
    tier: now.tier === "standard" ? null : now.tier,
    at: now.at,
    ...next,
  })}`;
}

/** The `/cost` parameters of the page's request but the model: the workload, channel, tier and day. */
export type CostQuery = Readonly<Record<string, string | number | null>>;

/** A month of the workload as `/cost`'s parameters, on `channel` and `tier` at `at` (null: today). */
export function costQuery(
  month: Month,
  ttl: Workload["ttl"],
  channel: string,
  tier: string,
  at: string | null,
): CostQuery {
  return {
    inputTokens: month.tokens.input || null,
    cachedInputTokens: month.tokens.cached || null,
    cacheWriteTokens: month.tokens.write || null,
    cacheTtl: ttl === "1h" ? "1h" : null,
    outputTokens: month.tokens.output || null,
    reasoningTokens: month.tokens.reasoning || null,
    requests: month.requests,
    channel,
    tier: tier === "standard" ? null : tier,
    at,
  };
}
