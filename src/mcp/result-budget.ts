import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { problem } from "../catalogue/problems.js";

/** What the tool results of one `/mcp` POST may carry together, in bytes (issue 26 §3, T195). */
export const MCP_MAX_RESULT_BYTES = 1_000_000;

/**
 * The bytes the tool results of one `/mcp` POST may still carry (issue 26 §3, T195). A result that
 * would go over is replaced by a tool error (a 400 problem, like the HTTP API's) telling the client
 * to ask for less, and every later call of the same POST is refused before it is computed: one
 * request never answers more than {@link MCP_MAX_RESULT_BYTES}, however many calls it batches.
 * Tool errors themselves are small and always pass.
 */
export class ResultBudget {
  readonly bytes: number;
  #remaining: number;
  #overdrawn = false;

  constructor(bytes: number = MCP_MAX_RESULT_BYTES) {
    this.bytes = bytes;
    this.#remaining = bytes;
  }

  /** A refusal for a call made after the budget was overdrawn (the call is not computed), else null. */
  refusalBefore(tool: string): CallToolResult | null {
    if (!this.#overdrawn) return null;
    return refusal(
      `${tool} was not run: an earlier call of this request already asked for more than the ` +
        `${this.bytes} bytes of results one /mcp request may carry; send it in a request of its own`,
    );
  }

  /** `result` when it fits in what is left (which it then uses up), else the tool error that replaces it. */
  take(tool: string, result: CallToolResult): CallToolResult {
    if (result.isError) return result;
    const size = resultBytes(result);
    if (size <= this.#remaining) {
      this.#remaining -= size;
      return result;
    }
    this.#overdrawn = true;
    const already = this.bytes - this.#remaining;
    return refusal(
      `the result of ${tool} is ${size} bytes, over the ${this.bytes} bytes of results one /mcp request may carry` +
        `${already > 0 ? ` (${already} already used by earlier calls of this request)` : ""}; ask for less: ` +
        "a smaller limit, then the next page with the cursor in meta.nextCursor, or narrower filters",
    );
  }
}

/** The bytes a result adds to the JSON-RPC answer: its texts and its structured content. */
export function resultBytes(result: CallToolResult): number {
  let size = result.structuredContent === undefined ? 0 : Buffer.byteLength(JSON.stringify(result.structuredContent));
  for (const part of result.content) if (part.type === "text") size += Buffer.byteLength(part.text);
  return size;
}

function refusal(detail: string): CallToolResult {
  return { isError: true, content: [{ type: "text", text: JSON.stringify(problem(400, detail)) }] };
}
