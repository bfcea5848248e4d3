import { describe, expect, it } from "vitest";
import { inventedDataset, inventedPrice } from "../../test/invented-datasets.js";
import type { PublishedPrice } from "../domain/dataset.js";
import {
  countMakerCorrections,
  deltaPct,
  detectChanges,
  newHistoryPoints,
  refinesPrecision,
} from "./detect-changes.js";

// Invented two-version datasets (test/invented-datasets.ts): each kind of D5/D6 is pinned on the
// smallest case. Real moves of the bundled data are pinned in test/changes-history.test.ts.
const price = inventedPrice;
const dataset = inventedDataset;

const V1 = "2026-01-01T00:00:00.000Z";
const V2 = "2026-02-01T00:00:00.000Z";

describe("detectChanges (D5, D6)", () => {
  it("records nothing for the first run of an empty store", () => {
    expect(detectChanges(null, dataset(V1, [price("acme/a", "Input", 1)]))).toEqual([]);
  });

  it("records nothing between identical versions", () => {
    const prices = [price("acme/a", "Input", 1), price("acme/a", "Output", 2)];
    expect(detectChanges(dataset(V1, prices), dataset(V2, prices))).toEqual([]);
  });

  it("price moves carry both amounts and deltaPct rounded to 2 decimals", () => {
    const [change] = detectChanges(
      dataset(V1, [price("acme/a", "Input", 0.57)]),
      dataset(V2, [price("acme/a", "Input", 0.28)]),
    );
    expect(change).toMatchObject({
      kind: "price_decrease",
      oldAmount: 0.57,
      newAmount: 0.28,
      deltaPct: -50.88,
      occurredAt: V2,
    });
    expect(change?.modelName).toBe("Model acme/a");
  });

  it("deltaPct is null when the old amount is 0", () => {
    expect(deltaPct(0, 1)).toBeNull();
    expect(deltaPct(2, 2.5)).toBe(25);
  });
});

describe("detectChanges (D5, D6): the kind of each change", () => {
  it("a new model's first prices are price_added; a new dimension of a sold model too", () => {
    const changes = detectChanges(
      dataset(V1, [price("acme/a", "Input", 1)]),
      dataset(V2, [
        price("acme/a", "Input", 1),
        price("acme/a", "Input (cache read)", 0.1),
        price("acme/b", "Input", 3),
      ]),
    );
    expect(changes.map((c) => [c.modelId, c.label, c.kind, c.oldAmount, c.newAmount, c.deltaPct])).toEqual([
      ["acme/a", "Input (cache read)", "price_added", null, 0.1, null],
      ["acme/b", "Input", "price_added", null, 3, null],
    ]);
  });

  it("a channel starting to sell a known model is coverage_added", () => {
    const changes = detectChanges(
      dataset(V1, [price("acme/a", "Input", 1)]),
      dataset(V2, [
        price("acme/a", "Input", 1),
        price("acme/a", "Input", 1.2, { channel: "reseller_1", seller: "openrouter" }),
      ]),
    );
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({ kind: "coverage_added", channel: "reseller_1", newAmount: 1.2 });
  });

  it("a disappearing dimension is price_removed with the last amount", () => {
    const [change] = detectChanges(
      dataset(V1, [price("acme/a", "Input", 1), price("acme/a", "Output", 2)]),
      dataset(V2, [price("acme/a", "Input", 1)]),
    );
    expect(change).toMatchObject({
      kind: "price_removed",
      label: "Output",
      oldAmount: 2,
      newAmount: null,
      deltaPct: null,
    });
  });

  it("another unit is unit_change with both amounts in their own units", () => {
    const [change] = detectChanges(
      dataset(V1, [price("acme/a", "Output", 0.04)]),
      dataset(V2, [price("acme/a", "Output", 40, { unit: "image", displayUnit: "USD per image" })]),
    );
    expect(change).toMatchObject({ kind: "unit_change", oldAmount: 0.04, newAmount: 40, deltaPct: null });
  });

  it("the same amount backed by another primary source is reference_changed with deltaPct 0", () => {
    const [change] = detectChanges(
      dataset(V1, [price("acme/a", "Input", 1, { sources: ["models-dev"] })]),
      dataset(V2, [price("acme/a", "Input", 1, { sources: ["litellm"] })]),
    );
    expect(change).toMatchObject({ kind: "reference_changed", oldAmount: 1, newAmount: 1, deltaPct: 0 });
  });
});

