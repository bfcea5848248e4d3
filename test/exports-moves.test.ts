import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CatalogueView } from "../src/catalogue/view.js";
import {
  type ExportMove,
  genaiPricesMoves,
  litellmMoves,
  modelsDevMoves,
  moveLine,
  type ReviewedMove,
} from "./export-moves.js";
import { recorded, startExportServer } from "./exports-support.js";
import { loadReplay, type TestServer } from "./harness.js";

// Issue 38 §3, T311: each export diffed against the recorded file it extends (LiteLLM's and
// models.dev's of 2026-06-01, the replay's last date). Every move of 2× or more (or from or to 0)
// is in the reviewed list `test/golden/export-moves.json`, each with what Tariff's price rests on
// (confidence, agreeing sources) and why it stands; a move that is not listed, or a listed one that
// no longer happens, fails. And the keys the issue names keep their meaning, checked by value.
const DATE = "2026-06-01";
const LITELLM_PATH = "/api/v1/exports/litellm/model_prices_and_context_window.json";
const MODELS_DEV_PATH = "/api/v1/exports/models-dev/api.json";
const GENAI_PRICES_PATH = "/api/v1/exports/genai-prices/data.json";
const REVIEWED = JSON.parse(readFileSync("test/golden/export-moves.json", "utf8")) as ReviewedMove[];

let server: TestServer;
let view: CatalogueView;
let litellm: Record<string, Record<string, unknown> & { metadata: { tariff: Record<string, unknown> } }>;
let modelsDev: Record<string, { models: Record<string, Record<string, unknown> & { cost?: Record<string, unknown> }> }>;
let genaiPrices: unknown[];
const RECORDED_LITELLM = recorded<Record<string, Record<string, unknown>>>(
  "litellm",
  DATE,
  "model_prices_and_context_window.json",
);
const RECORDED_MODELS_DEV = recorded<Record<string, unknown>>("models-dev", DATE, "api.json");
const RECORDED_GENAI_PRICES = recorded<unknown[]>("genai-prices", DATE, "data.json");

beforeAll(async () => {
  const replay = await loadReplay();
  await replay.store.close();
  view = replay.view;
  expect(view.version.slice(0, 10)).toBe(DATE);
  server = await startExportServer(view);
  litellm = (await (await server.get(LITELLM_PATH)).json()) as typeof litellm;
  modelsDev = (await (await server.get(MODELS_DEV_PATH)).json()) as typeof modelsDev;
  genaiPrices = (await (await server.get(GENAI_PRICES_PATH)).json()) as typeof genaiPrices;
});
afterAll(async () => {
  await server.close();
});

function reviewed(kind: ExportMove["export"]): string[] {
  return REVIEWED.filter((m) => m.export === kind)
    .map(moveLine)
    .sort();
}

describe("every move of 2× or more against the recorded file is reviewed (T311)", () => {
  it("the reviewed list gives each move its evidence and a reason", () => {
    for (const m of REVIEWED) {
      expect(m.reason.length, moveLine(m)).toBeGreaterThan(20);
      expect(m.evidence.length, moveLine(m)).toBeGreaterThan(0);
    }
  });

  it(`LiteLLM: the export's moves against LiteLLM's file of ${DATE} are exactly the reviewed ones`, () => {
    expect(litellmMoves(RECORDED_LITELLM, litellm).map(moveLine).sort()).toEqual(reviewed("litellm"));
  });

  it(`models.dev: the export's moves against models.dev's api.json of ${DATE} are exactly the reviewed ones`, () => {
    expect(modelsDevMoves(RECORDED_MODELS_DEV, modelsDev).map(moveLine).sort()).toEqual(reviewed("models-dev"));
  });

  it(`genai-prices: the export's moves against genai-prices' data.json of ${DATE} are exactly the reviewed ones (T350)`, () => {
    const moves = genaiPricesMoves(RECORDED_GENAI_PRICES, genaiPrices, DATE);
    expect(moves.map(moveLine).sort()).toEqual(reviewed("genai-prices"));
  });
});

