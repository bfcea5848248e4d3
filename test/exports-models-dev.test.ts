import { describe, expect } from "vitest";
import { z } from "zod";
import type { CatalogueView } from "../src/catalogue/view.js";
import { canonicalSeller, planKind } from "../src/domain/sellers.js";
import { modelRecord, newestDate, recorded, tokenPrice } from "./exports-support.js";
import { bindShared } from "./fixtures.js";
import type { TestServer } from "./harness.js";

// Issue 29 §1–2, T214: the `models-dev` export read as OpenCode reads models.dev's api.json
// (OPENCODE_MODELS_URL=<origin>/api/v1/exports/models-dev): the same tree as the recorded file of
// the newest date, walked side by side; Tariff's direct prices on the famous models (read from the
// API in the test); coding-plan models never $0.
const PATH = "/api/v1/exports/models-dev/api.json";
type Tree = Record<string, Record<string, unknown> & { models: Record<string, Record<string, unknown>> }>;

let server: TestServer;
let view: CatalogueView;
let tree: Tree;
const DATE = newestDate("models-dev");
const RECORDED = recorded<Tree>("models-dev", DATE, "api.json");

// The worker's shared replay and export server (test/fixtures.ts, T274), bound before the file's first test, the exported file read.
const it = bindShared("exportServer", async (boundView, boundServer) => {
  view = boundView;
  server = boundServer;
  const res = await server.get(PATH);
  expect(res.status).toBe(200);
  tree = (await res.json()) as Tree;
});

/** The JSON kind of a value: what "the same structure" compares. */
const kind = (v: unknown) => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v);

/**
 * Walks two JSON trees side by side and lists every path where the export lacks the recorded value's
 * place, kind or value. `cost` subtrees are Tariff's (compared apart); `tariff` is the export's own note.
 */
function walk(recordedValue: unknown, exported: unknown, path: string, out: string[]): void {
  if (kind(recordedValue) !== kind(exported)) {
    out.push(`${path}: ${kind(recordedValue)} → ${kind(exported)}`);
    return;
  }
  if (kind(recordedValue) === "object") {
    const r = recordedValue as Record<string, unknown>;
    const e = exported as Record<string, unknown>;
    for (const key of Object.keys(r)) {
      if (key === "cost") continue;
      if (!(key in e)) out.push(`${path}/${key}: missing`);
      else walk(r[key], e[key], `${path}/${key}`, out);
    }
  } else if (kind(recordedValue) === "array") {
    const r = recordedValue as unknown[];
    const e = exported as unknown[];
    if (r.length !== e.length) out.push(`${path}: ${r.length} items → ${e.length}`);
    else for (const [i, item] of r.entries()) walk(item, e[i], `${path}/${i}`, out);
  } else if (recordedValue !== exported) out.push(`${path}: ${String(recordedValue)} → ${String(exported)}`);
}

// The fields OpenCode reads, as its provider schema declares them (packages/opencode/src/provider/
// models.ts in anomalyco/opencode: Provider {id, name, env, npm?, api?, models}; Model {id, name,
// release_date, attachment, reasoning, temperature, tool_call, limit {context, output}, cost?
// {input, output, cache_read?, cache_write?, context_over_200k?}}), written out with zod here.
const OpenCodeCost = z.object({
  input: z.number(),
  output: z.number(),
  cache_read: z.number().optional(),
  cache_write: z.number().optional(),
  context_over_200k: z
    .object({
      input: z.number(),
      output: z.number(),
      cache_read: z.number().optional(),
      cache_write: z.number().optional(),
    })
    .optional(),
});
const OpenCodeModel = z.object({
  id: z.string(),
  name: z.string(),
  release_date: z.string(),
  attachment: z.boolean(),
  reasoning: z.boolean(),
  temperature: z.boolean(),
  tool_call: z.boolean(),
  cost: OpenCodeCost.optional(),
  limit: z.object({ context: z.number(), input: z.number().optional(), output: z.number() }),
});
const OpenCodeProvider = z.object({
  id: z.string(),
  name: z.string(),
  env: z.array(z.string()),
  models: z.record(z.string(), z.unknown()),
});

