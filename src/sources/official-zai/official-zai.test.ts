import { describe, expect, it } from "vitest";
import { recordedPayload } from "../../../test/recorded-payloads.js";
import { officialZaiSource } from "./index.js";

// Issue 48 §2 (T430, T434): Z.ai's "Text Models" table read by header; `Free` is a price.
describe("official-zai 2026-02-01", () => {
  const payload = recordedPayload("official-zai", "2026-02-01");
  const { listings, unmapped } = officialZaiSource.parseReport(payload);
  const model = (id: string) => listings.find((l) => l.model === id)!;

  it("input, cached input, output per model; `-` is no price; the web search fee per 1K calls", () => {
    expect(
      model("glm-4.5-air").prices.map((p) => [p.dimension.direction, p.dimension.cache, p.amount, p.unit]),
    ).toEqual([
      ["input", "none", 0.2, "mtok"],
      ["input", "read", 0.03, "mtok"],
      ["output", "none", 1.1, "mtok"],
      ["tool", "none", 10, "kcalls"],
    ]);
    expect(model("glm-4-32b-0414-128k").prices.filter((p) => p.dimension.cache === "read")).toEqual([]);
    expect(unmapped).toEqual({});
  });

  it("an all-Free row is stated free: 0 amounts (T434)", () => {
    expect(model("glm-4.5-flash").statesFree).toBe(true);
    expect(
      model("glm-4.5-flash")
        .prices.filter((p) => p.unit === "mtok")
        .map((p) => p.amount),
    ).toEqual([0, 0, 0]);
    expect(model("glm-4.5").statesFree).toBeUndefined();
  });

  it("columns are found by header, not position (a reordered table reads the same)", () => {
    const files = new Map(payload.files);
    files.set(
      "pricing.md",
      files
        .get("pricing.md")!
        .replace(/^\| Model(\s*)\| Input(\s*)\| Cached Input(\s*)\|/m, "| Model$1| Cached Input$3| Input$2|")
        .replace(/^\| (GLM-[^|]*)\| ([^|]*)\| ([^|]*)\|/gm, "| $1| $3| $2|"),
    );
    expect(officialZaiSource.parse({ ...payload, files })).toEqual(listings);
  });
});
