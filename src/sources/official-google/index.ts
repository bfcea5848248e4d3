import type { Listing, PriceObservation } from "../../domain/observation.js";
import { UnmappedTally } from "../field-map.js";
import { sourceAdapter } from "../shared/adapter.js";
import { columnOf, type MarkdownTable, markdownTables, plainText } from "../shared/markdown-table.js";
import type { PageHealthSpec } from "../shared/page-health.js";
import { makerListing, pagePrice } from "../shared/page-listing.js";
import { payloadFile } from "../shared/payload-json.js";
import type { ParseReport, SourceInfo, SourcePayload } from "../source.js";
import { SourcePayloadError } from "../source.js";
import type { LiveUpstream } from "../upstream.js";
import { cellAmounts } from "./cell.js";
import { NOT_A_PRICE, PAID_COLUMN, TIERS, TOKEN_ROWS, TOOL_ROWS } from "./field-map.js";

/**
 * Google's own "Gemini Developer API pricing" page (ai.google.dev/gemini-api/docs/pricing, its
 * Markdown rendering; issue 48, T430). One listing per `## <model>` section naming one API id; the
 * paid tier's input, output and context-caching prices per modality and bracket, standard and batch,
 * and the grounding fees per 1K prompts. Authoritative for `google` (D8 verified); © Google, kept
 * for verification only.
 */

const FILE = "pricing.md";
const ID = "official-google";

/** The live payload: the page's Markdown rendering (`.md.txt`, as ai.google.dev serves it). */
const UPSTREAM: LiveUpstream = {
  baseUrl: "https://ai.google.dev/gemini-api/docs/",
  files: () => [{ name: FILE, path: "pricing.md.txt" }],
};

const INFO: SourceInfo = {
  name: "Gemini Developer API pricing page",
  license: null,
  homepage: "https://ai.google.dev/gemini-api/docs/pricing",
  weight: 1,
  authoritativeFor: ["google"],
  skippedFields: {
    "Free Tier column": "a rate-limited plan whose content is used to improve Google's products, not a price list",
    "Context caching storage": "USD per 1M tokens per hour of storage: no unit of ours, never a token price",
    "per-image amounts": "image output per image (1K/2K/4K) and footnoted per-image input: stated in a footnote",
    "Grounding (Coming soon)": "a fee the page says is not billed yet",
    "Image generation pricing / Image price / Video price": "per image or per second of video by variant row",
    "sections naming several API ids or none": "Imagen, Veo (variant rows) and the tools sections",
  },
};

/**
 * The page's health gate (T291; T476: no title, the rendering states none). The recorded copy is
 * 52,963 bytes; the band is half to three times that.
 */
export const PAGE_HEALTH: PageHealthSpec = {
  canaries: [/Paid Tier, per 1M tokens in USD/],
  bytes: [26_000, 160_000],
};

/** Rows known and not published (INFO.skippedFields). */
const SKIPPED_ROWS = /^(context caching \(storage\)|image generation pricing|image price|video price|tuning price)$/i;

/** `## <name>` sections with the text up to the next `## `. */
function sections(text: string): { name: string; body: string }[] {
  const parts = text.split(/^## /m).slice(1);
  return parts.map((p) => ({ name: plainText((p.split("\n")[0] ?? "").replace(/[^\x20-\x7E]+/g, "")), body: p }));
}

/** The API ids in italics under a heading: `` *`gemini-2.5-pro`* ``, several for Imagen and Veo. */
function apiIds(body: string): string[] {
  const line = body.split("\n").find((l) => /^\*`[^`]+`/.test(l.trim()));
  return line ? [...line.matchAll(/`([^`]+)`/g)].map((m) => m[1] as string) : [];
}

function tierOf(table: MarkdownTable): keyof typeof TIERS | null {
  const h = (table.headings.at(-1) ?? "").toLowerCase();
  return Object.hasOwn(TIERS, h) ? (h as keyof typeof TIERS) : null;
}

/** The prices of one table (one tier) of a model section. */
function tablePrices(table: MarkdownTable, tier: keyof typeof TIERS, unmapped: UnmappedTally): PriceObservation[] {
  const paid = columnOf(table.header, PAID_COLUMN);
  if (paid < 0) {
    unmapped.add(`table without a Paid Tier column: ${table.header.map(plainText).join(" | ")}`);
    return [];
  }
  const out: PriceObservation[] = [];
  for (const cells of table.rows) {
    const label = plainText(cells[0] ?? "");
    const cell = cells[paid] ?? "";
    if (NOT_A_PRICE.test(label)) continue;
    const amounts = cellAmounts(cell);
    if (amounts.length === 0) continue; // "Not available", "Free of charge" in the paid column: no price
    const token = TOKEN_ROWS.find((r) => r.label.test(label));
    const tool = TOOL_ROWS.find((r) => r.label.test(label));
    if (token) {
      for (const a of amounts) {
        if (a.otherUnit) continue; // storage per hour, per image, footnoted: skippedFields
        // `(text / image / video)`: one amount for the group, published as the text price (image and
        // video input bill at the text rate, as every other source writes it); a group without text
        // (`(audio)`, `(audio / video)`) is priced per modality named (T430).
        const modalities = a.modalities.includes("text") ? (["text"] as const) : a.modalities;
        for (const modality of modalities)
          out.push(pagePrice({ ...token.rule, modality }, a.amount, { tier, contextMin: a.contextMin }));
      }
    } else if (tool && amounts.length === 1 && /\/\s*1,000\s+(grounded prompts|search queries)/i.test(cell)) {
      // "(Coming soon)": not billed yet (skippedFields)
      if (!/coming soon/i.test(cell)) out.push(pagePrice(tool.rule, amounts[0]!.amount, { tier }));
    } else if (!SKIPPED_ROWS.test(label)) unmapped.add(`row: ${label}`);
  }
  return out;
}

/**
 * Parses the pricing page.
 * @throws SourcePayloadError when `pricing.md` is missing, or no model section states a paid-tier
 *   price (the health gate, {@link PAGE_HEALTH}, runs before the parse: T291, T476)
 */
function parseReport(payload: SourcePayload): ParseReport {
  const text = payloadFile(ID, payload, FILE);
  const unmapped = new UnmappedTally();
  const listings: Listing[] = [];
  for (const section of sections(text)) {
    const ids = apiIds(section.body);
    const tables = markdownTables(`## ${section.body}`);
    if (tables.length === 0) continue; // prose sections
    // Imagen and Veo name several ids and price them by rows named after variants; tools name none (skippedFields).
    if (ids.length !== 1) continue;
    const prices = tables.flatMap((t) => tablePrices(t, tierOf(t) ?? "standard", unmapped));
    // (the heading names the model family, "Gemini 2.5 Flash Preview" for a dated preview id: not its display name)
    if (prices.length > 0) listings.push(makerListing("google", ids[0] as string, prices));
  }
  if (listings.length === 0) throw new SourcePayloadError(`${ID}: ${FILE} states no paid-tier price of a model`);
  return { listings, unmapped: unmapped.toRecord() };
}

/** Google's own Gemini API pricing page (weight 1, authoritative for google). */
export const officialGoogleSource = sourceAdapter(ID, INFO, UPSTREAM, parseReport, {
  pageHealth: { [FILE]: PAGE_HEALTH },
});
