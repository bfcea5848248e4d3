import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import type { CatalogueView } from "../src/catalogue/view.js";
import { resolveModelId } from "../src/catalogue/view.js";
import { type IdentityResult, resolveIdentities } from "../src/core/identity/resolve.js";
import { keyOf, strippedForms } from "../src/core/identity/spelling.js";
import { SELLER_PREFIXES } from "../src/core/identity/spelling-rules.js";
import { comparableName } from "../src/core/model-names.js";
import type { Dataset } from "../src/domain/dataset.js";
import { MAKERS } from "../src/domain/sellers.js";
import { loadReplay } from "./harness.js";
import { recordedListings } from "./recorded-payloads.js";

/**
 * Identity golden files (issue 12 "Must show"): real spellings from the recorded payloads of all
 * seven sources → the canonical id and channel; pairs that must stay two models; resales under
 * their true maker. They grow with every identity bug found.
 */
function golden(name: string): string[][] {
  return readFileSync(`test/golden/${name}`, "utf8")
    .split("\n")
    .filter((l) => l.length > 0 && !l.startsWith("#"))
    .map((l) => l.split("\t"));
}

const runs = new Map<string, IdentityResult>();
function run(date: string): IdentityResult {
  let r = runs.get(date);
  if (!r) {
    r = resolveIdentities(recordedListings(date));
    runs.set(date, r);
  }
  return r;
}

const placed = new Map<string, Map<string, { modelId: string; channel: string }>>();
/** `source|seller|spelling` → where it landed in a run (indexed once per date). */
function placements(date: string): Map<string, { modelId: string; channel: string }> {
  let out = placed.get(date);
  if (!out) {
    out = new Map();
    for (const r of run(date).resolved)
      out.set(`${r.source}|${r.listing.seller}|${r.listing.model}`, { modelId: r.modelId, channel: r.channel });
    placed.set(date, out);
  }
  return out;
}

describe("golden spellings → canonical ids (D1)", () => {
  const rows = golden("identity-spellings.tsv");
  it("holds at least 200 real spellings from all seven sources and the named sellers", () => {
    expect(rows.length).toBeGreaterThanOrEqual(200);
    expect(new Set(rows.map((r) => r[1]))).toEqual(
      new Set(["models-dev", "genai-prices", "llm-prices", "portkey", "openrouter", "litellm", "official-anthropic"]),
    );
    const sellers = new Set(rows.map((r) => r[2]));
    for (const s of [
      "amazon-bedrock",
      "google-vertex",
      "azure",
      "openrouter",
      "togetherai",
      "databricks",
      "ollama-cloud",
      "cerebras",
      "chutes",
      "fireworks-ai",
      "groq",
    ])
      expect(sellers.has(s), s).toBe(true);
  });

  it("every spelling resolves to its canonical id and channel", () => {
    const wrong: string[] = [];
    for (const [date, source, seller, spelling, id, channel] of rows) {
      const at = placements(date!).get(`${source}|${seller}|${spelling}`);
      if (!at || at.modelId !== id || at.channel !== channel)
        wrong.push(
          `${source} ${seller} ${spelling}: ${at ? `${at.modelId} ${at.channel}` : "unmatched"} ≠ ${id} ${channel}`,
        );
    }
    expect(wrong).toEqual([]);
  });
});

describe("golden pairs that stay two models (D1)", () => {
  const pairs = golden("identity-apart.tsv");
  it("holds at least 40 pairs, every one two models", () => {
    expect(pairs.length).toBeGreaterThanOrEqual(40);
    const ids = new Map<string, Set<string>>();
    for (const r of run("2026-06-01").resolved) {
      const k = r.listing.model.toLowerCase();
      ids.set(k, (ids.get(k) ?? new Set<string>()).add(r.modelId));
    }
    const wrong: string[] = [];
    for (const [a, b] of pairs) {
      const A = ids.get(a!);
      const B = ids.get(b!);
      if (!A || !B) wrong.push(`${a} / ${b}: not both in the payloads`);
      else if ([...A].some((id) => B.has(id))) wrong.push(`${a} / ${b}: one model ${[...A].join(",")}`);
    }
    expect(wrong).toEqual([]);
  });
});

describe("golden resales: the true maker, the reseller in its channel (§6)", () => {
  const rows = golden("identity-resold.tsv");
  it("holds at least 30 resales, none of them a direct price nor under the seller", () => {
    expect(rows.length).toBeGreaterThanOrEqual(30);
    const byListing = new Map<string, { modelId: string; channel: string }>();
    for (const r of run("2026-06-01").resolved)
      byListing.set(`${r.listing.seller}|${r.listing.model}`, { modelId: r.modelId, channel: r.channel });
    for (const [seller, spelling, id, channel] of rows) {
      const at = byListing.get(`${seller}|${spelling}`);
      expect(at, `${seller} ${spelling}`).toEqual({ modelId: id, channel });
      expect(channel).not.toBe("direct");
      expect(id!.split("/")[0]).not.toBe(seller);
    }
  });
});

