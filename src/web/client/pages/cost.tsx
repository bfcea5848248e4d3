import { useEffect, useId, useMemo, useRef, useState } from "preact/hooks";
import { useLocation } from "preact-iso";
import { MULTI_SELLER_CHANNELS } from "../../../domain/channel.js";
// The tiers of the axis description (T236, T276): the calculator offers every tier the API prices.
import { TIERS } from "../../../domain/dimension.js";
import { currentParams, getJson, modelPage, query, useApi } from "../api.js";
import { AtPicker, PastNotice, usePageAt } from "../components/at-picker.js";
import { ConfidenceBadge, LevelsLink, OutlierMark } from "../components/badges.js";
import { ModelPicker } from "../components/model-picker.js";
import { Page } from "../components/page.js";
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
import type { CostEstimate, Envelope, Model } from "../types.js";
import { parseUsageObject, type RequestTokens } from "../usage-object.js";

/** `/cost` takes up to 8 models (api-v1.md, T140). */
const MAX_MODELS = 8;
/** The API's largest token count (T140): 10^12. */
const MAX_TOKENS = 1_000_000_000_000;

/** The workload as the URL holds it: per-request counts and requests per month (T208). */
interface Workload extends RequestTokens {
  readonly requests: number;
  readonly ttl: "5m" | "1h";
}

const MAIN_FIELDS = [
  ["input", "Input tokens", "Uncached prompt tokens of one request"],
  ["output", "Output tokens", "Answer tokens, without reasoning"],
] as const;
const MORE_FIELDS = [
  ["cached", "Cached input tokens", "Prompt tokens read from the cache (cache hits)"],
  ["write", "Cache-write tokens", "Prompt tokens written to the cache"],
  ["reasoning", "Reasoning tokens", "Thinking tokens, billed as output where no reasoning price exists"],
] as const;
const FIELDS = [...MAIN_FIELDS, ...MORE_FIELDS];

function readWorkload(params: Readonly<Record<string, string | undefined>>): Workload {
  const n = (key: string, fallback = 0) => {
    const v = Number(params[key]);
    return Number.isSafeInteger(v) && v >= 0 ? v : fallback;
  };
  return {
    requests: Math.max(1, n("requests", 1000)),
    input: n("input", 0),
    cached: n("cached"),
    write: n("write"),
    output: n("output", 0),
    reasoning: n("reasoning"),
    ttl: params.ttl === "1h" ? "1h" : "5m",
  };
}

