import { existsSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { CACHE_ROOT, dropOtherKeys, inputsKey } from "./replay-key.js";

/**
 * Global setup of the `browser` project: the web catalogue's real Vite build, which the web suites
 * serve, made once per version of the code and kept beside the cached replay (T237). It depends on
 * the web client and whatever of src it imports: keyed on all of src (T271).
 */
export default async function setup(project: TestProject) {
  project.provide("webRoot", await webBuild(inputsKey(["src", "package-lock.json"])));
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

declare module "vitest" {
  export interface ProvidedContext {
    /** The web catalogue's build the web suites serve (`test/web-support.ts`). */
    webRoot: string;
  }
}
