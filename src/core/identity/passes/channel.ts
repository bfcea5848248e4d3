import type { Channel } from "../../../domain/channel.js";
import { channelOf } from "../../../domain/sellers.js";
import { platformMaker } from "../maker.js";

/** The channel (D2) of a seller's listing of a maker's model; the maker's own platform is direct (§6). */
export function channelFor(seller: string, maker: string): Channel {
  return platformMaker(seller) === maker ? "direct" : channelOf(seller, maker);
}
