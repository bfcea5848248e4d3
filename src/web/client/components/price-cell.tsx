import { formatAmount, formatDate, unitOnly } from "../format.js";
import type { Price } from "../types.js";
import { AnnouncedNote } from "./announced-note.js";
import { ConfidenceBadge, DisputedMark } from "./badges.js";

/**
 * A price dimension's name as a row or column heading shows it: its label, and below it the unit
 * without its currency ("per 1M tokens").
 */
export function DimensionLabel(props: { readonly label: string; readonly displayUnit: string }) {
  return (
    <>
      {props.label}
      <div class="muted">{unitOnly(props.displayUnit)}</div>
    </>
  );
}

/**
 * A cell of a price matrix (models, channels or sellers side by side): the amount (its number in
 * `data-amount`), the confidence badge with its score and the disputed mark; with `showStale`, the
 * date its sources stopped confirming it. "—" where the column has no such price.
 */
export function PriceCell(props: {
  readonly price: Price | undefined;
  readonly showStale?: boolean;
  /** The channel id of the column (`data-channel`), in a matrix of channels. */
  readonly channel?: string;
}) {
  const p = props.price;
  return (
    <td class="price-cell" data-channel={props.channel}>
      {p ? (
        <>
          <span class="amount" data-amount={p.amount}>
            {formatAmount(p.amount, p)}
          </span>{" "}
          <ConfidenceBadge level={p.confidence} score={p.confidenceScore} /> <DisputedMark disputed={p.disputed} />
          {props.showStale && p.staleSince ? (
            <span class="badge stale">stale since {formatDate(p.staleSince)}</span>
          ) : null}
          <AnnouncedNote price={p} />
        </>
      ) : (
        <span class="muted">—</span>
      )}
    </td>
  );
}
