import { describe, expect, it } from "vitest";
import { resolveDatedRows } from "./dated-rows.js";

// Issue 46 §2 (T407): dated rows are one model's price and its validity. Invented rows (no recorded
// copy dates a row, T335); the page-evolution property reads the same on real copies.
const row = (dated: { kind: "until" | "from"; day: string } | null, input: string, output: string) => ({
  ids: ["m"],
  dated,
  amounts: { input, output },
  label: `m ${dated?.kind ?? ""}`,
});

describe("dated rows", () => {
  it("an introductory price through D and its successor: today's price with its end and the next amount", () => {
    const r = resolveDatedRows(
      [row({ kind: "until", day: "2026-07-01" }, "5", "25"), row({ kind: "from", day: "2026-07-01" }, "7.5", "25")],
      "2026-06-01",
    );
    expect(r.prices.get("m")).toEqual({
      input: { amount: "5", validity: { until: "2026-07-01", next: 7.5 } },
      output: { amount: "25" },
    });
    expect(r.unmatched).toEqual([]);
  });

  it("after the day the successor is the price and the ended row history", () => {
    const r = resolveDatedRows(
      [row({ kind: "until", day: "2026-07-01" }, "5", "25"), row({ kind: "from", day: "2026-07-01" }, "7.5", "25")],
      "2026-07-01",
    );
    expect(r.prices.get("m")).toEqual({ input: { amount: "7.5" }, output: { amount: "25" } });
  });

  it("a future row above the standing one announces, never becomes today's price", () => {
    const r = resolveDatedRows(
      [row({ kind: "from", day: "2027-01-01" }, "20", "100"), row(null, "15", "75")],
      "2026-06-01",
    );
    expect(r.prices.get("m")).toEqual({
      input: { amount: "15", validity: { until: "2027-01-01", next: 20 } },
      output: { amount: "75", validity: { until: "2027-01-01", next: 100 } },
    });
  });

  it("a model priced only from a later day has no price today: unmatched", () => {
    const r = resolveDatedRows([row({ kind: "from", day: "2027-01-01" }, "20", "100")], "2026-06-01");
    expect(r.prices.size).toBe(0);
    expect(r.unmatched).toEqual([{ label: "m from", reason: "priced only from 2027-01-01, after the page's day" }]);
  });

  it("a price that ends with no successor ends with next null", () => {
    const r = resolveDatedRows([row({ kind: "until", day: "2026-07-01" }, "5", "25")], "2026-06-01");
    expect(r.prices.get("m")?.input).toEqual({ amount: "5", validity: { until: "2026-07-01", next: null } });
  });
});
