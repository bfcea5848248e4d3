import type { FakePayloads } from "../../../test/fake-upstream.js";

/** A row of the page's price tables. */
const isPriceRow = (line: string) => line.startsWith("| Claude");

/**
 * The fake upstream's Anthropic pricing page (test material, `test/fake-upstream.ts`): Markdown,
 * one table row per model. Served whole (one maker).
 */
export const fakePayloads: FakePayloads = {
  cut: (_name, text) => text,
  // Cut inside its first price row: the page is Markdown, so a cut elsewhere would still be a valid page.
  truncate: (text) => text.slice(0, text.indexOf("| Claude") + 12),
  // Invented: what a moved page answers.
  wrongShape: { detail: "Moved Permanently" },
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
};
