import Big from "big.js";
import { describe, expect } from "vitest";
import type { CatalogueView } from "../src/catalogue/view.js";
import { reviewedLitellmMeaning } from "../src/exports/key-meaning.js";
import type { KeptAggregatorsField, KeptField } from "../src/exports/litellm.js";
import { litellmKeyListing } from "../src/sources/litellm/index.js";
import { LitellmEntry } from "../src/sources/litellm/schema.js";
import { exact, modelRecord, newestDate, perTokenOf, recorded, tokenPrice, validator } from "./exports-support.js";
import { bindShared } from "./fixtures.js";
import { startServer, type TestServer } from "./harness.js";

// Issue 29 §1–2, T212–T213: the `litellm` export as LiteLLM itself would take it from
// LITELLM_MODEL_COST_MAP_URL — its remote-map acceptance rules and its published JSON schema
// (data/schemas/litellm-model-prices.schema.json) — and Tariff's prices in it, read from the API in
// the test, never written down (issues 24/25 move prices and ids).
const PATH = "/api/v1/exports/litellm/model_prices_and_context_window.json";
type Entry = Record<string, unknown> & {
  metadata: {
    tariff: Record<string, unknown> & { keptOneSource?: KeptField[]; keptAggregatorsOnly?: KeptAggregatorsField[] };
    litellm_unlisted?: object;
  };
};

/** The field of an entry T526 or T542 kept at LiteLLM's value (Tariff's amount and its sources), if it did. */
const keptField = (entry: Entry, field: string) =>
  entry.metadata.tariff.keptOneSource?.find((k) => k.field === field) ??
  entry.metadata.tariff.keptAggregatorsOnly?.find((k) => k.field === field);

let server: TestServer;
let view: CatalogueView;
let file: Record<string, Entry>;
const DATE = newestDate("litellm");
const RECORDED = recorded<Record<string, unknown>>("litellm", DATE, "model_prices_and_context_window.json");
/** The recorded file's model entries (LiteLLM's `sample_spec` and the mirror's `last_updated` are not models). */
const RECORDED_KEYS = Object.keys(RECORDED).filter((k) => k !== "sample_spec" && k !== "last_updated");

// The worker's shared replay and export server (test/fixtures.ts, T274), bound before the file's first test, the exported file read.
const it = bindShared("exportServer", async (boundView, boundServer) => {
  view = boundView;
  server = boundServer;
  const res = await server.get(PATH);
  expect(res.status).toBe(200);
  file = (await res.json()) as Record<string, Entry>;
});

describe("LiteLLM takes it as its remote cost map", () => {
  it(`has at least as many entries as LiteLLM's own file of ${DATE}, and passes the remote-map integrity check`, () => {
    const count = Object.keys(file).length;
    expect(RECORDED_KEYS.length).toBeGreaterThan(2000);
    expect(count).toBeGreaterThanOrEqual(RECORDED_KEYS.length);
    // get_model_cost_map.py: a non-empty dict, ≥ MODEL_COST_MAP_MIN_MODEL_COUNT (50) entries, and not
    // under MODEL_COST_MAP_MAX_SHRINK_RATIO (0.5) × the bundled backup (its own file of the date).
    expect(count).toBeGreaterThanOrEqual(50);
    expect(count).toBeGreaterThanOrEqual(RECORDED_KEYS.length * 0.5);
  });

  it("validates against LiteLLM's published schema, and its cost-value check (no per-unit cost above 1)", () => {
    const validate = validator("litellm-model-prices.schema.json");
    const ok = validate(file);
    expect(validate.errors?.slice(0, 5) ?? [], "schema errors").toEqual([]);
    expect(ok).toBe(true);
    const over = Object.entries(file).flatMap(([key, e]) =>
      Object.entries(e)
        .filter(([k, v]) => /token_cost|cost_per_token|_per_reasoning_token/.test(k) && typeof v === "number" && v > 1)
        .map(([k, v]) => `${key}.${k}=${v}`),
    );
    expect(over).toEqual([]);
  });

  it("the recorded file itself fails the same schema where LiteLLM has since dropped fields: the export keeps them under metadata", () => {
    const validate = validator("litellm-model-prices.schema.json");
    const { sample_spec: _s, last_updated: _l, ...models } = RECORDED;
    expect(validate(models)).toBe(false); // e.g. gemini/gemini-2.5-pro's supports_service_tier
    const gemini = RECORDED["gemini/gemini-2.5-pro"] as Record<string, unknown>;
    expect(gemini.supports_service_tier).toBe(true);
    expect(file["gemini/gemini-2.5-pro"]?.supports_service_tier).toBeUndefined();
    expect(file["gemini/gemini-2.5-pro"]?.metadata.litellm_unlisted).toMatchObject({ supports_service_tier: true });
  });
});

