import type { FakePayloads } from "../../../test/fake-upstream.js";

/** A row of a text-token pane: `["gpt-5.4-mini", 0.75, 0.075, 4.5],`. */
const isPriceRow = (line: string) => /^\s*\["/.test(line);

/**
 * The fake upstream's OpenAI pricing page (test material, `test/fake-upstream.ts`): Astro/MDX, one
 * JS array row per model and tier. Served whole (one maker).
 */
export const fakePayloads: FakePayloads = {
  cut: (_name, text) => text,
  // Cut inside the first row: a cut elsewhere could leave a page whose panes still close.
  truncate: (text) => text.slice(0, text.indexOf('["gpt') + 8),
  // Invented: what a moved page answers.
  wrongShape: { detail: "Moved Permanently" },
  // The page with every pane emptied: the shape of the real 2026-03-01 copy's panes.
  empty: (_name, text) =>
    text
      .split("\n")
      .filter((l) => !isPriceRow(l))
      .join("\n"),
  dropRows: (_name, text, keep) => {
    let n = 0;
    return text
      .split("\n")
      .filter((l) => !isPriceRow(l) || keep(n++))
      .join("\n");
  },
  // The recorded 2026-03-01 copy: empty text-token panes, a failed page (README).
  failedCopies: ["2026-03-01"],
};
