import type { PublishedPrice } from "./dataset.js";
import { dimensionKey } from "./dimension.js";

const DIRECTION_ORDER = ["input", "output", "reasoning", "request", "tool"];
const CACHE_ORDER = ["none", "read", "write", "write_1h"];
const TIER_ORDER = ["standard", "batch", "flex", "priority"];
const MODALITY_ORDER = ["text", "image", "audio", "video"];

/**
 * Stable order of prices in a dataset version: model, channel, seller, then the dimension in
 * reading order. A total order over price identities, so a version's prices can be stored as
 * validity intervals and read back in the order they were published (issue 17, T146).
 */
export function comparePrices(a: Omit<PublishedPrice, "label">, b: Omit<PublishedPrice, "label">): number {
  return (
    cmp(a.modelId, b.modelId) ||
    cmp(a.channel, b.channel) ||
    cmp(a.seller, b.seller) ||
    TIER_ORDER.indexOf(a.tier) - TIER_ORDER.indexOf(b.tier) ||
    a.contextMin - b.contextMin ||
    MODALITY_ORDER.indexOf(a.modality) - MODALITY_ORDER.indexOf(b.modality) ||
    DIRECTION_ORDER.indexOf(a.direction) - DIRECTION_ORDER.indexOf(b.direction) ||
    CACHE_ORDER.indexOf(a.cache) - CACHE_ORDER.indexOf(b.cache) ||
    cmp(dimensionKey(a), dimensionKey(b)) ||
    cmp(a.unit, b.unit)
  );
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
