import { useEffect, useId, useMemo, useRef, useState } from "preact/hooks";
import { useLocation } from "preact-iso";
import { MULTI_SELLER_CHANNELS } from "../../../domain/channel.js";
// The tiers of the axis description (T236, T276): the calculator offers every tier the API prices.
import { TIERS } from "../../../domain/dimension.js";
import { currentParams, getJson, modelPage, query, useApi } from "../api.js";
import { AnnouncedNote } from "../components/announced-note.js";
import { AtPicker, PastNotice, usePageAt } from "../components/at-picker.js";
import { ConfidenceBadge, LevelsLink, OutlierMark } from "../components/badges.js";
import { ModelPicker } from "../components/model-picker.js";
import { Page } from "../components/page.js";
import { SelectField, type SelectOption } from "../components/select-field.js";
import { Status, WhenLoaded } from "../components/status.js";
import { TableWrap } from "../components/table-wrap.js";
import { useSettled } from "../debounce.js";
import {
  CHANNEL_OPTIONS,
  channelName,
  formatAmount,
  formatCount,
  formatMoney,
  formatRatio,
  OUTLIER_RATIO,
} from "../format.js";
import { formatTokenCount, parseTokenCount } from "../token-count.js";
import type { CostEstimate, Envelope, Model } from "../types.js";
import { type LogSummary, summarizeLog } from "../usage-log-summary.js";
import { parseUsageObject, type RequestTokens } from "../usage-object.js";

/** `/cost` takes up to 8 models (api-v1.md, T140). */
const MAX_MODELS = 8;
/** The API's largest token count (T140): 10^12. */
const MAX_TOKENS = 1_000_000_000_000;
/** A month of daily usage (T348): 30 days, said beside every daily workload. */
const DAYS_PER_MONTH = 30;
/**
 * The prompt of one request assumed when a daily or monthly workload gives no request size (T348):
 * 10,000 tokens, below every long-context threshold (128K at the least), so the base prices apply;
 * the page says so and asks for the size when requests are longer.
 */
const ASSUMED_REQUEST_PROMPT = 10_000;

/** How the counts are stated: per request (× requests a month), per day or per month (T348). */
const PERIODS = ["day", "month", "request"] as const;
type Period = (typeof PERIODS)[number];
const PERIOD_NAMES: Readonly<Record<Period, string>> = {
  day: "a day",
  month: "a month",
  request: "per request",
};

/** The token counts of the form, by the calculator's names. */
type TokenKey = keyof RequestTokens;

/**
 * The workload as the URL holds it (T208, T348): token counts `per` day, month or request;
 * `requests` a month (per request only); `size`, the average prompt of one request (per day or
 * month; 0 when not given).
 */
interface Workload extends RequestTokens {
  readonly per: Period;
  readonly requests: number;
  readonly size: number;
  readonly ttl: "5m" | "1h";
}

const MAIN_FIELDS = [
  ["input", "Input tokens", "Uncached prompt tokens, e.g. 2M or 500K"],
  ["output", "Output tokens", "Answer tokens, without reasoning"],
] as const;
const MORE_FIELDS = [
  ["cached", "Cached input tokens", "Prompt tokens read from the cache (cache hits)"],
  ["write", "Cache-write tokens", "Prompt tokens written to the cache"],
  ["reasoning", "Reasoning tokens", "Thinking tokens, billed as output where no reasoning price exists"],
] as const;
const FIELDS = [...MAIN_FIELDS, ...MORE_FIELDS];
const TOKEN_KEYS = FIELDS.map(([key]) => key);

