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

/** A Markdown table row stating an amount: `| … $0.20 …`, `\\$0.6`, `￥1.00`, `0.2元` (a maker's page). */
const PRICE_ROW = /^\s*\|.*(?:\\?\$\s*\d|[￥¥]\s*\d|\d\s*元)/;

/**
 * The fake upstream's payloads of a maker's page that has no `test/payloads/<id>.ts` of its own (issue
 * 48 §4, T475: a new maker is its folder and one registry line): a price row is a Markdown table row
 * stating an amount ({@link PRICE_ROW}); the page is cut inside the first one.
 */
export const genericMakerPagePayloads: FakePayloads = makerPagePayloads(
  (line) => PRICE_ROW.test(line),
  (text) => {
    const row = text.split("\n").find((l) => PRICE_ROW.test(l)) ?? "";
    return text.slice(0, text.indexOf(row) + Math.ceil(row.length / 2));
  },
);
