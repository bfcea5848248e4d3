import { amountsAgree } from "../../domain/amount.js";
import { isBaseTextDimension } from "../../domain/dimension.js";
import type { Listing, PriceObservation } from "../../domain/observation.js";
import type { UnmappedTally } from "../field-map.js";
import { datesIn, type NamedModel, nextDay, pageDay } from "./model-cell.js";

/**
 * The sentences a maker's page uses to announce, confirm or withdraw a price change, read
 * deterministically (issue 46 §3, T465). Pure. The page's prose (tables, code and markup left out)
 * is cut into sentences; a sentence that writes a date and mentions a price (an amount in dollars,
 * or price / pricing / billed / charged / cost / rate) is matched against {@link STATEMENT_PATTERNS},
 * reviewed data each with the real sentence it was written from:
 *
 * - `withdrawal` ("… is now the standard price", "… will not occur"): the page withdraws an
 *   announced change of the models it names; their prices lose the end the tables state for that
 *   day (the page's own words outrank its rows and every aggregator, T423);
 * - `announcement` ("Introductory pricing of $2/$10 per million input/output tokens is in effect
 *   through August 31, 2026, after which the standard pricing of $3/$15 … will take effect"): it
 *   confirms a dated row of the tables, or dates the standard input and output of the models it
 *   names when the tables do not;
 * - `scope` ("models released on or after March 5, 2026"): the date says which models a rule covers,
 *   no price changes on it.
 *
 * A sentence no pattern matches — or one whose reading finds nothing on the page to apply to — is
 * never guessed: it is reported for review on the source's tally (`/sources` `unmappedByField`, key
 * `sentence for review: "<sentence>" — <why>`, counted in `sentencesForReview`).
 */

/** What a pattern makes of a sentence. */
export type StatementKind = "withdrawal" | "announcement" | "scope";

/** One reviewed wording: the sentences it matches, and the real one it was written from. */
export interface StatementPattern {
  readonly kind: StatementKind;
  readonly pattern: RegExp;
  /** Where the wording was read (a recorded copy, or a public recorder's copy of the page) and the sentence. */
  readonly example: { readonly where: string; readonly sentence: string };
}

/** The reviewed wordings, most specific first (the first that matches reads the sentence). */
export const STATEMENT_PATTERNS: readonly StatementPattern[] = [
  {
    kind: "withdrawal",
    pattern:
      /\b(?:is now the (?:standard|regular|permanent) pric(?:e|ing)|will not (?:occur|take effect|go into effect|apply)|(?:has|have) been (?:cancell?ed|withdrawn|called off)|(?:is|are) no longer (?:scheduled|planned))\b/i,
    example: {
      where:
        "platform.claude.com …/about-claude/pricing, callout under Model pricing, as quoted 2026-08-19 (public recorders)",
      sentence:
        "The $2/$10 per million input/output token pricing for Claude Sonnet 5, announced at launch as introductory pricing through August 31, 2026, is now the standard price.",
    },
  },
  {
    kind: "announcement",
    pattern:
      /\bintroductory pric(?:e|ing) of .*\b(?:is in effect|applies|apply)\b.*\b(?:through|until)\b.*(?:after which|then|starting|from)\b/i,
    example: {
      where: "gpambrozio/ClaudeDocs docs-md/api/about-claude/pricing.md @ 66d59bbc (2026-07-21)",
      sentence:
        "Introductory pricing of $2/$10 per million input/output tokens is in effect through August 31, 2026, after which the standard pricing of $3/$15 per million input/output tokens will take effect.",
    },
  },
  {
    kind: "announcement",
    pattern: /\bintroductory pric(?:e|ing) of .*\b(?:applies|apply|is in effect)\b.*\b(?:through|until)\b/i,
    example: {
      where: "gpambrozio/ClaudeDocs docs-md/api/about-claude/models/overview.md @ 66d59bbc (2026-07-21)",
      sentence: "Introductory pricing of $2 / $10 per MTok applies to Claude Sonnet 5 through August 31, 2026.",
    },
  },
  {
    kind: "scope",
    pattern: /\bmodels released (?:on or after|after|from|since)\b/i,
    example: {
      where: "official-openai 2026-06-01 (recorded copy), allModelsFootnote",
      sentence:
        "Regional processing (data residency) endpoints are charged a 10% uplift for models released on or after March 5, 2026, that are eligible for data residency.",
    },
  },
];

