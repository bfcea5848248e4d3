import { execFileSync } from "node:child_process";
import { baseUrlVariable, LIVE_UPSTREAMS } from "../src/sources/live-upstreams.js";

/**
 * `bin/tariff.js` (spawned by the CLI, MCP stdio, live and scale-out suites) runs the compiled
 * build/ when there is one, as `npm start` does (T133): compile the sources under test first, so no
 * suite runs a build older than the code. Type-checking is `npm run typecheck`'s job (--noCheck).
 */
export default function setup() {
  // `tariff serve` is live by default (T220): every process a suite starts inherits upstream URLs
  // at a loopback port no server may use (undici refuses port 9 before connecting), so no test
  // reaches the internet; a suite that serves payloads passes its own local server's URLs (T228).
  for (const u of LIVE_UPSTREAMS) process.env[baseUrlVariable(u.source)] = "http://127.0.0.1:9/";
  // Each project runs the root's global setup: compile once per run.
  if (process.env.TARIFF_TEST_BUILT === "1") return;
  process.env.TARIFF_TEST_BUILT = "1";
  execFileSync(process.execPath, ["node_modules/typescript/bin/tsc", "-p", "tsconfig.build.json", "--noCheck"], {
    stdio: "inherit",
  });
}
