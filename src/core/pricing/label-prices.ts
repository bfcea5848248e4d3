import { labelDimensions } from "../labels.js";
import type { PricingState } from "./state.js";

/** Pass 10: each price gets its label, unique among the prices of its model and channel (`labelDimensions`). */
export function labelPrices(state: PricingState): void {
  const unlabeled = state.reconciled;
  const groups = new Map<string, number[]>();
  unlabeled.forEach((p, i) => {
    const g = `${p.modelId}|${p.channel}`;
    groups.set(g, [...(groups.get(g) ?? []), i]);
  });
  const labels = new Array<string>(unlabeled.length);
  for (const members of groups.values()) {
    const texts = labelDimensions(members.map((i) => ({ dimension: unlabeled[i]!, unit: unlabeled[i]!.unit })));
    members.forEach((i, j) => {
      labels[i] = texts[j]!;
    });
  }
  state.prices = unlabeled.map((p, i) => ({ ...p, label: labels[i]! }));
}
