import type { StatedValidity, WithdrawnStatement } from "./dated-price.js";
import type { Dimension } from "./dimension.js";
import type { Denomination, Unit } from "./unit.js";

/**
 * The registry of sources (issue 48 §4, T475): the ids of the registered sources (one adapter per
 * upstream), each the name of its folder under `src/sources/` (T235), in the order of the `/sources`
 * list. Adding a source is its folder and one line here: `src/sources/registry.ts` loads each id's
 * adapter from its folder, and every list of sources in the code, the tests and the docs derives from
 * this one or is checked against it. The list is here, not in `src/sources/`, because every layer
 * names sources and none but ingest and the CLI may import the adapters (T161).
 */
export const SOURCE_IDS = [
  "models-dev",
  "genai-prices",
  "llm-prices",
  "portkey",
  "openrouter",
  "litellm",
  "official-anthropic",
  "official-openai",
  "official-mistral",
  "official-zai",
  "official-xai",
  "official-deepseek",
  "official-google",
  "official-moonshot",
] as const;

/**
 * Identifier of a registered source, e.g. `models-dev` (T399): a union, so a per-source table that
 * forgets a source, or a source named that does not exist, is a compile error. Ids are lower-case
 * slugs ({@link SOURCE_ID_PATTERN}); the store refuses a row naming any other (T163).
 */
export type SourceId = (typeof SOURCE_IDS)[number];

/**
 * A table with one entry per registered source, `value(id)` each (T399): exhaustive by
 * construction, where `Object.fromEntries` over a list would type as a table of any string.
 */
export function sourceTable<T>(value: (id: SourceId) => T): Record<SourceId, T> {
  return Object.fromEntries(SOURCE_IDS.map((id) => [id, value(id)])) as Record<SourceId, T>;
}

/** Whether `text` is a registered source's id (T399). */
export function isSourceId(text: string): text is SourceId {
  return (SOURCE_IDS as readonly string[]).includes(text);
}

/** The spelling of a {@link SourceId}: lower-case words joined by `-`. */
export const SOURCE_ID_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * One price as a source states it, normalized to display units. The atom of reconciliation.
 *
 * Amounts are exact decimals rounded to 10 significant digits (D7), e.g. 15 for "USD 15 per 1M tokens".
 */
export interface PriceObservation {
  readonly dimension: Dimension;
  /** Amount in display units; never negative. */
  readonly amount: number;
  readonly unit: Unit;
  readonly denomination: Denomination;
  /** ISO 4217 code; `XXX` for credit (see {@link NO_CURRENCY}). */
  readonly currency: string;
  /**
   * True for a context bracket whose threshold the source does not state for this model but takes
   * from a generic field (models.dev's legacy `context_over_200k`, 200K for every model). Such a
   * bracket is not published when another source states another threshold for the model (issue 24
   * §3, T173).
   */
  readonly thresholdDerived?: boolean;
  /** The source states that this price ends on a later day, and what follows it (T335); absent: no stated end. */
  readonly validity?: StatedValidity;
  /**
   * The announcement this price carried in the source's last good run and no longer carries (T425):
   * kept with the source's stored listings only, to see it flip back; never read by reconciliation.
   */
  readonly withdrawn?: WithdrawnStatement;
  /**
   * A move of a maker's page held until its next fetch (issue 46 §4, T467): the amount the page
   * states now (display units) and the run that first saw it; `amount` is still its last good
   * copy's. Stored with the source's listings; shown on the price, never as its amount.
   */
  readonly pending?: PendingMove;
}

/** A maker's page's move held until its next fetch (T467). */
export interface PendingMove {
  /** Display units, as the price's `amount`. */
  readonly amount: number;
  /** ISO time of the run that first saw it. */
  readonly since: string;
}

/**
 * A source's own statement of how current its prices for one listing are (issue 24 §1, T170):
 * `effective` — the date the stated prices took effect (genai-prices' `start_date` entry in force),
 * a move the source dates itself; `reviewed` — the day the source last reviewed the entry
 * (models.dev `last_updated`), evidence that the amounts were current then. `on` is YYYY-MM-DD.
 */
export interface PricesDated {
  readonly on: string;
  readonly kind: "effective" | "reviewed";
}

/**
 * One model as one seller lists it in one source payload, with its prices.
 *
 * `seller` is a canonical seller slug (see `sellers.ts`): the maker's slug when the maker sells
 * directly, otherwise the reseller's (`amazon-bedrock`, `openrouter`, `groq`, …). The channel (D2)
 * is derived from seller and maker during identity resolution, not by the adapter.
 */
export interface Listing {
  readonly seller: string;
  /** The model id exactly as the source spells it (`anthropic.claude-opus-4-20250514-v1:0`). */
  readonly model: string;
  /** The maker's slug when the source says it (a vendor prefix, a provider field); null to infer. */
  readonly makerHint: string | null;
  /** Other ids the source itself says mean this model (e.g. genai-prices `match.equals` values). */
  readonly aliases?: readonly string[];
  /** The Hugging Face repo id a source names for the model's weights (OpenRouter `hugging_face_id`): open-weights evidence (issue 12 §1). */
  readonly huggingFaceId?: string | null;
  /** A source's own stable id of the model (OpenRouter `canonical_slug`, e.g. `anthropic/claude-4.8-opus-fast-20260528`). */
  readonly canonicalSlug?: string | null;
  /** The publisher's display name a source gives before the model name (`TheDrummer` of `TheDrummer: Rocinante 12B`). */
  readonly publisherName?: string | null;
  /**
   * The seller's API base URL as the source states it (models.dev's provider `api`,
   * `https://app.frogbot.ai/api/v1`): a seller's identity across runs (issue 52 §1, T515). Absent: not stated.
   */
  readonly sellerApi?: string;
  readonly name: string | null;
  readonly family: string | null;
  readonly contextWindow: number | null;
  readonly maxOutputTokens: number | null;
  readonly openWeights: boolean | null;
  /** YYYY-MM-DD */
  readonly releasedOn: string | null;
  readonly deprecatedOn: string | null;
  readonly retiresOn: string | null;
  /** Source's own status hint (`preview` / `deprecated`), mapped to D3 states later. */
  readonly status: "preview" | "active" | "deprecated" | null;
  /**
   * The source states this offer is free (a maker's own list: Z.ai's `Free` cells, Mistral's
   * `free: true`): its 0 amounts are prices, not missing values (T74, T434). Absent: not stated.
   */
  readonly statesFree?: boolean;
  /** How current the source says these prices are (T170); absent when it does not say. */
  readonly pricesDated?: PricesDated | null;
  readonly prices: readonly PriceObservation[];
}

/** What one source produced in one run: its listings, or the reason it failed. */
export type SourceResult =
  | { readonly ok: true; readonly source: SourceId; readonly listings: readonly Listing[]; readonly rows: number }
  | { readonly ok: false; readonly source: SourceId; readonly error: string; readonly httpStatus: number | null };

/** Empty listing fields; adapters spread it and set what they know. */
export const EMPTY_LISTING_META = {
  makerHint: null,
  name: null,
  family: null,
  contextWindow: null,
  maxOutputTokens: null,
  openWeights: null,
  releasedOn: null,
  deprecatedOn: null,
  retiresOn: null,
  status: null,
} as const satisfies Partial<Listing>;
