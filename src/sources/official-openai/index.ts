import { scaleAmount } from "../../domain/amount.js";
import type { Listing, PriceObservation } from "../../domain/observation.js";
import { EMPTY_LISTING_META } from "../../domain/observation.js";
import { ruleDimension } from "../field-map.js";
import { sourceAdapter } from "../shared/adapter.js";
import type { PageHealthSpec } from "../shared/page-health.js";
import { payloadFile, zodIssues } from "../shared/payload-json.js";
import type { ParseReport, SourceInfo, SourcePayload } from "../source.js";
import { SourcePayloadError } from "../source.js";
import { filesNamed, type LiveUpstream } from "../upstream.js";
import { BASE_BRACKET_SUFFIX, NO_PRICE, TEXT_TOKEN_COLUMNS, TEXT_TOKEN_COMPONENT, TIERS } from "./field-map.js";
import { TextTokenRows } from "./schema.js";

/**
 * OpenAI's own pricing page (developers.openai.com/api/docs/pricing, its `.md` twin; issue 35,
 * T290). Reads the text-token panes (`<TextTokenPricingTables tier="…" rows={[…]} />`, one per
 * tier): input, cached input and output, USD per 1M tokens. Authoritative for `openai` (D8
 * verified); © OpenAI, kept for verification only.
 */

const FILE = "pricing.md";
const ID = "official-openai";

/** The live payload: the page's Markdown twin. */
const UPSTREAM: LiveUpstream = { baseUrl: "https://developers.openai.com/api/docs/", files: filesNamed(FILE) };

const INFO: SourceInfo = {
  name: "OpenAI pricing page",
  license: null,
  homepage: "https://developers.openai.com/api/docs/pricing",
  weight: 1,
  authoritativeFor: ["openai"],
};

/**
 * The page's health gate (T291): its title, canary and size band. Recorded copies are 14,099 and
 * 17,499 bytes; the band is half the smallest to twice the largest.
 */
export const PAGE_HEALTH: PageHealthSpec = {
  title: /^pricing$/i,
  canaries: [/Prices per 1M tokens/],
  bytes: [7_000, 35_000],
};

/** One text-token pane: its tier attribute and the JS array literal of its `rows` prop. */
interface Pane {
  readonly tier: string;
  readonly rowsSource: string;
}

/** The end (exclusive) of the bracketed literal opening at `start` (`[`), skipping quoted strings. */
function literalEnd(text: string, start: number): number {
  let depth = 0;
  let quote: string | null = null;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === "\\") i++;
      else if (c === quote) quote = null;
    } else if (c === '"' || c === "'" || c === "`") quote = c;
    else if (c === "[" || c === "{") depth++;
    else if (c === "]" || c === "}") {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  throw new SourcePayloadError(`${ID}: ${FILE} has a ${TEXT_TOKEN_COMPONENT} rows literal that never closes`);
}

/** Every `<TextTokenPricingTables …>` of the page, in page order. */
function panes(text: string): Pane[] {
  const out: Pane[] = [];
  const open = new RegExp(`<${TEXT_TOKEN_COMPONENT}\\b`, "g");
  for (const m of text.matchAll(open)) {
    const rowsAt = text.indexOf("rows={", m.index);
    const next = text.indexOf(`<${TEXT_TOKEN_COMPONENT}`, m.index + 1);
    if (rowsAt < 0 || (next >= 0 && rowsAt > next)) {
      throw new SourcePayloadError(`${ID}: ${FILE} has a ${TEXT_TOKEN_COMPONENT} without rows`);
    }
    const attributes = text.slice(m.index, rowsAt);
    const tier = /\btier="([^"]*)"/.exec(attributes)?.[1];
    if (tier === undefined) {
      throw new SourcePayloadError(`${ID}: ${FILE} has a ${TEXT_TOKEN_COMPONENT} without a tier attribute`);
    }
    const start = rowsAt + "rows={".length;
    out.push({ tier, rowsSource: text.slice(start, literalEnd(text, start)) });
  }
  return out;
}

/** The rows of a pane: the JS literal read as JSON once trailing commas are dropped. */
function paneRows(pane: Pane) {
  let raw: unknown;
  try {
    raw = JSON.parse(pane.rowsSource.replace(/,(\s*[\]}])/g, "$1"));
  } catch {
    throw new SourcePayloadError(`${ID}: ${FILE} ${pane.tier} pane's rows are not a literal array of arrays`);
  }
  const rows = TextTokenRows.safeParse(raw);
  if (!rows.success) throw new SourcePayloadError(`${ID}: ${FILE} ${pane.tier} pane: ${zodIssues(rows.error)}`);
  return rows.data;
}

/**
 * Parses the pricing page.
 * @throws SourcePayloadError when `pricing.md` is missing; when it states no text-token price (the
 *   2026-03-01 copy: its panes are empty, the tables rendered client-side) — never read as 0; when
 *   a pane has an unknown tier, or a row whose length the field map does not know (T290)
 */
function parseReport(payload: SourcePayload): ParseReport {
  const text = payloadFile(ID, payload, FILE);
  const byModel = new Map<string, PriceObservation[]>();
  for (const pane of panes(text)) {
    const tier = TIERS[pane.tier as keyof typeof TIERS];
    if (!tier)
      throw new SourcePayloadError(`${ID}: ${FILE} has a ${TEXT_TOKEN_COMPONENT} of unknown tier "${pane.tier}"`);
    for (const [cell, ...values] of paneRows(pane)) {
      if (values.length !== TEXT_TOKEN_COLUMNS.length) {
        throw new SourcePayloadError(
          `${ID}: ${FILE} ${tier} row "${cell}" has ${values.length} prices; ${TEXT_TOKEN_COMPONENT} is mapped with ${TEXT_TOKEN_COLUMNS.length} (${TEXT_TOKEN_COLUMNS.map((c) => c.field).join(", ")})`,
        );
      }
      const model = cell.replace(BASE_BRACKET_SUFFIX, "").trim();
      const prices = byModel.get(model) ?? [];
      TEXT_TOKEN_COLUMNS.forEach((column, i) => {
        const value = values[i];
        if (NO_PRICE.includes(value) || typeof value !== "number") return;
        prices.push({
          dimension: ruleDimension(column.rule, { tier }),
          amount: scaleAmount(value, column.rule.factor),
          unit: column.rule.unit,
          denomination: "currency",
          currency: "USD",
        });
      });
      byModel.set(model, prices);
    }
  }
  const listings = [...byModel]
    .filter(([, prices]) => prices.length > 0)
    .map(
      ([model, prices]): Listing => ({
        ...EMPTY_LISTING_META,
        seller: "openai",
        model,
        makerHint: "openai",
        prices,
      }),
    );
  if (listings.length === 0) {
    throw new SourcePayloadError(
      `${ID}: ${FILE} states no text-token prices (no ${TEXT_TOKEN_COMPONENT} row; its text-token panes are empty)`,
    );
  }
  // Every value of a known row is mapped; an unknown row shape fails the page instead (above).
  return { listings, unmapped: {} };
}

/** OpenAI's own pricing page (weight 1, authoritative for openai). */
export const officialOpenaiSource = sourceAdapter(ID, INFO, UPSTREAM, parseReport, {
  pageHealth: { [FILE]: PAGE_HEALTH },
});
