import type { Modality } from "../../domain/dimension.js";
import { lookupTable } from "../../domain/lookup-table.js";
import { type FieldRule, rule } from "../field-map.js";

/**
 * The field map of Google's "Gemini Developer API pricing" page (T70, issue 48). One `## <name>`
 * section per model with its API id in italics (`` *`gemini-2.5-pro`* ``); `### Standard` and
 * `### Batch` tables (the tier; a section without them is standard) with a row label column and the
 * `Paid Tier, per 1M tokens in USD` column, read by header. The Free Tier column is a rate-limited
 * plan, not a price list of ours: counted, not published.
 *
 * A paid cell holds one or more `$X` amounts, each followed by what it prices:
 * - `, prompts \<= 200k tokens` / `, prompts \> 200k` — the bracket (from 0, from 200,000);
 * - `(text / image / video)`, `(audio)`, `(text and thinking)` — the modalities it prices;
 * - `/ 1,000,000 tokens per hour (storage price)` — cache storage per hour: no unit of ours, counted;
 * - `per image`, a footnote mark `^\*^` — another unit than the column's: counted.
 */

/** Row labels → the rule of the row's token amounts. */
export const TOKEN_ROWS: readonly { readonly label: RegExp; readonly rule: FieldRule }[] = [
  { label: /^input price\b/i, rule: rule("input", "mtok", "1") },
  { label: /^output price\b/i, rule: rule("output", "mtok", "1") },
  { label: /^context caching price$/i, rule: rule("input", "mtok", "1", { cache: "read" }) },
];

/**
 * Grounding rows: `1,500 RPD (free), then $35 / 1,000 grounded prompts` — the paid rate, USD per
 * 1K calls, tool qualifier (as Anthropic's web search fee); the free daily allowance is stated in
 * the README, not published. `(Coming soon)` before the amount: not in force, counted.
 */
export const TOOL_ROWS: readonly { readonly label: RegExp; readonly rule: FieldRule }[] = [
  {
    label: /^grounding with google search$/i,
    rule: rule("tool", "kcalls", "1", { qualifiers: { tool: "google_search" } }),
  },
  {
    label: /^grounding with google maps$/i,
    rule: rule("tool", "kcalls", "1", { qualifiers: { tool: "google_maps" } }),
  },
];

/** Rows that state no price (a yes/no). */
export const NOT_A_PRICE = /^used to improve our products$/i;

/** The paid column of a table. */
export const PAID_COLUMN = /^paid tier\b/i;

/** `### Standard` / `### Batch` → tier. */
export const TIERS = { standard: "standard", batch: "batch" } as const;

/** The modality words of a `( … )` qualifier; `thinking` is text (thinking tokens bill as output text). */
export const MODALITY_WORDS: Readonly<Record<string, Modality>> = lookupTable({
  text: "text",
  thinking: "text",
  image: "image",
  video: "video",
  audio: "audio",
});
