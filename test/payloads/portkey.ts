import type { FakePayloads } from "../fake-upstream.js";

/**
 * The fake upstream's Portkey (test material, `test/fake-upstream.ts`): one file per provider, an
 * object keyed by model. The fake serves the files of the three kept makers only (its setting).
 */
export const fakePayloads: FakePayloads = {
  setting: ["anthropic", "deepseek", "mistral-ai"],
  cut: (_name, text) => text,
  // Invented: an upstream schema regression.
  wrongShape: ["not", "an", "object"],
  empty: () => "{}",
  dropRows: (_name, text, keep) =>
    JSON.stringify(Object.fromEntries(Object.entries(JSON.parse(text) as object).filter((_, i) => keep(i)))),
};
