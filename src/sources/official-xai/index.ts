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
import { COLUMNS, SECTIONS, TOOL_COLUMNS, TOOLS, toolRule } from "./field-map.js";

/**
 * xAI's own "Models and Pricing" page (docs.x.ai/docs/models, as a Markdown scrape; issue 48,
 * T430). Reads the "Model Pricing" table by header — glued `$in$out` cells under "Per million
 * tokens", per-image prices under "Per image output" — and the per-1K-call tool prices, which
 * every language model's listing carries (as Anthropic's web search fee). Authoritative for `xai`
 * (D8 verified); © xAI, kept for verification only.
 */

const FILE = "models.md";
const ID = "official-xai";

/** The live payload: the models page (its Markdown rendering, as the recorded scrape shows it). */
const UPSTREAM: LiveUpstream = { baseUrl: "https://docs.x.ai/docs/", files: filesNamed(FILE) };

const INFO: SourceInfo = {
  name: "xAI models and pricing page",
  license: null,
  homepage: "https://docs.x.ai/docs/models",
  weight: 1,
  authoritativeFor: ["xai"],
};

/**
 * The page's health gate (T291). The recorded copy is 11,574 bytes; its first `# ` line is the
 * scraper's `# Source: <url>`, the page's own title otherwise. Band: half to three times the copy.
 */
export const PAGE_HEALTH: PageHealthSpec = {
  title: /^(Source: https:\/\/docs\.x\.ai\/docs\/models|\[?Models and Pricing\b)/i,
  canaries: [/Model Pricing/, /Per million tokens/i],
  bytes: [5_500, 35_000],
};

/** A row whose only text sits in its first cell and a later cell: a section row (`Language models … Per million tokens`). */
function sectionUnit(cells: readonly string[]): string | null {
  const filled = cells.map(plainText).filter((c) => c !== "");
  return filled.length === 2 && !/^\$/.test(filled[1] as string) && /^per /i.test(filled[1] as string)
    ? (filled[1] as string)
    : null;
}

function toolPrices(tables: readonly MarkdownTable[], unmapped: UnmappedTally): PriceObservation[] {
  const table = tables.find((t) => columnOf(t.header, TOOL_COLUMNS.cost) >= 0);
  if (!table) return [];
  const tool = columnOf(table.header, TOOL_COLUMNS.tool);
  const cost = columnOf(table.header, TOOL_COLUMNS.cost);
  return table.rows.flatMap((cells) => {
    const name = plainText(cells[tool] ?? "").toLowerCase();
    const amounts = dollarAmounts(cells[cost] ?? "");
    const qualifier = TOOLS[name];
    if (amounts.length === 0) return []; // "Token-based only": no fee of its own
    if (!qualifier || amounts.length !== 1) {
      unmapped.add(`Tool Invocation Costs: ${name}`);
      return [];
    }
    return [pagePrice(toolRule(qualifier), amounts[0] as string)];
  });
}

/**
 * Parses the models page.
 * @throws SourcePayloadError when `models.md` is missing, has no table with Model and Pricing
 *   columns, or no priced language model in it
 */
function parseReport(payload: SourcePayload): ParseReport {
  const text = payloadFile(ID, payload, FILE);
  const tables = markdownTables(text);
  const unmapped = new UnmappedTally();
  const table = tables.find((t) => columnOf(t.header, COLUMNS.model) >= 0 && columnOf(t.header, COLUMNS.pricing) >= 0);
  if (!table) throw new SourcePayloadError(`${ID}: ${FILE} has no model table with Model and Pricing columns`);
  const col = {
    model: columnOf(table.header, COLUMNS.model),
    context: columnOf(table.header, COLUMNS.context),
    pricing: columnOf(table.header, COLUMNS.pricing),
  };
  const tools = toolPrices(tables, unmapped);
  const listings: Listing[] = [];
  let section: (typeof SECTIONS)[number] | null = null;
  for (const cells of table.rows) {
    const unit = sectionUnit(cells);
    if (unit !== null) {
      section = SECTIONS.find((s) => s.unit.test(unit)) ?? null;
      if (!section) unmapped.add(`Model Pricing section: ${unit}`);
      continue;
    }
    const model = plainText(cells[col.model] ?? "");
    if (model === "" || !/^[a-z0-9][a-z0-9.-]*$/.test(model)) continue; // an empty spacer row
    if (!section) continue; // counted with its section row
    const amounts = dollarAmounts(cells[col.pricing] ?? "");
    if (amounts.length !== section.rules.length) {
      unmapped.add(`Model Pricing: a Pricing cell of ${amounts.length} amounts (mapped: ${section.rules.length})`);
      continue;
    }
    const prices = amounts.map((a, i) => pagePrice(section!.rules[i]!, a));
    const isLanguage = section.rules[0]?.unit === "mtok";
    const context = Number(plainText(cells[col.context] ?? "").replace(/,/g, ""));
    listings.push(
      makerListing("xai", model, isLanguage ? [...prices, ...tools] : prices, {
        contextWindow: Number.isInteger(context) && context > 0 ? context : null,
      }),
    );
  }
  if (!listings.some((l) => l.prices.some((p) => p.unit === "mtok")))
    throw new SourcePayloadError(`${ID}: ${FILE} states no language-model price (no row under "Per million tokens")`);
  return { listings, unmapped: unmapped.toRecord() };
}

/** xAI's own models and pricing page (weight 1, authoritative for xai). */
export const officialXaiSource = sourceAdapter(ID, INFO, UPSTREAM, parseReport, {
  pageHealth: { [FILE]: PAGE_HEALTH },
});
