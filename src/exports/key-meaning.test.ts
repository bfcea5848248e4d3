import { describe, expect, it } from "vitest";
import { isFineTuneKey, meaningMismatch, REVIEWED_LITELLM_MEANINGS, reviewedLitellmMeaning } from "./key-meaning.js";

// T311, on the spellings issue 38 §3 names (LiteLLM's and models.dev's keys of 2026-06-01).
describe("a key keeps its meaning (T311)", () => {
  it("a moving alias names no fixed generation", () => {
    expect(meaningMismatch("gemini-pro-latest", { id: "google/gemini-pro" })).toContain("moving alias");
    expect(meaningMismatch("gemini-flash-latest", { id: "google/gemini-flash-latest" })).toBeNull();
  });

  it("a variant word the model lacks is another model", () => {
    expect(meaningMismatch("anthropic.claude-instant-v1", { id: "anthropic/claude-v1" })).toContain('"instant"');
    expect(meaningMismatch("anthropic/claude-opus-4.6-fast", { id: "anthropic/claude-opus-4-6" })).toContain('"fast"');
    expect(meaningMismatch("gpt-3.5-turbo-0125", { id: "openai/gpt-3.5-turbo" })).toBeNull();
    expect(meaningMismatch("gpt-4o-mini", { id: "openai/gpt-4o-mini" })).toBeNull();
  });

  it("a reviewed key meaning names its model at its seller only, with a reason (T527)", () => {
    expect(reviewedLitellmMeaning("mistral", "mistral-medium")?.model).toBe("mistral/mistral-medium-2312");
    expect(reviewedLitellmMeaning("mistral", "mistral-medium-2508")).toBeUndefined();
    expect(reviewedLitellmMeaning("vercel", "mistral-medium")).toBeUndefined();
    for (const r of REVIEWED_LITELLM_MEANINGS) expect(r.reason.length, r.spelling).toBeGreaterThan(80);
  });

  it("OpenAI's fine-tune keys are known by their ft: prefix", () => {
    expect(isFineTuneKey("ft:gpt-3.5-turbo-0125")).toBe(true);
    expect(isFineTuneKey("azure/ft:gpt-4o-mini-2024-07-18")).toBe(true);
    expect(isFineTuneKey("gpt-3.5-turbo-0125")).toBe(false);
  });
});
