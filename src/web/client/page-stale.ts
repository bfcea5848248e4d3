import { daysBetween, describeDays } from "../../domain/freshness.js";
import type { Price } from "./types.js";

/**
 * Why a price its seller's own page states is not `verified` (issue 46 §5, T461), as the page says
 * it: "not verified: OpenAI's page was last read 190 days ago (35 days at most)".
 * @param whose the page's owner as a reader names it ("OpenAI's page")
 * @param now epoch ms the age is counted to (the reader's clock)
 */
export function pageStaleText(stale: NonNullable<Price["pageStale"]>, whose: string, now: number): string {
  if (stale.lastReadAt === null) return `not verified: ${whose} was never read`;
  const age = describeDays(daysBetween(stale.lastReadAt, now));
  return `not verified: ${whose} was last read ${age} ago (${stale.maxAgeDays} days at most)`;
}
