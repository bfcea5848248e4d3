import Big from "big.js";
import { AmountError, scaleAmount } from "../../domain/amount.js";
import { EMPTY_LISTING_META, type Listing, type PriceObservation } from "../../domain/observation.js";
import { canonicalSeller, isMaker } from "../../domain/sellers.js";
import { ruleDimension, UnmappedTally } from "../field-map.js";
import { sourceAdapter } from "../shared/adapter.js";
import { payloadJson } from "../shared/payload-json.js";
import { type ParseReport, type SourceInfo, type SourcePayload, SourcePayloadError } from "../source.js";
import type { LiveUpstream } from "../upstream.js";
import {
  IMAGE_TOKEN_RULE,
  OVERRIDE_SKIPS,
  OVERRIDE_THRESHOLD_KEY,
  OVERRIDE_TIME_KEYS,
  PRICING_RULES,
} from "./field-map.js";
import { OpenRouterModel, OpenRouterModels, type OpenRouterPricing } from "./schema.js";

/** Name of the one file of an OpenRouter payload. */
export const OPENROUTER_FILE = "models.json";

/** The live payload: the Models API (`/api/v1/models`), stored as `models.json`. */
const UPSTREAM: LiveUpstream = {
  baseUrl: "https://openrouter.ai/api/v1/",
  files: () => [{ name: OPENROUTER_FILE, path: "models" }],
};

/** Seller slug of every OpenRouter listing (D2 `reseller_1`). */
const SELLER = "openrouter";

/** Registry record: OpenRouter's own price API, so authoritative for seller `openrouter` (D8). */
export const openrouterInfo: SourceInfo = {
  name: "OpenRouter Models API",
  license: null,
  homepage: "https://openrouter.ai/models",
  weight: 0.9,
  authoritativeFor: [SELLER],
  skippedFields: OVERRIDE_SKIPS,
};

/**
 * Adapter for the OpenRouter Models API (`models.json` = `{data: [...]}`): one listing per model
 * id (`:free` variants are their own listings), seller `openrouter`, model = id as given.
 *
 * Prices are decimal strings in USD per token / request / image / call, converted exactly with
 * {@link scaleAmount} (`"0.00000175"` → 1.75 USD per 1M tokens). Negative (`"-1"`, router
 * pricing), non-numeric and absent keys give no price; `"0"` gives 0. An `image` price equal to
 * `prompt` is per image token (see {@link IMAGE_TOKEN_RULE}). Malformed entries are skipped.
 * @throws SourcePayloadError when `models.json` is missing, not JSON, has no `data` array, or
 * `data` holds no valid model
 */
export const openrouterSource = sourceAdapter("openrouter", openrouterInfo, UPSTREAM, parseReport);

function parseReport(payload: SourcePayload): ParseReport {
  const entries = readEntries(payload);
  const unmapped = new UnmappedTally();
  const listings = new Map<string, Listing>();
  let firstProblem: string | null = null;
  entries.forEach((raw, index) => {
    const model = OpenRouterModel.safeParse(raw);
    if (!model.success) {
      // malformed entry: skipped (README "Skipped")
      if (firstProblem === null) firstProblem = issueText(model.error.issues[0], ["data", index]);
      return;
    }
    if (!listings.has(model.data.id)) listings.set(model.data.id, toListing(model.data, unmapped));
  });
  if (listings.size === 0) {
    throw new SourcePayloadError(
      `openrouter: ${OPENROUTER_FILE}: no valid model in "data"${firstProblem ? ` (${firstProblem})` : " (empty array)"}`,
    );
  }
  return { listings: [...listings.values()], unmapped: unmapped.toRecord() };
}

/** Validates the top level and returns the raw `data` entries. */
function readEntries(payload: SourcePayload): unknown[] {
  const json = payloadJson("openrouter", payload, OPENROUTER_FILE);
  const top = OpenRouterModels.safeParse(json);
  if (!top.success) {
    throw new SourcePayloadError(
      `openrouter: ${OPENROUTER_FILE}: expected {"data": [...]}, ${issueText(top.error.issues[0], [])}`,
    );
  }
  return top.data.data;
}

/** `at <path>: <message>` for a zod issue, with `prefix` before the issue's own path. */
function issueText(issue: { path: PropertyKey[]; message: string } | undefined, prefix: PropertyKey[]): string {
  const path = [...prefix, ...(issue?.path ?? [])].map(String).join(".");
  return `at ${path || "(root)"}: ${issue?.message ?? "invalid"}`;
}

/** Maps one validated model to a listing. */
function toListing(model: OpenRouterModel, unmapped: UnmappedTally): Listing {
  return {
    ...EMPTY_LISTING_META,
    seller: SELLER,
    model: model.id,
    makerHint: makerHintOf(model.id),
    name: displayName(model.name),
    publisherName: publisherNameOf(model.name),
    huggingFaceId: model.hugging_face_id || null,
    canonicalSlug: model.canonical_slug || null,
    contextWindow: model.context_length ?? model.top_provider?.context_length ?? null,
    maxOutputTokens: model.top_provider?.max_completion_tokens ?? null,
    releasedOn: model.created === undefined ? null : unixDate(model.created),
    retiresOn: isoDateOrNull(model.expiration_date),
    prices: pricesOf(model.pricing, unmapped),
  };
}

