import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { lookupTable } from "../src/domain/lookup-table.js";
import { canonicalSeller, channelOf, isMaker, MAKERS, SELLER_ALIASES } from "../src/domain/sellers.js";

// Issue 33 §2, T250: upstream or request text never indexes a plain object. The rule, checked over
// every source file outside the browser bundle: a module-level constant typed as a string-keyed
// table (`Record<string, …>`) that is read with a computed key (`TABLE[expr]`, not a quoted
// literal) anywhere in src/ must be built with `lookupTable(…)` (prototype-free), and a table read
// two levels deep (`TABLE[a]?.[b]`) must build its inner tables with it too. A `Map` is never
// such a constant, so it passes. `TABLE["fixed"]` (a literal our code wrote) is not a computed key.

const SRC = "src";
const files = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return path === join(SRC, "web", "client") ? [] : files(path);
    return e.name.endsWith(".ts") && !e.name.endsWith(".test.ts") ? [path] : [];
  });

/** A string-keyed constant table: its name, file, and the text of its initializer up to the closing `}`. */
interface Table {
  readonly name: string;
  readonly file: string;
  readonly init: string;
}

const DECLARATION =
  /^(?:export )?const ([A-Z][A-Z0-9_]*)\s*:\s*(?:Readonly<)?(?:Partial<)?Record<string,[^\n]*?=(?!>)\s*/gm;

function tablesOf(file: string, text: string): Table[] {
  return [...text.matchAll(DECLARATION)].map((m) => {
    const start = m.index + m[0].length;
    const end = text.indexOf("\n}", start);
    const oneLine = text.indexOf("\n", start);
    const init = text.slice(start, text.slice(start, oneLine).trimEnd().endsWith(";") ? oneLine : end + 3);
    return { name: m[1]!, file, init };
  });
}

/** Reads of `name` with a computed key, and whether any goes two levels deep. */
function computedReads(name: string, sources: readonly [string, string][]): { reads: string[]; nested: boolean } {
  const read = new RegExp(`\\b${name}\\[(?!["'\`\\d])[^\\]]+\\](\\?\\.)?(\\[(?!\\d))?`, "g");
  const reads: string[] = [];
  let nested = false;
  for (const [file, text] of sources)
    for (const m of text.matchAll(read)) {
      reads.push(`${file}: ${m[0]}`);
      if (m[2]) nested = true;
    }
  return { reads, nested };
}

const sources = files(SRC).map((f) => [f, readFileSync(f, "utf8")] as [string, string]);
const tables = sources.flatMap(([f, t]) => tablesOf(f, t));

/** The violations of the rule in `tables` read in `sources`. */
function violations(tables: readonly Table[], sources: readonly [string, string][]): string[] {
  return tables.flatMap((t) => {
    const { reads, nested } = computedReads(t.name, sources);
    if (reads.length === 0) return [];
    if (!t.init.startsWith("lookupTable")) return [`${t.file}: ${t.name} is a plain object read as ${reads[0]}`];
    const inner = (t.init.match(/lookupTable/g) ?? []).length;
    if (nested && inner < 2) return [`${t.file}: ${t.name}'s inner tables are plain objects read as ${reads[0]}`];
    return [];
  });
}

// Issue 33 §2, T315: the price-file exports build objects keyed by upstream text (LiteLLM's keys
// and fields, models.dev's providers and models) and by our spellings. In src/exports, every object
// written with a computed key (`obj[expr] = …`) is made prototype-free by `jsonObject()`
// (`src/exports/json-object.ts`), never `{}`: `obj["__proto__"] = v` on a plain object sets its
// prototype and loses the key. A name written so that is declared nowhere in the file (a parameter)
// counts as plain: the rule cannot see where it was made.

