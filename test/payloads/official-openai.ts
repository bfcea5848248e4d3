import { makerPagePayloads } from "../fake-page.js";

/**
 * The fake upstream's OpenAI pricing page (test material, `test/fake-upstream.ts`): Astro/MDX, one
 * JS array row per model and tier (`["gpt-5.4-mini", 0.75, 0.075, 4.5],`), cut inside the first
 * row (a cut elsewhere could leave a page whose panes still close). The recorded 2026-03-01 copy
 * has empty text-token panes: a failed page (README), never served as the seed.
 */
export const fakePayloads = makerPagePayloads(
  (line) => /^\s*\["/.test(line),
  (text) => text.slice(0, text.indexOf('["gpt') + 8),
  { failedCopies: ["2026-03-01"] },
);
