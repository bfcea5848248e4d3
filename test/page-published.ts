import type { Dataset, PublishedPrice } from "../src/domain/dataset.js";

/** A text price a maker's page states, as a test parses it from the page independently of the adapter. */
export interface PageStatement {
  readonly listing: string;
  readonly direction: string;
  readonly cache: string;
  readonly tier: string;
  /** The bracket's lower bound (0 without one). */
  readonly contextMin?: number;
  /** The bracket's upper bound, when the page states one (Moonshot's request-size brackets); absent: not checked. */
  readonly contextMax?: number | null;
  /** The price's qualifiers (`{currency: "CNY"}` for a CNY list, T508); absent: none. */
  readonly qualifiers?: Readonly<Record<string, string>>;
  /** The price's currency; absent: not checked. */
  readonly currency?: string;
}

/**
 * The direct text price of a page's spelling in that dimension, on a model of `maker`: the price the
 * page's own observation backs under that spelling, else the one it backs on the model that answers
 * to the spelling as an alias (a dated spelling merged into its model, `gpt-3.5-turbo-0125`, or a
 * moving alias such as `mistral-small-latest` merged into its snapshot: one observation per source,
 * under the canonical spelling). Shared by the makers' verified-price tests (issues 35, 48).
 */
export function publishedOnPage(
  dataset: Dataset,
  source: string,
  maker: string,
  s: PageStatement,
): PublishedPrice | undefined {
  const alias = dataset.models.find(
    (m) =>
      m.id.startsWith(`${maker}/`) && (m.aliases.includes(`${maker}/${s.listing}`) || m.aliases.includes(s.listing)),
  )?.id;
  return dataset.prices.find(
    (p) =>
      p.channel === "direct" &&
      p.modelId.startsWith(`${maker}/`) &&
      p.modality === "text" &&
      p.direction === s.direction &&
      p.cache === s.cache &&
      p.tier === s.tier &&
      p.contextMin === (s.contextMin ?? 0) &&
      (s.contextMax === undefined || p.contextMax === s.contextMax) &&
      (s.currency === undefined || p.currency === s.currency) &&
      sameQualifiers(p.qualifiers, s.qualifiers ?? {}) &&
      (p.observations.some((o) => o.source === source && o.listing === s.listing) ||
        (p.modelId === alias && p.observations.some((o) => o.source === source))),
  );
}

function sameQualifiers(a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => a[k] === b[k]);
}
