import type { CostEstimate } from "../domain/cost.js";
import type { PublishedModel } from "../domain/dataset.js";
import type { Tier } from "../domain/dimension.js";
import type { PublishedState } from "./point-in-time.js";
import { type CatalogueView, resolveModelId } from "./view.js";

/**
 * A dated snapshot billed at its undated name's prices (issue 38 §4, T347, moved into the catalogue
 * by T361). OpenAI's page lists the priority and flex prices of `gpt-4o` only, the name that points
 * at `gpt-4o-2024-08-06`; the sources list the snapshot's standard and batch prices apart, so the
 * snapshot alone has no priority price. `/cost` (and so MCP and `tariff cost`) prices such a usage
 * on the undated name's offer and says so (`pricedAs`).
 */

/** A dated id's last part: `-2024-08-06`, `-20240806` (the snapshots OpenAI and Anthropic date). */
const DATED = /-(?:\d{4}-\d{2}-\d{2}|20\d{6})$/;

/**
 * The undated model a dated snapshot's id names (T347): `openai/gpt-4o` for
 * `openai/gpt-4o-2024-08-06` (by id or alias), as `state` publishes it; null for an undated id, a
 * name no model answers to, or one that answers as the snapshot itself.
 */
export function undatedModel(view: CatalogueView, state: PublishedState, model: PublishedModel): PublishedModel | null {
  if (!DATED.test(model.id)) return null;
  const id = resolveModelId(view, model.id.replace(DATED, ""));
  if (id === null || id === model.id) return null;
  return state.model(id);
}

/** An estimate's lines as comparable text: each usage's amount and currency. */
function amounts(e: CostEstimate): string {
  return e.lines.map((l) => `${l.usage}=${l.amount} ${l.denomination} ${l.currency}`).join(";");
}

/**
 * The undated name's estimate that bills a snapshot's usage (T347), or null. `own` is the
 * snapshot's estimate on one offer at the requested `tier`; `estimate(which, tier)` prices the same
 * usage on the same offer (channel and seller) of the snapshot (`own`) or its undated name
 * (`undated`) at a tier, null when that model has no such offer. The snapshot is billed as its name
 * when its own estimate has a missing line and, in the standard tier, both estimates are complete
 * and price every line with the same amount; then the name's estimate at `tier` is the answer,
 * provided it misses no line.
 */
export function billedAsUndated(
  own: CostEstimate,
  tier: Tier,
  estimate: (which: "own" | "undated", tier: Tier) => CostEstimate | null,
): CostEstimate | null {
  if (own.missing.length === 0) return null;
  const ownStandard = tier === "standard" ? own : estimate("own", "standard");
  const undatedStandard = estimate("undated", "standard");
  if (!ownStandard?.complete || !undatedStandard?.complete) return null;
  if (amounts(ownStandard) !== amounts(undatedStandard)) return null;
  const priced = tier === "standard" ? undatedStandard : estimate("undated", tier);
  return priced && priced.missing.length === 0 ? priced : null;
}
