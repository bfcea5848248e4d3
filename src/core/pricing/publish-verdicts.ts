import type { PricingState } from "./state.js";

/**
 * Pass 7: each slot's verdict is its price to publish, in slot order, and each source held back in a
 * slot (T375, T176) is counted once for it (`unexplained_jump` in the source's rejections), and each
 * lone move held for a run (T496) once (`lone_move`).
 */
export function publishVerdicts(state: PricingState): void {
  for (const verdict of state.verdicts) {
    state.reconciled.push(verdict.price);
    for (const source of verdict.held) state.held.set(source, (state.held.get(source) ?? 0) + 1);
    for (const source of verdict.waiting) state.loneMoves.set(source, (state.loneMoves.get(source) ?? 0) + 1);
  }
}
