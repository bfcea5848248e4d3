import { execFileSync } from "node:child_process";
import { SOURCES } from "../src/sources/registry.js";
import { baseUrlVariable } from "../src/sources/upstream.js";

/**
 * Global setup of the end-to-end projects (T274). `bin/tariff.js` (spawned by the CLI, MCP stdio,
 * live and scale-out suites) runs the compiled build/ when there is one, as `npm start` does (T133):
 * compile the sources under test first, once per `vitest` process (the projects of one run share
 * it), so no suite runs a build older than the code. Type-checking is `npm run typecheck`'s job
 * (--noCheck). The web build the browser suites serve is `test/web-build-setup.ts`'s.
 */
export default function setup() {
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
}
