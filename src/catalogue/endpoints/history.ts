import { z } from "zod";
import { dateParam, defineEndpoint } from "../endpoint.js";
import { envelope } from "../envelope.js";
import { moved, notFound } from "../errors.js";
import { HistoryResponse } from "../response-schemas.js";
import type { ApiHistorySeries } from "../schemas.js";
import { resolveModelId } from "../view.js";
import { MODEL_ID } from "./notes.js";

/**
 * GET /models/{provider}/{model}/history (issue 3, D17): one series per direct-channel price
 * dimension, a point per change. Point rules of api-v1.md: equal consecutive amounts fold into the
 * first; two changes on one date are both kept, in order. `from`/`to` keep the points in the
 * inclusive range; a series left without points is omitted. A removed price's series says when it
 * ended (`endedOn`) and the days it was away before it came back (`gaps`, T456).
 * @throws CatalogueError bad_request for a bad date or from after to (checked first, D14); not_found with the id
 */
export const historyEndpoint = defineEndpoint({
  name: "get_model_history",
  summary: "Price history of one model",
  description: "One series per direct-channel price dimension, a point per change (D17).",
  path: "/models/:provider/:model/history",
  maxAge: 3600,
  input: z
    .object({
      from: dateParam(
        "from",
        "Inclusive first date, a real date `YYYY-MM-DD`; not after `to`.",
        "2025-09-01",
      ).optional(),
      to: dateParam("to", "Inclusive last date, a real date `YYYY-MM-DD`.", "2026-06-01").optional(),
    })
    .refine((q) => q.from === undefined || q.to === undefined || q.from <= q.to, {
      error: "from must not be after to",
    }),
  output: HistoryResponse,
  tool: {
    description:
      "How one model's prices changed over time (the maker's own, `direct` channel): one series per price " +
      "dimension with its label and display unit, each point `[YYYY-MM-DD, amount]` recorded when the price " +
      "changed (not one per day; equal consecutive amounts are folded). `from`/`to` keep the points inside " +
      "an inclusive date range. An unknown model is a 404 error. For moves across the whole market use " +
      `list_changes. ${MODEL_ID} Amounts are in display units, e.g. USD per 1M tokens.`,
  },
  run(view, input, path) {
    const id = `${path.provider}/${path.model}`;
    if (!view.byId.has(id)) {
      const target = resolveModelId(view, id);
      throw target ? moved(id, target) : notFound(id);
    }
    const data: ApiHistorySeries[] = [];
    for (const series of view.history.get(id) ?? []) {
      const folded: [string, number][] = [];
      for (const p of series.points) {
        if (folded.length > 0 && folded[folded.length - 1]![1] === p.amount) continue;
        folded.push([p.date, p.amount]);
      }
      const points = folded.filter(([date]) => (!input.from || date >= input.from) && (!input.to || date <= input.to));
      if (points.length > 0)
        data.push({
          label: series.label,
          displayUnit: series.displayUnit,
          points,
          endedOn: series.endedOn,
          gaps: series.gaps.map(([from, to]) => [from, to] as [string, string]),
        });
    }
    return envelope(view, data, { model: id, granularity: "change" as const });
  },
});
