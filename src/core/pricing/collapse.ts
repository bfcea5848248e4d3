import { comparePrices } from "../../domain/price-order.js";
import { collapseRepeatedRegions } from "../collapse-regions.js";
import type { PricingState } from "./state.js";

/** Pass 9 (issue 13 §6, T76): identical prices repeated per region collapse into one row; the rows sorted. */
export function collapseRegions(state: PricingState): void {
  state.reconciled = collapseRepeatedRegions(state.reconciled).sort(comparePrices);
}
