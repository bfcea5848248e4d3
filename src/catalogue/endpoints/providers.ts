import { z } from "zod";
import { defineEndpoint } from "../endpoint.js";
import { envelope } from "../envelope.js";
import { ProvidersResponse } from "../response-schemas.js";

/** GET /providers: makers only, never resellers (D1, D29). */
export const providersEndpoint = defineEndpoint({
  name: "list_providers",
  summary: "Providers (makers)",
  description: "Every maker of a model. Resellers are sales channels, never providers (D1).",
  path: "/providers",
  maxAge: 900,
  input: z.object({}),
  output: ProvidersResponse,
  tool: {
    description:
      "All model makers (providers) with display name, website, own pricing page, whether they sell directly " +
      "(`official`) and how many models they have. Resellers (OpenRouter, Amazon Bedrock, Azure, Google Vertex " +
      "AI, Together AI, plans) are sales channels, never providers. Use it to find a provider slug for the " +
      "`provider` filters of list_models and list_rates.",
  },
  run: (view) => envelope(view, [...view.providers], { count: view.providers.length }),
});
