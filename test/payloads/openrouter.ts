import type { FakePayloads } from "../fake-upstream.js";

type Models = { data: { id: string }[] };

/**
 * The fake upstream's OpenRouter (test material, `test/fake-upstream.ts`): `models.json` is
 * `{data: [...]}`, each model's id `<maker>/<model>`.
 */
export const fakePayloads: FakePayloads = {
  cut: (_name, text, keep) => {
    const json = parse(text);
    return JSON.stringify({ ...json, data: (json.data ?? []).filter((m) => keep(String(m.id).split("/")[0] ?? "")) });
  },
  // Invented: an upstream schema regression.
  wrongShape: { data: { models: [] } },
  empty: () => '{"data":[]}',
  dropRows: (_name, text, keep) => {
    const json = parse(text);
    return JSON.stringify({ ...json, data: json.data.filter((_, i) => keep(i)) });
  },
};

const parse = (text: string) => JSON.parse(text) as Models;
