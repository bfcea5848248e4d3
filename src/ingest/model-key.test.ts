import { describe, expect, it } from "vitest";
import { baseKey, makerFromFamily, parseModelSpelling, sortedTokenKey } from "./model-key.js";

// Spellings quoted from the bundled upstream README's "Same model, different names" tables.
describe("model spellings (D1)", () => {
  it("strips router vendor prefixes and keeps the vendor", () => {
    expect(parseModelSpelling("anthropic/claude-opus-4")).toMatchObject({ vendor: "anthropic", key: "claude-opus-4" });
    expect(parseModelSpelling("deepseek-ai/DeepSeek-V3")).toMatchObject({ vendor: "deepseek", slug: "deepseek-v3" });
  });

  it("reads Bedrock inference-profile ids: region prefix as a qualifier, vendor and version suffix dropped", () => {
    const s = parseModelSpelling("eu.anthropic.claude-opus-4-7");
    expect(s).toMatchObject({ vendor: "anthropic", key: "claude-opus-4-7", qualifiers: { region: "eu" } });
    expect(parseModelSpelling("anthropic.claude-opus-4-20250514-v1:0").key).toBe("claude-opus-4-20250514");
    expect(parseModelSpelling("regional.anthropic.claude-opus-4-20250514-v1:0").key).toBe("claude-opus-4-20250514");
  });

  it("reads Vertex `@` versions", () => {
    expect(parseModelSpelling("claude-opus-4@20250514").key).toBe("claude-opus-4-20250514");
    expect(parseModelSpelling("claude-opus-4-7@default").key).toBe("claude-opus-4-7");
  });

  it("keeps OpenRouter variants apart as a qualifier", () => {
    expect(parseModelSpelling("meta-llama/llama-3.3-70b-instruct:free")).toMatchObject({
      vendor: "meta",
      slug: "llama-3.3-70b-instruct",
      qualifiers: { variant: "free" },
    });
  });

  it("base keys drop snapshot markers but not versions", () => {
    expect(baseKey("claude-opus-4-20250514")).toBe("claude-opus-4");
    expect(baseKey("claude-opus-4-0")).toBe("claude-opus-4");
    expect(baseKey("claude-opus-4-1")).toBe("claude-opus-4-1");
    expect(baseKey("gpt-4o-2024-08-06")).toBe("gpt-4o");
    expect(baseKey("claude-3-7-sonnet-latest")).toBe("claude-3-7-sonnet");
  });

  it("word order does not matter in the last-resort key", () => {
    expect(sortedTokenKey("claude-4-opus")).toBe(sortedTokenKey("claude-opus-4"));
  });

  it("infers makers from family names", () => {
    expect(makerFromFamily("llama-3.3-70b-versatile")).toBe("meta");
    expect(makerFromFamily("Qwen3 Max")).toBe("alibaba");
    expect(makerFromFamily("gpt-oss-120b")).toBe("openai");
    expect(makerFromFamily("unknown-thing")).toBeNull();
  });
});
