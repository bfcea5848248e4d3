import type { Confidence } from "../domain/confidence.js";
import type { PublishedPrice, SourceHealth } from "../domain/dataset.js";
import { DAY_MS, EVIDENCE_MAX_AGE_DAYS } from "../domain/freshness.js";
import type { SourceId } from "../domain/observation.js";
import { type ReconciledPrice, SCORE_BANDS } from "./reconcile.js";

/**
 * Confidence follows freshness (issue 13 §5, T75; issue 27 §2, T224). Pure.
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
  if (price.staleSince === null) return price;
  return capConfidence(price);
}

/** `price` at most {@link STALE_CEILING}, its score moved to the same place in that band. */
function capConfidence<T extends Pick<ReconciledPrice, "confidence" | "confidenceScore">>(price: T): T {
  if (price.confidence !== "verified" && price.confidence !== "high") return price;
  const [min, max] = SCORE_BANDS[price.confidence];
  const [cMin, cMax] = SCORE_BANDS[STALE_CEILING];
  const position = Math.min(Math.max((price.confidenceScore - min) / (max - min), 0), 1);
  const score = Math.round((cMin + (cMax - cMin) * position) * 1000) / 1000;
  return { ...price, confidence: STALE_CEILING, confidenceScore: Math.min(score, cMax - 0.001) };
}

/**
 * When each source's evidence in a run was gathered (T224): the run time for a source that ran and
 * parsed in it, else its last success before it (the listings it carries are that old); null when
 * it never succeeded.
 * @param sources the run's sources, `fresh` when they parsed in it
 * @param prior the previous version's source health (last successes), if any
 */
export function evidenceTimes(
  runTime: string,
  sources: readonly { readonly source: SourceId; readonly fresh: boolean }[],
  prior: ReadonlyMap<SourceId, Pick<SourceHealth, "lastSuccessAt">> | undefined,
): ReadonlyMap<SourceId, string | null> {
  return new Map(sources.map((s) => [s.source, s.fresh ? runTime : (prior?.get(s.source)?.lastSuccessAt ?? null)]));
}

/**
 * The evidence bound (issue 27 §2, T224): evidence older than {@link EVIDENCE_MAX_AGE_DAYS} before
 * the run counts for nothing toward `verified` or `high`, whichever source it came from. A price
 * whose agreeing sources' newest evidence is that old gets `staleSince` (kept when set, else this
 * run) and is capped at {@link STALE_CEILING}; a `high` price that fewer than two agreeing sources
 * with recent evidence back is capped too (without them it would not be `high`); `verified` needs
 * the fresh authoritative source (T75), whose evidence is this run's. Prices it does not touch are
 * returned as they are (same objects).
 * @param evidenceAt per source, when its evidence was gathered ({@link evidenceTimes})
 */
export function boundEvidenceAge(
  prices: readonly PublishedPrice[],
  evidenceAt: ReadonlyMap<SourceId, string | null>,
  runTime: string,
): PublishedPrice[] {
  const oldest = Date.parse(runTime) - EVIDENCE_MAX_AGE_DAYS * DAY_MS;
  const recent = (source: SourceId, fresh: boolean) => {
    if (fresh) return true;
    const at = evidenceAt.get(source);
    return at !== null && at !== undefined && Date.parse(at) >= oldest;
  };
  return prices.map((p) => {
    const agreeing = p.observations.filter((o) => p.sources.includes(o.source));
    const current = agreeing.filter((o) => recent(o.source, o.fresh));
    if (current.length === 0 && agreeing.length > 0)
      return capConfidence({ ...p, staleSince: p.staleSince ?? runTime });
    if (p.confidence === "verified" && !current.some((o) => o.authoritative)) return capConfidence(p);
    if (p.confidence === "high" && current.length < 2) return capConfidence(p);
    return p;
  });
}