// Twenty famous models by LiteLLM key and the Tariff model they name (followed through aliases).
const FAMOUS: readonly [string, string][] = [
  ["gpt-4o", "openai/gpt-4o"],
  ["gpt-4o-mini", "openai/gpt-4o-mini"],
  ["gpt-4.1", "openai/gpt-4.1"],
  ["gpt-5", "openai/gpt-5"],
  ["gpt-5.4", "openai/gpt-5.4"],
  ["o3", "openai/o3"],
  ["o4-mini", "openai/o4-mini"],
  ["claude-opus-4-1", "anthropic/claude-opus-4-1"],
  ["claude-opus-4-5", "anthropic/claude-opus-4-5"],
  ["claude-sonnet-4-5", "anthropic/claude-sonnet-4-5"],
  ["claude-haiku-4-5", "anthropic/claude-haiku-4-5"],
  ["gemini/gemini-2.5-pro", "google/gemini-2.5-pro"],
  ["gemini/gemini-2.5-flash", "google/gemini-2.5-flash"],
  ["gemini/gemini-2.0-flash", "google/gemini-2.0-flash"],
  ["deepseek/deepseek-chat", "deepseek/deepseek-chat"],
  ["deepseek/deepseek-reasoner", "deepseek/deepseek-reasoner"],
  ["xai/grok-4", "xai/grok-4"],
  ["xai/grok-3", "xai/grok-3"],
  ["moonshot/kimi-k2-thinking", "moonshotai/kimi-k2-thinking"],
  // The dated key: `mistral-large-latest` is a moving alias, which T311 leaves as LiteLLM has it.
  ["mistral/mistral-large-2512", "mistral/mistral-large-2512"],
];

describe("twenty famous models carry Tariff's direct prices per token", () => {
  it.each(FAMOUS)("%s → %s", async (key, id) => {
    const model = await modelRecord(server, id);
    const entry = file[key];
    expect(entry, key).toBeDefined();
    expect(entry!.metadata.tariff).toMatchObject({ model: model.id, channel: "direct", reconciled: true });
    expect(entry!.source).toBe(`${server.base}/m/${model.id}`);
    expect(entry!.metadata.tariff.datasetVersion).toBe(view.version);
    for (const [field, direction, cache] of [
      ["input_cost_per_token", "input", "none"],
      ["output_cost_per_token", "output", "none"],
      ["cache_read_input_token_cost", "input", "read"],
    ] as const) {
      const price = tokenPrice(model, direction, cache);
      if (!price) {
        expect(entry![field], `${key}.${field}: Tariff has no such price`).toBeUndefined();
        continue;
      }
      // T526: a price one source alone would move 5× or more stays LiteLLM's (DeepSeek's cache read on Portkey).
      const kept = keptField(entry!, field);
      if (kept) {
        expect(entry![field], `${key}.${field}`).toBe((RECORDED[key] as Record<string, unknown>)[field]);
        expect(exact(kept.tariff), `${key}.${field}`).toBe(perTokenOf(price.amount));
        continue;
      }
      expect(exact(entry![field]), `${key}.${field}`).toBe(perTokenOf(price.amount));
    }
    expect(tokenPrice(model, "input")).toBeDefined();
  });

  it.each([
    ["claude-sonnet-4-5", "anthropic/claude-sonnet-4-5", 200_000],
    ["gemini/gemini-2.5-pro", "google/gemini-2.5-pro", 200_000],
    ["gpt-5.4", "openai/gpt-5.4", 272_000],
  ] as const)(
    "%s: the long-context bracket as LiteLLM spells it (> %i tokens), at Tariff's prices",
    async (key, id, at) => {
      const model = await modelRecord(server, id);
      const entry = file[key]!;
      const above = `_above_${at / 1000}k_tokens`;
      for (const [field, direction] of [
        ["input_cost_per_token", "input"],
        ["output_cost_per_token", "output"],
      ] as const)
        expect(exact(entry[`${field}${above}`]), `${key} ${field}${above}`).toBe(
          perTokenOf(tokenPrice(model, direction, "none", { contextMin: at })!.amount),
        );
      // T145: a long-context price list restated at a second threshold is billed at one of them only.
      const others = Object.keys(entry).filter((k) => /^input_cost_per_token_above_\d+k_tokens$/.test(k));
      expect(others).toEqual([`input_cost_per_token${above}`]);
    },
  );
});

