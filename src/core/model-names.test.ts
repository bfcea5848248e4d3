import { describe, expect, it } from "vitest";
import { derivedName, displayName, modelName, repeatsId } from "./model-names.js";

/**
 * Display names (issue 25 §4, T185): the maker's name, else the most official source's, else the one
 * derived rule. The names and spellings below are from the recorded payloads of 2026-06-01 (the
 * comment names source and seller).
 */
describe("a name that only repeats an id is no name (T185)", () => {
  it.each([
    // models-dev nano-gpt, Meta's Llama API, portkey xai via models-dev 302ai, genai-prices openai
    ["Qwen/Qwen3.5-4B", "Qwen/Qwen3.5-4B"],
    ["Cerebras-Llama-4-Maverick-17B-128E-Instruct", "cerebras-llama-4-maverick-17b-128e-instruct"],
    ["grok-4.20-beta-0309-reasoning", "grok-4.20-beta-0309-reasoning"],
    ["gpt 4o audio preview", "gpt-4o-audio-preview"],
    ["text embedding 3", "text-embedding-3-large"],
    // llm-prices openai gpt-image-1: a tag after the id
    ["gpt-image-1 (image gen)", "gpt-image-1"],
    // models-dev openai: the maker's listing names some models by their id
    ["GPT-4o", "gpt-4o"],
    ["o3", "o3"],
  ])("%s repeats %s", (name, id) => {
    expect(repeatsId(name, [id])).toBe(true);
  });

  it.each([
    ["Claude Opus 4", "claude-opus-4-20250514"],
    ["Gemini 2.5 Pro", "gemini-2.5-pro"],
    ["Mistral Small 3.2", "mistral-small-2506"],
    ["DeepSeek V3.2", "deepseek-v3.2"],
    ["GPT-4o mini", "gpt-4o-mini"],
  ])("%s names %s", (name, id) => {
    expect(repeatsId(name, [id])).toBe(false);
  });
});

describe("the derived name, one rule (T185)", () => {
  it.each([
    ["gpt-4o-audio-preview", "GPT-4o Audio Preview"],
    ["gpt-image-1", "GPT Image 1"],
    ["claude-3-5-sonnet", "Claude 3.5 Sonnet"],
    ["claude-opus-4-0", "Claude Opus 4"],
    ["llama-4-maverick-17b-128e-instruct", "Llama 4 Maverick 17B 128E Instruct"],
    ["qwen3-235b-a22b-2507", "Qwen3 235B A22B 2507"],
    ["qwen2.5-coder-14b", "Qwen2.5 Coder 14B"],
    ["mixtral-8x7b", "Mixtral 8x7B"],
    ["deepseek-v3.2", "DeepSeek v3.2"],
    ["glm-4.5-air", "GLM 4.5 Air"],
    ["codellama-34b-python", "Code Llama 34B Python"],
    ["dall-e-3", "DALL·E 3"],
    ["gpt-4o-mini-tts-2025-03-20", "GPT-4o Mini TTS 2025-03-20"],
    ["gemini-2.5-flash-lite-preview-09-2025", "Gemini 2.5 Flash Lite Preview 09-2025"],
    ["o3-mini", "o3 Mini"],
    ["mistral-7b-instruct-v0.1", "Mistral 7B Instruct v0.1"],
  ])("%s → %s", (slug, name) => {
    expect(derivedName(slug)).toBe(name);
  });

  it("never returns the slug of a model with words to write", () => {
    for (const slug of ["grok-4.20-0309-reasoning", "claude-4-opus-20250514", "gpt-4o-audio-preview"])
      expect(derivedName(slug).toLowerCase()).not.toBe(slug);
  });
});

describe("modelName: the first candidate with a name decides (T185)", () => {
  it("the maker's name wins (models-dev mistral mistral-small-2506 'Mistral Small 3.2')", () => {
    expect(
      modelName(
        [
          { name: "Mistral Small 3.2", model: "mistral-small-2506" },
          { name: "Mistral: Mistral Small 3.2 24B", model: "mistralai/mistral-small-3.2-24b-instruct" },
        ],
        "mistral-small-2506",
      ),
    ).toBe("Mistral Small 3.2");
  });

  it("an id as the maker's name is written the maker's way, not taken from a lesser source (models-dev openai o3)", () => {
    expect(
      modelName(
        [
          { name: "o4-mini", model: "o4-mini", official: true },
          { name: "o4 Mini High", model: "openai/o4-mini-high" },
        ],
        "o4-mini",
      ),
    ).toBe("o4 Mini");
  });

  it("a source's vendor prefix and latest/free tags go; no name at all derives one", () => {
    expect(displayName("Anthropic: Claude Opus 4.1 (latest)")).toBe("Claude Opus 4.1");
    expect(displayName("Nemotron Nano 12B 2 VL (free)")).toBe("Nemotron Nano 12B 2 VL");
    expect(modelName([{ name: null, model: "grok-4.20-0309-reasoning" }], "grok-4.20-0309-reasoning")).toBe(
      "Grok 4.20 0309 Reasoning",
    );
  });
});
