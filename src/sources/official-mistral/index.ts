import { seriesKey } from "../../domain/dimension.js";
import type { Listing, PriceObservation } from "../../domain/observation.js";
import { UnmappedTally } from "../field-map.js";
import { sourceAdapter } from "../shared/adapter.js";
import { ListingsBySeller } from "../shared/listings.js";
import { makerListing, pagePrice } from "../shared/page-listing.js";
import type { ParseReport, SourceInfo, SourcePayload } from "../source.js";
import { SourcePayloadError } from "../source.js";
import { type LiveUpstream, optionalFilesNamed } from "../upstream.js";
import { meterRule, STATUS } from "./field-map.js";
import { literalAfterKey, readObjectLiteral } from "./object-literal.js";
import { Identifiers, type Meter, Pricing } from "./schema.js";

/**
 * Mistral's own model pages (docs.mistral.ai), read from their source: the model files of
 * mistralai/platform-docs-public (`src/schema/models/models/<slug>.ts`, one per model; issue 48,
 * T430). From each file: `pricing` (input and output meter lists, USD) and `identifiers.apiNames`
 * (one listing per snapshot id, the moving names its aliases: T434), `status` and `metadata` dates. The
 * TypeScript literals are read token by token, never evaluated. Authoritative for `mistral` (D8
 * verified); Apache-2.0 documentation source.
 */

const ID = "official-mistral";

/**
 * The model files fetched live: those of the newest recorded copy (2026-06-01). A model file added
 * upstream after it is not fetched until it is listed here (the folder has no index of prices).
 */
// biome-ignore format: one list of file names
export const MISTRAL_MODEL_FILES: readonly string[] = [
  "codestral-25-08", "codestral-embed-25-05", "devstral-2-25-12", "devstral-medium-1-0-25-07", "devstral-small-1-1-25-07", "devstral-small-2-25-12", "leanstral-26-03", "magistral-medium-1-2-25-09", "magistral-small-1-2-25-09", "ministral-3-14b-25-12", "ministral-3-3b-25-12", "ministral-3-8b-25-12", "ministral-3b-24-1", "ministral-8b-24-1", "mistral-embed-23-12", "mistral-large-2-1-24-11", "mistral-large-3-25-12", "mistral-medium-3-1-25-08", "mistral-medium-3-25-05", "mistral-medium-3-5-26-04", "mistral-moderation-24-11", "mistral-moderation-26-03", "mistral-nemo-12b-24-07", "mistral-small-3-2-25-06", "mistral-small-4-0-26-03", "mistral-small-creative-25-12", "ocr-2-25-05", "ocr-3-25-12", "pixtral-12b-24-09", "pixtral-large-24-11", "voxtral-mini-25-07", "voxtral-mini-transcribe-25-07", "voxtral-mini-transcribe-26-02", "voxtral-mini-transcribe-realtime-26-02", "voxtral-small-25-07", "voxtral-tts-26-03"
];

/** The live payload: each model file from the docs repository's main branch (raw). */
const UPSTREAM: LiveUpstream = {
  baseUrl: "https://raw.githubusercontent.com/mistralai/platform-docs-public/main/src/schema/models/models/",
  // A file Mistral removed (a retired model) or not yet added answers 404 and is left out (T455).
  files: optionalFilesNamed(...MISTRAL_MODEL_FILES.map((slug) => `${slug}.ts`)),
};

const INFO: SourceInfo = {
  name: "Mistral model documentation",
  license: null,
  homepage: "https://docs.mistral.ai/getting-started/models",
  weight: 1,
  authoritativeFor: ["mistral"],
  skippedFields: {
    "input /1000 Annotated Pages": "OCR annotation per page: no dimension of ours beside the page price",
  },
};

/** Denominators known and not published (INFO.skippedFields). */
const SKIPPED = new Set(["/1000 Annotated Pages"]);

const quoted = (text: string, key: string) =>
  new RegExp(`^\\s{2}${key}\\s*:\\s*'([^']*)'`, "m").exec(text)?.[1] ?? null;

/** A day the files write `2025-07-15` or `June 20, 2025` (read as UTC), as YYYY-MM-DD; null otherwise. */
function dayOf(raw: unknown): string | null {
  if (typeof raw !== "string") return null;
  const ms = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(raw) ? raw : `${raw} UTC`);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString().slice(0, 10);
}

/** `releaseDate` as YYYY-MM-DD, in either spelling ({@link dayOf}). */
function releaseDay(text: string): string | null {
  return dayOf(quoted(text, "releaseDate"));
}

function meters(direction: "input" | "output", list: readonly Meter[], file: string, unmapped: UnmappedTally) {
  const out: PriceObservation[] = [];
  const seen = new Set<string>();
  for (const m of list) {
    const rule = meterRule(direction, m.denominator);
    if (!rule) {
      if (!SKIPPED.has(m.denominator.trim())) unmapped.add(`${direction} ${m.denominator.trim()}`);
      continue;
    }
    const p = pagePrice(rule, String(m.price));
    const key = seriesKey({ ...p.dimension, unit: p.unit });
    if (seen.has(key)) {
      unmapped.add(`${direction} ${m.denominator.trim()} (a second meter of one unit, ${file})`);
      continue;
    }
    seen.add(key);
    out.push(p);
  }
  return out;
}

