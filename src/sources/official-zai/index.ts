import type { Listing, PriceObservation } from "../../domain/observation.js";
import { UnmappedTally } from "../field-map.js";
import { sourceAdapter } from "../shared/adapter.js";
import { columnOf, type MarkdownTable, markdownTables, plainText } from "../shared/markdown-table.js";
import type { PageHealthSpec } from "../shared/page-health.js";
import { dollarAmounts, makerListing, pagePrice } from "../shared/page-listing.js";
import { payloadFile } from "../shared/payload-json.js";
import type { ParseReport, SourceInfo, SourcePayload } from "../source.js";
import { SourcePayloadError } from "../source.js";
import { filesNamed, type LiveUpstream } from "../upstream.js";
import { FREE_CELL, IMAGE_PRICE, MODEL_COLUMN, NO_PRICE_CELL, TEXT_COLUMNS, TEXT_SKIPPED, TOOLS } from "./field-map.js";

/**
 * Z.ai's own pricing page (docs.z.ai/guides/overview/pricing, its Mintlify `.md` twin; issue 48,
 * T430). Reads the "Text Models" table by header (input, cached input, output; USD per 1M tokens;
 * `Free` = 0), the web search fee of "Built-in Tools" and the per-image prices. Authoritative for
 * `zai` (D8 verified); © Z.ai, kept for verification only.
 */

const FILE = "pricing.md";
const ID = "official-zai";

/** The live payload: the page's Markdown twin. */
const UPSTREAM: LiveUpstream = { baseUrl: "https://docs.z.ai/guides/overview/", files: filesNamed(FILE) };

const INFO: SourceInfo = {
  name: "Z.ai pricing page",
  license: null,
  homepage: "https://docs.z.ai/guides/overview/pricing",
  weight: 1,
  authoritativeFor: ["zai"],
  skippedFields: {
    "Text Models: Cached Input Storage": 'no amount or unit stated ("Limited-time Free")',
    "Video Generation Models": "per video: no unit of ours",
    "Audio Models": "GLM-ASR per 1M tokens of audio, with a per-minute equivalent: no dimension of ours yet",
    Agents: "per agent run or per video: no dimension of ours",
  },
};

/**
 * The page's health gate (T291): title, canaries, size. The recorded copy is 3,177 bytes with the
 * recorder's front matter (about 2,700 without); the band is half to four times that.
 */
export const PAGE_HEALTH: PageHealthSpec = {
  title: /^pricing$/i,
  canaries: [/^### Text Models/m, /Prices per 1M tokens/],
  bytes: [1_300, 13_000],
};

/** A Z.ai model name as its API id: `GLM-4.5-Air` → `glm-4.5-air` (the API ids are the names, lower-cased). */
export function zaiModelId(name: string): string {
  return plainText(name).toLowerCase().replace(/\s+/g, "-");
}

function tableUnder(tables: readonly MarkdownTable[], heading: RegExp): MarkdownTable | undefined {
  return tables.find((t) => heading.test(t.headings.at(-1) ?? ""));
}

/** A cell's amount: `\$0.6` → "0.6", `Free` → "0", no price → null; anything else is counted. */
function cellAmount(cell: string): string | null | undefined {
  const text = plainText(cell);
  if (NO_PRICE_CELL.test(text)) return null;
  if (FREE_CELL.test(text)) return "0";
  const amounts = dollarAmounts(text);
  return amounts.length === 1 && /^\\?\$\s*[\d.,]+$/.test(text) ? amounts[0] : undefined;
}

/**
 * Parses the pricing page.
 * @throws SourcePayloadError when `pricing.md` is missing, or has no "Text Models" table with
 *   Model, Input and Output columns, or no priced row in it
 */
function parseReport(payload: SourcePayload): ParseReport {
  const text = payloadFile(ID, payload, FILE);
  const tables = markdownTables(text);
  const unmapped = new UnmappedTally();
  const textTable = tableUnder(tables, /^text models$/i);
  if (!textTable) throw new SourcePayloadError(`${ID}: ${FILE} has no "Text Models" table`);
  const col = {
    model: columnOf(textTable.header, MODEL_COLUMN),
    input: columnOf(textTable.header, TEXT_COLUMNS.input.header),
    cachedInput: columnOf(textTable.header, TEXT_COLUMNS.cachedInput.header),
    output: columnOf(textTable.header, TEXT_COLUMNS.output.header),
  };
  if (col.model < 0 || col.input < 0 || col.output < 0)
    throw new SourcePayloadError(
      `${ID}: ${FILE} "Text Models" table lacks Model / Input / Output columns (header: ${textTable.header.join(" | ")})`,
    );
  const skipped = TEXT_SKIPPED.map((s) => columnOf(textTable.header, s.header));
  textTable.header.forEach((h, i) => {
    if (!Object.values(col).includes(i) && !skipped.includes(i))
      unmapped.add(`Text Models: ${h}`, textTable.rows.length);
  });

  const tools: PriceObservation[] = [];
  const toolTable = tableUnder(tables, /^built-in tools$/i);
  for (const cells of toolTable?.rows ?? []) {
    const name = plainText(cells[0] ?? "").toLowerCase();
    const r = TOOLS[name];
    const amount = dollarAmounts(cells[1] ?? "")[0];
    if (r && amount !== undefined && /\/\s*use/i.test(cells[1] ?? "")) tools.push(pagePrice(r, amount));
    else unmapped.add(`Built-in Tools: ${name}`);
  }

  const listings: Listing[] = [];
  for (const cells of textTable.rows) {
    const name = plainText(cells[col.model] ?? "");
    const prices: PriceObservation[] = [];
    let free = true;
    for (const key of ["input", "cachedInput", "output"] as const) {
      if (col[key] < 0) continue;
      const amount = cellAmount(cells[col[key]] ?? "");
      if (amount !== "0" || !FREE_CELL.test(plainText(cells[col[key]] ?? ""))) free = false;
      if (amount === undefined) unmapped.add(`Text Models: ${textTable.header[col[key]]} (unreadable cell)`);
      else if (amount !== null) prices.push(pagePrice(TEXT_COLUMNS[key].rule, amount));
    }
    if (prices.length === 0 || name === "") continue;
    // `Free` in every price cell: the model is free, its 0 amounts are prices (T434).
    listings.push(
      makerListing("zai", zaiModelId(name), [...prices, ...tools], { name, ...(free ? { statesFree: true } : {}) }),
    );
  }
  if (listings.length === 0) throw new SourcePayloadError(`${ID}: ${FILE} "Text Models" table has no priced row`);

  const images = tableUnder(tables, /^image generation models$/i);
  const imageModel = images ? columnOf(images.header, MODEL_COLUMN) : -1;
  const imagePrice = images ? columnOf(images.header, /^price$/i) : -1;
  for (const cells of images?.rows ?? []) {
    const name = plainText(cells[imageModel] ?? "");
    const amount = imagePrice < 0 ? undefined : cellAmount(cells[imagePrice] ?? "");
    if (name === "" || amount === undefined || amount === null) unmapped.add("Image Generation Models: unreadable row");
    else listings.push(makerListing("zai", zaiModelId(name), [pagePrice(IMAGE_PRICE, amount)], { name }));
  }
  // Video (per video), audio (ASR per MTok of audio) and agent prices: skippedFields.
  return { listings, unmapped: unmapped.toRecord() };
}

/** Z.ai's own pricing page (weight 1, authoritative for zai). */
export const officialZaiSource = sourceAdapter(ID, INFO, UPSTREAM, parseReport, {
  pageHealth: { [FILE]: PAGE_HEALTH },
});
