/**
 * Token counts as people write them (issue 38 §7, T348): `2M`, `1.5m`, `500K`, `2,000,000`,
 * `2 000 000`, `1.2 million`, `3B` — a number with an optional K, M or B (thousand, million,
 * billion) and an optional "tokens". Pure; the calculator reads its fields through it.
 */

const SCALE: Readonly<Record<string, number>> = {
  "": 1,
  k: 1_000,
  thousand: 1_000,
  m: 1_000_000,
  million: 1_000_000,
  b: 1_000_000_000,
  billion: 1_000_000_000,
};

/**
 * The whole number of tokens `text` states, rounded to the nearest token; 0 for an empty field.
 * @returns null when the text is not a count (letters other than a scale, a negative number)
 */
export function parseTokenCount(text: string): number | null {
  const t = text
    .trim()
    .toLowerCase()
    .replace(/tokens?$/, "")
    .trim();
  if (t === "") return 0;
  const m = /^(\d[\d,_ \u00a0\u202f]*(?:\.\d+)?|\.\d+)\s*(k|m|b|thousand|million|billion)?$/.exec(t);
  if (!m) return null;
  const digits = m[1]!.replace(/[,_ \u00a0\u202f]/g, "");
  const value = Number(digits) * SCALE[m[2] ?? ""]!;
  return Number.isFinite(value) ? Math.round(value) : null;
}

/** A count as a field shows it back: `2M`, `1.5M`, `500K`, `1234` (exact: it parses to the same number). */
export function formatTokenCount(n: number): string {
  for (const [suffix, scale] of [
    ["B", 1_000_000_000],
    ["M", 1_000_000],
    ["K", 1_000],
  ] as const) {
    if (n < scale) continue;
    // The largest scale the count reaches, with at most three exact decimals (1,234,567 stays digits).
    const text = String(Math.round((n / scale) * 1000) / 1000);
    return Math.round(Number(text) * scale) === n ? `${text}${suffix}` : String(n);
  }
  return String(n);
}
