import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { describeCycles, importCycles, importGraph } from "./import-cycles.js";

// Issue 45 §3, T396: no import cycle among src/'s modules that is not type-only. A type-only import
// is erased by the compiler; a value import is evaluated, and in a cycle one module runs while the
// other is half-loaded. The four cycles left at this change are type-only in one direction (catalogue
// view ⇄ source-records, identity canonical-id ⇄ resolve, domain dated-price ⇄ observation, sources
// source ⇄ shared/page-health).

/** src/'s import graph, read once for the file (330 files). */
const SRC = importGraph("src");

const scratch = mkdtempSync(join(tmpdir(), "tariff-cycles-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A scratch tree of files `path → text` (invented: the cases real src/ must not hold). */
function tree(name: string, files: Readonly<Record<string, string>>): string {
  const root = join(scratch, name);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

describe("import cycles (issue 45 §3, T396)", () => {
  it("src/ has no import cycle that is not type-only", () => {
    expect(importCycles(SRC).map((c) => c.join(" → "))).toEqual([]);
  });

  it("the walk sees src/'s imports (a graph with no edges would have no cycles either)", () => {
    const graph = SRC;
    expect(graph.get("cli/main.ts")).toContain("cli/config.ts");
    expect(graph.get("catalogue/view.ts")).toContain("catalogue/source-records.ts");
    // The type-only direction of a known type-only cycle is not an edge.
    expect(graph.get("catalogue/source-records.ts")).not.toContain("catalogue/view.ts");
    expect(graph.get("web/client/pages/changes.tsx")).toContain("domain/change.ts");
  });

  it("a planted value cycle through three files, a re-export and a subfolder is found", () => {
    const root = tree("value", {
      "a.ts": 'import { b } from "./sub/b.js";\n\nexport const a = b;\n',
      "sub/b.ts": 'export { c as b } from "../c.js";\n',
      "c.ts": 'import {\n  a,\n} from "./a.js";\n\nexport const c = () => a;\n',
      "d.tsx": 'import "./d.js";\n',
    });
    expect(describeCycles(root)).toEqual(["a.ts → sub/b.ts → c.ts → a.ts", "d.tsx → d.tsx"]);
  });

  it("a cycle closed only by `import type` or `export type` is not one; `import { type X }` still is", () => {
    const typeOnly = tree("type-only", {
      "a.ts": 'import type { B } from "./b.js";\n\nexport const a = (b: B) => b;\n',
      "b.ts": 'import { a } from "./a.js";\nexport type { A } from "./c.js";\n\nexport type B = typeof a;\n',
      "c.ts": 'import { b } from "./b.js";\n\nexport type A = typeof b;\nexport const b = 1;\n',
    });
    expect(describeCycles(typeOnly)).toEqual([]);
    const inline = tree("inline-type", {
      "a.ts": 'import { type B } from "./b.js";\n\nexport const a = (b: B) => b;\n',
      "b.ts": 'import { a } from "./a.js";\n\nexport type B = typeof a;\n',
    });
    expect(describeCycles(inline)).toEqual(["a.ts → b.ts → a.ts"]);
  });

  it("a dynamic import() is not an edge: it is evaluated later, not while the module loads", () => {
    const root = tree("dynamic", {
      "a.ts": 'import { b } from "./b.js";\n\nexport const a = b;\n',
      "b.ts": 'export const b = 1;\nexport const later = () => import("./a.js");\n',
    });
    expect(describeCycles(root)).toEqual([]);
  });
});

describe("the web client's runtime imports (issue 45 §3, T393)", () => {
  // The lint allows the client src/domain and src/catalogue/schemas.ts; the schemas only as types
  // (T120: zod and the server stay out of the page's bundle), which a lint pattern cannot tell.
  it("every value import leaving src/web/client lands in src/domain", () => {
    const outside = [...SRC]
      .filter(([file]) => file.startsWith("web/client/"))
      .flatMap(([file, edges]) => edges.filter((e) => !e.startsWith("web/client/")).map((e) => `${file} → ${e}`));
    expect(outside.length).toBeGreaterThan(0);
    expect(outside.filter((edge) => !edge.split(" → ")[1]!.startsWith("domain/"))).toEqual([]);
  });
});
