// The command lines the docs tell a reader to run, read from README.md and docs/deploy.md (issue 38 §6,
// T312, T355): one extraction shared by `test/live-docs-commands.test.ts` and
// `docs/checks/docs-as-written.mjs`, so the test and the literal check run the same lines. Plain
// JavaScript (types in docs-commands.d.mts): the check runs with `node` before any `npm install`.
import { readFileSync } from "node:fs";
import { join } from "node:path";

/** README sections whose ```sh blocks are run, in the README's order (the rest: see README_LEFT_OUT). */
export const README_SECTIONS = ["Run it", "CLI", "Drop-in price files"];

/**
 * Lines of the run sections that cannot run in a fresh clone as written, each with why (the only
 * lines neither the test nor the check runs).
 * @type {Readonly<Record<string, string>>}
 */
export const SKIPPED = {
  "npm run cli -- cost usage-2025-09.jsonl": "prices the reader's own usage log, which a clone does not have",
  "npm run cli -- cost usage-2025-09.jsonl --as anthropic/claude-sonnet-4-5 --json":
    "prices the reader's own usage log, which a clone does not have",
};

/**
 * The command lines of the ```sh blocks of a Markdown text, in order, trailing `# comments` dropped.
 * @param {string} text
 * @returns {string[]}
 */
export function shellLines(text) {
  /** @type {string[]} */
  const lines = [];
  for (const block of text.matchAll(/```sh\n([\s\S]*?)```/g))
    for (const raw of (block[1] ?? "").split("\n")) {
      const line = raw.replace(/\s+#.*$/, "").trim();
      if (line && !line.startsWith("#")) lines.push(line);
    }
  return lines;
}

/**
 * The command lines of `<dir>/README.md`'s {@link README_SECTIONS} and of `<dir>/docs/deploy.md`.
 * @param {string} dir a checkout
 * @returns {{ readme: string[]; deploy: string[] }}
 * @throws Error when a section of {@link README_SECTIONS} is not in the README (renamed or gone)
 */
export function documentedLines(dir) {
  const readme = readFileSync(join(dir, "README.md"), "utf8");
  const sections = readme.split(/^## /m).filter((s) => README_SECTIONS.some((t) => s.startsWith(t)));
  const found = README_SECTIONS.filter((t) => sections.some((s) => s.startsWith(t)));
  if (sections.length !== README_SECTIONS.length)
    throw new Error(`README.md sections: expected ${README_SECTIONS.join(", ")}; found ${found.join(", ")}`);
  return {
    readme: sections.flatMap(shellLines),
    deploy: shellLines(readFileSync(join(dir, "docs/deploy.md"), "utf8")),
  };
}

/**
 * Whether a line starts a server that runs until Ctrl-C (`npm start`, `… serve …`).
 * @param {string} line
 */
export function isServerLine(line) {
  return /(^|\s)npm start$/.test(line) || /\sserve(\s|$)/.test(line);
}

/**
 * The last line `tariff serve` writes after a Ctrl-C: once, whether the signal came once or was
 * forwarded again by npm and tsx (T97, T356).
 */
export const STOPPED_LINE = "tariff: stopped\n";

/** The start log's last line once it serves: `… stops the server` (one process) or `… stops them` (--workers). */
export const READY = /stops (the server|them)\n/;
