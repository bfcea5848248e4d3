import { useMemo } from "preact/hooks";
import { useLocation } from "preact-iso";
// The tiers of the axis description (T236, T276): the calculator offers every tier the API prices.
import { TIERS } from "../../../domain/dimension.js";
import { modelIdsParam, query, useApi } from "../api.js";
import { PastNotice, usePageAt } from "../components/at-picker.js";
import { Page } from "../components/page.js";
import { Answer, type CostAnswer, MonthSection } from "./cost/answer.js";
import { ModelsFieldset } from "./cost/models-fields.js";
import { UsageFieldset } from "./cost/usage-fields.js";
import { useWorkloadForm } from "./cost/use-workload-form.js";
import { costQuery, MAX_TOKENS, monthOf, readWorkload, TOKEN_KEYS } from "./cost/workload.js";

/**
 * The cost calculator (issue 28 §1, issue 38 §7): a workload as people state it — tokens a day or a
 * month with an average request size, tokens per request × requests a month, a pasted usage object
 * or a usage log — priced by `/cost` on the models picked, or on the cheapest candidates of the
 * catalogue. One row per model: the offer the API ranks first for it, the maker's own price beside
 * it, every channel behind a disclosure (T349). Everything is in the URL, so a view is a link; `at`
 * prices it on a past day. The API chooses the context bracket per request (T141) and refuses a
 * request longer than the model's context window (T200); the page says so in the API's words.
 *
 * The page reads the URL and asks `/cost`; the form is `cost/usage-fields.tsx` and
 * `cost/models-fields.tsx`, the answer `cost/answer.tsx` and `cost/estimates.tsx` (issue 45 §5).
 */
export function CostPage() {
  const { query: params } = useLocation();
  const at = usePageAt();
  const models = useMemo(() => modelIdsParam(params.models), [params.models]);
  const channel = params.channel ?? "all";
  const tier = (TIERS as readonly string[]).includes(params.tier ?? "") ? params.tier! : "standard";
  const urlWorkload = readWorkload(params);
  const form = useWorkloadForm(urlWorkload);

  const month = monthOf(urlWorkload);
  const usage = costQuery(month, urlWorkload.ttl, channel, tier, at);
  const empty = TOKEN_KEYS.every((key) => urlWorkload[key] === 0);
  const tooBig = TOKEN_KEYS.some((key) => month.tokens[key] > MAX_TOKENS);
  const path =
    models.length === 0 || empty || tooBig
      ? null
      : `/cost${query({ ...(models.length === 1 ? { model: models[0] } : { models: models.join(",") }), ...usage })}`;
  const estimates: CostAnswer = useApi(path);
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
        <UsageFieldset form={form} urlWorkload={urlWorkload} channel={channel} tier={tier} at={at} />
        <ModelsFieldset models={models} month={month} at={at} go={form.go} />
      </form>
      <PastNotice at={at} version={estimates.state === "ok" ? estimates.data.meta.datasetVersion : undefined} />
      <MonthSection
        workload={urlWorkload}
        month={month}
        empty={empty}
        tooBig={tooBig}
        noModels={models.length === 0}
        estimates={path ? estimates : null}
        at={at}
        usage={usage}
      />
    </Page>
  );
}
