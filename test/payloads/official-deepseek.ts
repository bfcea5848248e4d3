import { makerPagePayloads } from "../fake-page.js";

/**
 * The fake upstream's DeepSeek pages (test material, `test/fake-upstream.ts`): both editions served
 * whole; a price row is a line of the pseudo-table's PRICING block (`1M OUTPUT TOKENS| $0.42`,
 * `百万tokens输出| 3元`); cut inside the first.
 */
export const fakePayloads = makerPagePayloads(
  (line) => /^(PRICING\||价格\||1M |百万tokens)/.test(line.trim()),
  (text) => text.slice(0, Math.max(text.indexOf("PRICING|"), text.indexOf("价格|")) + 12),
);