/**
 * Maker slug from the id's vendor prefix (`anthropic/claude-opus-4` → `anthropic`,
 * `~google/gemini-pro-latest` → `google`, the `~` marking a floating "latest" alias) when
 * `isMaker(canonicalSeller(prefix))` confirms it; else null (`openrouter/auto`, `sao10k/…`).
 */
export function makerHintOf(id: string): string | null {
  const slash = id.indexOf("/");
  if (slash <= 0) return null;
  const vendor = canonicalSeller(id.slice(0, slash).replace(/^~/, ""));
  return isMaker(vendor) ? vendor : null;
}

/** Strips OpenRouter's leading `Vendor: ` from a name (`Anthropic: Claude Opus 4` → `Claude Opus 4`). */
export function displayName(name: string | undefined): string | null {
  if (name === undefined) return null;
  const trimmed = name.trim();
  const match = /^[^:]+:\s+(\S.*)$/.exec(trimmed);
  const result = match?.[1] ?? trimmed;
  return result === "" ? null : result;
}

/** The `Vendor` of OpenRouter's `Vendor: Name`, or null when the name has no such prefix. */
export function publisherNameOf(name: string | undefined): string | null {
  const match = /^([^:]+):\s+\S/.exec(name?.trim() ?? "");
  return match?.[1]?.trim() || null;
}

/** Unix seconds → `YYYY-MM-DD` (UTC), or null when out of the Date range. */
export function unixDate(seconds: number): string | null {
  const date = new Date(seconds * 1000);
  return Number.isNaN(date.getTime()) ? null : date.toISOString().slice(0, 10);
}

/** A real calendar date `YYYY-MM-DD`, else null. */
export function isoDateOrNull(value: string | null | undefined): string | null {
  if (value === undefined || value === null || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return null;
  const [y, m, d] = value.split("-").map(Number) as [number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d ? value : null;
}

/**
 * One observation per readable, non-negative pricing key, converted exactly; and the per-token
 * keys of each long-context `overrides` entry in its bracket (T306).
 */
function pricesOf(pricing: OpenRouterPricing, unmapped: UnmappedTally): PriceObservation[] {
  const raw = pricing as Record<string, unknown>;
  for (const key of Object.keys(pricing))
    if (key !== "overrides" && !Object.hasOwn(PRICING_RULES, key)) unmapped.add(`pricing.${key}`);
  const prices = amountsOf(raw, pricing.prompt, 0);
  const overrides = raw.overrides;
  if (overrides === undefined || overrides === null) return prices;
  if (!Array.isArray(overrides)) {
    unmapped.add("pricing.overrides");
    return prices;
  }
  for (const o of overrides) {
    if (typeof o !== "object" || o === null || Array.isArray(o)) {
      unmapped.add("pricing.overrides[]");
      continue;
    }
    const entry = o as Record<string, unknown>;
    // Peak / off-peak price sets: known, deliberately not published (OVERRIDE_SKIPS).
    if (OVERRIDE_TIME_KEYS.some((k) => k in entry)) continue;
    const min = entry[OVERRIDE_THRESHOLD_KEY];
    if (typeof min !== "number" || !Number.isInteger(min) || min < 1) {
      unmapped.add("pricing.overrides[]");
      continue;
    }
    for (const key of Object.keys(entry))
      if (key !== OVERRIDE_THRESHOLD_KEY && PRICING_RULES[key]?.unit !== "mtok")
        unmapped.add(`pricing.overrides[].${key}`);
    prices.push(...amountsOf(entry, pricing.prompt, min - 1));
  }
  return prices;
}

/**
 * The observations of one price set: every rule's key, at `contextMin` 0; or, in a long-context
 * bracket (`contextMin` > 0, from an override), the per-token keys only.
 */
function amountsOf(
  set: Readonly<Record<string, unknown>>,
  prompt: string | number | undefined,
  contextMin: number,
): PriceObservation[] {
  const prices: PriceObservation[] = [];
  for (const [key, r] of Object.entries(PRICING_RULES)) {
    if (contextMin > 0 && r.unit !== "mtok") continue;
    const amountRaw = set[key];
    const value = typeof amountRaw === "string" || typeof amountRaw === "number" ? decimalOrNull(amountRaw) : null;
    if (value === null || value.lt(0)) continue;
    const rule = key === "image" && isImageTokenPrice(value, prompt) ? IMAGE_TOKEN_RULE : r;
    let amount: number;
    try {
      amount = scaleAmount(value.toFixed(), rule.factor);
    } catch (error) {
      if (error instanceof AmountError) continue;
      throw error;
    }
    prices.push({
      dimension: ruleDimension(rule, contextMin > 0 ? { contextMin } : {}),
      amount,
      unit: rule.unit,
      denomination: "currency",
      currency: "USD",
    });
  }
  return prices;
}

/** True when a non-zero `image` price equals the `prompt` price (see {@link IMAGE_TOKEN_RULE}). */
function isImageTokenPrice(image: Big, prompt: string | number | undefined): boolean {
  const promptValue = prompt === undefined ? null : decimalOrNull(prompt);
  return promptValue !== null && !image.eq(0) && image.eq(promptValue);
}

/** The exact decimal of an upstream amount, or null when it is not one (`""`, `"N/A"`, NaN). */
function decimalOrNull(raw: string | number): Big | null {
  if (typeof raw === "number" && !Number.isFinite(raw)) return null;
  try {
    return new Big(typeof raw === "number" ? String(raw) : raw.trim());
  } catch {
    return null;
  }
}