/**
 * The API names of a model file split into its snapshot ids and its moving names (issue 48, T327,
 * T434): a dated name (`mistral-medium-2505`, `labs-leanstral-2603`) is a snapshot; without one, the
 * names that are neither `-latest` nor the family a longer name of the list extends
 * (`mistral-medium-3` beside `mistral-medium-3-5`); the first name when that leaves none. The rest
 * (`mistral-small-latest`, `codestral-embed` beside `codestral-embed-2505`, `mistral-medium-3`)
 * names whichever snapshot Mistral serves that day: never the listing's model.
 */
export function snapshotNames(apiNames: readonly string[]): { snapshots: string[]; moving: string[] } {
  const dated = apiNames.filter((n) => /-\d{4}$/.test(n));
  const extended = (n: string) => apiNames.some((m) => m !== n && (m.startsWith(`${n}-`) || m.startsWith(`${n}.`)));
  const plain = apiNames.filter((n) => !n.endsWith("-latest") && !extended(n));
  const snapshots = dated.length > 0 ? dated : plain.length > 0 ? plain : apiNames.slice(0, 1);
  return { snapshots, moving: apiNames.filter((n) => !snapshots.includes(n)) };
}

/**
 * The listings of one model file (one per snapshot id, its moving names as the listing's `aliases`
 * where no file ranked before it claimed them: `claimed`), or none with the reason counted.
 */
function modelFile(file: string, text: string, unmapped: UnmappedTally, claimed: Set<string>): Listing[] {
  const pricingSource = literalAfterKey(text, "pricing");
  const idsSource = literalAfterKey(text, "identifiers");
  const pricing = Pricing.safeParse(pricingSource === null ? null : readObjectLiteral(pricingSource));
  const ids = Identifiers.safeParse(idsSource === null ? null : readObjectLiteral(idsSource));
  if (!pricing.success || !ids.success) {
    unmapped.add(`${!ids.success ? "identifiers" : "pricing"} not a plain literal of the known shape`);
    return [];
  }
  const p = pricing.data;
  const prices =
    "input" in p
      ? [...meters("input", p.input, file, unmapped), ...meters("output", p.output, file, unmapped)]
      : meters("input", [{ price: p.price, denominator: p.denominator }], file, unmapped);
  if (prices.length === 0) return [];
  const status = quoted(text, "status");
  const metadata = literalAfterKey(text, "metadata");
  const meta = (metadata ? readObjectLiteral(metadata) : null) as Record<string, unknown> | null;
  const { snapshots, moving } = snapshotNames(ids.data.apiNames);
  const aliases = moving.filter((n) => !claimed.has(n));
  for (const n of aliases) claimed.add(n);
  return snapshots.map((id) =>
    makerListing("mistral", id, prices, {
      name: quoted(text, "name"),
      ...(aliases.length > 0 ? { aliases } : {}),
      status: status !== null && Object.hasOwn(STATUS, status) ? STATUS[status as keyof typeof STATUS] : null,
      releasedOn: releaseDay(text),
      // Both spellings, as releaseDate (`November 30, 2025` in the 2025-11/12 copies' retired files).
      deprecatedOn: dayOf(meta?.deprecationDate),
      retiresOn: dayOf(meta?.retirementDate),
      // `free: true` (Leanstral, moderation 26.03): the 0 amounts are prices (T434).
      ...(p.free === true ? { statesFree: true } : {}),
    }),
  );
}

/**
 * Parses one day's model files.
 * @throws SourcePayloadError when the payload has no `.ts` file or none of them states a price
 */
function parseReport(payload: SourcePayload): ParseReport {
  const unmapped = new UnmappedTally();
  const files = [...payload.files].filter(([name]) => name.endsWith(".ts") && name !== "index.ts");
  if (files.length === 0) throw new SourcePayloadError(`${ID}: payload has no model file (<slug>.ts)`);
  // Files in the order of the one that serves a name now — an Active model before a Deprecated one,
  // then the newest release, then the file name: a snapshot id two files name (`voxtral-mini-2507` in
  // the chat and the transcription file) is one listing with the first one's prices and what the
  // other adds (T151's merge); a moving name two files name (`mistral-small-latest` in Small 3.2's
  // and Small 4's) is an alias of the first one's snapshot only (T434).
  const byId = new ListingsBySeller();
  const rank = (text: string) => (quoted(text, "status") === "Active" ? 0 : 1);
  files.sort(
    ([a, ta], [b, tb]) =>
      rank(ta) - rank(tb) || (releaseDay(tb) ?? "").localeCompare(releaseDay(ta) ?? "") || (a < b ? -1 : a > b ? 1 : 0),
  );
  const claimed = new Set<string>();
  for (const [name, text] of files) for (const listing of modelFile(name, text, unmapped, claimed)) byId.add(listing);
  const listings = byId.values();
  if (listings.length === 0) throw new SourcePayloadError(`${ID}: no model file states a price`);
  return { listings, unmapped: unmapped.toRecord() };
}

/** Mistral's own model documentation (weight 1, authoritative for mistral). */
export const officialMistralSource = sourceAdapter(ID, INFO, UPSTREAM, parseReport);
