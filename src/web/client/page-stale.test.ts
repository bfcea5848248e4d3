import { describe, expect, it } from "vitest";
import { pageStaleText } from "./page-stale.js";

// issue 46 §5 (T461): the model page says why a price its maker's page states is not `verified`.
describe("pageStaleText", () => {
  const stale = { source: "official-openai", lastReadAt: "2026-06-01T00:00:00.000Z", maxAgeDays: 35 };
  it("names the page, its age in days and the window", () => {
    expect(pageStaleText(stale, "OpenAI's page", Date.parse("2026-12-07T15:00:00.000Z"))).toBe(
      "not verified: OpenAI's page was last read 189 days ago (35 days at most)",
    );
  });
  it("says so when the page was never read", () => {
    expect(pageStaleText({ ...stale, lastReadAt: null }, "OpenAI's page", 0)).toBe(
      "not verified: OpenAI's page was never read",
    );
  });
});
