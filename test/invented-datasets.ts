import type { Dataset, PublishedPrice } from "../src/domain/dataset.js";

/**
 * Invented published prices and dataset versions for the pure change-detection tests
 * (`src/core/detect-changes.test.ts`, `src/core/announcements.test.ts`): the smallest version a
 * rule can be pinned on, for what the recorded payloads lack. The real moves of the bundled data
 * are pinned in test/changes-history.test.ts and test/announced-prices.test.ts.
 */

/**
 * A published price of `modelId` in USD per 1M tokens: direct from the id's provider, text,
 * standard tier, `medium`, backed by one fresh models-dev observation (the evidence a market move
 * needs, T83). A label starting "Output" is an output price; one naming "cache" a cache read.
 * `extra` replaces any field.
 */
export function inventedPrice(
  modelId: string,
  label: string,
  amount: number,
  extra: Partial<PublishedPrice> = {},
): PublishedPrice {
  return {
    modelId,
    channel: "direct",
    seller: modelId.split("/")[0]!,
    label,
    direction: label.startsWith("Output") ? "output" : "input",
    modality: "text",
    tier: "standard",
    cache: label.includes("cache") ? "read" : "none",
    contextMin: 0,
    contextMax: null,
    qualifiers: {},
    amount,
    unit: "mtok",
    displayUnit: "USD per 1M tokens",
    denomination: "currency",
    currency: "USD",
    confidence: "medium",
    confidenceScore: 0.6,
    sources: ["models-dev"],
    dissenting: [],
    disputed: false,
    fallbackAmount: null,
    effectiveFrom: "2026-01-01T00:00:00.000Z",
    staleSince: null,
    observations: [{ source: "models-dev", amount, fresh: true }],
    ...extra,
  };
}

/**
 * A succeeded dataset version `version` (an ISO timestamp) holding `prices` and one active model per
 * model id they name, named `Model <id>`, first seen in this version, under the id's provider.
 */
export function inventedDataset(version: string, prices: PublishedPrice[]): Dataset {
  const ids = [...new Set(prices.map((p) => p.modelId))];
  const providers = [...new Set(ids.map((id) => id.split("/")[0]!))];
  return {
    run: {
      id: `run-${version}`,
      datasetVersion: version,
      status: "succeeded",
      startedAt: version,
      finishedAt: version,
      summary: { observations: {}, unresolved: {}, failed: {}, models: ids.length, prices: prices.length, disputed: 0 },
    },
    providers: providers.map((slug) => ({
      slug,
      name: slug,
      website: null,
      pricingUrl: null,
      official: true,
      models: ids.filter((id) => id.startsWith(`${slug}/`)).length,
    })),
    models: ids.map((id) => ({
      id,
      provider: id.split("/")[0]!,
      slug: id.split("/")[1]!,
      name: `Model ${id}`,
      family: null,
      contextWindow: null,
      maxOutputTokens: null,
      openWeights: false,
      firstSeenAt: version,
      lifecycle: { state: "active", releasedOn: null, deprecatedOn: null, retiresOn: null },
      aliases: [],
      formerIds: [],
      listed: true,
    })),
    prices,
    sources: [],
  };
}
