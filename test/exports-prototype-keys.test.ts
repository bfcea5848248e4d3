import { describe, expect } from "vitest";
import { upstreamFiles } from "../src/cli/upstream-files.js";
import type { Dataset, PublishedModel, PublishedPrice } from "../src/domain/dataset.js";
import { buildGenaiPricesExport } from "../src/exports/genai-prices.js";
import { buildLiteLLMExport } from "../src/exports/litellm.js";
import { buildModelsDevExport } from "../src/exports/models-dev.js";
import type { ExportInput, LiteLLMKey, UpstreamFiles } from "../src/exports/types.js";
import { litellmKeyListing } from "../src/sources/litellm/index.js";
import { LitellmEntry } from "../src/sources/litellm/schema.js";
import { UPSTREAM } from "./exports-support.js";
import { it } from "./fixtures.js";

// Issue 33 §2, T315: upstream text never indexes a plain object in the price-file exports either.
// The exports key their output by upstream text (LiteLLM's model keys, models.dev's provider and
// model keys, genai-prices' provider ids) and by our models' spellings. Every `Object.prototype`
// name is put through each export, on the replay's dataset and the recorded upstream files of its
// date, as:
// - a model Tariff prices (invented: a copy of OpenAI's direct gpt-4o offer under the slug `<name>`;
//   no upstream has listed such a model yet) — the export writes it under the key `<name>`;
// - a recorded key (a copy of a real LiteLLM / models.dev entry under the key `<name>`, and a
//   models.dev / genai-prices provider `<name>`);
// - a field of a recorded entry (own properties of a copied entry, `__proto__` included).
// The output must hold each as an ordinary own key, written as JSON says, with nothing else changed
// and `Object.prototype` untouched.

const NAMES = Object.getOwnPropertyNames(Object.prototype);
/** The invented model of a name (ids are lower case; the slug keeps the spelling). */
const modelIdOf = (name: string) => `openai/${name.toLowerCase()}`;
/** A field value no real entry holds, to find it again in the output. */
const marker = (name: string) => `field ${name}`;

/** `target` with own enumerable `key: value` (`__proto__` as a key, not the prototype), returned. */
function own<T extends object>(target: T, key: string, value: unknown): T {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  return target;
}

/** A copy of `entry` with an own field of every `Object.prototype` name. */
function withPrototypeFields(entry: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const copy = structuredClone(entry) as Record<string, unknown>;
  for (const n of NAMES) own(copy, n, marker(n));
  return copy;
}

/** The replay's dataset with one invented model per name: OpenAI's direct gpt-4o offer copied to `openai/<name>`. */
function withPrototypeModels(dataset: Dataset): ExportInput {
  const like = dataset.models.find((m) => m.id === "openai/gpt-4o")!;
  const likePrices = dataset.prices.filter((p) => p.modelId === like.id && p.channel === "direct");
  expect(likePrices.length).toBeGreaterThan(2);
  const models: PublishedModel[] = [...dataset.models];
  const prices: PublishedPrice[] = [...dataset.prices];
  for (const n of NAMES) {
    const id = modelIdOf(n);
    models.push({ ...like, id, slug: n, name: `Proto ${n}`, aliases: [], formerIds: [] });
    for (const p of likePrices)
      prices.push({ ...p, modelId: id, observations: p.observations.map((o) => ({ ...o, listing: n })) });
  }
  return base(dataset, models, prices);
}

function base(dataset: Dataset, models = dataset.models, prices = dataset.prices): ExportInput {
  return {
    version: dataset.run.datasetVersion,
    models,
    prices,
    providers: dataset.providers,
    baseUrl: "http://tariff.test",
  };
}

/** The export as a client reads it: serialized and parsed back (JSON.parse keeps `__proto__` as an own key). */
const asJson = (value: unknown) => JSON.parse(JSON.stringify(value)) as Record<string, Record<string, unknown>>;