describe("a key keeps its meaning (issue 38 §3, T311)", () => {
  it("gemini-pro-latest is not Gemini 1.0 Pro: the moving alias passes through as LiteLLM has it", () => {
    for (const key of ["gemini-pro-latest", "gemini/gemini-pro-latest"]) {
      expect(litellm[key]?.input_cost_per_token).toBe(RECORDED_LITELLM[key]?.input_cost_per_token);
      expect(litellm[key]?.output_cost_per_token).toBe(RECORDED_LITELLM[key]?.output_cost_per_token);
      expect(litellm[key]?.metadata.tariff).toMatchObject({ reconciled: false });
      expect(String(litellm[key]?.metadata.tariff.reason)).toContain("moving alias");
    }
  });

  it("claude-instant is not claude-v1", () => {
    const keys = Object.keys(RECORDED_LITELLM).filter((k) => /claude-instant/.test(k));
    expect(keys.length).toBeGreaterThan(0);
    for (const key of keys) {
      expect(litellm[key]?.metadata.tariff.model ?? null, key).not.toBe("anthropic/claude-v1");
      expect(litellm[key]?.input_cost_per_token, key).toBe(RECORDED_LITELLM[key]?.input_cost_per_token);
    }
  });

  it("ft:gpt-3.5-turbo-0125 carries the fine-tune's inference price, not the base model's", () => {
    const ft = view.dataset.prices.find(
      (p) =>
        p.modelId === "openai/gpt-3.5-turbo" &&
        p.seller === "openai" &&
        p.direction === "input" &&
        p.cache === "none" &&
        p.qualifiers.fine_tuning === "inference",
    );
    expect(ft?.amount).toBe(3);
    expect(litellm["ft:gpt-3.5-turbo-0125"]?.input_cost_per_token).toBe(3e-6);
    expect(litellm["ft:gpt-3.5-turbo-0125"]?.output_cost_per_token).toBe(6e-6);
  });

  it("Bedrock's regional Claude keys keep their 10 % premium, in both exports", () => {
    const regional = Object.keys(RECORDED_LITELLM).filter((k) =>
      /^(us|jp|au|eu|apac)\.anthropic\.claude-sonnet-4-5-20250929-v1:0$/.test(k),
    );
    expect(regional.length).toBeGreaterThanOrEqual(4);
    const base = Number(litellm["anthropic.claude-sonnet-4-5-20250929-v1:0"]?.input_cost_per_token);
    expect(base).toBe(3e-6);
    for (const key of regional) expect(Number(litellm[key]?.input_cost_per_token) / base, key).toBeCloseTo(1.1, 6);
    const au = modelsDev["amazon-bedrock"]?.models["au.anthropic.claude-opus-4-6-v1"]?.cost;
    expect(au?.input).toBe(5.5);
    expect(au?.output).toBe(27.5);
  });

  it("models.dev's Gemini 2.5 Flash Image output is the image-token price, as models.dev states it", () => {
    const image = modelsDev.google?.models["gemini-2.5-flash-image"]?.cost;
    expect(image?.output).toBe(30);
    const recordedImage = (RECORDED_MODELS_DEV.google as { models: Record<string, { cost: { output: number } }> })
      .models["gemini-2.5-flash-image"]?.cost;
    expect(image?.output).toBe(recordedImage?.output);
    // OpenRouter's entry of the same model states the text price: it stays the text price.
    expect(modelsDev.openrouter?.models["google/gemini-2.5-flash-image"]?.cost?.output).toBe(2.5);
  });
});

describe("genai-prices keeps a key's meaning too (issue 38 §3, T352, T353)", () => {
  type GenaiModel = { id: string; match: unknown; prices: Record<string, unknown> };
  const modelOf = (provider: string, id: string) =>
    (genaiPrices as { id: string; models: GenaiModel[] }[])
      .find((p) => p.id === provider)
      ?.models.find((m) => m.id === id);
  const tariffPrice = (model: string, seller: string, direction: string, modality: string) =>
    view.dataset.prices.find(
      (p) =>
        p.modelId === model &&
        p.seller === seller &&
        p.tier === "standard" &&
        p.cache === "none" &&
        p.contextMin === 0 &&
        p.direction === direction &&
        p.modality === modality,
    )?.amount;

  it("audio tokens are priced as audio, not at the text price (gpt-realtime)", () => {
    const realtime = modelOf("openai", "gpt-realtime")?.prices;
    const audioIn = tariffPrice("openai/gpt-realtime", "openai", "input", "audio");
    expect(audioIn).toBeGreaterThan(Number(realtime?.input_mtok) * 2);
    expect(realtime?.input_audio_mtok).toBe(audioIn);
    expect(realtime?.output_audio_mtok).toBe(tariffPrice("openai/gpt-realtime", "openai", "output", "audio"));
  });

  it("Gemini 2.5 Flash Image's image tokens cost what genai-prices' file says (30), its text output 2.50", () => {
    const recordedImage = (RECORDED_GENAI_PRICES as { id: string; models: GenaiModel[] }[])
      .find((p) => p.id === "google")
      ?.models.find((m) => m.id === "gemini-2.5-flash-image")?.prices;
    const image = modelOf("google", "gemini-2.5-flash-image")?.prices;
    expect(recordedImage?.output_mtok).toBe(30);
    expect(image?.output_image_mtok).toBe(30);
    expect(image?.output_mtok).toBe(2.5);
  });

  it("Novita's bf16 key is not the default's price: no model takes its id or matches it", () => {
    const novita = (genaiPrices as { id: string; models: GenaiModel[] }[]).find((p) => p.id === "novita")!;
    const bf16 = "meta-llama/llama-3.1-8b-instruct-bf16";
    expect(novita.models.map((m) => m.id)).toContain("meta-llama/llama-3.1-8b-instruct");
    for (const m of novita.models) {
      expect(m.id).not.toBe(bf16);
      expect(JSON.stringify(m.match)).not.toContain(`"${bf16}"`);
    }
  });
});

describe("the path form of at, for clients that append a file name (issue 38 §6, T314)", () => {
  it("OpenCode's OPENCODE_MODELS_URL=<origin>/api/v1/at/2026-03-01/exports/models-dev gets the export as of that day", async () => {
    const byPath = await server.get("/api/v1/at/2026-03-01/exports/models-dev/api.json");
    const byQuery = await server.get(`${MODELS_DEV_PATH}?at=2026-03-01`);
    expect(byPath.status).toBe(200);
    expect(byPath.headers.get("x-dataset-version")).toBe(byQuery.headers.get("x-dataset-version"));
    expect(byPath.headers.get("x-dataset-version")!.slice(0, 10)).toBe("2026-03-01");
    expect(await byPath.text()).toBe(await byQuery.text());
    // A date that is no date is the same 400 as `?at=` gives; `at` in both forms is given twice.
    expect((await server.get("/api/v1/at/2026-02-30/exports/models-dev/api.json")).status).toBe(400);
    expect((await server.get("/api/v1/at/2026-03-01/exports/models-dev/api.json?at=2026-03-01")).status).toBe(400);
  });
});
