import type { UsageExtractor } from "@pydantic/genai-prices";
import { lookupTable } from "../domain/lookup-table.js";
import data from "./genai-prices-package.json" with { type: "json" };

/**
 * What the genai-prices package itself (`@pydantic/genai-prices`, its bundled data) says about each
 * provider beside the prices: its API address pattern and its usage extractors, the mapping from a
 * provider's response to genai-prices' usage keys (issue 49 §3, T518). The export keeps these, so a
 * consumer's `extractUsage` reads a response as the package does (1-hour cache writes, web searches,
 * reasoning tokens) and only the prices are Tariff's. A copy, not an import: the package is a
 * development dependency and its only data accessor is its global price state.
 *
 * The copy is data, `genai-prices-package.json` beside this file (T531), which the build copies
 * with the import. `src/exports/genai-prices-package.test.ts` fails when the installed package says
 * otherwise, and `TARIFF_WRITE_GENAI_PRICES_PACKAGE=1 npx vitest run src/exports/genai-prices-package.test.ts`
 * rewrites the JSON from it.
 */
export interface PackageProvider {
  readonly api_pattern: string;
  readonly extractors?: readonly UsageExtractor[];
}

/** The shape of `genai-prices-package.json`: the package version copied, and its providers by id. */
export interface PackageData {
  readonly version: string;
  readonly providers: Readonly<Record<string, PackageProvider>>;
}

// JSON types its strings as `string`; an ArrayMatch's `type` is the literal "array-match".
const DATA = data as PackageData;

/** The `@pydantic/genai-prices` version the copy was taken from. */
export const GENAI_PRICES_PACKAGE_VERSION: string = DATA.version;

/** The package's API pattern and usage extractors per provider id. */
export const GENAI_PRICES_PACKAGE_PROVIDERS: Readonly<Record<string, PackageProvider>> = lookupTable(DATA.providers);
