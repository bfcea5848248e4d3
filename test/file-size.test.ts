import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

// Issue 45 (Must show: "0 files over 600 lines in src/"): a file that long holds more than one
// concept; the part that grew goes to a file of its own in the same folder. Generated data is no
// source file: it is JSON beside the module that reads it (T531). Test files are left out.

/** The longest a source file under src/ may be, in lines. */
const MAX_LINES = 600;

/** Lines of a text as `wc -l` counts them, a last line without its newline included. */
const lineCount = (text: string) => text.split("\n").length - (text.endsWith("\n") ? 1 : 0);

/** Every non-test `.ts`/`.tsx` file under `root` longer than `max` lines, as `path (n lines)`, sorted. */
function longFiles(root: string, max = MAX_LINES): string[] {
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name))
    .map((e) => {
      const path = join(e.parentPath, e.name);
      return { file: relative(root, path), lines: lineCount(readFileSync(path, "utf8")) };
    })
    .filter((f) => f.lines > max)
    .map((f) => `${f.file} (${f.lines} lines)`)
    .sort();
}

const scratch = mkdtempSync(join(tmpdir(), "tariff-file-size-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("no source file in src/ over 600 lines (issue 45)", () => {
  it("every non-test .ts/.tsx file under src/ is 600 lines or fewer", () => {
    expect(longFiles("src").map((f) => `src/${f}`)).toEqual([]);
  });

  it("a planted file of 601 lines is named, at any depth; 600 lines, test files and other files are not", () => {
    const lines = (n: number) => "export const a = 1;\n".repeat(n);
    const files: Record<string, string> = {
      "a.ts": lines(601),
      "deep/er/b.tsx": `${lines(700)}export const b = 2;`,
      "c.ts": lines(600),
      "d.test.ts": lines(900),
      "e.json": lines(900),
    };
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(scratch, path)), { recursive: true });
      writeFileSync(join(scratch, path), text);
    }
    expect(longFiles(scratch)).toEqual(["a.ts (601 lines)", "deep/er/b.tsx (701 lines)"]);
  });
});
