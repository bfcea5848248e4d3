/**
 * The orders a person can choose (T203, T209). The default is the market's: the models sold by the
 * most sellers first (what people use); with a search text, the best matches first.
 */
export const SORTS = [
  ["sellers", "Most sold first"],
  ["input", "Input price, lowest first"],
  ["-input", "Input price, highest first"],
  ["output", "Output price, lowest first"],
  ["-output", "Output price, highest first"],
  ["-context", "Context window, largest first"],
  ["context", "Context window, smallest first"],
  ["recent", "Latest price move first"],
  ["id", "Name (id)"],
] as const;
/** An order of `/models` (T203, T209). */
export type Sort = (typeof SORTS)[number][0];

/** The context window filter's choices: the smallest window, in tokens, and its name. */
export const CONTEXTS = [
  [32_000, "32K tokens or more"],
  [128_000, "128K or more"],
  [200_000, "200K or more"],
  [1_000_000, "1M or more"],
] as const;

/** The page's filters, all in the URL so a view is shareable and survives a reload (T208). */
export interface Filters {
  readonly q: string;
  readonly provider: string;
  readonly channel: string;
  readonly modality: string;
  readonly openWeights: string;
  readonly minContext: string;
  readonly confidence: string;
  readonly sort: Sort | "";
}

/** The URL parameters of {@link Filters}. */
export const FILTER_KEYS = [
  "q",
  "provider",
  "channel",
  "modality",
  "openWeights",
  "minContext",
  "confidence",
  "sort",
] as const;

/** A change of the page's address: a parameter to set, or null to drop it. */
export type CatalogueLinkChange = Partial<
  Record<(typeof FILTER_KEYS)[number] | "cursor" | "page" | "at", string | null>
>;
