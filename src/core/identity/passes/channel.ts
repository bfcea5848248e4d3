import { type Channel, MULTI_SELLER_CHANNELS } from "../../../domain/channel.js";
import { channelOf, MAKER_CLOUDS } from "../../../domain/sellers.js";
import { platformMaker } from "../maker.js";

/** The channel (D2) of a seller's listing of a maker's model; the maker's own platform is direct (§6). */
export function channelFor(seller: string, maker: string): Channel {
  return platformMaker(seller) === maker ? "direct" : channelOf(seller, maker);
}

/**
 * True when `seller` is `maker`'s own cloud for this model (issue 36 §2, T325, `MAKER_CLOUDS`): Bedrock
 * for Amazon's models, Azure for Microsoft's, Vertex for a Google model the Gemini API does not price.
 * Its prices are the maker's: `direct`, published under the maker, no `seller` qualifier.
 * @param makerSells whether the maker's own API lists the model in this run
 */
export function isMakerCloud(seller: string, maker: string, makerSells: boolean): boolean {
  const cloud = MAKER_CLOUDS[seller];
  return cloud !== undefined && cloud.maker === maker && (cloud.scope === "all" || !makerSells);
}

/**
 * Where a listing's prices are published (D2, T325): the channel and the seller they are published
 * under, and whether the listing's seller goes into a `seller` qualifier (every multi-seller
 * channel; a maker's platform other than its cloud in `direct`, such as ByteDance's BytePlus and
 * Volcengine, whose lists differ).
 */
export function saleOf(
  seller: string,
  maker: string,
  makerSells: boolean,
): { readonly channel: Channel; readonly seller: string; readonly qualified: boolean } {
  if (isMakerCloud(seller, maker, makerSells)) return { channel: "direct", seller: maker, qualified: false };
  const channel = channelFor(seller, maker);
  const qualified = channel === "direct" ? seller !== maker : MULTI_SELLER_CHANNELS.has(channel);
  return { channel, seller, qualified };
}
