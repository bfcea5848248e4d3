import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { EndpointServices } from "../catalogue/call.js";
import type { CatalogueView } from "../catalogue/view.js";
import { ViewHolder } from "../catalogue/view-holder.js";
import { createMcpServer } from "./server.js";

/**
 * Serves the assistant connector over stdio (`tariff mcp`) from one view: stdout carries only MCP
 * messages; diagnostics go to stderr. Resolves once connected; the process then lives as long as
 * stdin stays open.
 * @param services what the tools' parameters load through (the process's, built in `src/cli/`, T275)
 */
export async function serveMcpStdio(view: CatalogueView, services?: EndpointServices): Promise<void> {
  const server = createMcpServer(
    new ViewHolder(view, Date.now), // T460: `verified` judged when a tool answers
    (error, tool) => {
      const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
      process.stderr.write(`tariff mcp: unexpected fault in ${tool}: ${message}\n`);
    },
    undefined,
    services,
  );
  await server.connect(new StdioServerTransport());
  process.stderr.write(`tariff mcp: serving dataset ${view.version} over stdio\n`);
}
