import { pageStaleText } from "../page-stale.js";
import type { Price } from "../types.js";

/** The note beside a price that lost `verified` because its seller's page was not read lately (T461). */
export function PageStaleNote(props: { readonly price: Pick<Price, "pageStale">; readonly maker?: string }) {
  const stale = props.price.pageStale;
  if (!stale) return null;
  const whose = props.maker ? `${props.maker}'s page` : `its seller's own list (${stale.source})`;
  return (
    <span
      class="badge stale"
      data-testid="page-stale"
      data-source={stale.source}
      title={`verified needs the seller's own page read within ${stale.maxAgeDays} days`}
    >
      {pageStaleText(stale, whose, Date.now())}
    </span>
  );
}
