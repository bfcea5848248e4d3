/** Confidence levels of a price or rate (api-v1.md "States and transitions", D8), strongest first. */
export const CONFIDENCE_LEVELS = ["verified", "high", "medium", "low", "unverified"] as const;
export type Confidence = (typeof CONFIDENCE_LEVELS)[number];

/** Rank of a level: 4 for verified down to 0 for unverified. */
export function confidenceRank(level: Confidence): number {
  return CONFIDENCE_LEVELS.length - 1 - CONFIDENCE_LEVELS.indexOf(level);
}

export function isConfidence(value: string): value is Confidence {
  return (CONFIDENCE_LEVELS as readonly string[]).includes(value);
}

/** A source at or above this weight is "reliable" (D8 `medium` on its own). */
export const RELIABLE_WEIGHT = 0.7;
/** A lone source below this weight is `unverified` (D8 "a single low-weight source"). */
export const LOW_WEIGHT = 0.5;

/** Score band [min, max) of each level: the score orders prices within and across levels (D8). */
export const SCORE_BANDS: Readonly<Record<Confidence, readonly [number, number]>> = {
  verified: [0.9, 1],
  high: [0.75, 0.9],
  medium: [0.5, 0.75],
  low: [0.25, 0.5],
  unverified: [0, 0.25],
};
