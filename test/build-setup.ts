import { execFileSync } from "node:child_process";

/**
 * `bin/tariff.js` (spawned by the CLI, MCP stdio, live and scale-out suites) runs the compiled
 * build/ when there is one, as `npm start` does (T133): compile the sources under test first, so no
 * suite runs a build older than the code. Type-checking is `npm run typecheck`'s job (--noCheck).
 */
export default function setup() {
  // Each project runs the root's global setup: compile once per run.
  if (process.env.TARIFF_TEST_BUILT === "1") return;
  process.env.TARIFF_TEST_BUILT = "1";
  execFileSync(process.execPath, ["node_modules/typescript/bin/tsc", "-p", "tsconfig.build.json", "--noCheck"], {
    stdio: "inherit",
  });
}