/** A sentence as read: its kind, or why it is for review. */
export type PageStatement =
  | {
      readonly kind: "withdrawal";
      readonly sentence: string;
      readonly models: readonly NamedModel[];
      readonly days: readonly string[];
    }
  | {
      readonly kind: "announcement";
      readonly sentence: string;
      readonly models: readonly NamedModel[];
      /** The first day the introductory price no longer applies (YYYY-MM-DD). */
      readonly until: string;
      readonly now: PricePair;
      readonly next: PricePair | null;
    }
  | { readonly kind: "scope"; readonly sentence: string }
  | { readonly kind: "review"; readonly sentence: string; readonly reason: string };

/** An input / output pair of amounts, USD per 1M tokens. */
export interface PricePair {
  readonly input: number;
  readonly output: number;
}

const PRICE_WORD = /\$\s?\d|\b(?:pric(?:e|es|ed|ing)|billed|charged|costs?|rates?)\b/i;

/**
 * The prose sentences of a page, once each, in order: table rows, JSX array props (a pane's
 * `rows={[…]}` and `columns={[…]}`: data the tables read, T513), fenced code, HTML tags and
 * Markdown link targets left out, lines of one paragraph joined.
 */
export function pageSentences(text: string): string[] {
  const prose = text
    .replace(/```[\s\S]*?```/g, "\n\n")
    .replace(/=\{\s*\[[\s\S]*?\]\s*\}/g, "={}\n\n")
    .split(/\r?\n/)
    .map((line) => (/^\s*\|/.test(line) ? "" : line))
    .join("\n")
    .replace(/<\/?[A-Za-z][^<>\n]*>/g, " ")
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/\\\$/g, "$")
    .replace(/[\u00a0\u2007\u2009\u202f]/g, " ")
    .replace(/[*_`]/g, "");
  const out = new Set<string>();
  for (const paragraph of prose.split(/\n\s*\n|\n\s*(?=[-#>]|\d+\.\s)|['"`]\s*[,)]?\s*\n/)) {
    const flat = paragraph
      .replace(/\s+/g, " ")
      .replace(/^[\s>#-]+/, "")
      .trim();
    for (const s of flat.split(/(?<=[.!?])\s+(?=[A-Z$[(])/)) if (s.length > 0) out.add(s.trim());
  }
  return [...out];
}

/** The amounts of a sentence written as pairs (`$2/$10`, `$2 / $10`), in order. */
function pricePairs(sentence: string): PricePair[] {
  const amount = String.raw`\$\s?(\d[\d,]*(?:\.\d+)?)`;
  return [...sentence.matchAll(new RegExp(`${amount}\\s*/\\s*\\$?\\s?(\\d[\\d,]*(?:\\.\\d+)?)`, "g"))].map((m) => ({
    input: Number((m[1] as string).replace(/,/g, "")),
    output: Number((m[2] as string).replace(/,/g, "")),
  }));
}

/** The day a dated phrase ends a price: "through D" → D + 1; "until D", "on D" → D. */
function endDays(sentence: string): string[] {
  const days: string[] = [];
  for (const written of datesIn(sentence)) {
    const day = pageDay(written);
    if (!day) continue;
    const before = sentence.slice(0, sentence.indexOf(written)).trimEnd();
    days.push(/\b(?:through|thru)$/i.test(before) ? nextDay(day) : day);
  }
  return days;
}

/**
 * Reads the dated sentences of a page.
 * @param names the models a sentence names, by the maker's grammar (the adapter's prose reader)
 */
export function readStatements(text: string, names: (sentence: string) => NamedModel[]): PageStatement[] {
  const out: PageStatement[] = [];
  // A withdrawal's second sentence names no model ("The previously scheduled increase … will not
  // occur."): it speaks of the models of the withdrawal right before it.
  let lastWithdrawal: { at: number; models: readonly NamedModel[] } | null = null;
  for (const [at, sentence] of pageSentences(text).entries()) {
    if (datesIn(sentence).length === 0 || !PRICE_WORD.test(sentence)) continue;
    const pattern = STATEMENT_PATTERNS.find((p) => p.pattern.test(sentence));
    if (!pattern) {
      out.push({ kind: "review", sentence, reason: "a dated price sentence no reviewed wording matches" });
      continue;
    }
    if (pattern.kind === "scope") out.push({ kind: "scope", sentence });
    else if (pattern.kind === "announcement") out.push(announcementOf(sentence, names(sentence)));
    else {
      const named = names(sentence);
      const models: readonly NamedModel[] =
        named.length === 0 && lastWithdrawal?.at === at - 1 ? lastWithdrawal.models : named;
      out.push({ kind: "withdrawal", sentence, models, days: endDays(sentence) });
      lastWithdrawal = { at, models };
    }
  }
  return out;
}

/** An announcement sentence's reading, or why it is for review. */
function announcementOf(sentence: string, models: readonly NamedModel[]): PageStatement {
  const pairs = pricePairs(sentence);
  const until = endDays(sentence)[0];
  if (pairs.length === 0 || until === undefined)
    return { kind: "review", sentence, reason: "an announcement whose amounts or day the wording does not give" };
  if (!/\bper (?:1M|one million|million(?: input\/output)? tokens|MTok)\b/i.test(sentence))
    return { kind: "review", sentence, reason: "an announcement in a unit other than per 1M tokens" };
  return { kind: "announcement", sentence, models, until, now: pairs[0] as PricePair, next: pairs[1] ?? null };
}

/** Counts a sentence for review on the tally (`/sources`). */
export function countForReview(tally: UnmappedTally, sentence: string, reason: string): void {
  const quoted = sentence.length > 220 ? `${sentence.slice(0, 217)}…` : sentence;
  tally.add(`sentence for review: "${quoted}" — ${reason}`);
}

/** The standard text input or output price of a listing. */
function baseText(l: Listing, direction: "input" | "output"): PriceObservation | undefined {
  return l.prices.find((p) => p.dimension.direction === direction && isBaseTextDimension(p.dimension));
}

/**
 * Applies a page's statements to its listings (see the module comment); what cannot be applied is
 * counted for review on `tally`.
 * @returns the listings, with withdrawn ends removed and sentence-dated prices dated
 */
export function applyStatements(
  listings: readonly Listing[],
  statements: readonly PageStatement[],
  tally: UnmappedTally,
): Listing[] {
  let out = [...listings];
  for (const s of statements) {
    if (s.kind === "scope") continue;
    if (s.kind === "review") {
      countForReview(tally, s.sentence, s.reason);
      continue;
    }
    const applied = s.kind === "withdrawal" ? withdraw(out, s) : announce(out, s);
    if (typeof applied === "string") countForReview(tally, s.sentence, applied);
    else out = applied;
  }
  return out;
}

/** The listings with the withdrawn ends of the named models removed, or why nothing applies. */
function withdraw(listings: readonly Listing[], s: Extract<PageStatement, { kind: "withdrawal" }>): Listing[] | string {
  const ids = new Set(s.models.map((m) => m.id));
  if (ids.size === 0) return "a withdrawal naming none of the page's models";
  if (!listings.some((l) => ids.has(l.model))) return "a withdrawal naming no model the page prices";
  return listings.map((l) => {
    if (!ids.has(l.model)) return l;
    const prices = l.prices.map((p) => {
      if (!p.validity || (s.days.length > 0 && !s.days.includes(p.validity.until))) return p;
      const { validity: _withdrawn, ...rest } = p;
      return rest;
    });
    return { ...l, prices };
  });
}

/** The listings with the announced change dated where the tables do not date it, or why nothing applies. */
function announce(
  listings: readonly Listing[],
  s: Extract<PageStatement, { kind: "announcement" }>,
): Listing[] | string {
  const states = (l: Listing) => {
    const input = baseText(l, "input");
    const output = baseText(l, "output");
    return (
      input !== undefined &&
      output !== undefined &&
      amountsAgree(input.amount, s.now.input) &&
      amountsAgree(output.amount, s.now.output)
    );
  };
  const ids = new Set(s.models.map((m) => m.id));
  // Naming no model, a sentence only confirms a dated row: it never picks models by their amounts.
  const confirms = (l: Listing) => states(l) && baseText(l, "input")?.validity?.until === s.until;
  const targets = listings.filter((l) => (ids.size > 0 ? ids.has(l.model) : confirms(l)));
  if (targets.length === 0)
    return ids.size > 0
      ? "an announcement naming no model the page prices"
      : `an announcement naming no model, and no row the page dates to ${s.until} at $${s.now.input}/$${s.now.output} per 1M tokens`;
  if (targets.some((l) => !states(l)))
    return `an announcement of $${s.now.input}/$${s.now.output} per 1M tokens where the tables state other prices`;
  const next = s.next;
  return listings.map((l) => {
    if (!targets.includes(l)) return l;
    const prices = l.prices.map((p) => {
      if (
        !isBaseTextDimension(p.dimension) ||
        (p.dimension.direction !== "input" && p.dimension.direction !== "output")
      )
        return p;
      if (p.validity) return p; // the tables date it: the sentence confirms
      const amount = next === null ? null : p.dimension.direction === "input" ? next.input : next.output;
      return { ...p, validity: { until: s.until, next: amount } };
    });
    return { ...l, prices };
  });
}
