import type { FakePayloads } from "../fake-upstream.js";

type Entries = Record<string, { litellm_provider?: unknown }>;

/**
 * The fake upstream's LiteLLM (test material, `test/fake-upstream.ts`): one object keyed by model,
 * each entry naming its `litellm_provider`.
 */
export const fakePayloads: FakePayloads = {
  cut: (_name, text, keep) =>
    JSON.stringify(Object.fromEntries(Object.entries(parse(text)).filter(([, v]) => keep(String(v.litellm_provider))))),
  // Invented: an upstream schema regression.
  wrongShape: [{ model: "gpt-4o" }],
  empty: () => "{}",
  dropRows: (_name, text, keep) =>
    JSON.stringify(Object.fromEntries(Object.entries(parse(text)).filter((_, i) => keep(i)))),
};

const parse = (text: string) => JSON.parse(text) as Entries;