describe("newHistoryPoints (D17, point rules)", () => {
  it("adds a point per direct dimension whose amount differs from its series' last point", () => {
    const v2 = dataset(V2, [
      price("acme/a", "Input", 1),
      price("acme/a", "Output", 3),
      price("acme/a", "Input", 9, { channel: "reseller_1", seller: "openrouter" }),
    ]);
    const last = new Map([["acme/a|input|text|standard|none|0|||mtok", 1]]);
    const points = newHistoryPoints(v2, last);
    expect(points.map((p) => [p.label, p.date, p.amount])).toEqual([["Output", "2026-02-01", 3]]);
  });
});

/** Fresh observations of an invented price, as [source, amount, since?]. */
const obs = (...pairs: [string, number, string?][]) =>
  pairs.map(([source, amount, since]) => ({
    source: source as PublishedPrice["sources"][number],
    amount,
    fresh: true,
    ...(since ? { since } : {}),
  }));
/** The kind of the one change from a version publishing `before` to one publishing `after`. */
const move = (before: PublishedPrice, after: PublishedPrice) =>
  detectChanges(dataset(V1, [before]), dataset(V2, [after]))[0]?.kind;

describe("market moves only when the evidence moves (issue 14, T83, T84)", () => {
  it("two sources moving together is a market move", () => {
    expect(
      move(
        price("acme/a", "Input", 0.28, { observations: obs(["models-dev", 0.28], ["portkey", 0.28]) }),
        price("acme/a", "Input", 0.14, { observations: obs(["models-dev", 0.14, V2], ["portkey", 0.14, V2]) }),
      ),
    ).toBe("price_decrease");
  });

  it("another source taking over (a listing gone from one source) is reference_changed, not a move", () => {
    // OpenRouter qwen-turbo 0.13 → 0.2 in the replay: OpenRouter delisted it, a stale source took over.
    expect(
      move(
        price("acme/a", "Input", 0.13, { observations: obs(["openrouter", 0.13], ["litellm", 0.2]) }),
        price("acme/a", "Input", 0.2, { observations: obs(["litellm", 0.2]) }),
      ),
    ).toBe("reference_changed");
  });

  it("a source correcting itself toward what another said all along is reference_changed", () => {
    // claude-3-haiku-20240307 Input (cache write) 0.3 → 0.31 (invented amounts): the source moves
    // to what another stated all along.
    expect(
      move(
        price("acme/a", "Input", 0.3, { observations: obs(["models-dev", 0.3], ["official-anthropic", 0.31]) }),
        price("acme/a", "Input", 0.31, { observations: obs(["models-dev", 0.31, V2], ["official-anthropic", 0.31]) }),
      ),
    ).toBe("reference_changed");
  });

  it("a jump of 5× or more is never a reference_changed: the correction is shown among market moves (T176)", () => {
    // claude-3-opus-20240229 Input (cache write 1h) 6 → 30: the 30 was the maker's price all along.
    const fix = detectChanges(
      dataset(V1, [price("acme/a", "Input", 6, { observations: obs(["models-dev", 6], ["official-anthropic", 30]) })]),
      dataset(V2, [
        price("acme/a", "Input", 30, { observations: obs(["models-dev", 30, V2], ["official-anthropic", 30]) }),
      ]),
    );
    expect(fix).toMatchObject([{ kind: "price_increase", oldAmount: 6, newAmount: 30, deltaPct: 400 }]);
  });

  it("a source that saw the move a run earlier does not hide it", () => {
    expect(
      move(
        price("acme/a", "Input", 1.74, { observations: obs(["models-dev", 1.74], ["litellm", 0.435, V1]) }),
        price("acme/a", "Input", 0.435, { observations: obs(["models-dev", 0.435, V2], ["litellm", 0.435, V1]) }),
      ),
    ).toBe("price_decrease");
  });
});