const EXPORTS = join(SRC, "exports");
const COMPUTED_WRITE = /\b([A-Za-z_$][\w$]*)\[(?!["'`\d])[^\]]+\]\s*=(?!=)/g;

/** The objects of `text` written with a computed key and not made by `jsonObject()`. */
function plainWrites(file: string, text: string): string[] {
  const names = new Set([...text.matchAll(COMPUTED_WRITE)].map((m) => m[1]!));
  return [...names].flatMap((name) => {
    const declared = new RegExp(`\\b(?:const|let|var)\\s+${name}\\b[^=;]*=\\s*([^;\\n]*)`).exec(text);
    const init = declared?.[1] ?? "";
    return /^(?:jsonObject\(|Object\.assign\(jsonObject\(\))/.test(init)
      ? []
      : [
          `${file}: ${name} is ${declared ? `made as ${init.slice(0, 40)}` : "not made in this file"}, written with a computed key`,
        ];
  });
}

describe("objects of the exports written with computed keys are prototype-free (T315)", () => {
  const exportSources = sources.filter(([f]) => f.startsWith(EXPORTS));

  it("covers src/exports, whose writes by computed key are the file, entry and tree builders", () => {
    const written = exportSources.flatMap(([, t]) => [...t.matchAll(COMPUTED_WRITE)].map((m) => m[1]));
    for (const n of ["file", "out", "unlisted", "entry", "tree", "models"]) expect(written).toContain(n);
  });

  it("every one is made by jsonObject()", () => {
    expect(exportSources.flatMap(([f, t]) => plainWrites(f, t))).toEqual([]);
  });

  it("the rule fails on a plain object and on an object it cannot see made, and passes jsonObject()", () => {
    expect(plainWrites("probe.ts", "const file: Record<string, X> = {};\nfile[key] = x;\n")).toEqual([
      expect.stringContaining("file is made as {}"),
    ]);
    expect(plainWrites("probe.ts", "function f(o: Json, k: string) {\n  o[k] = 1;\n}\n")).toEqual([
      expect.stringContaining("o is not made in this file"),
    ]);
    expect(plainWrites("probe.ts", "const file = jsonObject();\nfile[key] = x;\nfile[key] === y;\n")).toEqual([]);
    expect(plainWrites("probe.ts", 'const o = {};\no["fixed"] = 1;\no[0] = 2;\n')).toEqual([]);
  });
});

describe("string-keyed tables read by computed keys are prototype-free (T250)", () => {
  it("finds the tables of the issue", () => {
    const names = new Set(tables.map((t) => t.name));
    for (const n of ["BEDROCK_VERSIONS", "MAKER_PLATFORMS", "MAKERS", "PUBLISHER_NAMES", "SELLER_ALIASES"])
      expect(names).toContain(n);
    expect(names).toContain("DOCUMENTED_CONTEXT_WINDOWS");
    expect(names).toContain("MODE_TIERS");
  });

  it("every one read by a computed key is built with lookupTable, inner tables too", () => {
    expect(violations(tables, sources)).toEqual([]);
  });

  it("the rule fails on a plain-object table read by upstream text, and on plain inner tables", () => {
    const plain: [string, string] = [
      "probe.ts",
      'const T: Readonly<Record<string, string>> = {\n  a: "b",\n};\nT[s];\n',
    ];
    expect(violations(tablesOf(...plain), [plain])).toEqual([expect.stringContaining("T is a plain object")]);
    const nested: [string, string] = [
      "probe.ts",
      "const T: Readonly<Record<string, Record<string, string>>> = lookupTable({\n  a: { b: 1 },\n});\nT[s]?.[m];\n",
    ];
    expect(violations(tablesOf(...nested), [nested])).toEqual([expect.stringContaining("inner tables")]);
    const literal: [string, string] = [
      "probe.ts",
      'const T: Readonly<Record<string, string>> = { a: "b" };\nT["a"];\n',
    ];
    expect(violations(tablesOf(...literal), [literal])).toEqual([]);
  });

  it.each(Object.getOwnPropertyNames(Object.prototype))("%s reads as an unknown key", (name) => {
    expect(lookupTable({ a: 1 })[name]).toBeUndefined();
    expect(MAKERS[name]).toBeUndefined();
    expect(SELLER_ALIASES[name]).toBeUndefined();
    expect(canonicalSeller(name)).toBe(name.toLowerCase());
    expect(channelOf(name, "openai")).toBe("other");
    expect(isMaker(name)).toBe(false);
  });
});
