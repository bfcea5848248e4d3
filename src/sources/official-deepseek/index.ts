import type { Listing, PriceObservation } from "../../domain/observation.js";
import { UnmappedTally } from "../field-map.js";
import { sourceAdapter } from "../shared/adapter.js";
import type { PageHealthSpec } from "../shared/page-health.js";
import { makerListing, pagePrice } from "../shared/page-listing.js";
import { payloadFile } from "../shared/payload-json.js";
import type { ParseReport, SourceInfo, SourcePayload } from "../source.js";
import { SourcePayloadError } from "../source.js";
import type { LiveUpstream } from "../upstream.js";
import { MODEL_ROW, PRICE_CELL, PRICE_ROWS, PRICING_ROW } from "./field-map.js";

/**
 * DeepSeek's own "Models & Pricing" page (api-docs.deepseek.com/quick_start/pricing; issue 48,
 * T430), English (USD) and Chinese (CNY) editions: two price lists, both published on the API
 * aliases (`deepseek-chat`, `deepseek-reasoner`, priced on the page's date as the snapshot they
 * serve, T327), each in its own currency, never converted: a CNY price carries the qualifier
 * `currency: CNY` from the adapter boundary, so it has slots of its own beside the USD list's (T508,
 * T512; T431 kept it unpublished). Authoritative for `deepseek` (D8 verified); © DeepSeek, kept for
 * verification only.
 */

const FILE = "pricing.md";
const FILE_CNY = "pricing.zh-cn.md";
const ID = "official-deepseek";

/** The live payload: the English and Chinese editions, as Markdown (the recorded copies are Markdown conversions). */
const UPSTREAM: LiveUpstream = {
  baseUrl: "https://api-docs.deepseek.com/",
  files: () => [
    { name: FILE, path: "quick_start/pricing" },
    { name: FILE_CNY, path: "zh-cn/quick_start/pricing" },
  ],
};

const INFO: SourceInfo = {
  name: "DeepSeek models and pricing page",
  license: null,
  homepage: "https://api-docs.deepseek.com/quick_start/pricing",
  weight: 1,
  authoritativeFor: ["deepseek"],
};

/** The health gates (T291). Recorded copies: 1,424 (en) and 1,431 (zh-cn) bytes; band half to five times. */
export const PAGE_HEALTH: Readonly<Record<string, PageHealthSpec>> = {
  [FILE]: { title: /^models & pricing$/i, canaries: [/per 1M tokens/i, /^PRICING\|/m], bytes: [700, 7_500] },
  [FILE_CNY]: { title: /^模型 & 价格$/, canaries: [/百万 tokens/, /^价格\|/m], bytes: [700, 7_500] },
};

/** The pseudo-table's rows: the MODEL row's model ids, and the price rows `label → cells`. */
function pseudoTable(text: string, file: string): { models: string[]; rows: { label: string; cells: string[] }[] } {
  const lines = text.split(/\r?\n/).map((l) => l.trim());
  const head = lines.findIndex((l) => MODEL_ROW.test(l));
  if (head < 0) throw new SourcePayloadError(`${ID}: ${file} has no model table (no **MODEL| row)`);
  const split = (l: string) => l.split("|").map((c) => c.replace(/\*\*/g, "").trim());
  const models = split(lines[head] as string)
    .slice(1)
    .filter((m) => m !== "");
  const start = lines.findIndex((l, i) => i > head && PRICING_ROW.test(l));
  if (start < 0) throw new SourcePayloadError(`${ID}: ${file} model table has no PRICING row`);
  const rows: { label: string; cells: string[] }[] = [];
  for (let i = start; i < lines.length; i++) {
    const line = lines[i] as string;
    if (line === "**" || line === "") break;
    const cells = split(line);
    if (i === start) cells.shift();
    rows.push({ label: cells[0] ?? "", cells: cells.slice(1).filter((c) => c !== "") });
  }
  return { models, rows };
}

/** The prices of one edition per model; rows the map does not know are counted. */
function editionPrices(
  text: string,
  file: string,
  currency: "USD" | "CNY",
  unmapped: UnmappedTally,
): Map<string, PriceObservation[]> {
  const { models, rows } = pseudoTable(text, file);
  const out = new Map(models.map((m) => [m, [] as PriceObservation[]]));
  for (const { label, cells } of rows) {
    const rule = PRICE_ROWS.find((r) => r.label.test(label))?.rule;
    const amounts = cells.map((c) => PRICE_CELL.exec(c));
    if (!rule || amounts.some((a) => a === null) || (cells.length !== 1 && cells.length !== models.length)) {
      unmapped.add(`${file}: ${label}`, models.length);
      continue;
    }
    models.forEach((m, i) => {
      const a = (cells.length === 1 ? amounts[0] : amounts[i]) as RegExpExecArray;
      const stated = (currency === "USD" ? a[1] : a[2]) as string | undefined;
      if (stated === undefined) unmapped.add(`${file}: ${label} (not ${currency})`);
      else out.get(m)?.push(pagePrice(rule, stated, {}, currency));
    });
  }
  return out;
}

/**
 * Parses the two editions. A model the CNY edition names and the USD one does not is not listed
 * (the USD edition founds the listings).
 * @throws SourcePayloadError when `pricing.md` is missing, has no model table or no PRICING row,
 *   or states no USD price; the CNY edition when present and malformed
 */
function parseReport(payload: SourcePayload): ParseReport {
  const unmapped = new UnmappedTally();
  const usd = editionPrices(payloadFile(ID, payload, FILE), FILE, "USD", unmapped);
  const cnyText = payload.files.get(FILE_CNY);
  // T512: the CNY list is published beside the USD one, on the models the USD edition names (the
  // boundary keys its prices apart, T508); never converted.
  const cny =
    cnyText === undefined ? new Map<string, PriceObservation[]>() : editionPrices(cnyText, FILE_CNY, "CNY", unmapped);
  const listings: Listing[] = [...usd]
    .filter(([, prices]) => prices.length > 0)
    .map(([model, prices]) => makerListing("deepseek", model, [...prices, ...(cny.get(model) ?? [])]));
  if (listings.length === 0) throw new SourcePayloadError(`${ID}: ${FILE} states no USD price`);
  return { listings, unmapped: unmapped.toRecord() };
}

/** DeepSeek's own models and pricing page (weight 1, authoritative for deepseek). */
export const officialDeepseekSource = sourceAdapter(ID, INFO, UPSTREAM, parseReport, { pageHealth: PAGE_HEALTH });
