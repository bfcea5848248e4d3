import type { Listing } from "../../domain/observation.js";
import { UnmappedTally } from "../field-map.js";
import { sourceAdapter } from "../shared/adapter.js";
import type { PageHealthSpec } from "../shared/page-health.js";
import { makerListing } from "../shared/page-listing.js";
import { markdownTables } from "../shared/page-table.js";
import { payloadFile } from "../shared/payload-json.js";
import type { ParseReport, SourceInfo, SourcePayload } from "../source.js";
import { SourcePayloadError } from "../source.js";
import type { LiveUpstream } from "../upstream.js";
import { type PagePrices, readPriceTables } from "./price-tables.js";

/**
 * Moonshot's own "模型推理价格说明" page (platform.moonshot.cn/docs/pricing/chat, Chinese; issue 48,
 * T509): the Kimi K2, kimi-latest and moonshot-v1 tables read by header, in CNY per 1M tokens — the
 * maker's CNY list, published as it stands, never converted (T508: a non-USD price carries the
 * qualifier `currency`, so it has slots of its own beside the USD amounts the aggregators state).
 * kimi-latest's rows are request-size brackets. Authoritative for `moonshotai` (D8 verified);
 * © Moonshot AI, kept for verification only.
 */

const FILE = "pricing-chat.zh-cn.md";
const ID = "official-moonshot";

/** The live payload: the page as Markdown (the recorded copy is a recorder's Markdown conversion). */
const UPSTREAM: LiveUpstream = {
  baseUrl: "https://platform.moonshot.cn/docs/pricing/",
  files: () => [{ name: FILE, path: "chat" }],
};

const INFO: SourceInfo = {
  name: "Moonshot AI model inference pricing page (CNY)",
  license: null,
  homepage: "https://platform.moonshot.cn/docs/pricing/chat",
  weight: 1,
  authoritativeFor: ["moonshotai"],
  skippedFields: {
    模型上下文长度: "the model's context length: no price (the aggregators carry the models' limits)",
    联网搜索定价: "web search is priced on another page (docs/pricing/tools), not recorded",
  },
};

/** The health gate (T291). The recorded copy is 4,911 bytes; band half to three times that. */
export const PAGE_HEALTH: PageHealthSpec = {
  title: /^模型推理价格说明$/,
  canaries: [/计费单位/, /输出价格/, /1M = 1,000,000/],
  bytes: [2_400, 15_000],
};

/**
 * Parses the page.
 * @throws SourcePayloadError when the page is missing or no table prices any model
 */
function parseReport(payload: SourcePayload): ParseReport {
  const text = payloadFile(ID, payload, FILE);
  const tally = new UnmappedTally();
  const prices: PagePrices = new Map();
  readPriceTables(markdownTables(text.split(/\r?\n/)), prices, tally);
  const listings: Listing[] = [...prices].map(([model, list]) => makerListing("moonshotai", model, list));
  if (listings.length === 0) throw new SourcePayloadError(`${ID}: ${FILE} states no price in any table`);
  return { listings, unmapped: tally.toRecord() };
}

/** Moonshot's own CNY price page (weight 1, authoritative for moonshotai). */
export const officialMoonshotSource = sourceAdapter(ID, INFO, UPSTREAM, parseReport, {
  pageHealth: { [FILE]: PAGE_HEALTH },
});
