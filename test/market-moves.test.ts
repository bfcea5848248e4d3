import { describe, expect } from "vitest";
import type { ApiChange } from "../src/catalogue/schemas.js";
import type { PublishedChange } from "../src/domain/change.js";
import type { Dataset } from "../src/domain/dataset.js";
import { bindShared } from "./fixtures.js";
import { readReplayStore, type TestServer } from "./harness.js";

// Issue 52's Must-show examples on the replay of the bundled payloads, where the bundled data has a
// case like the (the issue's own examples came from never-seen payloads; its LiteLLM
// grok-code-fast-1 repoint and Azure > 272K bracket are pinned on invented rows in
// src/core/market-moves.test.ts).
let server: TestServer;
let changes: PublishedChange[];
let june: Dataset;
const MAY = "2026-05-01T00:00:00.000Z";
const JUNE = "2026-06-01T00:00:00.000Z";

// The worker's shared API server (test/fixtures.ts, T274), with the change records and the June
// version read once from the replay's store.
const it = bindShared("apiServer", async (_view, boundServer) => {
  server = boundServer;
  [changes, june] = await readReplayStore(async (store) => [
    await store.loadChanges(),
    (await store.loadDataset(JUNE))!,
  ]);
});

async function json<T>(path: string): Promise<T> {
  const res = await server.get(path);
  expect(res.status, path).toBe(200);
  return ((await res.json()) as { data: T }).data;
}

describe("seller identity across runs (issue 52 §1, T493)", () => {
  it("models.dev's firmware → frogbot (2026-06-01) is one rename, not removals plus additions", async () => {
    expect(june.run.summary.sellerRenames).toEqual([
      { source: "models-dev", from: "firmware", to: "frogbot", aliases: ["firmware", "frogbot"] },
    ]);
    // Before: firmware's offers served on stale, every frogbot offer `coverage_added`.
    expect(june.prices.filter((p) => p.seller === "firmware")).toEqual([]);
    const juneChanges = changes.filter((c) => c.publishedIn === JUNE);
    expect(juneChanges.filter((c) => c.seller === "firmware")).toEqual([]);
    // Kept offers (claude-opus-4-6 was listed by both names) make no change; new models are additions;
    // the removals are the offers firmware itself dropped in May (graced a run, dated then, T174).
    const frogbot = juneChanges.filter((c) => c.seller === "frogbot");
    expect(frogbot.filter((c) => c.modelId === "anthropic/claude-opus-4-6")).toEqual([]);
    expect(frogbot.filter((c) => c.kind === "coverage_added").length).toBeGreaterThan(0);
    for (const c of frogbot) expect(["coverage_added", "price_added", "price_removed"]).toContain(c.kind);
    const removed = frogbot.filter((c) => c.kind === "price_removed");
    expect(removed.map((c) => c.occurredAt)).toEqual(removed.map(() => MAY));
    expect(june.prices.some((p) => p.seller === "frogbot" && p.modelId === "anthropic/claude-opus-4-6")).toBe(true);
  });

  it("the store keeps the seller's API base URL in the source's last good listings, which the next rename reads (T515)", async () => {
    const states = await readReplayStore((store) => store.loadSourceStates());
    const frogbot = states.get("models-dev")?.listings.filter((l) => l.seller === "frogbot") ?? [];
    expect(frogbot.length).toBeGreaterThan(0);
    expect(new Set(frogbot.map((l) => l.sellerApi))).toEqual(new Set(["https://app.frogbot.ai/api/v1"]));
  });
});

describe("currency moves are not price moves (issue 52 §2, T494)", () => {
  it("Berget.AI's euro list ×1.1 on 2026-05-01 is currency_change; its two bigger moves stay increases", async () => {
    const berget = changes.filter((c) => c.publishedIn === MAY && c.seller === "berget" && c.oldAmount !== null);
    const kinds = berget.map((c) => [c.modelId, c.label.split(" ")[0], c.kind, c.oldAmount, c.newAmount]);
    expect(kinds).toEqual(
      expect.arrayContaining([
        ["meta/llama-3.3-70b-instruct", "Input", "currency_change", 0.9, 0.99],
        ["openai/gpt-oss-120b", "Input", "price_increase", 0.3, 0.44],
        ["zai/glm-4.7", "Output", "price_increase", 2.3, 2.75],
      ]),
    );
    expect(berget.filter((c) => c.kind === "currency_change")).toHaveLength(6);
    const shown = await json<ApiChange[]>("/api/v1/changes?days=90&q=berget&limit=500");
    expect(shown.some((c) => c.kind === "currency_change")).toBe(false);
    const asked = await json<ApiChange[]>("/api/v1/changes?days=90&kind=currency_change&limit=500");
    expect(asked.length).toBeGreaterThanOrEqual(6);
  });
});

describe("one recorder's word is not the market (issue 52 §3, §4, T495, T496)", () => {
  it("a lone direct move that is coherent (T170) is the market, not held: Grok 4.20 input 2 → 1.25", async () => {
    // models.dev alone moved every Grok 4.20 price on 2026-06-01 (maker-wide, T170), LiteLLM and Portkey
    // lagging: a real cut (issue 24's Must show), published. No bundled run holds a lone move (the
    // rule's case, a lone move that is no coherent one, is pinned on invented rows).
    const input = june.prices.find(
      (p) => p.modelId === "xai/grok-4.20-0309-reasoning" && p.channel === "direct" && p.label === "Input",
    );
    expect(input?.amount).toBe(1.25);
    expect(input?.observations.some((o) => o.loneMove === true)).toBe(false);
    const sources = await json<{ source: string; rejectedByReason: Record<string, number> }[]>("/api/v1/sources");
    expect(sources.filter((s) => (s.rejectedByReason.lone_move ?? 0) > 0)).toEqual([]);
  });

  it("a removal one recorder made while another source lists the offer is held, visible in /sources", async () => {
    const held = june.prices.filter((p) => p.staleSince !== null && p.observations.every((o) => !o.fresh));
    expect(held.length).toBeGreaterThan(0);
    const sources = await json<{ source: string; rejectedByReason: Record<string, number> }[]>("/api/v1/sources");
    const counted = sources.reduce((n, s) => n + (s.rejectedByReason.removal_held ?? 0), 0);
    expect(counted).toBeGreaterThan(0);
  });
});
