import { lookupTable } from "./lookup-table.js";
/**
 * Sales channels (D2). `direct` is the maker's own price list; five named reseller channels follow
 * in the order of api-v1.md; plans and every other reseller share three catch-all channels, where
 * each price carries `qualifiers.seller`.
 */
export const CHANNELS = [
  "direct",
  "reseller_1",
  "reseller_2",
  "reseller_3",
  "reseller_4",
  "reseller_5",
  "coding_plan",
  "token_plan",
  "other",
] as const;
export type Channel = (typeof CHANNELS)[number];

/** The five named reseller channels of D2, channel → seller slug. */
export const NAMED_RESELLERS: Readonly<Record<string, { seller: string; name: string }>> = lookupTable({
  reseller_1: { seller: "openrouter", name: "OpenRouter" },
  reseller_2: { seller: "amazon-bedrock", name: "Amazon Bedrock" },
  reseller_3: { seller: "azure", name: "Microsoft Azure" },
  reseller_4: { seller: "google-vertex", name: "Google Vertex AI" },
  reseller_5: { seller: "togetherai", name: "Together AI" },
});

/** Display names of the channels for `/meta` `data.channels` (D2). */
export const CHANNEL_NAMES: Readonly<Record<Channel, string>> = {
  direct: "Maker's own prices",
  reseller_1: "OpenRouter",
  reseller_2: "Amazon Bedrock",
  reseller_3: "Microsoft Azure",
  reseller_4: "Google Vertex AI",
  reseller_5: "Together AI",
  coding_plan: "Coding plans",
  token_plan: "Token plans",
  other: "Other resellers",
};

/** Channels that hold several sellers: their prices carry `qualifiers.seller` (D2). */
export const MULTI_SELLER_CHANNELS: ReadonlySet<Channel> = new Set(["coding_plan", "token_plan", "other"]);

export function isChannel(value: string): value is Channel {
  return (CHANNELS as readonly string[]).includes(value);
}
