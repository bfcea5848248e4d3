import type { Config } from "../config.js";
import { createApp } from "../http/create-app.js";
import { ViewHolder } from "../http/view-holder.js";
import { registerMcpRoutes } from "../mcp/http-transport.js";
import { loadCurrentView } from "./load-view.js";

/**
 * `tariff serve`: opens the store, replays the bundled snapshots into it when it is empty, builds
 * the in-memory view of the current dataset version and serves API v1, plus the assistant
 * connector (MCP, Streamable HTTP) at `/mcp`, always on (T21).
 */
export async function serve(config: Config): Promise<void> {
  const view = await loadCurrentView(config);
  const views = new ViewHolder(view);
  const app = await createApp({
    views,
    rateLimitPerMinute: config.rateLimitPerMinute,
    publicBaseUrl: config.publicBaseUrl,
    trustProxy: config.trustProxy,
    logLevel: config.logLevel,
    timeouts: config.timeouts,
  });
  registerMcpRoutes(app, views);
  const shutdown = async () => {
    await app.close();
    process.exit(0);
  };
  process.once("SIGINT", shutdown);
  process.once("SIGTERM", shutdown);
  await app.listen({ port: config.port, host: config.host });
  process.stderr.write(
    `Tariff serving dataset ${view.version} at http://${config.host}:${config.port}/api/v1 (MCP at /mcp)\n`,
  );
}
