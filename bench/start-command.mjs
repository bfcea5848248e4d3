// What `npm start` runs, for the benches (T541): package.json's `start` after `node` — node's flags,
// the script and its arguments — so a bench starts the server exactly as users do.
import { readFileSync } from "node:fs";

/**
 * package.json's `start` as node's arguments (`["--min-semi-space-size=16", "build/cli/main.js", "serve"]`).
 * @param packageJson URL or path of package.json
 * @throws Error when `start` does not run `node`
 */
export function startArgs(packageJson) {
  const [command, ...args] = JSON.parse(readFileSync(packageJson, "utf8")).scripts.start.trim().split(/\s+/);
  if (command !== "node") throw new Error(`package.json's start runs ${command}, not node`);
  return args;
}

/**
 * node's own flags among `start`'s arguments (the words before the script): the bare server of a
 * bench runs under the same V8 settings as Tariff, so the two are compared at equal runtime (T543).
 * The script is the argument right after them.
 * @param args {@link startArgs}'s result
 */
export function startFlags(args) {
  const script = args.findIndex((word) => !word.startsWith("-"));
  return script === -1 ? [...args] : args.slice(0, script);
}
