import { MULTI_SELLER_CHANNELS } from "../../../../domain/channel.js";
import type { Loaded } from "../../api.js";
import { ConfidenceBadge } from "../../components/badges.js";
import { WhenLoaded } from "../../components/status.js";
import { channelName, formatCount, formatMoney, OUTLIER_RATIO } from "../../format.js";
import { formatTokenCount } from "../../token-count.js";
import type { CostEstimate, Envelope } from "../../types.js";
import { Estimates } from "./estimates.js";
import { ASSUMED_REQUEST_PROMPT, type CostQuery, DAYS_PER_MONTH, type Month, type Workload } from "./workload.js";

/** What `/cost` answers the page: the estimates, how many of the models asked for it found, and the version. */
export type CostAnswer = Loaded<Envelope<CostEstimate[], { found: number; requested: number; datasetVersion: string }>>;

/**
 * The answer first (issue 28 §1): the cheapest offer a user can rely on (T452), its confidence and,
 * beside it, the maker's own, above the form; every offer is in the table below it.
 */
export function Answer(props: { readonly estimates: readonly CostEstimate[] | null }) {
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
      {/* T452: the headline is a trusted offer, else the maker's own price; its confidence beside it. */}
      {cheapest.trust.trusted ? "Cheapest" : "No cheaper offer is confirmed; the maker's price"}:{" "}
      <strong>{cheapest.name}</strong> from {name(cheapest)}, <strong>{amount(cheapest)}</strong> a month{" "}
      <ConfidenceBadge level={cheapest.confidence ?? undefined} />
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

/**
 * "A month, per model" (issue 38 §7, T348): why nothing is priced yet (no tokens, more than `/cost`
 * prices, no model), what a month of the workload is, and the estimates once `/cost` answers.
 */
export function MonthSection(props: {
  readonly workload: Workload;
  readonly month: Month;
  readonly empty: boolean;
  readonly tooBig: boolean;
  readonly noModels: boolean;
  readonly estimates: CostAnswer | null;
  readonly at: string | null;
  readonly usage: CostQuery;
}) {
  const { empty, tooBig, estimates } = props;
  return (
    <section aria-labelledby="estimates-title">
      <h2 id="estimates-title">A month, per model</h2>
      {empty ? <p>Give the input or output tokens you use to see what a month costs.</p> : null}
      {tooBig ? <p class="error">A month of this usage is more than 10¹² tokens, the most /cost prices.</p> : null}
      {props.noModels && !empty ? <p>Add the models to price, or rank the cheapest candidates.</p> : null}
      {!empty && !tooBig ? <MonthNote workload={props.workload} month={props.month} /> : null}
      {estimates ? (
        <WhenLoaded what="the estimates" loaded={estimates}>
          {({ data, meta }) => <Estimates estimates={data} meta={meta} at={props.at} usage={props.usage} />}
        </WhenLoaded>
      ) : null}
    </section>
  );
}

/**
 * What a month of the workload is, in words (T348): the monthly tokens, the 30 days a daily count
 * is multiplied by, and the requests they are spread over — assumed, and said so, when no request
 * size was given.
 */
function MonthNote(props: { readonly workload: Workload; readonly month: Month }) {
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
