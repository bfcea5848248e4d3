import { inject } from "vitest";
import { ViewHolder } from "../src/catalogue/view-holder.js";
import { loadReplay, startServer, type TestServer } from "./harness.js";

/** The web catalogue served by the real app, as `tariff serve` runs it. */
export interface WebCatalogue {
  /** The folder of the Vite build mounted at `/` (`index.html`, `assets/`). */
  readonly root: string;
  readonly server: TestServer;
  /** Stops the server and closes the replay store (the build is the run's, `test/build-setup.ts`). */
  close(): Promise<void>;
}

/**
 * Serves the web catalogue's real Vite build (made once per run by the e2e project's setup) at `/`
 * of the real app on the bundled replay, with compressed bodies as `tariff serve` sends them
 * (T120–T122). On a failure half-way, what was set up is taken down again.
 */
export async function serveWebCatalogue(): Promise<WebCatalogue> {
  const root = inject("webRoot");
  const undo: (() => unknown)[] = [];
  const close = async () => {
    for (const step of undo.splice(0).reverse()) await step();
  };
  try {
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
