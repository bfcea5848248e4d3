import type { ParseReport, SourceAdapter, SourceInfo, SourcePayload } from "../source.js";

/**
 * A source adapter from its id, registry record and report parser: `parse` is the report's
 * listings (T151).
 */
export function sourceAdapter<const Id extends SourceAdapter["id"]>(
  id: Id,
  info: SourceInfo,
  parseReport: (payload: SourcePayload) => ParseReport,
  extra: Pick<SourceAdapter, "parseHistory"> = {},
): SourceAdapter & { readonly id: Id; parseReport(payload: SourcePayload): ParseReport } {
  return { id, info, parse: (payload) => parseReport(payload).listings, parseReport, ...extra };
}
