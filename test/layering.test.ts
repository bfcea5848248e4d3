import { execFile } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

// Issue 19 §2, T161: the layering is a lint rule (Biome `noRestrictedImports` per layer in
// biome.json), not a convention. These probes run the project's own biome.json over files placed
// in a scratch tree, so a forbidden import is shown failing the lint without touching src/.
const BIOME = resolve("node_modules/.bin/biome");
const execFileAsync = promisify(execFile);
const root = mkdtempSync(join(tmpdir(), "tariff-layering-"));
copyFileSync("biome.json", join(root, "biome.json"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/**
 * Lints one probe file at `path` (relative to a scratch copy of the repository root). Biome runs as
 * a child the worker awaits: a synchronous spawn held its event loop for the whole lint (issue 34 §2).
 */
async function lint(path: string, text: string): Promise<{ ok: boolean; output: string }> {
  const file = join(root, path);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
  try {
    const { stdout } = await execFileAsync(BIOME, ["lint", "--colors=off", path], { cwd: root, encoding: "utf8" });
    return { ok: true, output: stdout };
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string };
    return { ok: false, output: `${e.stdout ?? ""}${e.stderr ?? ""}` };
  } finally {
    rmSync(file);
  }
}

const use = (spec: string) => `import { x } from "${spec}";\n\nexport const y = [x];\n`;

describe("layering is enforced by the linter (issue 19, T161)", () => {
  it.each([
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
  ])("%s importing %s fails the lint", async (path, spec, message) => {
    const { ok, output } = await lint(path, use(spec));
    expect(ok).toBe(false);
    expect(output).toContain("lint/style/noRestrictedImports");
    expect(output).toContain(message);
  });

  it.each([
    ["src/ingest/probe.ts", "../core/reconcile.js"],
    ["src/core/probe.ts", "../domain/amount.js"],
    ["src/http/probe.ts", "../catalogue/problems.js"],
    ["src/core/probe.test.ts", "../sources/registry.js"],
  ])("%s importing %s passes", async (path, spec) => {
    const { ok, output } = await lint(path, use(spec));
    expect(output).not.toContain("noRestrictedImports");
    expect(ok).toBe(true);
  });
});

describe("identity's functions stay short enough to read at once (issue 34 §4, T281)", () => {
  /** A function of `lines` statements: its body is `lines` lines between the braces. */
  const fn = (lines: number) =>
    `export function f(): number {\n${Array.from({ length: lines }, (_, i) => `  const a${i} = ${i};`).join("\n")}\n  return 0;\n}\n`;

  it("a function of 71 lines of body in src/core/identity fails the lint, one of 70 passes", async () => {
    const long = await lint("src/core/identity/passes/probe.ts", fn(70));
    expect(long.ok).toBe(false);
    expect(long.output).toContain("lint/complexity/noExcessiveLinesPerFunction");
    const short = await lint("src/core/identity/passes/probe.ts", fn(69));
    expect(short.output).not.toContain("noExcessiveLinesPerFunction");
  });
});
