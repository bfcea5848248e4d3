import type { FakePayloads } from "../fake-upstream.js";

type Providers = Record<string, { models: Record<string, unknown> }>;

/**
 * The fake upstream's models.dev (test material, `test/fake-upstream.ts`): `api.json` is an object
 * keyed by provider id, each with a `models` object.
 */
export const fakePayloads: FakePayloads = {
  cut: (_name, text, keep) => JSON.stringify(Object.fromEntries(Object.entries(parse(text)).filter(([k]) => keep(k)))),
  // Invented: an upstream schema regression (an array of providers).
  wrongShape: [{ id: "anthropic", models: [] }],
  empty: () => "{}",
  dropRows: (_name, text, keep) =>
    JSON.stringify(
      Object.fromEntries(
        Object.entries(parse(text)).map(([k, p]) => [
          k,
          { ...p, models: Object.fromEntries(Object.entries(p.models).filter((_, i) => keep(i))) },
        ]),
      ),
    ),
};

const parse = (text: string) => JSON.parse(text) as Providers;
