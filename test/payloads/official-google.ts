import { makerPagePayloads } from "../fake-page.js";

/**
 * The fake upstream's Google pricing page (test material, `test/fake-upstream.ts`): served whole; a
 * price row is an "Input price" / "Output price" / "Context caching price" / "Grounding" row; cut
 * inside the first one.
 */
export const fakePayloads = makerPagePayloads(
  (line) => /^\|\s*(Input price|Output price|Context caching price|Grounding with Google)\b/.test(line),
  (text) => text.slice(0, text.indexOf("| Input price") + 20),
);
