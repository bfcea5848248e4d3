import type { Dataset } from "../domain/dataset.js";
import { priceKey } from "../domain/dataset.js";
import { dimensionKey } from "../domain/dimension.js";
import type { PriorState } from "./build-input.js";

/** The parts of a published dataset the next run builds on. */
export function priorFromDataset(dataset: Dataset): PriorState {
  return {
    prices: new Map(
      dataset.prices.map((p) => [
        priceKey(p, dimensionKey(p)),
        {
          amount: p.amount,
          unit: p.unit,
          effectiveFrom: p.effectiveFrom,
          staleSince: p.staleSince,
          observations: p.observations,
        },
      ]),
    ),
    models: new Map(dataset.models.map((m) => [m.id, { firstSeenAt: m.firstSeenAt, state: m.lifecycle.state }])),
    catalogue: dataset.models,
    published: dataset.prices,
    sources: new Map(dataset.sources.map((s) => [s.source, s])),
  };
}
