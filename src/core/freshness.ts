import type { Confidence } from "../domain/confidence.js";
import { type ReconciledPrice, SCORE_BANDS } from "./reconcile.js";

/**
 * Confidence follows freshness (issue 13 §5, T75). Pure.
 *
 * A price that no source re-confirmed in this run (`staleSince` set) is at most `medium`: its
 * score moves to the same relative place in the `medium` band, so stale prices still order among
 * themselves as before.
 */
export const STALE_CEILING: Confidence = "medium";

/** `price` unchanged when fresh or already at or below {@link STALE_CEILING}; else capped. */
export function capForFreshness<T extends Pick<ReconciledPrice, "confidence" | "confidenceScore" | "staleSince">>(
  price: T,
): T {
  if (price.staleSince === null || (price.confidence !== "verified" && price.confidence !== "high")) return price;
  const [min, max] = SCORE_BANDS[price.confidence];
  const [cMin, cMax] = SCORE_BANDS[STALE_CEILING];
  const position = Math.min(Math.max((price.confidenceScore - min) / (max - min), 0), 1);
  const score = Math.round((cMin + (cMax - cMin) * position) * 1000) / 1000;
  return { ...price, confidence: STALE_CEILING, confidenceScore: Math.min(score, cMax - 0.001) };
}
