import { amountsAgree } from "../domain/amount.js";
import type { Dimension } from "../domain/dimension.js";
import type { SourceId } from "../domain/observation.js";
import type { Unit } from "../domain/unit.js";
import type { PriorPrice } from "./reconcile.js";

/**
 * Which of this run's moves are coherent (issue 24 §1, T170). Pure.
 *
 * A source that changes one amount may have seen the market move, or may have rewritten an entry
 * (LiteLLM's Gemini 2.5 Flash TTS went from a copy of one Flash price to a copy of another). A move
 * is coherent — evidence of the market — when it is made:
 * - maker-wide: the same source moved the same kind of price (direction, modality, cache, tier,
 *   bracket) of another of the maker's models by the same factor in the same run (Portkey cut the
 *   cache hits of deepseek-chat and deepseek-reasoner to a tenth; models.dev moved three Grok 4.20
 *   models from 2 / 6 to 1.25 / 2.5), or
 * - corroborated: another source, or the same source for another seller of the model, states the
 *   new amount for the same price and came to it by a move of its own (now or earlier).
 */

/** One source's amount in one price slot, as the coherence check sees it. */
export interface SlotStatement {
  /** The slot's price key (`priceKey`). */
  readonly key: string;
  readonly modelId: string;
  readonly seller: string;
  readonly dimension: Dimension;
  readonly unit: Unit;
  readonly source: SourceId;
  readonly amount: number;
  readonly fresh: boolean;
}

/** The factor bucket two moves must share to move "alike": 1 % apart at most. */
function bucket(factor: number): number {
  return Math.round(Math.log(factor) * 100);
}

/** The kind of price, without who sells it: direction, modality, cache, tier, bracket. */
function kindOf(d: Dimension): string {
  return `${d.direction}|${d.modality}|${d.cache}|${d.tier}|${d.contextMin}|${d.contextMax ?? ""}`;
}

/** What is billed for a model, without who sells it or where (seller, region and backend qualifiers dropped). */
function priceOf(s: SlotStatement): string {
  const q = Object.keys(s.dimension.qualifiers)
    .filter((k) => k !== "seller" && k !== "region" && k !== "backend")
    .sort()
    .map((k) => `${k}=${s.dimension.qualifiers[k]}`)
    .join("&");
  return `${s.modelId}|${kindOf(s.dimension)}|${q}|${s.unit}`;
}

/**
 * The statements of this run that are coherent moves, as `key|source`.
 * @param prior last run's published prices by price key, with each source's amount and `since`
 */
export function coherentMoves(
  statements: readonly SlotStatement[],
  prior: ReadonlyMap<string, PriorPrice> | undefined,
): Set<string> {
  const coherent = new Set<string>();
  if (!prior) return coherent;
  const moves: { s: SlotStatement; factor: number }[] = [];
  // Every statement that came to its amount by a move: now, or in an earlier run (`since`).
  const moved = new Map<string, SlotStatement[]>();
  for (const s of statements) {
    const then = prior.get(s.key)?.observations?.find((o) => o.source === s.source);
    if (!then) continue;
    const now = !amountsAgree(then.amount, s.amount);
    if (now && s.fresh && then.amount > 0 && s.amount > 0) moves.push({ s, factor: s.amount / then.amount });
    if (now || then.since) moved.set(priceOf(s), [...(moved.get(priceOf(s)) ?? []), s]);
  }
  const makerWide = new Map<string, Set<string>>();
  const makerKey = (m: { s: SlotStatement; factor: number }) =>
    `${m.s.source}|${m.s.modelId.split("/")[0]}|${kindOf(m.s.dimension)}|${bucket(m.factor)}`;
  for (const m of moves) makerWide.set(makerKey(m), (makerWide.get(makerKey(m)) ?? new Set()).add(m.s.modelId));
  for (const m of moves) {
    const { s } = m;
    const wide = (makerWide.get(makerKey(m))?.size ?? 0) >= 2;
    const corroborated = (moved.get(priceOf(s)) ?? []).some(
      (x) => (x.source !== s.source || x.seller !== s.seller) && amountsAgree(x.amount, s.amount),
    );
    if (wide || corroborated) coherent.add(`${s.key}|${s.source}`);
  }
  return coherent;
}
