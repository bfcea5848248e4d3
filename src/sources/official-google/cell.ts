import type { Modality } from "../../domain/dimension.js";
import { MODALITY_WORDS } from "./field-map.js";

/**
 * The grammar of one paid-tier cell of Google's pricing page (issue 48 §2): the `$X` amounts, each
 * with the bracket and modalities its trailing words state. Pure.
 */

/** One amount of a cell and what it prices. */
export interface CellAmount {
  /** Decimal as written (`"0.125"`). */
  readonly amount: string;
  /** Lower bound of the bracket in tokens (0 unless `prompts > Nk`). */
  readonly contextMin: number;
  /** The modalities it prices (`["text", "image", "video"]`); `["text"]` when none is written. */
  readonly modalities: readonly Modality[];
  /** Why the amount is not a price per 1M tokens (storage per hour, per image, footnoted), or null. */
  readonly otherUnit: string | null;
  /** The words after the amount, for messages. */
  readonly words: string;
}

/** The amounts of a cell: every `$X` and the words up to the next `$`. */
export function cellAmounts(cell: string): CellAmount[] {
  const text = cell.replace(/\\([<>*^])/g, "$1");
  return [...text.matchAll(/\$(\d[\d,]*(?:\.\d+)?)([^$]*)/g)].map((m) => {
    const words = (m[2] as string).trim();
    const above = /prompts\s*>\s*(\d+)\s*k/i.exec(words);
    const paren = /\(([^)]*)\)/.exec(words)?.[1] ?? "";
    const modalities = [
      ...new Set(
        paren
          .split(/\s*(?:\/|,|\band\b)\s*/)
          .map((w) => MODALITY_WORDS[w.trim().toLowerCase()])
          .filter((x): x is Modality => x !== undefined),
      ),
    ];
    const otherUnit = /per hour|storage/i.test(words)
      ? "cache storage per 1M tokens per hour"
      : /\bper\b.*\bimage\b|\bper image\b/i.test(words)
        ? "per image"
        : /\^|\*/.test(words)
          ? "a footnoted amount (its unit is in the footnote)"
          : null;
    return {
      amount: (m[1] as string).replace(/,/g, ""),
      contextMin: above ? Number(above[1]) * 1000 : 0,
      modalities: modalities.length > 0 ? modalities : ["text"],
      otherUnit,
      words,
    };
  });
}
