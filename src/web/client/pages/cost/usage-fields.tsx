import { useId } from "preact/hooks";
// The tiers of the axis description (T236, T276): the calculator offers every tier the API prices.
import { TIERS } from "../../../../domain/dimension.js";
import { AtPicker } from "../../components/at-picker.js";
import { SelectField, type SelectOption } from "../../components/select-field.js";
import { CHANNEL_OPTIONS } from "../../format.js";
import { formatTokenCount } from "../../token-count.js";
import { LogFile, UsagePaste } from "./usage-files.js";
import type { WorkloadForm } from "./use-workload-form.js";
import {
  ASSUMED_REQUEST_PROMPT,
  DAYS_PER_MONTH,
  MAIN_FIELDS,
  MORE_FIELDS,
  PERIOD_NAMES,
  PERIODS,
  type Period,
  type Workload,
} from "./workload.js";

/**
 * "Your usage", the calculator's first fieldset (issue 28 §1, T348): the token counts a day, a
 * month or per request, the request count or size, prompt caching and reasoning, a pasted usage
 * object or a usage log, and the channel, tier and day.
 */
export function UsageFieldset(props: {
  readonly form: WorkloadForm;
  readonly urlWorkload: Workload;
  readonly channel: string;
  readonly tier: string;
  readonly at: string | null;
}) {
  const { form, urlWorkload } = props;
  return (
    <fieldset>
      <legend>Your usage</legend>
      <CountFields form={form} />
      <details class="more-fields" open={MORE_FIELDS.some(([key]) => urlWorkload[key] > 0) || urlWorkload.ttl === "1h"}>
        <summary>Prompt caching and reasoning tokens</summary>
        <CachingFields form={form} />
      </details>
      <UsagePaste onRead={(tokens) => form.fill({ ...tokens, per: "request" })} />
      <LogFile
        onRead={(summary) => {
          const days = summary.days ?? DAYS_PER_MONTH;
          const t = summary.totals;
          const prompt = t.input + t.cached + t.write;
          form.fill({
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
      <OptionsFields go={form.go} channel={props.channel} tier={props.tier} at={props.at} />
    </fieldset>
  );
}

/** One token count field per [key, label, hint], counted per the chosen period. */
function TokenFields(props: { readonly form: WorkloadForm; readonly fields: typeof MAIN_FIELDS | typeof MORE_FIELDS }) {
  const { per, text, bad, setText } = props.form;
  const perLabel = per === "request" ? "per request" : PERIOD_NAMES[per];
  return (
    <>
      {props.fields.map(([key, label, hint]) => (
        <TokenField
          key={key}
          label={`${label} ${perLabel}`}
          hint={hint}
          value={text[key]}
          invalid={bad.includes(key)}
          onChange={(v) => setText({ ...text, [key]: v })}
        />
      ))}
    </>
  );
}

/** Input and output tokens, how they are counted, and the requests a month or the average request size. */
function CountFields(props: { readonly form: WorkloadForm }) {
  const { per, setPer, text, setText, bad } = props.form;
  const ids = { per: useId(), requests: useId(), size: useId() };
  return (
    <div class="grid-fields">
      <TokenFields form={props.form} fields={MAIN_FIELDS} />
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
          invalid={bad.includes("requests")}
          onChange={(v) => setText({ ...text, requests: v })}
        />
      ) : (
        <TokenField
          id={ids.size}
          label="Average request size"
          hint={`Prompt tokens of one request; empty: about ${formatTokenCount(ASSUMED_REQUEST_PROMPT)}`}
          value={text.size}
          invalid={bad.includes("size")}
          onChange={(v) => setText({ ...text, size: v })}
        />
      )}
    </div>
  );
}

/** Cached, cache-write and reasoning tokens, and the cache lifetime. */
function CachingFields(props: { readonly form: WorkloadForm }) {
  const id = useId();
  return (
    <div class="grid-fields">
      <TokenFields form={props.form} fields={MORE_FIELDS} />
      <SelectField
        id={id}
        label="Cache lifetime"
        value={props.form.ttl}
        options={[
          ["5m", "5 minutes"],
          ["1h", "1 hour"],
        ]}
        onChange={(v) => props.form.setTtl(v === "1h" ? "1h" : "5m")}
      />
    </div>
  );
}

/** Channel, service tier and day: links of the page, followed at once. */
function OptionsFields(props: {
  readonly go: WorkloadForm["go"];
  readonly channel: string;
  readonly tier: string;
  readonly at: string | null;
}) {
  const { go } = props;
  const ids = { channel: useId(), tier: useId() };
  return (
    <details class="options">
      <summary>Channel, service tier, day</summary>
      <div class="grid-fields">
        <SelectField
          id={ids.channel}
          label="Channel"
          value={props.channel}
          options={[["all", "Every channel"], ...CHANNEL_OPTIONS.map((c): SelectOption => [c.id, c.name])]}
          onChange={(v) => go({ channel: v === "all" ? null : v })}
        />
        <SelectField
          id={ids.tier}
          label="Service tier"
          value={props.tier}
          options={TIERS.map((t): SelectOption => [t, t])}
          onChange={(v) => go({ tier: v === "standard" ? null : v })}
        />
        <AtPicker at={props.at} onChange={(day) => go({ at: day })} />
      </div>
    </details>
  );
}

/** A count field: typed as people write counts (`2M`, `500K`, `2,000,000`, T348), read by `parseTokenCount`. */
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
