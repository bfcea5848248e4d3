import { z } from "zod";
import { defineEndpoint } from "../endpoint.js";
import { envelope } from "../envelope.js";
import { MetaResponse } from "../response-schemas.js";

/** GET /meta: the dataset summary (D28, D2 channels, rates contract v2, freshness T223, last run T450). */
export const metaEndpoint = defineEndpoint({
  name: "get_meta",
  summary: "Dataset summary",
  description:
    "The dataset summary, also a health check and the way to read the current dataset version; `freshness` " +
    "gives the newest successful evidence per source and overall (T223).",
  path: "/meta",
  maxAge: 60,
  // `lastRun` is the last live run's, published or not (T450): the answer changes with the attempts.
  judgedNow: true,
  input: z.object({}),
  output: MetaResponse,
  tool: {
    description:
      "Summary of the Tariff price catalogue: the current dataset version (timestamp of the ingestion run " +
      "behind every answer), generation time, counts of models, providers and prices, the last run's status, " +
      "the sales channels with their sellers, the rates contract version with the sources that count as " +
      "official, and `freshness`: when each source last succeeded and the newest of them (how old the data " +
      "is; older than a week is not current). Use it to check how fresh the data is or to learn the channel " +
      "ids; it takes no arguments.",
  },
  run: (view) => envelope(view, view.meta),
});
