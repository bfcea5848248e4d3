import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * Files that spawn processes working for tens of seconds (a first-start replay, CLI runs killed at
 * each stage, two API processes, Chromium): started first, so none is left running alone at the end.
 */
const LONG_FILES = [
  "test/mcp-stdio-outside.test.ts",
  "test/live-crash.test.ts",
  "test/scale-out.test.ts",
  "test/ingest-runs.test.ts",
  "test/cli.test.ts",
  "test/web-e2e.test.ts",
  "test/store-parity.test.ts",
];

/**
 * The order of the test files (T152): the `unit` project first, so both workers are busy while the
 * replay builds; within a project the long files first, then vitest's own order (longest recorded
 * duration first, else largest file first).
 */
export class SuiteSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (f: TestSpecification) =>
      (f.project.name === "replay" ? 2 : 0) + (LONG_FILES.some((l) => f.moduleId.endsWith(l)) ? 0 : 1);
    return sorted
      .map((file, i) => ({ file, i }))
      .sort((a, b) => rank(a.file) - rank(b.file) || a.i - b.i)
      .map(({ file }) => file);
  }
}