describe("the same tree as models.dev's api.json", () => {
  it(`walks with the structure of the recorded file of ${DATE}: every provider, model and field, same kinds`, () => {
    expect(Object.keys(RECORDED).length).toBeGreaterThan(100);
    expect(Object.keys(tree)).toEqual(Object.keys(RECORDED));
    const diffs: string[] = [];
    walk(RECORDED, tree, "", diffs);
    expect(diffs.slice(0, 20)).toEqual([]);
    let models = 0;
    for (const [p, provider] of Object.entries(RECORDED)) {
      expect(Object.keys(tree[p]!.models)).toEqual(Object.keys(provider.models));
      models += Object.keys(provider.models).length;
    }
    expect(models).toBeGreaterThan(4000);
  });

  it("OpenCode reads every provider and model it reads in the recorded file", () => {
    for (const [p, provider] of Object.entries(RECORDED)) {
      expect(OpenCodeProvider.safeParse(tree[p]).success, p).toBe(OpenCodeProvider.safeParse(provider).success);
      for (const [key, model] of Object.entries(provider.models)) {
        const exported = tree[p]!.models[key];
        if (OpenCodeModel.safeParse(model).success)
          expect(OpenCodeModel.safeParse(exported).error?.issues ?? [], `${p}/${key}`).toEqual([]);
      }
    }
  });

  it("every model carries its Tariff page and the dataset version; unplaced models keep models.dev's cost", () => {
    let placed = 0;
    let unplaced = 0;
    for (const provider of Object.values(tree))
      for (const model of Object.values(provider.models)) {
        const note = model.tariff as { datasetVersion: string; url?: string; reconciled: boolean };
        expect(note.datasetVersion).toBe(view.version);
        if (note.url) {
          expect(note.url).toMatch(new RegExp(`^${server.base}/m/[^/]+/.+`));
          placed++;
        } else unplaced++;
      }
    expect(placed).toBeGreaterThan(3000);
    expect(unplaced).toBeGreaterThan(0);
  });
});

const FAMOUS: readonly [string, string, string][] = [
  ["anthropic", "claude-sonnet-4-5", "anthropic/claude-sonnet-4-5"],
  ["anthropic", "claude-opus-4-1", "anthropic/claude-opus-4-1"],
  ["anthropic", "claude-haiku-4-5", "anthropic/claude-haiku-4-5"],
  ["openai", "gpt-4o", "openai/gpt-4o"],
  ["openai", "gpt-4.1", "openai/gpt-4.1"],
  ["openai", "gpt-5", "openai/gpt-5"],
  ["openai", "o3", "openai/o3"],
  ["google", "gemini-2.5-pro", "google/gemini-2.5-pro"],
  ["google", "gemini-2.5-flash", "google/gemini-2.5-flash"],
  ["deepseek", "deepseek-chat", "deepseek/deepseek-chat"],
  ["deepseek", "deepseek-reasoner", "deepseek/deepseek-reasoner"],
  ["openai", "gpt-4o-mini", "openai/gpt-4o-mini"],
];

describe("the famous models at Tariff's direct prices", () => {
  it.each(FAMOUS)("%s/%s → %s", async (provider, key, id) => {
    const model = await modelRecord(server, id);
    const exported = tree[provider]!.models[key]!;
    const cost = exported.cost as Record<string, unknown>;
    expect(exported.tariff).toMatchObject({ model: model.id, reconciled: true, url: `${server.base}/m/${model.id}` });
    expect(cost.input).toBe(tokenPrice(model, "input")!.amount);
    expect(cost.output).toBe(tokenPrice(model, "output")!.amount);
    expect(cost.cache_read).toBe(tokenPrice(model, "input", "read")?.amount);
    const long = tokenPrice(model, "input", "none", { contextMin: 200_000 });
    if (long) expect((cost.context_over_200k as Record<string, unknown>).input).toBe(long.amount);
  });
});

describe("plans", () => {
  it("coding-plan and token-plan models are never $0: included in the plan, without a money cost", () => {
    let plans = 0;
    for (const [p, provider] of Object.entries(tree)) {
      if (planKind(canonicalSeller(p)) === null) continue;
      for (const [key, model] of Object.entries(provider.models)) {
        plans++;
        const cost = model.cost as Record<string, number> | undefined;
        if (cost) expect(cost.input === 0 && cost.output === 0, `${p}/${key}`).toBe(false);
        else expect((model.tariff as Record<string, unknown>).includedInPlan, `${p}/${key}`).toBe(true);
      }
    }
    expect(plans).toBeGreaterThan(20);
    const kimi = tree["kimi-for-coding"]!.models["kimi-k2-thinking"]!;
    expect((RECORDED["kimi-for-coding"]!.models["kimi-k2-thinking"]!.cost as Record<string, number>).input).toBe(0);
    expect(kimi.cost).toBeUndefined();
    expect(kimi.tariff).toMatchObject({ includedInPlan: true });
  });
});
