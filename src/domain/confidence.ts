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
