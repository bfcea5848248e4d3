import type { PublishedModel, PublishedPrice, PublishedProvider } from "../domain/dataset.js";

/**
 * What the price-file exports are built from (issue 29 §1): one dataset version's models and
 * prices, and the recorded upstream files whose keys the consumers already use. The builders are
 * pure functions of these; reading files and the store is the caller's (T210).
 */
export interface ExportInput {
  /** The dataset version exported (with `at`: the version in force on that day, T147). */
  readonly version: string;
  /** Every model of the version, tombstones (`listed: false`) included. */
  readonly models: readonly PublishedModel[];
  /** Every price of the version, every channel and seller. */
  readonly prices: readonly PublishedPrice[];
  /** The makers and their names. */
  readonly providers: readonly PublishedProvider[];
  /**
   * Prices whose observations name the sources' spellings (T87), when not `prices` themselves: a past
   * version's prices are stored without them (T146), so an `at=` export reads today's (ids are permanent, T66).
   */
  readonly evidence?: readonly PublishedPrice[];
  /** Absolute base URL of links (D19): a model's page is `${baseUrl}/m/${id}`. */
  readonly baseUrl: string;
}

/** A recorded upstream file: its snapshot folder (`YYYY-MM-DD` or a live run's time) and its parsed JSON. */
export interface RecordedFile<T> {
  readonly date: string;
  readonly data: T;
}

/** Where Tariff's LiteLLM adapter places one key of the LiteLLM file (its seller, spelling and qualifiers). */
export interface LiteLLMListing {
  readonly seller: string;
  readonly model: string;
  readonly qualifiers: Readonly<Record<string, string>>;
}

/** One key of the recorded LiteLLM file, as LiteLLM has it, with the listing the adapter reads from it. */
export interface LiteLLMKey {
  readonly key: string;
  readonly entry: Readonly<Record<string, unknown>>;
  /** Null for a key the adapter skips (a mode or route it does not read). */
  readonly listing: LiteLLMListing | null;
}

/**
 * The recorded upstream files an export keeps the consumers' keys from: the newest of each source
 * dated on or before the exported version, or null when none is at hand (the export is then built
 * from Tariff's own spellings alone).
 */
export interface UpstreamFiles {
  readonly litellm: RecordedFile<readonly LiteLLMKey[]> | null;
  readonly modelsDev: RecordedFile<Readonly<Record<string, unknown>>> | null;
  readonly genaiPrices: RecordedFile<readonly unknown[]> | null;
}

/** The recorded upstream files for a dataset version (the caller reads them; see `src/cli/upstream-files.ts`). */
export type UpstreamFilesOf = (version: string) => UpstreamFiles;

/** No recorded upstream file. */
export const NO_UPSTREAM: UpstreamFiles = { litellm: null, modelsDev: null, genaiPrices: null };

/** The Tariff page of a model: the link every export carries back (issue 29 §1). */
export function modelUrl(input: ExportInput, modelId: string): string {
  return `${input.baseUrl}/m/${modelId}`;
}
