import type { FakePayloads } from "./fake-upstream.js";

/**
 * The fake upstream's payloads of a maker's own price page (test material, issue 35): served whole
 * (one maker), `empty` and `dropRows` act on the lines `isPriceRow` accepts, `truncate` cuts inside
 * the first price row (a page cut elsewhere would still be a valid page), and a moved page answers
 * an invented `{ detail: "Moved Permanently" }`.
 */
export function makerPagePayloads(
  isPriceRow: (line: string) => boolean,
  truncate: (text: string) => string,
  extra: Pick<FakePayloads, "failedCopies"> = {},
): FakePayloads {
  const rows = (text: string, keep: (row: number) => boolean) => {
    let n = 0;
    return text
      .split("\n")
      .filter((l) => !isPriceRow(l) || keep(n++))
      .join("\n");
  };
  return {
    cut: (_name, text) => text,
    truncate,
    wrongShape: { detail: "Moved Permanently" },
    empty: (_name, text) => rows(text, () => false),
    dropRows: (_name, text, keep) => rows(text, keep),
    ...extra,
  };
}