const PROTOTYPE_BEFORE = Object.getOwnPropertyNames(Object.prototype).sort();

/** Object.prototype gained nothing, and a fresh object reads none of the fields the exports wrote. */
function prototypeUntouched(): void {
  expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(PROTOTYPE_BEFORE);
  const fresh = {} as Record<string, unknown>;
  for (const field of ["litellm_provider", "mode", "models", "metadata", "tariff", "cost", "id"])
    expect(fresh[field], field).toBeUndefined();
}

/** The recorded files of the replay's version. */
function recordedOf(dataset: Dataset): UpstreamFiles {
  const files = upstreamFiles([UPSTREAM])(dataset.run.datasetVersion);
  expect(files.litellm && files.modelsDev && files.genaiPrices).toBeTruthy();
  return files;
}

describe("every Object.prototype name through the price-file exports (issue 33 §2, T315)", () => {
  it("LiteLLM: a model Tariff prices under each name is written under that key", ({ replay }) => {
    const recorded = recordedOf(replay.dataset);
    const plain = asJson(buildLiteLLMExport(base(replay.dataset), recorded.litellm));
    const built = buildLiteLLMExport(withPrototypeModels(replay.dataset), recorded.litellm);
    const file = asJson(built);
    prototypeUntouched();
    expect(Object.keys(built)).toEqual(Object.keys(file));
    for (const n of NAMES) {
      expect(Object.hasOwn(file, n), n).toBe(true);
      const entry = file[n]!;
      expect(entry.litellm_provider, n).toBe("openai");
      expect(entry.input_cost_per_token, n).toBe(plain["gpt-4o"]!.input_cost_per_token);
      expect((entry.metadata as { tariff: Record<string, unknown> }).tariff, n).toMatchObject({
        reconciled: true,
        model: modelIdOf(n),
        channel: "direct",
        seller: "openai",
      });
    }
    // Nothing else moved: every other key is as in the export without the invented models.
    const others = Object.keys(file).filter((k) => !NAMES.includes(k));
    expect(others.sort()).toEqual(Object.keys(plain).sort());
    for (const k of others) expect(file[k], k).toEqual(plain[k]);
  });

  it("LiteLLM: a recorded key of each name, and a field of each name, keep their place and value", ({ replay }) => {
    const recorded = recordedOf(replay.dataset);
    const real = recorded.litellm!.data.find((k) => k.key === "gpt-4o")!;
    const added: LiteLLMKey[] = NAMES.flatMap((n) => {
      const entry = withPrototypeFields(real.entry);
      const parsed = LitellmEntry.safeParse(entry);
      expect(parsed.success, n).toBe(true);
      const unplaced = { ...withPrototypeFields(real.entry), litellm_provider: "proto-seller" };
      return [
        { key: n, entry, listing: litellmKeyListing(n, parsed.data!) },
        { key: `proto-seller/${n}`, entry: unplaced, listing: null },
      ];
    });
    const file = asJson(
      buildLiteLLMExport(withPrototypeModels(replay.dataset), {
        ...recorded.litellm!,
        data: [...recorded.litellm!.data, ...added],
      }),
    );
    prototypeUntouched();
    for (const n of NAMES) {
      // Placed on the invented model through its slug: Tariff's prices, LiteLLM's other fields kept.
      const placed = file[n]!;
      const meta = placed.metadata as { tariff: Record<string, unknown>; litellm_unlisted: Record<string, unknown> };
      expect(meta.tariff, n).toMatchObject({ reconciled: true, model: modelIdOf(n) });
      // Passed through: LiteLLM's entry as it is, marked not reconciled.
      const passed = file[`proto-seller/${n}`]!;
      const passedMeta = passed.metadata as typeof meta;
      expect(passed.litellm_provider).toBe("proto-seller");
      expect(passedMeta.tariff.reconciled).toBe(false);
      // Every field of a name LiteLLM's schema does not list is kept in `litellm_unlisted`, as an own key.
      for (const m of NAMES)
        for (const unlisted of [meta.litellm_unlisted, passedMeta.litellm_unlisted]) {
          expect(Object.hasOwn(unlisted, m), `${n}: ${m}`).toBe(true);
          expect(unlisted[m], `${n}: ${m}`).toBe(marker(m));
        }
    }
  });

  it("models.dev: a provider, a model key and a model field of each name", ({ replay }) => {
    const recorded = recordedOf(replay.dataset);
    const tree = structuredClone(recorded.modelsDev!.data) as Record<string, { models: Record<string, unknown> }>;
    const openai = tree.openai!;
    const like = openai.models["gpt-4o"] as Record<string, unknown>;
    expect(like).toBeDefined();
    for (const n of NAMES) {
      own(openai.models, n, { ...withPrototypeFields(like), id: n });
      own(tree, n, { id: n, name: n, models: own({}, n, withPrototypeFields(like)) });
    }
    const built = buildModelsDevExport(withPrototypeModels(replay.dataset), { ...recorded.modelsDev!, data: tree });
    const out = asJson(built);
    prototypeUntouched();
    expect(Object.keys(built)).toEqual(Object.keys(out));
    const gpt4o = (out.openai!.models as Record<string, Record<string, unknown>>)["gpt-4o"]!;
    for (const n of NAMES) {
      // OpenAI's key of the name is placed on the invented model: Tariff's cost, as for gpt-4o.
      const models = out.openai!.models as Record<string, Record<string, unknown>>;
      expect(Object.hasOwn(models, n), n).toBe(true);
      expect(models[n]!.cost, n).toEqual(gpt4o.cost);
      expect(models[n]!.tariff, n).toMatchObject({ reconciled: true, model: modelIdOf(n) });
      for (const m of NAMES) expect(models[n]![m], `${n}: ${m}`).toBe(marker(m));
      // A provider of the name: kept with its model, not placed (no such seller).
      expect(Object.hasOwn(out, n), n).toBe(true);
      const provider = out[n]!;
      expect(provider.id).toBe(n);
      const theirs = provider.models as Record<string, Record<string, unknown>>;
      expect(Object.keys(theirs)).toEqual([n]);
      expect(theirs[n]!.tariff, n).toMatchObject({ reconciled: false });
      for (const m of NAMES) expect(theirs[n]![m], `${n}: ${m}`).toBe(marker(m));
    }
    // The recorded providers are all there, in their order, the names after them.
    expect(Object.keys(out)).toEqual([...Object.keys(recorded.modelsDev!.data), ...NAMES]);
  });

  it("genai-prices: a provider of each name, and a model matched by each name", ({ replay }) => {
    const recorded = recordedOf(replay.dataset);
    const providers = [
      ...recorded.genaiPrices!.data,
      ...NAMES.map((n) => own({ id: n, name: `Proto ${n}`, api_pattern: "(?!)" }, "__proto__", marker(n))),
    ];
    const out = JSON.parse(
      JSON.stringify(
        buildGenaiPricesExport(withPrototypeModels(replay.dataset), { ...recorded.genaiPrices!, data: providers }),
      ),
    ) as { id: string; models: { id: string; match: unknown }[]; __proto__?: unknown }[];
    prototypeUntouched();
    const openai = out.find((p) => p.id === "openai")!;
    for (const n of NAMES) {
      const provider = out.find((p) => p.id === n);
      expect(provider, n).toBeDefined();
      expect(provider!.models).toEqual([]);
      // The recorded `__proto__` field is no provider field of the schema: not carried.
      expect(Object.hasOwn(provider!, "__proto__"), n).toBe(false);
      const model = openai.models.find((m) => m.id === n);
      expect(model, n).toBeDefined();
      expect(JSON.stringify(model!.match), n).toContain(JSON.stringify({ equals: n }));
    }
  });
});
