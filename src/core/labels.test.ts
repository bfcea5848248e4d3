import { describe, expect, it } from "vitest";
import { dimension } from "../domain/dimension.js";
import { baseLabel, bracketText, labelDimensions, qualifierText } from "./labels.js";

describe("labels (D27)", () => {
  it("names the direction, then what is not the default", () => {
    expect(baseLabel(dimension("input"))).toBe("Input");
    expect(baseLabel(dimension("output", { tier: "batch" }))).toBe("Output (batch)");
    expect(baseLabel(dimension("input", { cache: "read", contextMin: 200_000 }))).toBe(
      "Input (cache read, > 200K tokens)",
    );
    expect(baseLabel(dimension("input", { cache: "write_1h" }))).toBe("Input (cache write 1h)");
    expect(baseLabel(dimension("input", { modality: "audio" }))).toBe("Input (audio input)");
  });

  it("writes brackets with K and M", () => {
    expect(bracketText(0, null)).toBeNull();
    expect(bracketText(0, 128_000)).toBe("≤ 128K tokens");
    expect(bracketText(32_000, 128_000)).toBe("32K–128K tokens");
    expect(bracketText(1_000_000, null)).toBe("> 1M tokens");
  });

  it("extends colliding labels with the qualifiers that tell them apart, in key order", () => {
    const labels = labelDimensions([
      { dimension: dimension("input", { qualifiers: { seller: "groq" } }), unit: "mtok" },
      { dimension: dimension("input", { qualifiers: { seller: "cerebras" } }), unit: "mtok" },
      { dimension: dimension("output", { qualifiers: { seller: "groq" } }), unit: "mtok" },
    ]);
    expect(labels).toEqual(["Input (seller: groq)", "Input (seller: cerebras)", "Output"]);
  });

  it("names several telling qualifiers and leaves a base dimension without them plain", () => {
    const labels = labelDimensions([
      { dimension: dimension("input"), unit: "mtok" },
      { dimension: dimension("input", { qualifiers: { region: "eu", variant: "free" } }), unit: "mtok" },
      { dimension: dimension("input", { qualifiers: { region: "us", variant: "free" } }), unit: "mtok" },
    ]);
    expect(labels).toEqual(["Input", "Input (region: eu, variant: free)", "Input (region: us, variant: free)"]);
    expect(new Set(labels).size).toBe(3);
  });

  it("a fine-tuned model's price names it even alone (T344, T181): gpt-4o's fine-tuned cache write", () => {
    const inference = { fine_tuning: "inference" };
    const labels = labelDimensions([
      { dimension: dimension("input"), unit: "mtok" },
      { dimension: dimension("input", { qualifiers: inference }), unit: "mtok" },
      { dimension: dimension("input", { cache: "write", qualifiers: inference }), unit: "mtok" },
    ]);
    expect(labels).toEqual(["Input", "Input (fine_tuning: inference)", "Input (cache write) (fine_tuning: inference)"]);
  });

  it("a non-USD list's price names its currency even alone (T530, T508): Moonshot's CNY brackets beside LiteLLM's USD", () => {
    const cny = { currency: "CNY" };
    const labels = labelDimensions([
      { dimension: dimension("input"), unit: "mtok" },
      { dimension: dimension("input", { contextMax: 8192, qualifiers: cny }), unit: "mtok" },
      {
        dimension: dimension("input", { cache: "read", contextMin: 8192, contextMax: 32768, qualifiers: cny }),
        unit: "mtok",
      },
      // DeepSeek's USD and CNY lists share the base label: the currency tells them apart, named once.
      { dimension: dimension("output"), unit: "mtok" },
      { dimension: dimension("output", { qualifiers: cny }), unit: "mtok" },
    ]);
    expect(labels).toEqual([
      "Input",
      "Input (≤ 8192 tokens) (currency: CNY)",
      "Input (cache read, 8192–32768 tokens) (currency: CNY)",
      "Output",
      "Output (currency: CNY)",
    ]);
  });

  it("falls back to the unit when only the unit differs", () => {
    const labels = labelDimensions([
      { dimension: dimension("output", { modality: "image" }), unit: "mtok" },
      { dimension: dimension("output", { modality: "image" }), unit: "image" },
    ]);
    expect(labels).toEqual(["Output (image output) (per 1M tokens)", "Output (image output) (per image)"]);
  });

  it("shows a time window as hours a reader understands (T71)", () => {
    expect(qualifierText("time_window", "1630-0030-utc-off-peak")).toBe("16:30–00:30 UTC (off-peak)");
    expect(qualifierText("time_window", "0000-0100_1200-1300-utc")).toBe("00:00–01:00, 12:00–13:00 UTC");
    expect(qualifierText("time_window", "whenever")).toBe("whenever");
    expect(qualifierText("region", "1630-0030-utc")).toBe("1630-0030-utc");
    const labels = labelDimensions([
      { dimension: dimension("input"), unit: "mtok" },
      { dimension: dimension("input", { qualifiers: { time_window: "1630-0030-utc-off-peak" } }), unit: "mtok" },
    ]);
    expect(labels).toEqual(["Input", "Input (time_window: 16:30–00:30 UTC (off-peak))"]);
  });
});
