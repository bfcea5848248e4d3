import { z } from "zod";
import { defineEndpoint } from "../endpoint.js";
import { envelope } from "../envelope.js";
import { SourcesResponse } from "../response-schemas.js";

/** GET /sources: one record per configured source with its health (D4, T65, T75, T225, T310). */
export const sourcesEndpoint = defineEndpoint({
  name: "list_sources",
  summary: "Data sources and their health",
  description: "One record per configured upstream source (D4), with its last live attempt and its health now (T310).",
  path: "/sources",
  maxAge: 900,
  judgedNow: true,
  input: z.object({}),
  output: SourcesResponse,
  tool: {
    description:
      "The upstream price databases Tariff reconciles (models.dev, OpenRouter, LiteLLM, Anthropic's pricing " +
      "page…), each with licence, homepage, weight in the confidence vote, whether it is authoritative, its " +
      "last successful ingestion, rows in the last run, `lastAttempt` (the last live try, published or not: " +
      "when, status, error) and `health` now (fresh; stale: no success within a week before now; failing: its " +
      "newest run or attempt failed). Use it to explain where a price's `sources` come " +
      "from or whether data is stale.",
  },
  run: (view) => envelope(view, [...view.sources], { count: view.sources.length }),
});
