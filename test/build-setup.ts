import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { SOURCES } from "../src/sources/registry.js";
import { baseUrlVariable } from "../src/sources/upstream.js";
import { CACHE_ROOT, replayKey } from "./replay-key.js";

/**
 * Global setup of the `e2e` project. `bin/tariff.js` (spawned by the CLI, MCP stdio, live and
 * scale-out suites) runs the compiled build/ when there is one, as `npm start` does (T133): compile
 * the sources under test first, so no suite runs a build older than the code. Type-checking is
 * `npm run typecheck`'s job (--noCheck). The web catalogue's real Vite build, which the web suites
 * serve, is made once per version of the code and kept beside the cached replay (T237).
 */
export default async function setup(project: TestProject) {
  // `tariff serve` is live by default (T220): every process a suite starts inherits upstream URLs
  // at a loopback port no server may use (undici refuses port 9 before connecting), so no test
  // reaches the internet; a suite that serves payloads passes its own local server's URLs (T228).
  for (const s of SOURCES) process.env[baseUrlVariable(s.id)] = "http://127.0.0.1:9/";
  if (process.env.TARIFF_TEST_BUILT !== "1") {
    process.env.TARIFF_TEST_BUILT = "1";
    execFileSync(process.execPath, ["node_modules/typescript/bin/tsc", "-p", "tsconfig.build.json", "--noCheck"], {
      stdio: "inherit",
    });
  }
  project.provide("webRoot", await webBuild(replayKey()));
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
  for (const name of readdirSync(CACHE_ROOT))
    if (name.startsWith("web-") && name !== `web-${key}`)
      rmSync(join(CACHE_ROOT, name), { recursive: true, force: true });
  return dir;
}

declare module "vitest" {
  export interface ProvidedContext {
    /** The web catalogue's build the web suites serve (`test/web-support.ts`). */
    webRoot: string;
  }
}
