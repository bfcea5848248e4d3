import { makerPagePayloads } from "../fake-page.js";

/**
 * The fake upstream's Z.ai pricing page (test material, `test/fake-upstream.ts`): served whole; a
 * price row is a "Text Models" row (`| GLM-… | \$… |`); cut inside the first one.
 */
export const fakePayloads = makerPagePayloads(
  (line) => /^\| GLM-[^|]*\|\s*(\\\$|Free)/.test(line),
  (text) => text.slice(0, text.indexOf("| GLM-4.7 ") + 12),
);
