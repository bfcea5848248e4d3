import { lookupTable } from "./lookup-table.js";

/**
 * Sellers whose own price list is in another currency than the USD the sources state (issue 52 §2,
 * T494): the sources convert the list, so a new exchange rate moves every row of it by one factor.
 * Each entry is the seller's canonical slug (`sellers.ts`) → the ISO 4217 code of its own list, as
 * its pricing page states it (the address models.dev gives as the provider's `doc`, or the seller's
 * pricing page). No copy of these pages is recorded: the entries were written from the sellers'
 * pages as known, not re-read from a recorded copy, and want review (the closing note of issue 52
 * says so). A wrong entry costs little: a move is a currency change only when the seller's rows move
 * by one factor in one run (T494). A seller not here is judged as pricing in USD.
 */
export const SELLER_CURRENCIES: Readonly<Record<string, string>> = lookupTable({
  // European clouds quoting euros (per 1M tokens, VAT excluded).
  berget: "EUR", // berget.ai/pricing (Sweden)
  ovhcloud: "EUR", // ovhcloud.com/en/public-cloud/ai-endpoints/catalog
  scaleway: "EUR", // scaleway.com/en/pricing/model-as-a-service
  "regolo-ai": "EUR", // regolo.ai/pricing (Italy)
  cortecs: "EUR", // cortecs.ai (Austria)
  stackit: "EUR", // stackit.com/en/prices (Germany)
  "cloudferro-sherlock": "EUR", // cloudferro.com (Poland)
  // Mainland China endpoints quoting yuan (their `.cn` hosts).
  "alibaba-cn": "CNY", // help.aliyun.com/zh/model-studio/models
  "siliconflow-cn": "CNY", // siliconflow.cn/pricing
  "moonshotai-cn": "CNY", // platform.moonshot.cn/docs/pricing
  "minimax-cn": "CNY", // platform.minimaxi.com/document/price
  zhipuai: "CNY", // bigmodel.cn/pricing
  iflowcn: "CNY", // platform.iflow.cn
  "qiniu-ai": "CNY", // qiniu.com/ai/models
});

/** The ISO 4217 code of `seller`'s own price list when it is not USD ({@link SELLER_CURRENCIES}), else null. */
export function sellerCurrency(seller: string): string | null {
  return SELLER_CURRENCIES[seller] ?? null;
}
