import { attach } from "./place.js";
import type { IdentityState } from "./state.js";

/**
 * Pass 3 (T280): every listing not yet placed (nor held back) attaches to the model its spelling
 * names (`MakerCatalogue.find`), first as spelled, then with a seller prefix or a serving suffix off
 * (the suffix becomes a qualifier of that seller's price). What attaches nowhere goes to `unplaced`.
 */
export function attachTheRest(state: IdentityState): void {
  for (const item of state.items) {
    if (state.placements.has(item) || state.heldBack.has(item)) continue;
    const placed = attach(state, item);
    if (placed) state.placements.set(item, placed);
    else state.unplaced.push(item);
  }
}
