import type { FakePayloads } from "../fake-upstream.js";

type Providers = { id: string; models: unknown[] }[];

/**
 * The fake upstream's genai-prices (test material, `test/fake-upstream.ts`): `data.json` is an
 * array of providers, each with a `models` array.
 */
export const fakePayloads: FakePayloads = {
  cut: (_name, text, keep) => JSON.stringify(parse(text).filter((p) => keep(String(p.id)))),
  // Invented: an upstream schema regression.
  wrongShape: { providers: "moved to v3" },
  empty: () => "[]",
  dropRows: (_name, text, keep) =>
    JSON.stringify(parse(text).map((p) => ({ ...p, models: p.models.filter((_, i) => keep(i)) }))),
};

const parse = (text: string) => JSON.parse(text) as Providers;