describe("nothing is lost silently (§4)", () => {
  it.each(["2025-07-01", "2025-12-01", "2026-06-01"])(
    "%s: every listing and observation lands on a model and channel or is counted unmatched",
    (date) => {
      const inputs = recordedListings(date);
      const r = run(date);
      const listings = inputs.reduce((n, s) => n + s.listings.length, 0);
      const observations = inputs.reduce((n, s) => n + s.listings.reduce((m, l) => m + l.prices.length, 0), 0);
      expect(r.resolved.length + r.unmatched.length).toBe(listings);
      expect(
        r.resolved.reduce((n, x) => n + x.listing.prices.length, 0) +
          r.unmatched.reduce((n, u) => n + u.observations, 0),
      ).toBe(observations);
      const counted = [...r.unresolved.values()].reduce((a, b) => a + b, 0);
      expect(counted).toBe(r.unmatched.length);
      for (const u of r.unmatched) expect(u.reason.length).toBeGreaterThan(0);
    },
  );
});

describe("the published catalogue after the replay", () => {
  let dataset: Dataset;
  let view: CatalogueView;
  beforeAll(async () => {
    const replay = await loadReplay();
    dataset = replay.dataset;
    view = replay.view;
    await replay.store.close();
  });
  const listed = () => dataset.models.filter((m) => m.listed);
  const price = (id: string, channel: string, label: string) =>
    dataset.prices.find((p) => p.modelId === id && p.channel === channel && p.label === label);

  it("no model is a reseller's spelling of another: no seller prefix, no serving suffix beside its base", () => {
    const ids = new Set(listed().map((m) => m.id));
    const decorated: string[] = [];
    // A maker's own id that ends like a serving suffix (`gpt-4-turbo`, `grok-4-fast`) is a model of its
    // own: the maker lists it. Only a spelling no maker lists may not stand beside its base.
    const direct = new Set(dataset.prices.filter((p) => p.channel === "direct").map((p) => p.modelId));
    for (const m of listed().filter((x) => !direct.has(x.id))) {
      const key = keyOf(m.slug);
      if (SELLER_PREFIXES.some((p) => key.startsWith(`${p}-`) && ids.has(`${m.provider}/${key.slice(p.length + 1)}`)))
        decorated.push(m.id);
      for (const form of strippedForms(key, () => false))
        if (
          form.qualifiers.variant !== "thinking" &&
          listed().some((o) => o.provider === m.provider && keyOf(o.slug) === form.key)
        )
          decorated.push(`${m.id} (${form.key})`);
    }
    expect(decorated).toEqual([]);
  });

  it("no two models of a maker share a display name", () => {
    const names = new Map<string, string[]>();
    for (const m of listed()) {
      const k = `${m.provider}|${comparableName(m.name)}`;
      names.set(k, [...(names.get(k) ?? []), m.id]);
    }
    expect([...names.values()].filter((ids) => ids.length > 1)).toEqual([]);
  });

  it("closed-weights models of the six big makers nearly all have a direct price (≤ 5 %)", () => {
    const big = ["anthropic", "openai", "google", "mistral", "deepseek", "xai"];
    const closed = listed().filter((m) => big.includes(m.provider) && !m.openWeights);
    const direct = new Set(dataset.prices.filter((p) => p.channel === "direct").map((p) => p.modelId));
    const without = closed.filter((m) => !direct.has(m.id));
    expect(closed.length).toBeGreaterThan(200);
    expect(without.length / closed.length).toBeLessThanOrEqual(0.05);
  });

  it("maker list prices hold: Claude Opus 4 direct 15 / 75 with a Bedrock channel; Mistral Small 2603 0.15 / 0.6; Nova Pro direct", () => {
    expect(price("anthropic/claude-opus-4-0", "direct", "Input")?.amount).toBe(15);
    expect(price("anthropic/claude-opus-4-0", "direct", "Output")?.amount).toBe(75);
    expect(dataset.prices.some((p) => p.modelId === "anthropic/claude-opus-4-0" && p.channel === "reseller_2")).toBe(
      true,
    );
    expect(price("mistral/mistral-small-2603", "direct", "Input")?.amount).toBe(0.15);
    expect(price("mistral/mistral-small-2603", "direct", "Output")?.amount).toBe(0.6);
    expect(dataset.prices.some((p) => p.modelId === "amazon/nova-pro" && p.channel === "direct")).toBe(true);
  });

  it("no router variant (:extended, :free, :nitro…) among any model's direct prices", () => {
    const variants = new Set(["extended", "free", "nitro", "floor", "exacto", "online", "beta"]);
    const leaked = dataset.prices.filter((p) => p.channel === "direct" && variants.has(p.qualifiers.variant ?? ""));
    expect(leaked.map((p) => `${p.modelId} ${p.label}`)).toEqual([]);
  });

  it("/providers holds makers only: no router, host, search API or re-uploader, no maker twice", () => {
    const slugs = new Set(dataset.providers.map((p) => p.slug));
    // Spelled out here, not imported from maker-rules.ts: what the catalogue must never call a maker.
    // (Mancer, a host, is the maker of its own Weaver since issue 25, T183.)
    const notMakers =
      "switchpoint trytako pamanseau meganova-ai featherless-ai infermatic openrouter kwaipilot alibaba-nlp";
    for (const notMaker of notMakers.split(" ")) expect(slugs.has(notMaker), notMaker).toBe(false);
    const names = dataset.providers.map((p) => p.name.toLowerCase());
    expect(new Set(names).size).toBe(names.length);
    for (const [slug, name] of [
      ["zero-one-ai", "01.AI"],
      ["anthropic", MAKERS.anthropic!.name],
    ] as const)
      expect(dataset.providers.find((p) => p.slug === slug)?.name, slug).toBe(name);
  });

  it("unknown limits are null, never 0 (D4)", () => {
    expect(listed().filter((m) => m.contextWindow === 0 || m.maxOutputTokens === 0)).toEqual([]);
  });

  it("aliases never hold the model's own slug nor another listed model's", () => {
    const ids = new Set(listed().map((m) => m.id));
    for (const m of listed()) {
      expect(m.aliases).not.toContain(m.slug);
      for (const a of m.aliases) expect(ids.has(`${m.provider}/${a}`), `${m.id} alias ${a}`).toBe(false);
    }
  });

  it("every model id a change record or a history names answers: a model or an alias of one (§8)", () => {
    const named = new Set([...view.changes.map((c) => c.change.modelId), ...view.history.keys()]);
    const lost = [...named].filter((id) => resolveModelId(view, id) === null);
    expect(named.size).toBeGreaterThan(100);
    expect(lost).toEqual([]);
  });

  it("every spelling of a family answers 200 or 308 to one model carrying every channel's price (issue 25 §1–§5)", () => {
    const rows = golden("identity-families.tsv");
    expect(rows.length).toBeGreaterThanOrEqual(15);
    const wrong: string[] = [];
    for (const [id, answers, wanted] of rows) {
      if (view.byId.get(id!)?.model.listed !== true) wrong.push(`${id}: no listed model`);
      for (const other of (answers ?? "").split(" ").filter(Boolean))
        if (resolveModelId(view, other) !== id)
          wrong.push(`${other} answers as ${resolveModelId(view, other)}, not ${id}`);
      for (const want of (wanted ?? "").split(" ").filter(Boolean)) {
        const [where, amounts] = want.split("=");
        const [channel, seller] = where!.split(":");
        const at = (label: string) =>
          dataset.prices.find(
            (p) => p.modelId === id && p.channel === channel && p.seller === seller && p.label === label,
          )?.amount;
        if (amounts === "*") {
          if (at("Input") === undefined) wrong.push(`${id}: no ${where} input price`);
          continue;
        }
        const [input, output] = amounts!.split("/").map(Number);
        if (at("Input") !== input || at("Output") !== output)
          wrong.push(`${id} ${where}: ${at("Input")} / ${at("Output")} ≠ ${input} / ${output}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it("display names are the maker's or written its way, never a slug (issue 25 §4)", () => {
    const wrong = golden("identity-names.tsv")
      .filter(([id, name]) => dataset.models.find((m) => m.id === id)?.name !== name)
      .map(([id, name]) => `${id}: ${dataset.models.find((m) => m.id === id)?.name} ≠ ${name}`);
    expect(wrong).toEqual([]);
    // The six big makers name their models: at most the maker's own names that are their ids
    // (GPT-4o, o3, Codestral…) equal a slug but for case.
    const big = ["anthropic", "openai", "google", "mistral", "deepseek", "xai"];
    const bySlug = listed().filter((m) => m.name.toLowerCase() === m.slug.toLowerCase());
    expect(bySlug.filter((m) => big.includes(m.provider)).length).toBeLessThanOrEqual(20);
    expect(bySlug.length).toBeLessThan(200);
    // and none is the raw slug itself among them
    expect(bySlug.filter((m) => big.includes(m.provider) && m.name === m.slug && /-/.test(m.slug))).toEqual([]);
  });

  it("no model under a host that another maker made, and no fine-tuning id as a model (issue 25 §2, §3)", () => {
    const hosts = listed().filter((m) => m.provider === "togethercomputer" || m.provider === "nvidia");
    expect(hosts.length).toBeGreaterThan(10);
    // Another maker's family under a host, the host's own Nemotron (on Llama) and LLaMA-2-7B-32K aside
    const othersFamily = /^(llama-[234]|codellama|falcon|qwen|alpaca|deepseek|kimi|gemma|mistral|mixtral)/;
    const hostsOwn = /nemotron|nemoretriever|^llama-2-7b-32k$/;
    expect(hosts.filter((m) => othersFamily.test(m.slug) && !hostsOwn.test(m.slug)).map((m) => m.id)).toEqual([]);
    expect(listed().filter((m) => /^ft-|\.ft$|-ft$/.test(m.slug))).toEqual([]);
  });

  it("a merge keeps the first sighting: Claude Sonnet 4.5 was first seen with the 2025-10-01 run", () => {
    const sonnet = dataset.models.find((m) => m.id === "anthropic/claude-sonnet-4-5");
    expect(sonnet?.firstSeenAt.slice(0, 10)).toBe("2025-10-01");
  });
});