describe("no removal while the seller still sells it (issue 14, T84, T87)", () => {
  it("a $0 key that stops appearing is no removal; a paid one is", () => {
    const zero = detectChanges(dataset(V1, [price("acme/a", "Input", 0)]), dataset(V2, []));
    expect(zero).toEqual([]);
    const paid = detectChanges(dataset(V1, [price("acme/a", "Input", 1)]), dataset(V2, []));
    expect(paid.map((c) => c.kind)).toEqual(["price_removed"]);
  });

  it("a listing that now backs another model is no removal; a listing gone from its source is (T87)", () => {
    // The replay's 2026-05: Alibaba lists qwen3-vl-30b-a3b-instruct and every reseller's
    // `Qwen3-VL-30B-A3B-Instruct` lands there instead of on qwen3-vl-30b-a3b.
    const listed = (modelId: string, listing: string) =>
      price(modelId, "Input", 0.15, {
        seller: "deepinfra",
        observations: [{ source: "portkey", amount: 0.15, fresh: true, listing }],
      });
    const before = dataset(V1, [listed("acme/vl", "Qwen/Qwen3-VL-30B-A3B-Instruct")]);
    const moved = detectChanges(before, dataset(V2, [listed("acme/vl-instruct", "Qwen/Qwen3-VL-30B-A3B-Instruct")]));
    expect(moved.map((c) => `${c.kind} ${c.modelId}`)).toEqual(["price_added acme/vl-instruct"]);
    const gone = detectChanges(before, dataset(V2, [listed("acme/vl-instruct", "Qwen/Qwen3-VL-30B-A3B-Thinking")]));
    expect(gone.map((c) => `${c.kind} ${c.modelId}`).sort()).toEqual([
      "price_added acme/vl-instruct",
      "price_removed acme/vl",
    ]);
  });
});

describe("a move is the seller's own list moving, beyond its rounding (T87, T88, T89)", () => {
  it("another listing of the same source taking over is reference_changed, not a move (T87)", () => {
    // aihubmix in the replay: its `qwen3.6-flash` (0.169) stood for qwen3.6-plus until its own
    // `qwen3.6-plus` listing (0.28) appeared in 2026-06.
    const by = (amount: number, listing: string, since?: string) =>
      price("acme/a", "Input", amount, {
        observations: [{ source: "models-dev", amount, fresh: true, listing, ...(since ? { since } : {}) }],
      });
    expect(move(by(0.169, "qwen3.6-flash"), by(0.28, "qwen3.6-plus", V2))).toBe("reference_changed");
    expect(move(by(0.169, "qwen3.6-plus"), by(0.28, "qwen3.6-plus", V2))).toBe("price_increase");
  });

  it("the seller's own list moving is a move even when another source had us publish something else (T88)", () => {
    // Devstral 2 on OpenRouter in the replay: OpenRouter's API said 0.05 until 2026-02, did not run in
    // 2026-03 (the other sources' 0.15 was published), and said 0.4 in 2026-04.
    const ev = (openrouter: number, fresh: boolean, since?: string): PublishedPrice["observations"] => [
      { source: "litellm", amount: 0.15, fresh: true },
      { source: "models-dev", amount: 0.15, fresh: true },
      {
        source: "openrouter",
        amount: openrouter,
        fresh,
        ...(fresh ? { authoritative: true } : {}),
        ...(since ? { since } : {}),
      },
    ];
    const march = price("acme/a", "Input", 0.15, { observations: ev(0.05, false) });
    const april = price("acme/a", "Input", 0.4, { confidence: "verified", observations: ev(0.4, true, V2) });
    expect(move(march, april)).toBe("price_increase");
    // Its own move going the other way (0.39 → 0.4 while the published 0.6 falls to 0.4) is reconciliation.
    const kimiMarch = price("acme/a", "Input", 0.6, {
      observations: [
        { source: "models-dev", amount: 0.6, fresh: true },
        { source: "openrouter", amount: 0.39, fresh: false },
      ],
    });
    const kimiApril = price("acme/a", "Input", 0.4, {
      confidence: "verified",
      observations: [
        { source: "models-dev", amount: 0.6, fresh: true },
        { source: "openrouter", amount: 0.4, fresh: true, authoritative: true, since: V2 },
      ],
    });
    expect(move(kimiMarch, kimiApril)).toBe("reference_changed");
  });

  it("more digits of the same amount is no move; a move beyond the old rounding is (T89)", () => {
    // llmgateway's gpt-5 cache read in the replay (2026-05): 0.13 → 0.125, OpenAI's own 0.125.
    const lone = (amount: number, since?: string) =>
      price("acme/a", "Input (cache read)", amount, {
        observations: [{ source: "models-dev", amount, fresh: true, ...(since ? { since } : {}) }],
      });
    expect(move(lone(0.13), lone(0.125, V2))).toBe("reference_changed");
    expect(move(lone(0.56), lone(0.555, V2))).toBe("reference_changed");
    expect(move(lone(0.13), lone(0.12, V2))).toBe("price_decrease");
    expect(move(lone(0.3), lone(0.25, V2))).toBe("price_decrease"); // one decimal says too little
    expect(refinesPrecision(0.01, 0.005)).toBe(true);
    expect(refinesPrecision(0.028, 0.0028)).toBe(false);
    expect(refinesPrecision(2, 1.5)).toBe(false);
  });

  it("a change within rounding (15.00002 → 15) is no move", () => {
    expect(
      detectChanges(dataset(V1, [price("acme/a", "Input", 15.00002)]), dataset(V2, [price("acme/a", "Input", 15)])),
    ).toEqual([]);
  });
});