describe("every key of LiteLLM's file is kept", () => {
  it("every recorded key that names a model Tariff prices carries Tariff's price at that seller", () => {
    // "Names a model Tariff knows": the LiteLLM adapter's listing of the key is the spelling a published
    // price was reconciled from (its observation from litellm, T87). Tariff's price is that price.
    const priceOf = new Map<string, number>();
    for (const p of view.dataset.prices) {
      if (p.direction !== "input" || p.cache !== "none" || p.tier !== "standard" || p.contextMin !== 0) continue;
      if (p.modality !== "text" || p.unit !== "mtok" || p.currency !== "USD" || p.denomination !== "currency") continue;
      const q = JSON.stringify(
        Object.entries(p.qualifiers)
          .filter(([k]) => k !== "seller")
          .sort(),
      );
      for (const o of p.observations)
        if (o.source === "litellm" && o.listing) priceOf.set(`${p.seller}|${o.listing}|${q}`, p.amount);
    }
    let named = 0;
    const wrong: string[] = [];
    const kept: string[] = [];
    for (const key of RECORDED_KEYS) {
      const parsed = LitellmEntry.safeParse(RECORDED[key]);
      const listing = parsed.success ? litellmKeyListing(key, parsed.data) : null;
      if (!listing) continue;
      const q = JSON.stringify(Object.entries(listing.qualifiers).sort());
      const amount = priceOf.get(`${listing.seller}|${listing.model}|${q}`);
      if (amount === undefined) continue;
      named++;
      const entry = file[key];
      // T527: a key whose meaning was reviewed is on the model it names, not on the listing's.
      const reviewed = reviewedLitellmMeaning(listing.seller, listing.model);
      if (reviewed) {
        if (entry?.metadata.tariff.model !== reviewed.model) wrong.push(`${key}: not on ${reviewed.model}`);
        continue;
      }
      // T526, T542: an input price neither the maker's page nor the seller's list backs stays LiteLLM's
      // where its move (or its entry's, T542) would be 5× or more.
      if (entry && keptField(entry, "input_cost_per_token")) {
        if (entry.input_cost_per_token !== (RECORDED[key] as Record<string, unknown>).input_cost_per_token)
          wrong.push(`${key}: not kept at LiteLLM's value`);
        continue;
      }
      // T311: a moving alias or a variant the model is not passes through exactly as LiteLLM has it.
      if (String(entry?.metadata.tariff.reason ?? "").startsWith("not placed on a Tariff offer")) {
        kept.push(key);
        if (
          entry?.input_cost_per_token !==
          (RECORDED[key] as { input_cost_per_token?: unknown } | undefined)?.input_cost_per_token
        )
          wrong.push(`${key}: not kept`);
        continue;
      }
      if (entry?.metadata.tariff.reconciled !== true || exact(entry.input_cost_per_token) !== perTokenOf(amount))
        wrong.push(`${key}: ${entry?.input_cost_per_token} ≠ ${perTokenOf(amount)}`);
    }
    expect(named).toBeGreaterThan(1000);
    expect(wrong).toEqual([]);
    expect(kept.length).toBeLessThan(named / 100); // the exception, not the rule
  });

  it("every recorded key is present; one Tariff cannot place passes through as LiteLLM has it, marked not reconciled", () => {
    expect(RECORDED_KEYS.filter((k) => !(k in file))).toEqual([]);
    const unplaced = RECORDED_KEYS.filter((k) => file[k]!.metadata.tariff.reconciled === false);
    expect(unplaced.length).toBeGreaterThan(100);
    for (const key of ["fireworks-ai-4.1b-to-16b", "deepgram/base", "ollama/codellama"]) {
      expect(unplaced).toContain(key);
      const { metadata, ...fields } = file[key]!;
      const own = RECORDED[key] as Record<string, unknown>;
      const { tariff: _t, litellm_unlisted: unlisted = {}, ...ownMetadata } = metadata as Record<string, unknown>;
      const back = {
        ...fields,
        ...(unlisted as object),
        ...(Object.keys(ownMetadata).length > 0 ? { metadata: ownMetadata } : {}),
      };
      expect(back).toEqual(own);
      expect(metadata.tariff.reason).toEqual(expect.any(String));
      expect(metadata.tariff.datasetVersion).toBe(view.version);
    }
  });

  it("offers LiteLLM has no key for are added under the key LiteLLM gives their seller, and retired models are kept", () => {
    const added = Object.keys(file).filter((k) => !(k in RECORDED));
    expect(added.length).toBeGreaterThan(100);
    for (const key of added.slice(0, 50)) {
      const e = file[key]!;
      expect(e.metadata.tariff.reconciled, key).toBe(true);
      expect(typeof e.litellm_provider, key).toBe("string");
      expect(e.source, key).toMatch(new RegExp(`^${server.base}/m/`));
    }
    const retired = view.dataset.models.filter((m) => m.listed && m.lifecycle.deprecatedOn !== null);
    expect(retired.length).toBeGreaterThan(0);
    const kept = Object.values(file).filter(
      (e) => retired.some((m) => m.id === e.metadata.tariff.model) && typeof e.deprecation_date === "string",
    );
    expect(kept.length).toBeGreaterThan(0);
  });
});

