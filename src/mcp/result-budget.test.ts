import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { MCP_MAX_RESULT_BYTES, ResultBudget, resultBytes } from "./result-budget.js";

// Issue 26 §3 (T195): the tool results of one /mcp POST carry at most a budget of bytes; over it,
// a tool error telling the client to ask for less, and the later calls of the POST are not run.

const envelope = (rows: number): CallToolResult => ({
  content: [{ type: "text", text: `${rows} models` }],
  structuredContent: { data: Array.from({ length: rows }, (_, i) => ({ id: `p/m${i}` })), meta: { count: rows } },
});
const problemOf = (r: CallToolResult) => {
  const part = r.content[0];
  return JSON.parse(part?.type === "text" ? part.text : "{}") as { status: number; detail: string };
};

describe("ResultBudget", () => {
  it("measures a result as its text and its structured content's JSON, in UTF-8 bytes", () => {
    const r: CallToolResult = { content: [{ type: "text", text: "é" }], structuredContent: { a: "€" } };
    expect(resultBytes(r)).toBe(2 + Buffer.byteLength('{"a":"€"}'));
  });

  it("passes results while they fit, then refuses the one that would go over, with a problem that says how to page", () => {
    const small = envelope(10);
    const budget = new ResultBudget(resultBytes(small) * 2 + 5);
    expect(budget.take("list_models", small)).toBe(small);
    expect(budget.take("list_models", small)).toBe(small);
    const refused = budget.take("list_models", small);
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent).toBeUndefined();
    const p = problemOf(refused);
    expect(p.status).toBe(400);
    expect(p.detail).toContain(`the result of list_models is ${resultBytes(small)} bytes`);
    expect(p.detail).toContain("already used by earlier calls");
    expect(p.detail).toContain("smaller limit");
  });

  it("refuses one result over the whole budget on its own, and every later call before it runs", () => {
    const budget = new ResultBudget(100);
    expect(budget.refusalBefore("get_meta")).toBeNull();
    expect(budget.take("list_models", envelope(50)).isError).toBe(true);
    const later = budget.refusalBefore("get_meta");
    expect(later?.isError).toBe(true);
    expect(problemOf(later as CallToolResult).detail).toContain("get_meta was not run");
  });

  it("lets tool errors through whatever is left", () => {
    const budget = new ResultBudget(1);
    const error: CallToolResult = { isError: true, content: [{ type: "text", text: "x".repeat(500) }] };
    expect(budget.take("get_model", error)).toBe(error);
    expect(budget.refusalBefore("get_model")).toBeNull();
  });

  it("defaults to 1 MB", () => {
    expect(new ResultBudget().bytes).toBe(MCP_MAX_RESULT_BYTES);
    expect(MCP_MAX_RESULT_BYTES).toBe(1_000_000);
  });
});
