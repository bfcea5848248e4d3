import { bracketedLiteralEnd } from "../shared/bracketed-literal.js";

/**
 * A deterministic reader of the plain TypeScript object literals in Mistral's model files (issue
 * 48): `pricing: { … }` and `identifiers: { … }` hold only unquoted keys, single- or double-quoted
 * strings, numbers, booleans, null, arrays, objects and trailing commas. The literal is re-spelled
 * as JSON token by token and parsed; nothing is evaluated. Anything else (a call, a template with
 * `${`, an identifier value) is not a literal of that kind: null.
 */

/** The source text of the object literal after `key:` (the first occurrence at line start), or null. */
export function literalAfterKey(text: string, key: string): string | null {
  const m = new RegExp(`^\\s*${key}\\s*:\\s*(?=[{\\[])`, "m").exec(text);
  if (!m) return null;
  const start = m.index + m[0].length;
  const end = bracketedLiteralEnd(text, start);
  return end === null ? null : text.slice(start, end);
}

const TOKEN =
  /\s+|\/\/[^\n]*|\/\*[\s\S]*?\*\/|'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"|`((?:[^`\\$]|\\.)*)`|(-?\d+(?:\.\d+)?(?:e[+-]?\d+)?)|([A-Za-z_$][\w$]*)|([{}[\]:,])/y;

/** The JSON value of a plain object literal (see the module comment), or null when it is not one. */
export function readObjectLiteral(source: string): unknown {
  const out: string[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < source.length) {
    const at = TOKEN.lastIndex;
    const m = TOKEN.exec(source);
    if (!m || m.index !== at) return null;
    const [whole, single, double, template, num, word, punct] = m;
    if (single !== undefined || double !== undefined || template !== undefined) {
      const raw = (single ?? double ?? template) as string;
      out.push(JSON.stringify(raw.replace(/\\(.)/g, "$1")));
    } else if (num !== undefined) out.push(String(Number(num)));
    else if (word !== undefined) {
      if (word === "true" || word === "false" || word === "null") out.push(word);
      else if (/^\s*:/.test(source.slice(TOKEN.lastIndex))) out.push(JSON.stringify(word));
      else return null;
    } else if (punct !== undefined) out.push(punct);
    else if (whole.trim() !== "") return null;
  }
  try {
    return JSON.parse(out.join("").replace(/,([}\]])/g, "$1"));
  } catch {
    return null;
  }
}