describe("changes dated when the market moved (issue 24 §4, T174)", () => {
  const V3 = "2026-03-01T00:00:00.000Z";

  it("a removal confirmed after the grace is dated at the run its listings went", () => {
    // firmware's gpt-5.2 in the replay: gone from models.dev's 2026-04-01 payload, served on once
    // (T85), removed in 2026-05 — and dated 2026-04.
    const graced = price("acme/a", "Input", 1.75, {
      seller: "firmware",
      channel: "other",
      observations: [{ source: "models-dev", amount: 1.75, fresh: false, listing: "gpt-5.2", absentSince: V2 }],
    });
    const [removed] = detectChanges(dataset(V2, [graced]), dataset(V3, []));
    expect(removed).toMatchObject({ kind: "price_removed", oldAmount: 1.75, occurredAt: V2 });
    // A price gone without a grace (a bracket, T173) is dated at this run.
    const [now] = detectChanges(dataset(V2, [price("acme/a", "Input", 1)]), dataset(V3, []));
    expect(now).toMatchObject({ kind: "price_removed", occurredAt: V3 });
  });

  it("a move a later run confirms is dated at the run whose payload first showed it", () => {
    // qwen3-235b-a22b on OpenRouter in the replay: Portkey showed 1.82 in 2026-03, OpenRouter's own
    // list (absent in 2026-03) in 2026-04.
    const before = price("acme/a", "Output", 0.6, {
      observations: [
        { source: "portkey", amount: 1.82, fresh: true, since: V2, movedFrom: 0.54 },
        { source: "genai-prices", amount: 0.6, fresh: true },
      ],
    });
    const after = price("acme/a", "Output", 1.82, {
      observations: [
        { source: "portkey", amount: 1.82, fresh: true, since: V2, movedFrom: 0.54 },
        { source: "openrouter", amount: 1.82, fresh: true, since: V3, authoritative: true },
        { source: "genai-prices", amount: 0.6, fresh: true, lagging: true },
      ],
      confidence: "verified",
    });
    const [change] = detectChanges(dataset(V2, [before]), dataset(V3, [after]));
    expect(change).toMatchObject({ kind: "price_increase", occurredAt: V2 });
    // Without the coherent move (Portkey's change was a lone rewrite) it is reconciliation, dated now.
    const rewrite = (p: PublishedPrice) => ({
      ...p,
      observations: p.observations.map(({ movedFrom: _, ...o }) => o),
      confidence: "medium" as const,
    });
    const [plain] = detectChanges(dataset(V2, [rewrite(before)]), dataset(V3, [rewrite(after)]));
    expect(plain).toMatchObject({ kind: "reference_changed", occurredAt: V3 });
  });
});

