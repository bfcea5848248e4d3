import { makerPagePayloads } from "../fake-page.js";

/**
 * The fake upstream's Anthropic pricing page (test material, `test/fake-upstream.ts`): Markdown,
 * one table row per model, cut inside its first price row.
 */
export const fakePayloads = makerPagePayloads(
  (line) => line.startsWith("| Claude"),
  (text) => text.slice(0, text.indexOf("| Claude") + 12),
);
