import { formatAmount, formatDate } from "../format.js";
import type { Price } from "../types.js";
import { ConfidenceBadge, DisputedMark } from "./badges.js";

/**
 * A table cell of one price: its amount, confidence and dispute marks, and (unless `compact`) since
 * when it is stale; a dash when the column has no such price.
 */
export function PriceTd(props: {
  readonly price: Price | undefined;
  readonly channel?: string;
  readonly compact?: boolean;
}) {
  const p = props.price;
  return (
    <td data-channel={props.channel} class="price-cell">
      {p ? (
        <>
          <span class="amount" data-amount={p.amount}>
            {formatAmount(p.amount, p)}
          </span>{" "}
          <ConfidenceBadge level={p.confidence} score={p.confidenceScore} /> <DisputedMark disputed={p.disputed} />
          {!props.compact && p.staleSince ? (
            <span class="badge stale">stale since {formatDate(p.staleSince)}</span>
          ) : null}
        </>
      ) : (
        <span class="muted">—</span>
      )}
    </td>
  );
}
