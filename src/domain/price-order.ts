import type { PublishedPrice } from "./dataset.js";
import { compareDimensions, dimensionKey } from "./dimension.js";

/**
 * Stable order of prices in a dataset version: model, channel, seller, then the dimension in
 * reading order ({@link compareDimensions}). A total order over price identities, so a version's
 * prices can be stored as validity intervals and read back in the order they were published
 * (issue 17, T146).
 */
export function comparePrices(a: Omit<PublishedPrice, "label">, b: Omit<PublishedPrice, "label">): number {
  return (
    cmp(a.modelId, b.modelId) ||
    cmp(a.channel, b.channel) ||
    cmp(a.seller, b.seller) ||
    compareDimensions(a, b) ||
    cmp(dimensionKey(a), dimensionKey(b)) ||
    cmp(a.unit, b.unit)
  );
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
