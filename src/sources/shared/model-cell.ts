import { normaliseHeader } from "./page-table.js";

/**
 * The model cell of a maker's price page, read by a grammar and never slugified (issue 46 §2,
 * T406). Pure. A cell is cleaned (links to their text, footnote marks, `(deprecated)` noted and
 * dropped, `(introductory)` dropped), its dated qualifier read ("through D", "until D", "starting
 * D", "from D", "effective D") into the row's validity, and the rest split into the models it names
 * ("Claude A / Claude B", "Claude Sonnet 4.6 / 4.5 / 4"). Each name must match one rule of the
 * maker's {@link ModelNameGrammar} (reviewed data in the source's folder, a test per rule from a real
 * page); a name that matches none is an unmatched row with its reason, counted in `/sources` — it
 * never founds a model. A page lists only its maker's models: a name another maker's grammar marks
 * is unmatched too.
 */

/** One rule of a maker's model-name grammar: the names it accepts and the model id each means. */
export interface ModelNameRule {
  /** Matched against the cleaned name (case as written); anchored. */
  readonly pattern: RegExp;
  /** The maker's model id of a match (`Claude Opus 4.1` → `claude-opus-4-1`). */
  readonly id: (m: RegExpExecArray) => string;
  /** A cell of a recorded copy this rule reads, and the id it gives (tested against that copy). */
  readonly example: { readonly source: string; readonly date: string; readonly cell: string; readonly id: string };
}

/** A maker's model-name grammar. */
export interface ModelNameGrammar {
  /** The maker slug (`anthropic`). */
  readonly maker: string;
  readonly rules: readonly ModelNameRule[];
}

/**
 * Words that mark another maker's model on a page (the makers Tariff reads pages of, issue 48, and the
 * big open-weights families): a row naming one on this maker's page is "another maker's model".
 */
export const MAKER_MARKS: Readonly<Record<string, RegExp>> = {
  anthropic: /\bclaude\b/i,
  openai: /\b(?:gpt|chatgpt|dall-e|whisper|sora|o[1-9](?:-mini|-pro)?)\b/i,
  google: /\b(?:gemini|gemma|palm|imagen|veo)\b/i,
  deepseek: /\bdeepseek\b/i,
  xai: /\bgrok\b/i,
  mistral: /\b(?:mistral|mixtral|codestral|magistral|ministral|pixtral|devstral)\b/i,
  moonshot: /\b(?:kimi|moonshot)\b/i,
  zai: /\bglm\b/i,
  meta: /\bllama\b/i,
  alibaba: /\bqwen\b/i,
};

/** A row's dated qualifier: the price applies until `day` (exclusive) or from `day` (inclusive), YYYY-MM-DD. */
export type DatedQualifier =
  | { readonly kind: "until"; readonly day: string }
  | { readonly kind: "from"; readonly day: string };

/** One model a cell names. */
export interface NamedModel {
  /** The cleaned display name (`Claude Opus 4.1`). */
  readonly name: string;
  /** The maker's id, by the grammar. */
  readonly id: string;
}

/** A cell's reading: the models it names, or why it names none. */
export type ModelCell =
  | {
      readonly ok: true;
      readonly models: readonly NamedModel[];
      readonly deprecated: boolean;
      readonly dated: DatedQualifier | null;
    }
  | { readonly ok: false; readonly reason: string };

const MONTHS = [
  "january",
  "february",
  "march",
  "april",
  "may",
  "june",
  "july",
  "august",
  "september",
  "october",
  "november",
  "december",
];
const MONTH = `(?:${MONTHS.map((m) => `${m.slice(0, 3)}(?:${m.slice(3)})?\\.?`).join("|")})`;
/** A date as pages write it: `January 1, 2027`, `Jan 1st 2027`, `1 January 2027`, `2027-01-01` — never inside an id (`gpt-4o-2024-05-13`). */
const DATE = `(?<![\\w-])(?:${MONTH}\\s+\\d{1,2}(?:st|nd|rd|th)?,?\\s+\\d{4}|\\d{1,2}\\s+${MONTH},?\\s+\\d{4}|\\d{4}-\\d{2}-\\d{2})(?![\\w-])`;

/** Words that begin a qualifier, and whether the price ends (`until`) or starts (`from`) there; `through` includes its day. */
const QUALIFIER = new RegExp(
  `[\\[(]?\\s*(?:introductory(?:\\s+pric(?:e|ing))?[,;:]?\\s*)?\\b(through|thru|until|till|up to|starting(?:\\s+(?:on|from))?|from|effective(?:\\s+(?:on|from))?|beginning(?:\\s+on)?|as of)\\s+(${DATE})\\s*[\\])]?`,
  "i",
);

/** Any date left in a name once its qualifier is read: a dated note the grammar does not read. */
const ANY_DATE = new RegExp(DATE, "i");

/** Every date a text writes (any {@link DATE} spelling), in order, as written. */
export function datesIn(text: string): string[] {
  return [...text.matchAll(new RegExp(DATE, "gi"))].map((m) => m[0]);
}

