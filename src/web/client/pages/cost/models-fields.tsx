import { useState } from "preact/hooks";
import { getJson, modelPage, query } from "../../api.js";
import { AddModel } from "../../components/model-picker.js";
import type { Envelope, Model } from "../../types.js";
import type { RequestTokens } from "../../usage-object.js";
import type { WorkloadForm } from "./use-workload-form.js";
import { MAX_MODELS, type Month, promptPerRequest } from "./workload.js";

/**
 * "Models", the calculator's second fieldset (issue 28 §1, T208): the models priced, picked one by
 * one or as the cheapest candidates for the month's workload, each removable; at most
 * {@link MAX_MODELS}.
 */
export function ModelsFieldset(props: {
  readonly models: readonly string[];
  readonly month: Month;
  readonly at: string | null;
  readonly go: WorkloadForm["go"];
}) {
  const { models, at, go } = props;
  return (
    <fieldset>
      <legend>Models</legend>
      <div class="models-row">
        <AddModel
          ids={models}
          max={MAX_MODELS}
          placeholder="e.g. sonnet 4.5, gpt-4o"
          onAdd={(next) => go({ models: next.join(",") })}
        />
        <Candidates
          prompt={promptPerRequest(props.month)}
          tokens={props.month.tokens}
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
  );
}

/**
 * The cheapest `limit` of the listed models for a workload (T208): each model's listed input price
 * times the prompt tokens plus its output price times the output and reasoning tokens, cheapest
 * first (then by id). A model without both prices, or with a zero output price for a workload with
 * output (an embedding or a reranker), is left out.
 */
function cheapestFor(models: readonly Model[], w: RequestTokens, limit: number): string[] {
  const blended = models.flatMap((m) => {
    const input = m.prices.find((p) => p.direction === "input");
    const output = m.prices.find((p) => p.direction === "output");
    // A chat workload needs both prices; a zero output price is an embedding or a reranker.
    if (!input || !output || (w.output + w.reasoning > 0 && output.amount === 0)) return [];
    return [
      { id: m.id, cost: input.amount * (w.input + w.cached + w.write) + output.amount * (w.output + w.reasoning) },
    ];
  });
  blended.sort((a, b) => a.cost - b.cost || (a.id < b.id ? -1 : 1));
  return blended.slice(0, limit).map((c) => c.id);
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
      const ids = cheapestFor(body.data, props.tokens, MAX_MODELS);
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
