import { z } from "zod";
import { defineEndpoint } from "../endpoint.js";
import { envelope } from "../envelope.js";
import { SourcesResponse } from "../schemas.js";

/** GET /sources: one record per configured source with its health (D4, T65, T75, T225). */
export const sourcesEndpoint = defineEndpoint({
  name: "list_sources",
  summary: "Data sources and their health",
  description: "One record per configured upstream source (D4).",
  path: "/sources",
  maxAge: 900,
  input: z.object({}),
  output: SourcesResponse,
  tool: {
    description:
      "The upstream price databases Tariff reconciles (models.dev, OpenRouter, LiteLLM, Anthropic's pricing " +
      "page…), each with licence, homepage, weight in the confidence vote, whether it is authoritative, its " +
      "last successful ingestion, rows in the last run and `health` (fresh; stale: no success within a week " +
      "of the dataset; failing: its last run failed). Use it to explain where a price's `sources` come " +
      "from or whether data is stale.",
  },
  run: (view) => envelope(view, [...view.sources], { count: view.sources.length }),
});
