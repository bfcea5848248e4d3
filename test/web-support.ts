import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "vite";
import { ViewHolder } from "../src/catalogue/view-holder.js";
import { webBuildConfig } from "../src/web/build-config.js";
import { loadReplay, startServer, type TestServer } from "./harness.js";

/** The web catalogue served by the real app, as `tariff serve` runs it. */
export interface WebCatalogue {
  /** The folder of the Vite build mounted at `/` (`index.html`, `assets/`). */
  readonly root: string;
  readonly server: TestServer;
  /** Stops the server, closes the replay store and removes the build. */
  close(): Promise<void>;
}

/**
 * Builds the web catalogue with the real Vite build into a temporary folder and serves it at `/`
 * of the real app on the bundled replay, with compressed bodies as `tariff serve` sends them
 * (T120–T122). On a failure half-way, what was set up is taken down again.
 */
export async function serveWebCatalogue(): Promise<WebCatalogue> {
  const root = mkdtempSync(join(tmpdir(), "tariff-web-"));
  const undo: (() => unknown)[] = [() => rmSync(root, { recursive: true, force: true })];
  const close = async () => {
    for (const step of undo.splice(0).reverse()) await step();
  };
  try {
    await build(webBuildConfig(root));
    const { view, store } = await loadReplay();
    undo.push(() => store.close());
    // The model pages' heads read the same view the API serves (T207).
    const server = await startServer(view, { compression: true, web: { root, views: new ViewHolder(view) } });
    undo.push(() => server.close());
    return { root, server, close };
  } catch (error) {
    await close();
    throw error;
  }
}
