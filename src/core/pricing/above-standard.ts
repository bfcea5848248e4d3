import { windowsAboveStandard } from "../maker-agreement.js";
import type { PricingState } from "./state.js";

/**
 * Pass 8 (issue 36 §4, T331): a discount priced above its standard price needs two sources, judged
 * against the standard prices published now ({@link windowsAboveStandard}); one that has fewer is
 * not published, and each of its sources is counted (`above_standard` in its rejections).
 */
export function holdAboveStandard(state: PricingState): void {
  const over = windowsAboveStandard(state.reconciled);
  for (const i of over.keys())
    for (const source of state.reconciled[i]!.sources)
      state.aboveStandard.set(source, (state.aboveStandard.get(source) ?? 0) + 1);
  if (over.size > 0) state.reconciled = state.reconciled.filter((_, i) => !over.has(i));
}