// Issue 49 §3 (T487): a geographic key keeps its meaning — Anthropic's +10 % on Bedrock's geographic
// profiles from Sonnet 4.5 (its recorded pricing page), as /cost bills them (T482) — even where the
// reconciled regional row copies the global price (models.dev and Portkey for `us`).
describe("geographic keys keep the maker's regional uplift", () => {
  it.each([
    ["us.anthropic.claude-opus-4-6-v1", "global.anthropic.claude-opus-4-6-v1"],
    ["eu.anthropic.claude-opus-4-6-v1", "global.anthropic.claude-opus-4-6-v1"],
    ["us.anthropic.claude-opus-4-7", "global.anthropic.claude-opus-4-7"],
    ["us.anthropic.claude-opus-4-8", "global.anthropic.claude-opus-4-8"],
    ["us.anthropic.claude-sonnet-4-6", "global.anthropic.claude-sonnet-4-6"],
  ])("%s is 1.1× %s", (geo, global) => {
    for (const field of ["input_cost_per_token", "output_cost_per_token"]) {
      const base = file[global]?.[field] as number;
      expect(typeof base, `${global}.${field}`).toBe("number");
      expect(exact(file[geo]?.[field]), `${geo}.${field}`).toBe(exact(Number(new Big(String(base)).times("1.1"))));
    }
    expect(file[geo]?.metadata.tariff.reconciled).toBe(true);
  });
});

describe("served like every endpoint", () => {
  it("ETag and 304, Cache-Control, CORS and the dataset version", async () => {
    const res = await server.get(PATH);
    const etag = res.headers.get("etag")!;
    expect(etag).toMatch(/^W\//);
    expect(res.headers.get("cache-control")).toBe("public, max-age=3600, s-maxage=3600, stale-while-revalidate=86400");
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("x-dataset-version")).toBe(view.version);
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    const again = await server.get(PATH, { "if-none-match": etag });
    expect(again.status).toBe(304);
  });

  it("at= exports the version in force on that day, with that day's LiteLLM keys and Tariff's prices then", async () => {
    const res = await server.get(`${PATH}?at=2025-09-15`);
    expect(res.status).toBe(200);
    expect(res.headers.get("x-dataset-version")).toBe("2025-09-01T00:00:00.000Z");
    const past = (await res.json()) as Record<string, Entry>;
    const then = recorded<Record<string, unknown>>("litellm", "2025-09-01", "model_prices_and_context_window.json");
    expect(Object.keys(past).length).toBeGreaterThanOrEqual(
      Object.keys(then).filter((k) => k !== "sample_spec").length,
    );
    const deepseek = await modelRecord(server, "deepseek/deepseek-chat", "direct", "2025-09-15");
    const today = await modelRecord(server, "deepseek/deepseek-chat");
    const input = tokenPrice(deepseek, "input")!.amount;
    expect(input).not.toBe(tokenPrice(today, "input")!.amount); // the price moved since: the check can fail
    expect(exact(past["deepseek/deepseek-chat"]!.input_cost_per_token)).toBe(perTokenOf(input));
    expect(past["deepseek/deepseek-chat"]!.metadata.tariff.datasetVersion).toBe("2025-09-01T00:00:00.000Z");
    expect((await server.get(`${PATH}?at=2025-01-01`)).status).toBe(404);
    expect((await server.get(`${PATH}?at=2025-02-30`)).status).toBe(400);
  });

  it("without recorded files (no reader given) it is Tariff's own offers, still valid", async () => {
    const bare = await startServer(view);
    try {
      const own = (await (await bare.get(PATH)).json()) as Record<string, Entry>;
      expect(Object.keys(own).length).toBeGreaterThan(500);
      expect(Object.values(own).every((e) => e.metadata.tariff.reconciled === true)).toBe(true);
      expect(validator("litellm-model-prices.schema.json")(own)).toBe(true);
      expect(new Big(String(own["openai/gpt-4o"]?.input_cost_per_token ?? 0)).gt(0)).toBe(true);
    } finally {
      await bare.close();
    }
  });
});