/** `January 1, 2027` (any {@link DATE} spelling) → `2027-01-01`; null when it is no calendar day. */
export function pageDay(text: string): string | null {
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text.trim());
  let y: number;
  let m: number;
  let d: number;
  if (iso) [y, m, d] = [Number(iso[1]), Number(iso[2]), Number(iso[3])];
  else {
    const words = text
      .toLowerCase()
      .replace(/[.,]/g, " ")
      .replace(/(\d)(st|nd|rd|th)\b/g, "$1")
      .split(/\s+/)
      .filter(Boolean);
    const month = words.findIndex((w) => /^[a-z]/.test(w));
    const mi = MONTHS.findIndex((name) => name.startsWith((words[month] ?? "").slice(0, 3)));
    const nums = words.filter((w) => /^\d+$/.test(w)).map(Number);
    if (mi < 0 || nums.length !== 2) return null;
    m = mi + 1;
    [d, y] = (nums[0] as number) > 31 ? [nums[1] as number, nums[0] as number] : [nums[0] as number, nums[1] as number];
  }
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return null;
  return date.toISOString().slice(0, 10);
}

/** The day after `day` (YYYY-MM-DD). */
export function nextDay(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}

/** Footnote marks: `<sup>1</sup>`, `[^1]`, `*`, `†`, `‡`, superscript digits. */
const FOOTNOTES = /<sup>[^<]*<\/sup>|\[\^[^\]]*\]|[*†‡§¹²³⁴⁵⁶⁷⁸⁹⁰]+/g;

/**
 * Reads a model cell by the maker's grammar.
 * @returns the models it names with the row's deprecation and dated qualifier, or the reason it names
 *   none of the maker's models (another maker's, no rule of the grammar, a date not understood)
 */
export function readModelCell(cell: string, grammar: ModelNameGrammar): ModelCell {
  let deprecated = false;
  let text = cell.replace(/[\u00a0\u2007\u2009\u202f]/g, " ").replace(/\\\$/g, "$");
  // Notes in parentheses holding a link: `([deprecated](…))`.
  text = text.replace(/\(\s*\[([^\]]*)\]\([^)]*\)\s*\)/g, (_, note: string) => {
    if (/deprecat/i.test(note)) deprecated = true;
    return /deprecat|legacy/i.test(note) ? "" : ` (${note})`;
  });
  text = text
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(FOOTNOTES, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/[_`]/g, "");
  text = text.replace(/\(\s*(deprecated|legacy)\s*\)/gi, (_, w: string) => {
    if (/deprecated/i.test(w)) deprecated = true;
    return "";
  });
  let dated: DatedQualifier | null = null;
  const q = QUALIFIER.exec(text);
  if (q) {
    const day = pageDay(q[2] as string);
    if (!day) return { ok: false, reason: `a date the grammar does not read ("${q[2]}")` };
    const word = (q[1] as string).toLowerCase();
    dated = /^(through|thru)/.test(word)
      ? { kind: "until", day: nextDay(day) }
      : /^(until|till|up to)/.test(word)
        ? { kind: "until", day }
        : { kind: "from", day };
    text = text.slice(0, q.index) + text.slice(q.index + q[0].length);
  }
  text = text
    .replace(/\(\s*introductory(?:\s+pric(?:e|ing))?\s*\)/gi, "")
    .replace(/[\s,;:—–-]+$/, "")
    .replace(/\s+/g, " ")
    .trim();
  if (ANY_DATE.test(text) || /\b(?:through|until|starting|effective)\b/i.test(text))
    return { ok: false, reason: `a dated note the grammar does not read ("${text}")` };
  if (text === "") return { ok: false, reason: "no model named" };
  const parts = text.split(/\s+\/\s+|\s*\/\s*(?=\d)|\s*,\s*|\s+(?:and|&)\s+/).filter((p) => p !== "");
  const family = /^(.*\s)\S+$/.exec(parts[0] ?? "")?.[1] ?? "";
  const models: NamedModel[] = [];
  for (const [i, part] of parts.entries()) {
    const candidates = i > 0 && family !== "" ? [part, `${family}${part}`] : [part];
    const named = candidates.map((name) => resolveName(name, grammar)).find((r) => r !== null);
    if (named) {
      models.push(named);
      continue;
    }
    const other = Object.entries(MAKER_MARKS).find(([maker, mark]) => maker !== grammar.maker && mark.test(part));
    return {
      ok: false,
      reason: other
        ? `another maker's model (${other[0]}: "${part}"); a page lists only its maker's models`
        : `"${part}" is no ${grammar.maker} model name (no rule of the grammar)`,
    };
  }
  return { ok: true, models, deprecated, dated };
}

function resolveName(name: string, grammar: ModelNameGrammar): NamedModel | null {
  for (const r of grammar.rules) {
    const m = r.pattern.exec(name);
    if (m) return { name, id: r.id(m) };
  }
  return null;
}

/** The plain text of a cell for messages (`unmatched row "…"`). */
export function cellLabel(cell: string): string {
  return normaliseHeader(cell).slice(0, 80);
}
