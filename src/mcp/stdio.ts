import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { CatalogueView } from "../catalogue/view.js";
import { ViewHolder } from "../catalogue/view-holder.js";
import { createMcpServer } from "./server.js";

/**
 * Serves the assistant connector over stdio (`tariff mcp`) from one view: stdout carries only MCP
 * messages; diagnostics go to stderr. Resolves once connected; the process then lives as long as
 * stdin stays open.
 */
export async function serveMcpStdio(view: CatalogueView): Promise<void> {
  const server = createMcpServer(new ViewHolder(view), (error, tool) => {
    const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
    process.stderr.write(`tariff mcp: unexpected fault in ${tool}: ${message}\n`);
  });
  await server.connect(new StdioServerTransport());
  process.stderr.write(`tariff mcp: serving dataset ${view.version} over stdio\n`);
}
