import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { BUILD_INPUTS } from "./recorded-build.js";
import { PARSE_INPUTS } from "./recorded-payloads.js";
import { REPLAY_INPUTS } from "./replay-key.js";

// The cached replay and parse reports are keyed only by what they read (issue 34 §1, T271, T272):
// these tests read what their code imports, so a new import from outside the hashed folders fails
// here instead of leaving a stale cache.

/** Relative import specifiers of a TypeScript file (static, re-exports and dynamic). */
function relativeImports(file: string): string[] {
  const text = readFileSync(file, "utf8");
  return [...text.matchAll(/(?:from|import)\s*\(?\s*"(\.{1,2}\/[^"]+)"/g)].map((m) => m[1]!);
}

/** Every file of the repository `entry` imports, directly or not, relative to the root. */
function importClosure(entry: string): string[] {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const spec of relativeImports(file)) {
      const target = resolve(dirname(file), spec).replace(/\.js$/, ".ts");
      expect(existsSync(target), `${relative(".", file)} imports ${spec}`).toBe(true);
      visit(target);
    }
  };
  visit(resolve(entry));
  return [...seen].map((f) => relative(".", f)).sort();
}

const inside = (inputs: readonly string[]) => (file: string) =>
  inputs.some((i) => file === i || file.startsWith(`${i}/`));

describe("cache keys hash what the cached work reads", () => {
  it("the replay's build imports nothing outside REPLAY_INPUTS", () => {
    const closure = importClosure("test/replay-cache.ts");
    expect(closure.filter((f) => f.startsWith("src/ingest/")).length).toBeGreaterThan(0);
    expect(closure.filter((f) => !inside(REPLAY_INPUTS)(f))).toEqual([]);
  });

  it("the adapters and the snapshot reader import nothing outside PARSE_INPUTS", () => {
    const closure = [...importClosure("src/sources/registry.ts"), ...importClosure("src/sources/snapshot-reader.ts")];
    expect(closure.filter((f) => f.startsWith("src/domain/")).length).toBeGreaterThan(0);
    expect(closure.filter((f) => !inside(PARSE_INPUTS)(f))).toEqual([]);
  });

  it("the recorded builds (T377) import nothing outside BUILD_INPUTS, and nothing of vitest's", () => {
    const closure = importClosure("test/recorded-build.ts");
    expect(closure.filter((f) => f.startsWith("src/core/")).length).toBeGreaterThan(0);
    expect(closure.filter((f) => !inside(BUILD_INPUTS)(f))).toEqual([]);
    // the child process that builds runs outside vitest, where importing it throws
    expect(closure.filter((f) => /from "vitest"/.test(readFileSync(f, "utf8")))).toEqual([]);
  });

  it("the import walker sees a file outside: the API's app imports src/catalogue", () => {
    expect(importClosure(join("src", "http", "create-app.ts")).some((f) => f.startsWith("src/catalogue/"))).toBe(true);
  });
});
