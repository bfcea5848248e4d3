/** Bounds of an exponential backoff: the first wait and the cap. */
export interface BackoffPolicy {
  /** The wait after the first failure, ms. */
  readonly baseMs: number;
  /** No wait is longer than this, ms. */
  readonly capMs: number;
}

/**
 * The wait before the next attempt after `failures` consecutive failures (issue 26 §4, T199,
 * T243): none before the first failure, then `baseMs`, doubling with each further failure, never
 * more than `capMs`. Pure, so the policy is tested on its own.
 */
export function backoffMs(failures: number, policy: BackoffPolicy): number {
  if (failures <= 0) return 0;
  // 2^30 already exceeds any cap in ms; the exponent is bounded so the product stays finite.
  return Math.min(policy.capMs, policy.baseMs * 2 ** Math.min(failures - 1, 30));
}
