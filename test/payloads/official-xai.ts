import { makerPagePayloads } from "../fake-page.js";

/**
 * The fake upstream's xAI models page (test material, `test/fake-upstream.ts`): served whole; a
 * price row is a model row of the "Model Pricing" table (`| grok-… | … | $0.20$0.50 |`); cut inside
 * the first one.
 */
export const fakePayloads = makerPagePayloads(
  (line) => /^\| grok-[^|]*\|.*\$[\d.]+\s*(\$[\d.]+\s*)?\|$/.test(line),
  (text) => text.slice(0, text.indexOf("| grok-") + 12),
);
