/**
 * Free-text matching and ranking of `q` (D10, D11). Pure.
 */

/** D11 normal form: lower-case, accents stripped (NFKD, combining marks dropped), only `[a-z0-9]` kept. */
export function normalizeText(s: string): string {
  return foldText(s).replace(/[^a-z0-9]/g, "");
}

/** Lower-cased and accent-stripped, punctuation kept (for D10 word splitting). */
function foldText(s: string): string {
  return s.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase();
}

/** A parsed `q`: its normalized tokens (empty = no filter) and their joined form. */
export interface TextQuery {
  readonly tokens: readonly string[];
  readonly joined: string;
}

/** Parses `q` (D11): split on white space, each token normalized; tokens that normalize to nothing are dropped. */
export function parseTextQuery(q: string | undefined): TextQuery | null {
  if (q === undefined) return null;
  const tokens = q
    .split(/\s+/)
    .map(normalizeText)
    .filter((t) => t.length > 0);
  return tokens.length === 0 ? null : { tokens, joined: tokens.join("") };
}

/** Precomputed forms of one searchable text (a slug or a name). */
export interface SearchField {
  readonly normal: string;
  readonly words: readonly string[];
}

export function searchField(text: string): SearchField {
  return { normal: normalizeText(text), words: foldText(text).match(/[a-z0-9]+/g) ?? [] };
}

/** True when every token of the query occurs in at least one of the fields (D11). */
export function matchesAll(query: TextQuery, fields: readonly SearchField[]): boolean {
  return query.tokens.every((t) => fields.some((f) => f.normal.includes(t)));
}

/**
 * D10 rank of a match: 0 equals, 1 starts with, 2 a word starts with, 3 contains; the best over
 * the fields. Call only for fields that match.
 */
export function matchRank(query: TextQuery, fields: readonly SearchField[]): number {
  let best = 3;
  for (const f of fields) {
    if (f.normal === query.joined) return 0;
    if (f.normal.startsWith(query.joined)) best = Math.min(best, 1);
    else if (f.words.some((w) => w.startsWith(query.joined))) best = Math.min(best, 2);
  }
  return best;
}

/**
 * True when every token of the query sits on words of one field (issue 50 §2, T451): it is the start
 * of one word (`son` of "Sonnet"), or whole consecutive words (`33` over "3.3", `gpt4o` over
 * "GPT-4o"), never ending inside a later word. So `gpt 4o` sits on "GPT-4o mini" and not on "GPT-4
 * older" (whose normal form merely starts with `gpt4o`), nor `3.3` on "3.33". Call only for fields
 * that match.
 */
export function alignsWithWords(query: TextQuery, fields: readonly SearchField[]): boolean {
  return query.tokens.every((t) => fields.some((f) => f.words.some((_, i) => sitsOn(t, f.words, i))));
}

/** True when `token` is the start of `words[i]`, or `words[i]`, `words[i + 1]`, … joined exactly. */
function sitsOn(token: string, words: readonly string[], i: number): boolean {
  if ((words[i] as string).startsWith(token)) return true;
  let joined = "";
  for (let j = i; j < words.length && joined.length < token.length; j++) {
    joined += words[j];
    if (joined === token) return true;
  }
  return false;
}