/**
 * The cost calculator (issue 28 §1), `/cost`: a workload as people think of it — requests per
 * month and tokens per request, or a pasted usage object — priced by `/cost` on the models picked,
 * or on the cheapest candidates of the catalogue, in one channel or all of them, cheapest first,
 * each line with its price, confidence and sources. Everything is in the URL, so a view is a link;
 * `at` prices it on a past day. The API chooses the context bracket per request (T141) and refuses
 * a request longer than the model's context window (T200); the page says so in the API's words.
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
  const [form, setForm] = useState<Workload>(urlWorkload);
  const settled = useSettled(form, 300);
  const ids = { requests: useId(), channel: useId(), tier: useId(), ttl: useId(), paste: useId() };

  // A link is built from the address as it is when it is followed, with the workload the form last
  // settled on: an effect of an older render (the settled workload's own URL update) that runs after
  // a model was picked must neither drop the pick nor put an older workload back in the URL.
  const latest = useRef(settled);
  latest.current = settled;
  const href = (next: Partial<Record<string, string | number | null>>) => {
    const now = currentParams();
    const w = latest.current;
    return `/cost${query({
      models: now.models,
      requests: w.requests,
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
    if (JSON.stringify(settled) !== JSON.stringify(urlWorkload)) go({});
  }, [settled]);

  const [paste, setPaste] = useState("");
  const [pasteNote, setPasteNote] = useState<{ ok: boolean; text: string } | null>(null);
  const readPaste = () => {
    try {
      const { tokens, shape } = parseUsageObject(paste);
      setForm({ ...form, ...tokens });
      setPasteNote({ ok: true, text: `Read as ${shape.replace("-", " ")} usage: one request's tokens filled in.` });
    } catch (error) {
      setPasteNote({ ok: false, text: (error as Error).message });
    }
  };

  const total = (n: number) => n * urlWorkload.requests;
  const usage = {
    inputTokens: total(urlWorkload.input) || null,
    cachedInputTokens: total(urlWorkload.cached) || null,
    cacheWriteTokens: total(urlWorkload.write) || null,
    cacheTtl: urlWorkload.ttl === "1h" ? "1h" : null,
    outputTokens: total(urlWorkload.output) || null,
    reasoningTokens: total(urlWorkload.reasoning) || null,
    requests: urlWorkload.requests,
    channel,
    tier: tier === "standard" ? null : tier,
    at,
  };
  const empty = FIELDS.every(([key]) => urlWorkload[key] === 0);
  const tooBig = FIELDS.some(([key]) => total(urlWorkload[key]) > MAX_TOKENS);
  const path =
    models.length === 0 || empty || tooBig
      ? null
      : `/cost${query({ ...(models.length === 1 ? { model: models[0] } : { models: models.join(",") }), ...usage })}`;
  const estimates = useApi<CostEstimate[], { found: number; requested: number; datasetVersion: string }>(path);
  const prompt = urlWorkload.input + urlWorkload.cached + urlWorkload.write;

  return (
    <Page
      id="cost"
      title="What will it cost?"
      lead={
        <>
          Describe a month of requests; Tariff prices it on every channel that sells the models, cheapest first, from
          the same prices as the API's <a href="/docs">/cost</a>.
        </>
      }
    >
      <Answer estimates={estimates.state === "ok" && path ? estimates.data.data : null} />
      <form class="workload" aria-label="Workload" onSubmit={(event) => event.preventDefault()}>
        <fieldset>
          <legend>A month of requests</legend>
          <div class="grid-fields">
            <div class="field">
              <label for={ids.requests}>Requests per month</label>
              <input
                id={ids.requests}
                type="number"
                inputMode="numeric"
                min={1}
                step={1}
                value={form.requests}
                onInput={(e) =>
                  setForm({ ...form, requests: Math.max(1, Math.floor(Number(e.currentTarget.value) || 1)) })
                }
              />
            </div>
            {MAIN_FIELDS.map(([key, label, hint]) => (
              <TokenField
                key={key}
                label={`${label} per request`}
                hint={hint}
                value={form[key]}
                onChange={(v) => setForm({ ...form, [key]: v })}
              />
            ))}
            <div class="field">
              <label for={ids.channel}>Channel</label>
              <select
                id={ids.channel}
                value={channel}
                onChange={(e) => go({ channel: e.currentTarget.value === "all" ? null : e.currentTarget.value })}
              >
                <option value="all">Every channel</option>
                {CHANNEL_OPTIONS.map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.name}
                  </option>
                ))}
              </select>
            </div>
            <div class="field">
              <label for={ids.tier}>Service tier</label>
              <select
                id={ids.tier}
                value={tier}
                onChange={(e) => go({ tier: e.currentTarget.value === "standard" ? null : e.currentTarget.value })}
              >
                {TIERS.map((t) => (
                  <option key={t} value={t}>
                    {t}
                  </option>
                ))}
              </select>
            </div>
            <AtPicker at={at} onChange={(day) => go({ at: day })} />
          </div>
          <details
            class="more-fields"
            open={MORE_FIELDS.some(([key]) => urlWorkload[key] > 0) || urlWorkload.ttl === "1h"}
          >
            <summary>Prompt caching and reasoning tokens</summary>
            <div class="grid-fields">
              {MORE_FIELDS.map(([key, label, hint]) => (
                <TokenField
                  key={key}
                  label={`${label} per request`}
                  hint={hint}
                  value={form[key]}
                  onChange={(v) => setForm({ ...form, [key]: v })}
                />
              ))}
              <div class="field">
                <label for={ids.ttl}>Cache lifetime</label>
                <select
                  id={ids.ttl}
                  value={form.ttl}
                  onChange={(e) => setForm({ ...form, ttl: e.currentTarget.value === "1h" ? "1h" : "5m" })}
                >
                  <option value="5m">5 minutes</option>
                  <option value="1h">1 hour</option>
                </select>
              </div>
            </div>
          </details>
          <details class="paste">
            <summary>Or paste a usage object from an API response</summary>
            <div class="field">
              <label for={ids.paste}>Usage object (OpenAI, Anthropic or Gemini)</label>
              <textarea
                id={ids.paste}
                rows={5}
                spellcheck={false}
                placeholder='{"prompt_tokens": 1200, "completion_tokens": 300, "prompt_tokens_details": {"cached_tokens": 1000}}'
                value={paste}
                onInput={(e) => setPaste(e.currentTarget.value)}
              />
            </div>
            <button type="button" onClick={readPaste}>
              Use these tokens per request
            </button>
            {pasteNote ? (
              <p class={pasteNote.ok ? "muted" : "error"} role="status">
                {pasteNote.text}
              </p>
            ) : null}
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
              prompt={prompt}
              workload={urlWorkload}
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
        <h2 id="estimates-title">Monthly cost, cheapest first</h2>
        {empty ? <p>Give the tokens of one request (input or output) to see what a month costs.</p> : null}
        {tooBig ? (
          <p class="error">A month of these requests is more than 10¹² tokens, the most /cost prices.</p>
        ) : null}
        {models.length === 0 && !empty ? <p>Add the models to price, or rank the cheapest candidates.</p> : null}
        {path ? (
          <WhenLoaded what="the estimates" loaded={estimates}>
            {({ data, meta }) => <Estimates estimates={data} meta={meta} workload={urlWorkload} at={at} />}
          </WhenLoaded>
        ) : null}
      </section>
    </Page>
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
      <a href="#estimates-title">Every offer, cheapest first</a>
    </p>
  );
}

function TokenField(props: {
  readonly label: string;
  readonly hint: string;
  readonly value: number;
  readonly onChange: (v: number) => void;
}) {
  const id = useId();
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      <input
        id={id}
        type="number"
        inputMode="numeric"
        min={0}
        step={1}
        value={props.value}
        aria-describedby={`${id}-hint`}
        onInput={(e) => props.onChange(Math.max(0, Math.floor(Number(e.currentTarget.value) || 0)))}
      />
      <span id={`${id}-hint`} class="hint muted">
        {props.hint}
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
  readonly workload: Workload;
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
      const w = props.workload;
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

/** The estimates of `/cost`, in its order (cheapest first, T144), one row per model and offer. */
function Estimates(props: {
  readonly estimates: readonly CostEstimate[];
  readonly meta: { found: number; requested: number };
  readonly workload: Workload;
  readonly at: string | null;
}) {
  const { estimates, meta } = props;
  const models = new Set(estimates.map((e) => e.model)).size;
  // Each model's own (direct) monthly total: the reference an offer is compared with (T209).
  const makerTotal = new Map<string, number>();
  for (const e of estimates)
    if (e.channel === "direct" && e.totals?.length === 1 && e.totals[0]!.denomination === "currency")
      makerTotal.set(e.model, e.totals[0]!.amount);
  return (
    <>
      <Status>
        {estimates.length} {estimates.length === 1 ? "offer" : "offers"} of {models} {models === 1 ? "model" : "models"}
        {meta.found < meta.requested
          ? ` (${meta.requested - meta.found} of the models asked for are not in the catalogue)`
          : ""}
        , for {formatCount(props.workload.requests)} requests a month. <LevelsLink />
      </Status>
      {estimates.length === 0 ? <p>No channel asked for sells these models.</p> : null}
      <TableWrap label="Monthly cost per model and channel">
        <table class="estimates cards" data-testid="estimates">
          <caption class="visually-hidden">Monthly cost per model and channel, cheapest first</caption>
          <thead>
            <tr>
              <th scope="col" class="num">
                #
              </th>
              <th scope="col">Model</th>
              <th scope="col">Channel</th>
              <th scope="col" class="num">
                Per month
              </th>
              <th scope="col" class="num">
                Per request
              </th>
              <th scope="col">Confidence</th>
              <th scope="col">Prices used</th>
            </tr>
          </thead>
          <tbody>
            {estimates.map((e, i) => (
              <EstimateRow
                key={`${e.model}|${e.channel}|${e.seller}`}
                estimate={e}
                rank={i + 1}
                channel={
                  e.channel === "direct"
                    ? "The maker"
                    : MULTI_SELLER_CHANNELS.has(e.channel)
                      ? `${e.seller} (${channelName(e.channel)})`
                      : channelName(e.channel)
                }
                requests={props.workload.requests}
                at={props.at}
                makerTotal={makerTotal.get(e.model) ?? null}
              />
            ))}
          </tbody>
        </table>
      </TableWrap>
    </>
  );
}

