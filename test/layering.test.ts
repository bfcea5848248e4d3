import { execFile } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// Issue 19 §2, T161: the layering is a lint rule (Biome `noRestrictedImports` per layer in
// biome.json), not a convention. These probes run the project's own biome.json over files placed
// in a scratch tree, so a forbidden import is shown failing the lint without touching src/.
//
// Every probe is written first and Biome runs once over the whole scratch tree (issue 45 §3): one
// child per probe made this file a minute of the unit project on a loaded machine. Biome runs as a
// child the worker awaits: a synchronous spawn held its event loop for the whole lint (issue 34 §2).
const BIOME = resolve("node_modules/.bin/biome");
const execFileAsync = promisify(execFile);

/** One diagnostic of Biome's `github` reporter: `::error title=<rule>,file=<path>,…::<message>`. */
interface Diagnostic {
  readonly rule: string;
  readonly message: string;
}

/**
 * Lints `root` (a scratch tree holding a biome.json) once, with `args` added, and returns each
 * file's diagnostics by its path relative to `root`.
 */
async function lintTree(root: string, args: readonly string[] = []): Promise<Map<string, Diagnostic[]>> {
  const cli = ["lint", "--colors=off", "--reporter=github", "--max-diagnostics=10000", ...args, "src"];
  const output = await execFileAsync(BIOME, cli, { cwd: root, encoding: "utf8", maxBuffer: 1 << 26 }).then(
    (r) => r.stdout,
    (e: { stdout?: string }) => e.stdout ?? "",
  );
  const byFile = new Map<string, Diagnostic[]>();
  for (const m of output.matchAll(/^::\w+ title=([^,]+),file=([^,]+),.*?::(.*)$/gm)) {
    const file = relative(root, m[2]!);
    byFile.set(file, [...(byFile.get(file) ?? []), { rule: m[1]!, message: m[3]! }]);
  }
  return byFile;
}

function writeProbe(root: string, path: string, text: string): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
}

const use = (spec: string) => `import { x } from "${spec}";\n\nexport const y = [x];\n`;

/** A function of `lines` statements: its body is `lines` lines between the braces. */
const fn = (lines: number) =>
  `export function f(): number {\n${Array.from({ length: lines }, (_, i) => `  const a${i} = ${i};`).join("\n")}\n  return 0;\n}\n`;

/** Imports that fail the lint: probe path, specifier, a part of the layer's message. */
const FORBIDDEN: readonly (readonly [string, string, string])[] = [
  ["src/core/probe.ts", "../store/catalogue-store.js", "src/core is the pure core"],
  ["src/core/identity/probe.ts", "../../ingest/live-run.js", "src/core is the pure core"],
  ["src/core/identity/passes/probe.ts", "../../../store/catalogue-store.js", "src/core is the pure core"],
  ["src/core/probe.ts", "node:fs", "no I/O"],
  ["src/domain/probe.ts", "../core/reconcile.js", "src/domain is the vocabulary"],
  ["src/mcp/probe.ts", "../http/problem.js", "the MCP connector"],
  ["src/sources/probe.ts", "../ingest/live-config.js", "an adapter parses payloads"],
  ["src/catalogue/probe.ts", "../ingest/run-pipeline.js", "catalogue verbs read a view"],
  // Issue 34 §3, T275: the exports are built behind callEndpoint; HTTP serves its answer, not the builders.
  ["src/http/probe.ts", "../exports/types.js", "the price-file exports"],
  ["src/http/sub/probe.ts", "../../exports/litellm.js", "the price-file exports"],
  // Issue 45 §3, T393: the web client imports the domain and the API's schema types only, at any depth…
  ["src/web/client/probe.ts", "../register-web.js", "the web client"],
  ["src/web/client/pages/probe.tsx", "../../../http/problem.js", "the web client"],
  ["src/web/client/pages/probe.tsx", "../../../catalogue/view.js", "the web client"],
  ["src/web/client/pages/cost/probe.tsx", "../../../../store/catalogue-store.js", "the web client"],
  ["src/web/client/pages/cost/probe.tsx", "../../../page-head.js", "the web client"],
  // …and the web server side never imports the HTTP transport.
  ["src/web/probe.ts", "../http/request-url.js", "the web server side"],
  // Issue 45 §3, T394: src/ never imports test/, from any layer or depth (its tests aside).
  ["src/probe.ts", "../test/fake-upstream.js", "src/ never imports test/"],
  ["src/cli/probe.ts", "../../test/harness.js", "src/ never imports test/"],
  ["src/core/probe.ts", "../../test/recorded-payloads.js", "src/ never imports test/"],
  ["src/domain/probe.ts", "../../test/cases.js", "src/ never imports test/"],
  ["src/sources/litellm/probe.ts", "../../../test/fake-upstream.js", "src/ never imports test/"],
  ["src/web/probe.ts", "../../test/payloads/litellm.js", "src/ never imports test/"],
  ["src/core/identity/passes/probe.ts", "../../../../test/cases.js", "src/ never imports test/"],
];