describe("no removal while a source still lists it (issue 24 §5, T175)", () => {
  const gone = price("acme/a", "Input", 0.03, {
    seller: "deepinfra",
    channel: "other",
    observations: [{ source: "portkey", amount: 0.03, fresh: true, listing: "mistralai/Mistral-7B-Instruct-v0.3" }],
  });
  const where = (w: "placed" | "unplaced" | "absent") => ({ whereListed: () => w });

  it.each([
    ["placed", []],
    ["unplaced", []],
    ["absent", ["price_removed"]],
  ] as const)("a price whose listing is %s in this run's payloads → %j", (whereabouts, kinds) => {
    // DeepInfra's Mistral-7B-Instruct-v0.3 in the replay (2026-05): still in Portkey at 0.03, left
    // unplaced when the founding listing went (identity churn, not the market).
    const changes = detectChanges(dataset(V1, [gone]), dataset(V2, []), where(whereabouts));
    expect(changes.map((c) => c.kind)).toEqual(kinds);
  });
});

describe("a plan's included usage turning into money is one change per model and modality (T177)", () => {
  it("folds a plan's credit-to-money unit changes to the headline dimension's row", () => {
    // Invented amounts: a coding plan that listed four dimensions at 0 credits now lists money prices.
    const plan = (label: string, amount: number, credit: boolean) =>
      price("acme/a", label, amount, {
        seller: "acme-coding-plan",
        channel: "coding_plan",
        cache: label.includes("cache read") ? "read" : label.includes("cache write") ? "write" : "none",
        ...(credit ? { denomination: "credit" as const, currency: "XXX" } : {}),
      });
    const labels: [string, number][] = [
      ["Input", 0.3],
      ["Output", 0.9],
      ["Input (cache read)", 0.03],
      ["Input (cache write)", 0.375],
    ];
    const changes = detectChanges(
      dataset(
        V1,
        labels.map(([l]) => plan(l, 0, true)),
      ),
      dataset(
        V2,
        labels.map(([l, a]) => plan(l, a, false)),
      ),
    );
    expect(changes.map((c) => [c.kind, c.label, c.oldAmount, c.newAmount])).toEqual([["unit_change", "Input", 0, 0.3]]);
  });
});

describe("a correction by the maker's page is not a market move (issue 35 §4, T293)", () => {
  const PAGE = { url: "https://example.invalid/pricing.md", capturedAt: V2, contentHash: "0".repeat(64) };
  // Claude 3 Opus's 1-hour cache write in the replay: LiteLLM's 6 published until Anthropic's page
  // (first read 2025-11-01) stated 30; the page never showed 6.
  const before = price("acme/a", "Input (cache write 1h)", 6, {
    observations: [{ source: "litellm", amount: 6, fresh: true }],
  });
  const after = (page: { amount: number; before?: number }) =>
    price("acme/a", "Input (cache write 1h)", 30, {
      observations: [
        { source: "litellm", amount: 6, fresh: true },
        { source: "official-anthropic", amount: page.amount, fresh: true, authoritative: true, page: PAGE },
      ],
      confidence: "verified",
    });

  it("the page never showed the old amount: reference_changed with both amounts, counted", () => {
    const prev = dataset(V1, [before]);
    const next = dataset(V2, [after({ amount: 30 })]);
    expect(detectChanges(prev, next)).toEqual([
      expect.objectContaining({ kind: "reference_changed", oldAmount: 6, newAmount: 30 }),
    ]);
    expect(countMakerCorrections(prev, next)).toBe(1);
  });

  it("the page itself moved from the old amount: a market move, not counted", () => {
    const withPage = price("acme/a", "Input (cache write 1h)", 6, {
      observations: [
        { source: "litellm", amount: 6, fresh: true },
        { source: "official-anthropic", amount: 6, fresh: true, authoritative: true },
      ],
      confidence: "verified",
    });
    const moved = price("acme/a", "Input (cache write 1h)", 30, {
      observations: [
        { source: "litellm", amount: 6, fresh: true },
        { source: "official-anthropic", amount: 30, fresh: true, since: V2, authoritative: true, page: PAGE },
      ],
      confidence: "verified",
    });
    const prev = dataset(V1, [withPage]);
    const next = dataset(V2, [moved]);
    expect(detectChanges(prev, next).map((c) => c.kind)).toEqual(["price_increase"]);
    expect(countMakerCorrections(prev, next)).toBe(0);
  });
});
