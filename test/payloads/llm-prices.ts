import type { FakePayloads } from "../fake-upstream.js";

type Prices = { prices: unknown[] };

/**
 * The fake upstream's llm-prices (test material, `test/fake-upstream.ts`): `current-v1.json` and
 * `historical-v1.json`, each a `prices` array. Small: served whole.
 */
export const fakePayloads: FakePayloads = {
  cut: (_name, text) => text,
  // Invented: an upstream schema regression.
  wrongShape: { updated_at: "2026-06-01", prices: { moved: true } },
  empty: (name) => (name.startsWith("current") ? '{"updated_at":"2026-06-01","prices":[]}' : '{"prices":[]}'),
  dropRows: (_name, text, keep) => {
    const json = JSON.parse(text) as Prices;
    return JSON.stringify({ ...json, prices: json.prices.filter((_, i) => keep(i)) });
  },
};