/** Imports that pass: probe path, specifier. */
const ALLOWED: readonly (readonly [string, string])[] = [
  ["src/ingest/probe.ts", "../core/reconcile.js"],
  ["src/core/probe.ts", "../domain/amount.js"],
  ["src/http/probe.ts", "../catalogue/problems.js"],
  ["src/core/probe.test.ts", "../sources/registry.js"],
  ["src/core/probe.test.ts", "../../test/recorded-payloads.js"],
  ["src/web/client/pages/probe.tsx", "../../../domain/change.js"],
  ["src/web/client/pages/probe.tsx", "../../../catalogue/schemas.js"],
  ["src/web/client/pages/probe.tsx", "../api.js"],
  ["src/web/client/pages/cost/probe.tsx", "../../api.js"],
  ["src/web/client/pages/cost/probe.tsx", "../../../../domain/usage.js"],
  ["src/web/client/probe.ts", "./format.js"],
  ["src/web/probe.ts", "../catalogue/view.js"],
  ["src/cli/probe.ts", "../http/server.js"],
];

/** Where the 70-line rule holds (T281 for identity; issue 45 §3, T397 for src/core and the web client). */
const SHORT_FUNCTIONS = [
  "src/core/identity/passes/probe.ts",
  "src/core/probe.ts",
  "src/core/pricing/probe.ts",
  "src/web/client/probe.ts",
  "src/web/client/pages/probe.tsx",
  "src/web/client/pages/cost/probe.tsx",
];

/** A probe's own file: `<dir>/probe-<n>.<ext>`, so that every probe of one run has its own path. */
const probePath = (path: string, n: string) => path.replace(/probe(\.test)?\.(tsx?)$/, `probe-${n}$1.$2`);

interface BiomeConfig {
  overrides: { includes: string[]; linter?: { rules?: { complexity?: Record<string, unknown> } } }[];
}
const config = JSON.parse(readFileSync("biome.json", "utf8")) as BiomeConfig;
const pendingOff = config.overrides.filter((o) => o.linter?.rules?.complexity?.noExcessiveLinesPerFunction === "off");

const probes = mkdtempSync(join(tmpdir(), "tariff-layering-"));
afterAll(() => {
  rmSync(probes, { recursive: true, force: true });
});
let probeLint: Map<string, Diagnostic[]>;

beforeAll(async () => {
  copyFileSync("biome.json", join(probes, "biome.json"));
  for (const [i, [path, spec]] of FORBIDDEN.entries()) writeProbe(probes, probePath(path, `f${i}`), use(spec));
  for (const [i, [path, spec]] of ALLOWED.entries()) writeProbe(probes, probePath(path, `a${i}`), use(spec));
  for (const path of SHORT_FUNCTIONS) {
    writeProbe(probes, probePath(path, "long"), fn(70));
    writeProbe(probes, probePath(path, "short"), fn(69));
  }
  probeLint = await lintTree(probes);
});

const rulesOf = (lint: Map<string, Diagnostic[]>, file: string) => (lint.get(file) ?? []).map((d) => d.rule);

describe("layering is enforced by the linter (issue 19, T161; issue 45 §3, T393, T394)", () => {
  it.each(FORBIDDEN.map(([path, spec, message], i) => [path, spec, message, i] as const))(
    "%s importing %s fails the lint",
    (path, spec, message, i) => {
      const diagnostics = probeLint.get(probePath(path, `f${i}`)) ?? [];
      expect(
        diagnostics.map((d) => d.rule),
        spec,
      ).toContain("lint/style/noRestrictedImports");
      expect(diagnostics.map((d) => d.message).join("\n")).toContain(message);
    },
  );

  it.each(ALLOWED.map(([path, spec], i) => [path, spec, i] as const))("%s importing %s passes", (path, _spec, i) => {
    expect(rulesOf(probeLint, probePath(path, `a${i}`))).toEqual([]);
  });
});

describe("functions in src/core and the web client stay within 70 lines (issue 34 §4, T281; issue 45 §3, T397)", () => {
  it.each(SHORT_FUNCTIONS)("a function of 71 lines of body in %s fails the lint, one of 70 passes", (path) => {
    expect(rulesOf(probeLint, probePath(path, "long"))).toContain("lint/complexity/noExcessiveLinesPerFunction");
    expect(rulesOf(probeLint, probePath(path, "short"))).not.toContain("lint/complexity/noExcessiveLinesPerFunction");
  });

  it("biome.json leaves no file out of the rule (the splits of issue 45 §1 and §5 are merged)", () => {
    expect(pendingOff.flatMap((o) => o.includes)).toEqual([]);
  });
});