function EstimateRow(props: {
  readonly estimate: CostEstimate;
  readonly rank: number;
  readonly channel: string;
  readonly requests: number;
  readonly at: string | null;
  /** The model's monthly total at the maker's own prices, when known. */
  readonly makerTotal: number | null;
}) {
  const e = props.estimate;
  const total = e.totals && e.totals.length === 1 ? e.totals[0]! : null;
  const reference = e.channel !== "direct" && total?.denomination === "currency" ? props.makerTotal : null;
  const ratio = reference !== null && total ? formatRatio(total.amount, reference) : null;
  const outlier =
    reference !== null && total !== null && total.amount > 0
      ? total.amount * OUTLIER_RATIO <= reference || total.amount >= reference * OUTLIER_RATIO
      : false;
  const money = (amount: number, t: { denomination: string; currency: string }) =>
    t.denomination === "currency" ? formatMoney(amount, t.currency) : `${formatCount(amount)} credits`;
  return (
    <tr data-model={e.model} data-channel={e.channel} data-seller={e.seller}>
      <td class="num" data-label="Rank">
        {props.rank}
      </td>
      <th scope="row" data-label="Model">
        <a href={modelPage(e.model, props.at)}>{e.name}</a>
        <div class="muted">{e.model}</div>
      </th>
      <td data-label="Channel">{props.channel}</td>
      <td class="num" data-label="Per month">
        {e.totals === null ? (
          <span class="error">no total: {e.missing.join(", ")} not priced</span>
        ) : total ? (
          <span class="amount total" data-amount={total.amount}>
            {money(total.amount, total)}
          </span>
        ) : (
          e.totals.map((t) => money(t.amount, t)).join(" + ")
        )}
      </td>
      <td class="num" data-label="Per request">
        {total ? money(total.amount / props.requests, total) : "—"}
      </td>
      <td data-label="Confidence">
        <ConfidenceBadge level={e.confidence ?? undefined} /> <OutlierMark ratio={ratio} outlier={outlier} />
        {e.bracket.contextMin > 0 ? (
          <div class="muted">long-context prices (&gt; {formatCount(e.bracket.contextMin)} tokens)</div>
        ) : null}
      </td>
      <td data-label="Prices used">
        <details>
          <summary>{e.lines.length} lines</summary>
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
                    <ConfidenceBadge level={l.confidence ?? undefined} />{" "}
                    <span class="muted">{l.sources.join(", ")}</span>
                  </>
                )}
              </li>
            ))}
          </ul>
        </details>
      </td>
    </tr>
  );
}
