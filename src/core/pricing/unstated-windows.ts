import type { SourceId } from "../../domain/observation.js";
import { TIME_WINDOW } from "../maker-agreement.js";
import type { PricingContext, PricingState, Slot } from "./state.js";

/**
 * Pass 1b (issue 48 §2, T534): a daily time window the maker's own list does not state is not
 * published on the maker's channel. When a source that speaks for the seller (`authoritativeFor`,
 * its page, current or carried) states prices of a model's direct offer and none of them has a
 * `time_window`, every windowed slot of that offer that only aggregators state is taken out of
 * pricing, and each of their statements is counted per source (`window_unstated` in `/sources`),
 * never dropped silently. genai-prices still carried DeepSeek's 16:30–00:30 UTC off-peak discount
 * (0.135 on `deepseek-chat`) in 2026, while DeepSeek's page of 2026-01-01 states no window (the
 * discounts ended in 2025-09, T477): it was published at `medium` beside the page's prices. A
 * window the maker's list does state, or any window of a model its maker's list does not cover,
 * stays as T71 reads it.
 */
export function dropUnstatedWindows(state: PricingState, ctx: PricingContext): void {
  const offers = new Map<string, Slot[]>();
  for (const slot of state.slots.values()) {
    if (slot.channel !== "direct") continue;
    const key = `${slot.modelId}\0${slot.seller}`;
    const offer = offers.get(key);
    if (offer) offer.push(slot);
    else offers.set(key, [slot]);
  }
  for (const slots of offers.values()) {
    const seller = slots[0]!.seller;
    const speaks = (s: SourceId) => ctx.sources.get(s)?.authoritativeFor.includes(seller) === true;
    const windowed = (slot: Slot) => slot.dimension.qualifiers[TIME_WINDOW] !== undefined;
    const makerStates = (slot: Slot) => [...slot.bySource.keys()].some(speaks);
    if (!slots.some(makerStates) || slots.some((s) => windowed(s) && makerStates(s))) continue;
    for (const slot of slots) {
      if (!windowed(slot)) continue;
      state.slots.delete(slot.key);
      for (const source of slot.bySource.keys())
        state.windowsUnstated.set(source, (state.windowsUnstated.get(source) ?? 0) + 1);
    }
  }
}
