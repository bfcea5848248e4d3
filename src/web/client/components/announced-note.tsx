import { formatAmount, formatDate } from "../format.js";
import type { Price } from "../types.js";

/**
 * A price's announced end (issue 37 §4, T335): "from <date> this becomes <price>" when a source
 * announces its successor, "ends <date>" when the price ends with none; nothing when no end is stated.
 */
export function AnnouncedNote(props: {
  readonly price: Pick<Price, "effectiveUntil" | "announced" | "denomination" | "currency">;
}) {
  const p = props.price;
  if (!p.effectiveUntil) return null;
  return (
    <span class="badge announced" data-effective-until={p.effectiveUntil}>
      {p.announced
        ? `from ${formatDate(p.effectiveUntil)} this becomes ${formatAmount(p.announced.amount, p)} (${p.announced.source})`
        : `ends ${formatDate(p.effectiveUntil)}`}
    </span>
  );
}
