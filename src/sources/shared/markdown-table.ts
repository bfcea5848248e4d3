import { tableCells } from "./page-table.js";

/**
 * Reading Markdown pipe tables by their headers (issue 48 §4): the table reader the makers' pages
 * share (Z.ai, xAI, Moonshot, Google). Pure; a table is found by the headings above it and read
 * by header text, never by position. A sibling of the Anthropic/OpenAI reader (`page-table.ts`,
 * issue 47) to be merged with it.
 */

/** One pipe table of a page. */
export interface MarkdownTable {
  /** The headings above the table, outermost first, markup and link targets removed (`["Models", "Text Models"]`). */
  readonly headings: readonly string[];
  /** Header cells, trimmed. */
  readonly header: readonly string[];
  /** Body rows, each as many cells as the row has (not padded), trimmed. */
  readonly rows: readonly (readonly string[])[];
  /** The 0-based line of the header row. */
  readonly line: number;
}

/** A heading's text without `#`, Markdown links (`[text](url)` → `text`) or emphasis. */
export function headingText(line: string): string {
  return plainText(line.replace(/^#+\s*/, ""));
}

/** A cell or heading as plain text: links to their text, emphasis and code marks removed, spaces collapsed. */
export function plainText(cell: string): string {
  return cell
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/[*`]/g, "")
    .replace(/\s+/g, " ")
    .trim();
}

const SEPARATOR = /^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$/;

/**
 * Every pipe table of `text`, in page order: a `|` row followed by a `---` separator row, then the
 * `|` rows up to the first line that is not one.
 */
export function markdownTables(text: string): MarkdownTable[] {
  const lines = text.split(/\r?\n/);
  const out: MarkdownTable[] = [];
  const trail: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const h = /^(#{1,6})\s/.exec(line);
    if (h) {
      const level = (h[1] as string).length;
      trail.length = Math.min(trail.length, level - 1);
      while (trail.length < level - 1) trail.push("");
      trail.push(headingText(line));
      continue;
    }
    if (!line.trim().startsWith("|") || !SEPARATOR.test(lines[i + 1] ?? "")) continue;
    const rows: string[][] = [];
    let j = i + 2;
    for (; j < lines.length && (lines[j] as string).trim().startsWith("|"); j++)
      rows.push(tableCells(lines[j] as string));
    out.push({ headings: trail.filter((t) => t !== ""), header: tableCells(line), rows, line: i });
    i = j - 1;
  }
  return out;
}

/** The index of the first header cell `pattern` matches (on its plain text), or -1. */
export function columnOf(header: readonly string[], pattern: RegExp): number {
  return header.findIndex((h) => pattern.test(plainText(h)));
}
