import { existsSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Rollup } from "vite";
import type { TestProject } from "vitest/node";
import { CACHE_ROOT, dropOtherKeys, inputsKey, keyedCacheDir } from "./replay-key.js";

/**
 * Global setup of the `browser` project: the web catalogue's real Vite build, which the web suites
 * serve, made once per version of the code and kept beside the cached replay (T237). It depends on
 * the web client and whatever of src it imports: keyed on all of src (T271). Beside it, the MCP
 * SDK's browser client bundle that `test/browser-clients.test.ts` loads into a page (T381), kept
 * per version of the installed packages.
 */
export default async function setup(project: TestProject) {
  project.provide("webRoot", await webBuild(inputsKey(["src", "package-lock.json"])));
  project.provide("mcpClientBundle", await mcpClientBundle());
}

/** The web catalogue built with the real Vite build (T120–T122) for code version `key`: its folder. */
async function webBuild(key: string): Promise<string> {
  const dir = join(CACHE_ROOT, `web-${key}`);
  if (existsSync(join(dir, "index.html"))) return dir;
  const tmp = `${dir}.${process.pid}.tmp`;
  rmSync(tmp, { recursive: true, force: true });
  const { build } = await import("vite");
  const { webBuildConfig } = await import("../src/web/build-config.js");
  await build(webBuildConfig(tmp));
  rmSync(dir, { recursive: true, force: true });
  renameSync(tmp, dir);
  dropOtherKeys("web", key);
  return dir;
}

/**
 * The MCP SDK's `Client` and Streamable HTTP client transport as one browser script (an IIFE whose
 * global is `Mcp`), built by Vite from the installed SDK: the file's path. Built once per version
 * of `package-lock.json` (and of this file): a Vite build takes seconds of a worker's CPU (T381).
 */
async function mcpClientBundle(): Promise<string> {
  const path = join(keyedCacheDir("mcp-client", ["package-lock.json", "test/web-build-setup.ts"]), "mcp-client.js");
  if (existsSync(path)) return path;
  const entry = "\0tariff-test:mcp-client";
  const { build } = await import("vite");
  const result = (await build({
    configFile: false,
    logLevel: "silent",
    plugins: [
      {
        name: "mcp-client-entry",
        resolveId: (id) => (id === "tariff-test:mcp-client" ? entry : null),
        load: (id) =>
          id === entry
            ? 'export { Client } from "@modelcontextprotocol/sdk/client/index.js";\n' +
              'export { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";\n'
            : null,
      },
    ],
    build: {
      write: false,
      minify: false,
      rollupOptions: {
        input: "tariff-test:mcp-client",
        output: { format: "iife", name: "Mcp" },
        preserveEntrySignatures: "strict",
      },
    },
  })) as Rollup.RollupOutput | Rollup.RollupOutput[];
  const output = Array.isArray(result) ? result[0] : result;
  const chunk = output?.output.find((o) => o.type === "chunk");
  if (chunk?.type !== "chunk") throw new Error("the SDK client bundle is missing");
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, chunk.code);
  renameSync(tmp, path);
  return path;
}

declare module "vitest" {
  export interface ProvidedContext {
    /** The web catalogue's build the web suites serve (`test/web-support.ts`). */
    webRoot: string;
    /** The MCP SDK's browser client bundle, a script file (`test/browser-clients.test.ts`). */
    mcpClientBundle: string;
  }
}
