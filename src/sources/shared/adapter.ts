import type { ParseReport, SourceAdapter, SourceInfo, SourcePayload } from "../source.js";
import type { LiveUpstream } from "../upstream.js";

/**
 * A source adapter from its id, registry record, live upstream and report parser: `parse` is the
 * report's listings (T151).
 */
export function sourceAdapter<const Id extends SourceAdapter["id"]>(
  id: Id,
  info: SourceInfo,
  upstream: LiveUpstream,
  parseReport: (payload: SourcePayload) => ParseReport,
  extra: Pick<SourceAdapter, "parseHistory" | "pageHealth"> = {},
): SourceAdapter & { readonly id: Id; parseReport(payload: SourcePayload): ParseReport } {
  return { id, info, upstream, parse: (payload) => parseReport(payload).listings, parseReport, ...extra };
}
