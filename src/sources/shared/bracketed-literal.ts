/**
 * The end of a bracketed source literal (`[…]` or `{…}`) in a page's or a docs file's text, skipping
 * quoted strings ('…', "…", `…`, with backslash escapes), for the adapters that read JSX props
 * (official-openai) and TypeScript object literals (official-mistral). Pure; nothing is evaluated.
 * @param start the index of the opening `[` or `{`
 * @returns the index after the matching close, or null when the literal never closes
 */
export function bracketedLiteralEnd(text: string, start: number): number | null {
  let depth = 0;
  let quote: string | null = null;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === "\\") i++;
      else if (c === quote) quote = null;
    } else if (c === "'" || c === '"' || c === "`") quote = c;
    else if (c === "{" || c === "[") depth++;
    else if (c === "}" || c === "]") {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return null;
}