function readWorkload(params: Readonly<Record<string, string | undefined>>): Workload {
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

/**
 * A month of the workload in `/cost`'s terms (T348): the monthly counts and the requests they are
 * spread over — the requests a month given, else the prompt tokens over the average request size
 * (given, or {@link ASSUMED_REQUEST_PROMPT}), at least one.
 */
export function monthOf(w: Workload): { tokens: RequestTokens; requests: number; assumedSize: boolean } {
  const factor = w.per === "day" ? DAYS_PER_MONTH : w.per === "month" ? 1 : w.requests;
  const tokens = Object.fromEntries(TOKEN_KEYS.map((k) => [k, w[k] * factor])) as unknown as RequestTokens;
  if (w.per === "request") return { tokens, requests: w.requests, assumedSize: false };
  const prompt = tokens.input + tokens.cached + tokens.write;
  const size = w.size > 0 ? w.size : ASSUMED_REQUEST_PROMPT;
  return { tokens, requests: Math.max(1, Math.ceil(prompt / size)), assumedSize: w.size === 0 };
}

/** The form's text of each field: what was typed, kept as typed ("2M") until it settles in the URL. */
type FormText = Readonly<Record<TokenKey | "requests" | "size", string>>;

function textOf(w: Workload): FormText {
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
 * The cost calculator (issue 28 §1, issue 38 §7): a workload as people state it — tokens a day or a
 * month with an average request size, tokens per request × requests a month, a pasted usage object
 * or a usage log — priced by `/cost` on the models picked, or on the cheapest candidates of the
 * catalogue. One row per model: the offer the API ranks first for it, the maker's own price beside
 * it, every channel behind a disclosure (T349). Everything is in the URL, so a view is a link; `at`
 * prices it on a past day. The API chooses the context bracket per request (T141) and refuses a
 * request longer than the model's context window (T200); the page says so in the API's words.
 */
export function CostPage() {
  const { query: params, route } = useLocation();
  const at = usePageAt();
  const models = useMemo(
    () => [...new Set((params.models ?? "").split(",").filter((id) => /^[^/]+\/[^/]+$/.test(id)))],
    [params.models],
  );
  const channel = params.channel ?? "all";
  const tier = (TIERS as readonly string[]).includes(params.tier ?? "") ? params.tier! : "standard";
  const urlWorkload = readWorkload(params);
  const [per, setPer] = useState<Period>(urlWorkload.per);
  const [ttl, setTtl] = useState<"5m" | "1h">(urlWorkload.ttl);
  const [text, setText] = useState<FormText>(() => textOf(urlWorkload));
  // The typed text read as counts; a field that is not a count keeps the URL's workload and says why.
  const parsed = useMemo(() => {
    const bad: string[] = [];
    const value = (key: keyof FormText) => {
      const n = parseTokenCount(text[key]);
      if (n === null || n > MAX_TOKENS) bad.push(key);
      return n ?? 0;
    };
    const w: Workload = {
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
    return { workload: w, bad };
  }, [text, per, ttl]);
  const settled = useSettled(parsed, 300);
  const ids = { per: useId(), requests: useId(), size: useId(), channel: useId(), tier: useId(), ttl: useId() };

  // A link is built from the address as it is when it is followed, with the workload the form last
  // settled on: an effect of an older render (the settled workload's own URL update) that runs after
  // a model was picked must neither drop the pick nor put an older workload back in the URL.
  const latest = useRef(settled.workload);
  if (settled.bad.length === 0) latest.current = settled.workload;
  const href = (next: Partial<Record<string, string | number | null>>) => {
    const now = currentParams();
    const w = latest.current;
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
  };
  const go = (next: Partial<Record<string, string | number | null>>) => route(href(next), true);
  useEffect(() => {
    if (settled.bad.length === 0 && JSON.stringify(settled.workload) !== JSON.stringify(urlWorkload)) go({});
  }, [settled]);

  /** Fills the form from a usage object or a log: counts, how they are stated, and the request size or count. */
  const fill = (w: Partial<Workload> & Pick<Workload, "per">) => {
    const next = { ...parsed.workload, ...w };
    setPer(next.per);
    setText(textOf(next));
  };

  const month = monthOf(urlWorkload);
  const usage = {
    inputTokens: month.tokens.input || null,
    cachedInputTokens: month.tokens.cached || null,
    cacheWriteTokens: month.tokens.write || null,
    cacheTtl: urlWorkload.ttl === "1h" ? "1h" : null,
    outputTokens: month.tokens.output || null,
    reasoningTokens: month.tokens.reasoning || null,
    requests: month.requests,
    channel,
    tier: tier === "standard" ? null : tier,
    at,
  };
  const empty = TOKEN_KEYS.every((key) => urlWorkload[key] === 0);
  const tooBig = TOKEN_KEYS.some((key) => month.tokens[key] > MAX_TOKENS);
  const path =
    models.length === 0 || empty || tooBig
      ? null
      : `/cost${query({ ...(models.length === 1 ? { model: models[0] } : { models: models.join(",") }), ...usage })}`;
  const estimates = useApi<CostEstimate[], { found: number; requested: number; datasetVersion: string }>(path);
  const promptPerRequest = Math.ceil((month.tokens.input + month.tokens.cached + month.tokens.write) / month.requests);
  const perLabel = per === "request" ? "per request" : PERIOD_NAMES[per];

  /** One token count field per [key, label, hint], counted per the chosen period. */
  const tokenFields = (fields: typeof MAIN_FIELDS | typeof MORE_FIELDS) =>
    fields.map(([key, label, hint]) => (
      <TokenField
        key={key}
        label={`${label} ${perLabel}`}
        hint={hint}
        value={text[key]}
        invalid={parsed.bad.includes(key)}
        onChange={(v) => setText({ ...text, [key]: v })}
      />
    ));
  return (
    <Page
      id="cost"
      title="What will it cost?"
      lead={
        <>
          Say how many tokens you use — a day, a month or per request — and Tariff prices a month of it on every channel
          that sells the models, from the same prices as the API's <a href="/docs">/cost</a>.
        </>
      }
    >
      <Answer estimates={estimates.state === "ok" && path ? estimates.data.data : null} />
      <form class="workload" aria-label="Workload" onSubmit={(event) => event.preventDefault()}>
        <fieldset>
          <legend>Your usage</legend>
          <div class="grid-fields">
            {tokenFields(MAIN_FIELDS)}
            <SelectField
              id={ids.per}
              label="Counted"
              value={per}
              options={PERIODS.map((p): SelectOption => [p, p === "request" ? "per request" : PERIOD_NAMES[p]])}
              onChange={(v) => setPer(v as Period)}
            />
            {per === "request" ? (
              <TokenField
                id={ids.requests}
                label="Requests per month"
                hint="How many such requests a month"
                value={text.requests}
                invalid={parsed.bad.includes("requests")}
                onChange={(v) => setText({ ...text, requests: v })}
              />
            ) : (
              <TokenField
                id={ids.size}
                label="Average request size"
                hint={`Prompt tokens of one request; empty: about ${formatTokenCount(ASSUMED_REQUEST_PROMPT)}`}
                value={text.size}
                invalid={parsed.bad.includes("size")}
                onChange={(v) => setText({ ...text, size: v })}
              />
            )}
          </div>
          <details
            class="more-fields"
            open={MORE_FIELDS.some(([key]) => urlWorkload[key] > 0) || urlWorkload.ttl === "1h"}
          >
            <summary>Prompt caching and reasoning tokens</summary>
            <div class="grid-fields">
              {tokenFields(MORE_FIELDS)}
              <SelectField
                id={ids.ttl}
                label="Cache lifetime"
                value={ttl}
                options={[
                  ["5m", "5 minutes"],
                  ["1h", "1 hour"],
                ]}
                onChange={(v) => setTtl(v === "1h" ? "1h" : "5m")}
              />
            </div>
          </details>
          <UsagePaste onRead={(tokens) => fill({ ...tokens, per: "request" })} />
          <LogFile
            onRead={(summary) => {
              const days = summary.days ?? DAYS_PER_MONTH;
              const t = summary.totals;
              const prompt = t.input + t.cached + t.write;
              fill({
                per: "day",
                input: Math.round(t.input / days),
                cached: Math.round(t.cached / days),
                write: Math.round(t.write / days),
                output: Math.round(t.output / days),
                reasoning: Math.round(t.reasoning / days),
                size: summary.records > 0 ? Math.round(prompt / summary.records) : 0,
              });
            }}
          />
          <details class="options">
            <summary>Channel, service tier, day</summary>
            <div class="grid-fields">
              <SelectField
                id={ids.channel}
                label="Channel"
                value={channel}
                options={[["all", "Every channel"], ...CHANNEL_OPTIONS.map((c): SelectOption => [c.id, c.name])]}
                onChange={(v) => go({ channel: v === "all" ? null : v })}
              />
              <SelectField
                id={ids.tier}
                label="Service tier"
                value={tier}
                options={TIERS.map((t): SelectOption => [t, t])}
                onChange={(v) => go({ tier: v === "standard" ? null : v })}
              />
              <AtPicker at={at} onChange={(day) => go({ at: day })} />
            </div>
          </details>
        </fieldset>
        <fieldset>
          <legend>Models</legend>
          <div class="models-row">
            <ModelPicker
              label="Add a model"
              placeholder="e.g. sonnet 4.5, gpt-4o"
              clearOnPick
              onPick={(s) => {
                if (!models.includes(s.id) && models.length < MAX_MODELS) go({ models: [...models, s.id].join(",") });
              }}
            />
            <Candidates
              prompt={promptPerRequest}
              tokens={month.tokens}
              at={at}
              onPick={(list) => go({ models: list.join(",") })}
            />
          </div>
          {models.length > 0 ? (
            <ul class="chips" aria-label="Models priced">
              {models.map((id) => (
                <li key={id}>
                  <a href={modelPage(id, at)}>{id}</a>{" "}
                  <button
                    type="button"
                    aria-label={`Remove ${id}`}
                    onClick={() => go({ models: models.filter((x) => x !== id).join(",") || null })}
                  >
                    ×
                  </button>
                </li>
              ))}
            </ul>
          ) : null}
          {models.length > MAX_MODELS ? (
            <p class="error" role="alert">
              The calculator prices up to {MAX_MODELS} models at once; remove {models.length - MAX_MODELS}.
            </p>
          ) : null}
        </fieldset>
      </form>
      <PastNotice at={at} version={estimates.state === "ok" ? estimates.data.meta.datasetVersion : undefined} />
      <section aria-labelledby="estimates-title">
        <h2 id="estimates-title">A month, per model</h2>
        {empty ? <p>Give the input or output tokens you use to see what a month costs.</p> : null}
        {tooBig ? <p class="error">A month of this usage is more than 10¹² tokens, the most /cost prices.</p> : null}
        {models.length === 0 && !empty ? <p>Add the models to price, or rank the cheapest candidates.</p> : null}
        {!empty && !tooBig ? <MonthNote workload={urlWorkload} month={month} /> : null}
        {path ? (
          <WhenLoaded what="the estimates" loaded={estimates}>
            {({ data, meta }) => <Estimates estimates={data} meta={meta} at={at} usage={usage} />}
          </WhenLoaded>
        ) : null}
      </section>
    </Page>
  );
}

/**
 * What a month of the workload is, in words (T348): the monthly tokens, the 30 days a daily count
 * is multiplied by, and the requests they are spread over — assumed, and said so, when no request
 * size was given.
 */
function MonthNote(props: { readonly workload: Workload; readonly month: ReturnType<typeof monthOf> }) {
  const { workload: w, month } = props;
  const t = month.tokens;
  const parts = [
    `${formatTokenCount(t.input + t.cached + t.write)} input`,
    `${formatTokenCount(t.output + t.reasoning)} output tokens`,
  ].join(" and ");
  const prompt = Math.ceil((t.input + t.cached + t.write) / month.requests);
  return (
    <p class="muted" data-testid="month-note">
      A month is {parts}
      {w.per === "day" ? ` (${DAYS_PER_MONTH} days)` : ""}, in {formatCount(month.requests)}{" "}
      {month.requests === 1 ? "request" : "requests"} of about {formatCount(prompt)} prompt tokens
      {month.assumedSize
        ? `: a request size of ${formatCount(ASSUMED_REQUEST_PROMPT)} tokens is assumed (base prices); give yours if requests are longer.`
        : "."}
    </p>
  );
}

/** "Or paste a usage object": one request's tokens from an API response's usage (T277). */
function UsagePaste(props: { readonly onRead: (tokens: RequestTokens) => void }) {
  const id = useId();
  const [paste, setPaste] = useState("");
  const [note, setNote] = useState<{ ok: boolean; text: string } | null>(null);
  const read = () => {
    try {
      const { tokens, shape } = parseUsageObject(paste);
      props.onRead(tokens);
      setNote({ ok: true, text: `Read as ${shape.replace("-", " ")} usage: one request's tokens filled in.` });
    } catch (error) {
      setNote({ ok: false, text: (error as Error).message });
    }
  };
  return (
    <details class="paste">
      <summary>Or paste a usage object from an API response</summary>
      <div class="field">
        <label for={id}>Usage object (OpenAI, Anthropic or Gemini)</label>
        <textarea
          id={id}
          rows={5}
          spellcheck={false}
          placeholder='{"prompt_tokens": 1200, "completion_tokens": 300, "prompt_tokens_details": {"cached_tokens": 1000}}'
          value={paste}
          onInput={(e) => setPaste(e.currentTarget.value)}
        />
      </div>
      <button type="button" onClick={read}>
        Use these tokens per request
      </button>
      {note ? (
        <p class={note.ok ? "muted" : "error"} role="status">
          {note.text}
        </p>
      ) : null}
    </details>
  );
}

/**
 * "Or read a usage log" (T348): a JSON Lines log of the records `tariff cost` reads, summed in the
 * browser (nothing is sent) into tokens a day over the days it spans, with its average request.
 */
function LogFile(props: { readonly onRead: (summary: LogSummary) => void }) {
  const id = useId();
  const [note, setNote] = useState<{ ok: boolean; text: string } | null>(null);
  const read = async (file: File | undefined) => {
    if (!file) return;
    const summary = summarizeLog(await file.text());
    if (summary.records === 0) {
      setNote({ ok: false, text: `No record with usage in ${file.name} (${summary.unreadable} lines not read).` });
      return;
    }
    props.onRead(summary);
    setNote({
      ok: true,
      text:
        `Read ${formatCount(summary.records)} records` +
        (summary.days === null ? " without times, taken as a month" : ` over ${formatCount(summary.days)} days`) +
        (summary.unreadable > 0 ? ` (${formatCount(summary.unreadable)} lines not read)` : "") +
        ": tokens a day and the average request filled in. `tariff cost` prices each record at its own day's prices.",
    });
  };
  return (
    <details class="paste">
      <summary>Or read a usage log (JSON Lines)</summary>
      <div class="field">
        <label for={id}>Usage log file</label>
        <input
          id={id}
          type="file"
          accept=".jsonl,.json,.ndjson,application/json,text/plain"
          onChange={(e) => void read(e.currentTarget.files?.[0])}
        />
        <span class="hint muted">Read in your browser; nothing is uploaded.</span>
      </div>
      {note ? (
        <p class={note.ok ? "muted" : "error"} role="status">
          {note.text}
        </p>
      ) : null}
    </details>
  );
}

/**
 * The answer first (issue 28 §1): the cheapest offer's monthly cost and, beside it, the maker's own,
 * above the form; every offer is in the table below it.
 */
function Answer(props: { readonly estimates: readonly CostEstimate[] | null }) {
  const money = (props.estimates ?? []).filter(
    (e) => e.totals?.length === 1 && e.totals[0]!.denomination === "currency",
  );
  const cheapest = money[0];
  // The line keeps its place while there is no answer, so nothing below it moves when one comes.
  if (!cheapest)
    return (
      <p class="answer muted" data-testid="answer">
        {props.estimates ? "No offer has a money total for this workload." : "The cheapest offer shows here."}
      </p>
    );
  const name = (e: CostEstimate) =>
    e.channel === "direct" ? "the maker" : MULTI_SELLER_CHANNELS.has(e.channel) ? e.seller : channelName(e.channel);
  const maker = money.find((e) => e.channel === "direct" && e.model === cheapest.model);
  const amount = (e: CostEstimate) => formatMoney(e.totals![0]!.amount, e.totals![0]!.currency);
  const ratio = maker && maker !== cheapest ? maker.totals![0]!.amount / cheapest.totals![0]!.amount : 1;
  return (
    <p class="answer" data-testid="answer">
      Cheapest: <strong>{cheapest.name}</strong> from {name(cheapest)}, <strong>{amount(cheapest)}</strong> a month
      {maker && maker !== cheapest ? <> ({amount(maker)} at the maker's own price)</> : null}.{" "}
      {ratio >= OUTLIER_RATIO ? (
        <>
          <span class="badge outlier">⚠ {ratio.toFixed(1)}× below the maker's price: check this seller</span>{" "}
        </>
      ) : null}
      <a href="#estimates-title">Every model and channel</a>
    </p>
  );
}

/** A count field: typed as people write counts (`2M`, `500K`, `2,000,000`, T348), read by {@link parseTokenCount}. */
function TokenField(props: {
  readonly id?: string;
  readonly label: string;
  readonly hint: string;
  readonly value: string;
  readonly invalid: boolean;
  readonly onChange: (v: string) => void;
}) {
  const own = useId();
  const id = props.id ?? own;
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      <input
        id={id}
        type="text"
        inputMode="text"
        autoComplete="off"
        spellcheck={false}
        value={props.value}
        aria-invalid={props.invalid}
        aria-describedby={`${id}-hint`}
        onInput={(e) => props.onChange(e.currentTarget.value)}
      />
      <span id={`${id}-hint`} class={props.invalid ? "hint error" : "hint muted"}>
        {props.invalid ? "Not a count: write e.g. 2M, 500K or 2,000,000" : props.hint}
      </span>
    </div>
  );
}

/**
 * "Rank the cheapest candidates" (T208): the catalogue's models whose context window holds one
 * request, by listed input price (`/models?sort=input&prices=listed&minContext=…`), blended with the
 * workload's output share on their listed prices; the 8 cheapest become the models priced, so the
 * ranking itself is `/cost`'s and the URL names them.
 */
function Candidates(props: {
  readonly prompt: number;
  readonly tokens: RequestTokens;
  readonly at: string | null;
  readonly onPick: (ids: string[]) => void;
}) {
  const [state, setState] = useState<"idle" | "busy" | string>("idle");
  const find = async () => {
    setState("busy");
    try {
      const { body } = await getJson<Envelope<Model[]>>(
        `/models${query({ sort: "input", prices: "listed", limit: 200, minContext: props.prompt || null, at: props.at })}`,
      );
      const w = props.tokens;
      const blended = body.data.flatMap((m) => {
        const input = m.prices.find((p) => p.direction === "input");
        const output = m.prices.find((p) => p.direction === "output");
        // A chat workload needs both prices; a zero output price is an embedding or a reranker.
        if (!input || !output || (w.output + w.reasoning > 0 && output.amount === 0)) return [];
        return [
          { id: m.id, cost: input.amount * (w.input + w.cached + w.write) + output.amount * (w.output + w.reasoning) },
        ];
      });
      blended.sort((a, b) => a.cost - b.cost || (a.id < b.id ? -1 : 1));
      const ids = blended.slice(0, MAX_MODELS).map((c) => c.id);
      if (ids.length === 0)
        setState("No model of the catalogue has both an input and an output price for this workload.");
      else {
        setState("idle");
        props.onPick(ids);
      }
    } catch (error) {
      setState(`The candidates could not be loaded: ${(error as Error).message}. Try again.`);
    }
  };
  return (
    <div class="candidates">
      <button type="button" onClick={find} disabled={state === "busy"} aria-describedby="candidates-hint">
        Rank the cheapest candidates
      </button>
      <p id="candidates-hint" class="hint muted">
        The 8 models of the catalogue cheapest for this workload whose context window holds one request.
      </p>
      {state !== "idle" && state !== "busy" ? (
        <p class="error" role="alert">
          {state}
        </p>
      ) : null}
    </div>
  );
}

/** A single money total of an estimate, or null (credits, several currencies, no total). */
function moneyTotal(e: CostEstimate): { amount: number; currency: string } | null {
  const t = e.totals?.length === 1 ? e.totals[0]! : null;
  return t && t.denomination === "currency" ? { amount: t.amount, currency: t.currency } : null;
}

/** Who sells an offer, as a row names it: the maker, a channel, or a seller of a multi-seller channel. */
function offerName(e: CostEstimate): string {
  return e.channel === "direct"
    ? "The maker"
    : MULTI_SELLER_CHANNELS.has(e.channel)
      ? `${e.seller} (${channelName(e.channel)})`
      : channelName(e.channel);
}

/**
 * The estimates of `/cost` as one row per model (issue 38 §7, T349): the model's first offer in the
 * API's order — its cheapest offer the API ranks first, never re-ranked here — with the maker's own
 * price beside it, and every offer of the model, in the API's order, behind a disclosure. Models
 * are in the order of their first offer.
 */
function Estimates(props: {
  readonly estimates: readonly CostEstimate[];
  readonly meta: { found: number; requested: number };
  readonly at: string | null;
  readonly usage: CostQuery;
}) {
  const { estimates, meta } = props;
  const byModel = new Map<string, CostEstimate[]>();
  for (const e of estimates) byModel.set(e.model, [...(byModel.get(e.model) ?? []), e]);
  return (
    <>
      <Status>
        {byModel.size} {byModel.size === 1 ? "model" : "models"}, {estimates.length}{" "}
        {estimates.length === 1 ? "offer" : "offers"}
        {meta.found < meta.requested
          ? ` (${meta.requested - meta.found} of the models asked for are not in the catalogue)`
          : ""}
        . <LevelsLink />
      </Status>
      {estimates.length === 0 ? <p>No channel asked for sells these models.</p> : null}
      <TableWrap label="Monthly cost per model">
        <table class="estimates cards" data-testid="estimates">
          <caption class="visually-hidden">Monthly cost per model: its first offer, and the maker's price</caption>
          <thead>
            <tr>
              <th scope="col">Model</th>
              <th scope="col" class="num">
                Per month
              </th>
              <th scope="col" class="num">
                The maker's price
              </th>
              <th scope="col">Offer</th>
              <th scope="col">Every channel</th>
            </tr>
          </thead>
          <tbody>
            {[...byModel].map(([model, offers]) => (
              <ModelRow key={model} offers={offers} at={props.at} usage={props.usage} />
            ))}
          </tbody>
        </table>
      </TableWrap>
    </>
  );
}

function money(amount: number, t: { readonly denomination: string; readonly currency: string }): string {
  return t.denomination === "currency" ? formatMoney(amount, t.currency) : `${formatCount(amount)} credits`;
}

/** A total as a cell shows it: money, credits, several totals, or why there is none. */
function TotalText(props: { readonly estimate: CostEstimate }) {
  const e = props.estimate;
  if (e.totals === null) return <span class="error">no total: {e.missing.join(", ")} not priced</span>;
  const total = e.totals.length === 1 ? e.totals[0]! : null;
  return total ? (
    <span class="amount total" data-amount={total.amount}>
      {money(total.amount, total)}
    </span>
  ) : (
    <span>{e.totals.map((t) => money(t.amount, t)).join(" + ")}</span>
  );
}

/** One model: its first offer in the API's order, the maker's price, and every offer behind a disclosure (T349). */
function ModelRow(props: {
  readonly offers: readonly CostEstimate[];
  readonly at: string | null;
  readonly usage: CostQuery;
}) {
  const offers = props.offers;
  const first = offers.find((e) => moneyTotal(e) !== null) ?? offers[0]!;
  const maker = offers.find((e) => e.channel === "direct");
  const makerTotal = maker ? moneyTotal(maker) : null;
  const total = moneyTotal(first);
  const reference = first !== maker && total && makerTotal ? makerTotal.amount : null;
  const ratio = reference !== null && total ? formatRatio(total.amount, reference) : null;
  const outlier =
    reference !== null && total !== null && total.amount > 0
      ? total.amount * OUTLIER_RATIO <= reference || total.amount >= reference * OUTLIER_RATIO
      : false;
  return (
    <tr data-model={first.model} data-channel={first.channel} data-seller={first.seller}>
      <th scope="row" data-label="Model">
        <a href={modelPage(first.model, props.at)}>{first.name}</a>
        <div class="muted">{first.model}</div>
      </th>
      <td class="num" data-label="Per month">
        <TotalText estimate={first} />
      </td>
      <td class="num" data-label="The maker's price">
        {maker ? (
          <span class="maker-total">
            <TotalText estimate={maker} />
          </span>
        ) : (
          <span class="muted">not sold direct</span>
        )}
      </td>
      <td data-label="Offer">
        {offerName(first)} <ConfidenceBadge level={first.confidence ?? undefined} />{" "}
        <OutlierMark ratio={ratio} outlier={outlier} />
        {first.bracket.contextMin > 0 ? (
          <div class="muted">long-context prices (&gt; {formatCount(first.bracket.contextMin)} tokens)</div>
        ) : null}
        <Announced estimate={first} usage={props.usage} />
        <PriceLines estimate={first} />
      </td>
      <td data-label="Every channel">
        <details class="offers">
          <summary>
            {offers.length} {offers.length === 1 ? "offer" : "offers"}
          </summary>
          <ol class="offer-list" data-testid="offers">
            {offers.map((e) => (
              <li key={`${e.channel}|${e.seller}`} data-channel={e.channel} data-seller={e.seller}>
                {offerName(e)}: <TotalText estimate={e} /> <ConfidenceBadge level={e.confidence ?? undefined} />
              </li>
            ))}
          </ol>
        </details>
      </td>
    </tr>
  );
}

/** The `/cost` parameters of the page's request but the model: the workload, channel, tier and day. */
type CostQuery = Readonly<Record<string, string | number | null>>;

/**
 * What an offer's prices become (issue 37 §4, T362): each priced line whose price a source dates,
 * as the model page says it ("from <date> this becomes <price>", "ends <date>"), and, for each such
 * date, the month's total from that day where it differs — `/cost` on that day (T336), which bills
 * the announced prices, on the same offer.
 */
function Announced(props: { readonly estimate: CostEstimate; readonly usage: CostQuery }) {
  const e = props.estimate;
  const dated = e.lines.filter((l) => l.status === "priced" && l.effectiveUntil !== null);
  if (dated.length === 0) return null;
  const days = [...new Set(dated.map((l) => l.effectiveUntil!.slice(0, 10)))].sort();
  return (
    <div class="announced-prices" data-testid="announced">
      <ul class="lines">
        {dated.map((l) => (
          <li key={l.usage}>
            {l.label} {formatAmount(l.amount!, { denomination: l.denomination!, currency: l.currency! })}:{" "}
            <AnnouncedNote
              price={{
                effectiveUntil: l.effectiveUntil,
                announced: l.announced,
                denomination: l.denomination!,
                currency: l.currency!,
              }}
            />
          </li>
        ))}
      </ul>
      {days.map((day) => (
        <TotalFrom key={day} estimate={e} usage={props.usage} day={day} />
      ))}
    </div>
  );
}

/** The offer's total from `day` on (T362): `/cost` at that day, shown only where it differs from today's. */
function TotalFrom(props: { readonly estimate: CostEstimate; readonly usage: CostQuery; readonly day: string }) {
  const e = props.estimate;
  const later = useApi<CostEstimate[]>(
    `/cost${query({ ...props.usage, model: e.model, channel: e.channel, at: props.day })}`,
  );
  if (later.state !== "ok") return null;
  const same = later.data.data.find((x) => x.channel === e.channel && x.seller === e.seller);
  const now = moneyTotal(e);
  const then = same ? moneyTotal(same) : null;
  if (!then || (now && now.amount === then.amount && now.currency === then.currency)) return null;
  return (
    <p class="total-from" data-testid="total-from" data-day={props.day} data-amount={then.amount}>
      From {props.day}: <strong>{formatMoney(then.amount, then.currency)}</strong> a month
    </p>
  );
}

/** The prices an estimate used, one line per usage parameter, behind a disclosure. */
function PriceLines(props: { readonly estimate: CostEstimate }) {
  const e = props.estimate;
  return (
    <details class="price-lines">
      <summary>Prices used</summary>
      <ul class="lines">
        {e.lines.map((l) => (
          <li key={l.usage}>
            {formatCount(l.tokens)}{" "}
            {l.usage
              .replace(/Tokens$/, "")
              .replace(/([A-Z])/g, " $1")
              .toLowerCase()}{" "}
            tokens
            {l.status === "missing" ? (
              <> — no price published</>
            ) : (
              <>
                {" "}
                × {l.label} {formatAmount(l.amount!, { denomination: l.denomination!, currency: l.currency! })}{" "}
                {l.displayUnit?.replace(/^[A-Z]{3} /, "")} ={" "}
                {money(l.cost!, { denomination: l.denomination!, currency: l.currency! })}{" "}
                <ConfidenceBadge level={l.confidence ?? undefined} /> <span class="muted">{l.sources.join(", ")}</span>
              </>
            )}
          </li>
        ))}
      </ul>
    </details>
  );
}
