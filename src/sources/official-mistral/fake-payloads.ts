import { makerPagePayloads } from "../../../test/fake-page.js";

/**
 * The fake upstream's Mistral model files (test material, `test/fake-upstream.ts`): served whole;
 * a price row is a meter line (`{ type: 'range', price: 0.4, denominator: '/M Tokens' }`); a file is
 * cut inside its first meter.
 */
export const fakePayloads = makerPagePayloads(
  (line) => /^\s*\{\s*type:\s*'(range|flat)',\s*price:/.test(line),
  (text) => text.slice(0, text.indexOf("price:") + 8),
);
