import { z } from "zod";
import { CHANGE_KINDS } from "../domain/change.js";
import { CHANNELS } from "../domain/channel.js";
import { CONFIDENCE_LEVELS } from "../domain/confidence.js";
import { USAGE_FIELDS } from "../domain/cost.js";
import { AXIS_NAMES, type Axis, axisValuesText } from "../domain/dimension.js";
import { CURRENT_WITHIN_DAYS, SOURCE_HEALTH } from "../domain/freshness.js";
import { LEADING_CONFIDENCE, TRUST_FLAGS, UNCONFIRMED_BELOW_MAKER } from "../domain/offer-trust.js";
import { SOURCE_ATTEMPT_STATUSES } from "../domain/source-attempt.js";

/**
 * Zod RESPONSE schemas of API v1: api-v1.md "Resources and their fields"
 * with the D-decisions (D2 channels, D4 nullability, D5 change amounts, D8 scores). They are what
 * the OpenAPI document (D26) is generated from and what the fuzz tests check every 200 body
 * against. Objects are strict: a field served but not described here is a failure, not a leak.
 * `.meta({ id })` makes each one a named component of the OpenAPI document.
 */

/** An ISO 8601 timestamp with its offset. */
export const timestamp = z.iso.datetime({ offset: true }).meta({ description: "ISO 8601 timestamp" });
const nullableTimestamp = timestamp.nullable();
/** A calendar day, YYYY-MM-DD. */
export const isoDate = z.iso.date().meta({ description: "Date YYYY-MM-DD" });
/** A model id, `<provider_slug>/<model_slug>` (D1). */
export const modelId = z
  .string()
  .meta({ description: "`<provider_slug>/<model_slug>` (D1)", example: "anthropic/claude-opus-4-0" });
const confidence = z.enum(CONFIDENCE_LEVELS).meta({ id: "Confidence", description: "Confidence level (D8)" });

/**
 * A price's dimension axes: strings (api-v1.md; a new value is an addition, not a change of shape),
 * described with today's values from the axes' one description (T236).
 */
const AXIS_FIELDS = Object.fromEntries(
  AXIS_NAMES.map((a) => [a, z.string().meta({ description: `${axisValuesText(a)} (D27)` })]),
) as Record<Axis, z.ZodString>;

/** Why a price or rate is not `verified` / `official` though its seller's own list states it (issue 46 §5, T461). */
const PageStaleSchema = z
  .strictObject({
    source: z.string().meta({ description: "The seller's own source (a maker's page) whose statement lapsed" }),
    lastReadAt: nullableTimestamp.meta({ description: "When it was last read successfully; null: never" }),
    maxAgeDays: z
      .number()
      .int()
      .meta({ description: "A statement read longer ago than this makes nothing `verified`" }),
  })
  .optional()
  .meta({
    description:
      "Addition (issue 46 §5, T461): present when the seller's own page states this amount but was last read " +
      "more than `maxAgeDays` days before the answer was judged (when served; a past `at` day as its version " +
      "was built): it is then not `verified` (not `official` on a rate) until the page is read again",
  });

/** api-v1.md "Price", D7, D8, D27. */
export const PriceSchema = z
  .strictObject({
    label: z.string().meta({ description: "Human name of the dimension; unique within a model (D27)" }),
    ...AXIS_FIELDS,
    contextMin: z.number().int().min(0),
    contextMax: z.number().int().nullable(),
    qualifiers: z.record(z.string(), z.string()),
    amount: z.number().meta({ description: "In display units, never raw base units (D7)" }),
    displayUnit: z.string().meta({ example: "USD per 1M tokens" }),
    denomination: z.enum(["currency", "credit"]),
    currency: z.string(),
    confidence,
    confidenceScore: z.number().min(0).max(1).meta({ description: "Fraction 0–1 (D8)" }),
    sources: z.array(z.string()),
    dissenting: z.array(z.string()),
    disputed: z.boolean(),
    fallbackAmount: z.number().nullable(),
    effectiveFrom: timestamp,
    staleSince: nullableTimestamp,
    effectiveUntil: nullableTimestamp.meta({
      description:
        "Addition (issue 37 §4, T335): the first moment (00:00 UTC of the day) this price no longer applies, " +
        "as a source states it; null when no end is stated",
    }),
    announced: z
      .strictObject({
        amount: z.number().meta({ description: "In the price's display units" }),
        effectiveFrom: timestamp,
        source: z.string().meta({ description: "The source that states it" }),
      })
      .nullable()
      .meta({
        description:
          "Addition (T335): the price announced from `effectiveUntil`; null when none is announced (no end, " +
          "or the price ends with no successor stated)",
      }),
    channel: z.enum(CHANNELS).optional().meta({
      description:
        "The price's sales channel; present only in answers that mix channels (`channel=all`, `prices=listed`, T201)",
    }),
    seller: z.string().optional().meta({
      description: "Who sells at this price (the maker itself in `direct`); present exactly when `channel` is (T201)",
    }),
    pending: z
      .strictObject({
        source: z.string(),
        amount: z
          .number()
          .meta({ description: "The amount the maker's page states now (display units), not yet published" }),
        since: timestamp,
      })
      .optional()
      .meta({
        description:
          "A move of the maker's page against every aggregator, held until its next fetch states it again " +
          "(issue 46 §4, T467): never the price's `amount`; present only while one is held, and not with `at`",
      }),
    evidence: z
      .array(
        z.strictObject({
          source: z.string(),
          url: z.string().meta({ description: "The maker's page (its Markdown twin)" }),
          capturedAt: timestamp,
          contentHash: z.string().meta({ description: "SHA-256 (hex) of the page's text as parsed" }),
        }),
      )
      .optional()
      .meta({
        description:
          "The makers' own pages that state this amount: which page, when Tariff captured it, its hash " +
          "(issue 35, T294); present only when such a page agrees, and not with `at` (the history keeps no observations)",
      }),
    dissentingAmounts: z
      .array(z.strictObject({ source: z.string(), amount: z.number() }))
      .optional()
      .meta({
        description:
          "Each dissenting source with its own amount (display units), in `dissenting` order; present on " +
          "`/models/{provider}/{model}?channel=all` without `at` (T201)",
      }),
    pageStale: PageStaleSchema,
  })
  .meta({ id: "Price", description: "One price dimension of a model in one channel" });

/** api-v1.md "Model", D3 lifecycle, D4 nullability. */
export const ModelSchema = z
  .strictObject({
    id: modelId,
    provider: z.string(),
    slug: z.string(),
    name: z.string(),
    family: z.string().nullable(),
    contextWindow: z.number().int().nullable(),
    longContextWindow: z.number().int().nullable().meta({
      description:
        "A longer window the maker documents beyond `contextWindow` (an addition, T342), e.g. a 1M-token long-context option: the longest prompt `/cost` accepts; null when `contextWindow` is the longest",
    }),
    maxOutputTokens: z.number().int().nullable(),
    openWeights: z.boolean(),
    firstSeenAt: timestamp,
    lifecycle: z.strictObject({
      state: z.enum(["preview", "active", "deprecated", "retired"]),
      releasedOn: isoDate.nullable(),
      deprecatedOn: isoDate.nullable(),
      retiresOn: isoDate.nullable(),
    }),
    prices: z.array(PriceSchema).meta({ description: "Empty when the requested channel does not sell the model" }),
  })
  .meta({ id: "Model" });

/** api-v1.md "Provider", D29. */
export const ProviderSchema = z
  .strictObject({
    slug: z.string(),
    name: z.string(),
    website: z.string().nullable(),
    pricingUrl: z.string().nullable(),
    official: z.boolean(),
    models: z.number().int().min(0),
  })
  .meta({ id: "Provider" });

/** api-v1.md "Search suggestion", D20. */
export const SuggestionSchema = z
  .strictObject({ id: modelId, label: z.string().meta({ example: "Claude Opus 4 — Anthropic" }) })
  .meta({ id: "Suggestion" });

/** api-v1.md "Source record", D4. */
export const SourceSchema = z
  .strictObject({
    source: z.string(),
    name: z.string(),
    license: z.string().nullable(),
    homepage: z.string(),
    weight: z.number(),
    authoritative: z.boolean(),
    lastSuccessAt: nullableTimestamp,
    lastError: z
      .strictObject({ at: timestamp, message: z.string(), httpStatus: z.number().int().nullable() })
      .nullable()
      .meta({
        description:
          "The source's last error: its last live attempt's when that failed after this version's run (T310), " +
          "else the one this version records; null when the source has not failed since it last succeeded.",
      }),
    rowsLastRun: z.number().int().min(0),
    unmatchedLastRun: z.number().int().min(0).meta({
      description:
        "Listings of the source's last run that matched no model under the identity rules (an addition, T65); `tariff identity --unmatched` lists them.",
    }),
    lastRunStatus: z
      .enum(["succeeded", "failed", "not_run"])
      .meta({ description: "This dataset version's run for the source: parsed, failed, or absent (T75)." }),
    lastRunAt: nullableTimestamp.meta({ description: "When the source last ran (succeeded or failed)." }),
    rejectedLastRun: z
      .number()
      .int()
      .min(0)
      .meta({ description: "Rows of the last run the plausibility guards quarantined (T73/T74)." }),
    rejectedByReason: z.record(z.string(), z.number().int().min(0)),
    unmappedLastRun: z
      .number()
      .int()
      .min(0)
      .meta({ description: "Price fields of the last run's payload the source's field map does not know (T70)." }),
    unmappedByField: z.record(z.string(), z.number().int().min(0)),
    unmatchedPageRows: z.number().int().min(0).meta({
      description:
        "A maker's page: its rows that name none of its maker's models, each listed in `unmappedByField` as `unmatched row: …` (an addition, T468)",
    }),
    sentencesForReview: z.number().int().min(0).meta({
      description:
        "A maker's page: dated price sentences no reviewed wording reads, each quoted in `unmappedByField` as `sentence for review: …` (an addition, T465)",
    }),
    pendingMoves: z.number().int().min(0).meta({
      description:
        "A maker's page: prices it moved against every aggregator, held until the next fetch states them again, each in `unmappedByField` as `pending move: …` (an addition, T467)",
    }),
    skippedFields: z.record(z.string(), z.string()).meta({
      description:
        "Price fields the source's field map knows and deliberately does not publish, with the reason (an addition, T306)",
    }),
    lastAttempt: z
      .strictObject({
        at: timestamp,
        status: z.enum(SOURCE_ATTEMPT_STATUSES),
        error: z.strictObject({ message: z.string(), httpStatus: z.number().int().nullable() }).nullable(),
      })
      .nullable()
      .meta({
        description:
          "The source's last live attempt, whether or not it published a dataset version (an addition, T310): " +
          "when, `succeeded` (parsed), `unchanged` (the same payload as its last good parse) or `failed`, and why. " +
          "null when no live run has tried it (a store filled from the bundled snapshots only).",
      }),
    health: z.enum(SOURCE_HEALTH).meta({
      description:
        `The source's health now (an addition, T225; judged against the current time since T310): \`failing\` ` +
        `when the newest of this version's run and its last attempt failed, \`stale\` when it has not succeeded ` +
        `within ${CURRENT_WITHIN_DAYS} days before now, else \`fresh\`.`,
    }),
  })
  .meta({ id: "Source" });

/** api-v1.md "Rate record" (contract version 2), D8, D30. */
export const RateSchema = z
  .strictObject({
    id: modelId,
    provider: z.string(),
    slug: z.string(),
    currency: z.string(),
    inputPerMTok: z.number(),
    outputPerMTok: z.number(),
    cachedInputPerMTok: z.number().nullable(),
    confidence,
    confidenceScore: z.number().int().min(0).max(100).meta({ description: "0–100 (D8)" }),
    agreeingSources: z.array(z.string()),
    sourceCount: z.number().int().min(0),
    official: z.boolean(),
    disputed: z.boolean(),
    staleSince: nullableTimestamp,
    aliases: z.array(z.string()),
    pageStale: PageStaleSchema,
  })
  .meta({ id: "Rate" });

/** D2: `/meta` `data.channels`. */
export const ChannelSchema = z
  .strictObject({ id: z.enum(CHANNELS), name: z.string(), sellers: z.array(z.string()) })
  .meta({ id: "Channel" });

/** How old the data is (an addition to `/meta`, issue 27 §2, T223): timestamps, so a client computes the age. */
export const FreshnessSchema = z
  .strictObject({
    newestEvidenceAt: nullableTimestamp.meta({
      description: "The newest successful evidence of any source: when the data was last current",
    }),
    sources: z.record(z.string(), nullableTimestamp).meta({
      description: "Per source id, its newest successful evidence (its `lastSuccessAt` in /sources); null when never",
    }),
    currentWithinDays: z.number().int().meta({
      description: "Data (and a source's last success) older than this many days is not current (T225)",
    }),
    evidenceMaxAgeDays: z.number().int().meta({
      description: "Evidence older than this many days before a run supports no `verified` or `high` price (T224)",
    }),
  })
  .meta({ id: "Freshness" });

/** api-v1.md "Dataset summary", D2, D28; `freshness` is an addition (T223). */
export const DatasetSummarySchema = z
  .strictObject({
    datasetVersion: timestamp,
    generatedAt: timestamp,
    models: z.number().int().min(0),
    providers: z.number().int().min(0),
    prices: z.number().int().min(0),
    lastRun: z.strictObject({ id: z.string(), status: z.string(), finishedAt: timestamp }),
    rates: z.strictObject({ contractVersion: z.number().int(), officialSources: z.array(z.string()) }),
    channels: z.array(ChannelSchema),
    freshness: FreshnessSchema,
  })
  .meta({ id: "DatasetSummary" });

/** api-v1.md "History series", D17, D27. */
export const HistorySeriesSchema = z
  .strictObject({
    label: z.string(),
    displayUnit: z.string(),
    points: z.array(z.tuple([isoDate, z.number()])).meta({ description: "[date, amount], one per change" }),
    endedOn: isoDate.nullable().meta({
      description:
        "Addition (issue 50 §3, T456): the first day the price is no longer published (it was removed); null while it is. The last point's amount applies up to the day before.",
    }),
    gaps: z.array(z.tuple([isoDate, isoDate])).meta({
      description:
        "Addition (issue 50 §3, T456): the periods the price was removed and later published again, each [first day without, first day with it again]; empty when none.",
    }),
  })
  .meta({ id: "HistorySeries" });

/** api-v1.md "Change record", D5, D6; `channel` and `displayUnit` are additions (T17). */
export const ChangeSchema = z
  .strictObject({
    kind: z.enum(CHANGE_KINDS),
    model: modelId,
    modelName: z.string(),
    providerName: z.string(),
    label: z.string(),
    oldAmount: z.number().nullable(),
    newAmount: z.number().nullable(),
    deltaPct: z.number().nullable(),
    occurredAt: timestamp,
    channel: z.enum(CHANNELS),
    displayUnit: z.string(),
    effectiveFrom: timestamp.optional().meta({
      description:
        "Addition (T337), on `price_announced` and `announcement_withdrawn` only: when the announced amount " +
        "takes (or was to take) effect",
    }),
    confidence: confidence.nullable().meta({
      description:
        "The confidence of the price the move landed on, as this version publishes it (an addition, T343); null when no price states the new amount any more (it moved again, or was removed)",
    }),
  })
  .meta({ id: "Change" });

/** One usage parameter of /cost priced on one offer (issue 17, T140–T143). */
export const CostLineSchema = z
  .strictObject({
    usage: z.enum(USAGE_FIELDS).meta({ description: "The usage parameter this line prices" }),
    tokens: z.number().int().min(0).meta({ description: "Tokens, or calls for `webSearchRequests`" }),
    status: z
      .enum(["priced", "missing"])
      .meta({ description: "`missing`: no price is published for it in the request's tier and bracket (T143)" }),
    label: z.string().nullable().meta({ description: "Label of the price used (D27); null when missing" }),
    amount: z.number().nullable().meta({ description: "The price in display units; null when missing" }),
    displayUnit: z.string().nullable(),
    denomination: z.enum(["currency", "credit"]).nullable(),
    currency: z.string().nullable(),
    cost: z.number().nullable().meta({
      description: "tokens × amount / 1M (calls × amount / 1K for a per-1K-calls price), 10 significant digits (D7)",
    }),
    confidence: confidence.nullable(),
    sources: z.array(z.string()),
    uplift: z.strictObject({ factor: z.number(), decision: z.string(), source: z.string() }).nullable().meta({
      description:
        "The maker's regional rule applied to the global price (`amount` already includes it) where no source states the region's price (an addition, T303); else null",
    }),
    derived: z
      .strictObject({ from: z.string(), factor: z.number(), decision: z.string(), source: z.string() })
      .nullable()
      .meta({
        description:
          "The maker's prompt-caching rule, where no source lists this cache price: the label of the input price of the same tier and bracket it is a factor of (`amount` already includes it; an addition, T346); else null",
      }),
    dissent: z
      .strictObject({
        amount: z.number().meta({ description: "The overruled price, in the line's display units" }),
        sources: z.array(z.string()).meta({ description: "The sources that list it" }),
        decision: z.string().meta({ description: "The rule that overrules it: T482 regional, T483 cache writes" }),
      })
      .nullable()
      .meta({
        description:
          "A listed price the maker's own billing rule overrules for this line: a region's row that is not the maker's regional multiplier of the global price (T482), a cache-write price where the maker charges nothing beyond input (T483); `amount` is the rule's price (an addition, T482); else null",
      }),
    effectiveUntil: nullableTimestamp.meta({
      description:
        "The stated end of the price used, as on the price (`Price.effectiveUntil`, T335): 00:00 UTC of the first day it no longer applies; null when none is stated or the line is missing (an addition, T360)",
    }),
    announced: z
      .strictObject({
        amount: z.number().meta({
          description:
            "In the line's display units, with the line's regional and caching factors applied as to `amount`",
        }),
        effectiveFrom: timestamp,
        source: z.string().meta({ description: "The source that states it" }),
      })
      .nullable()
      .meta({
        description:
          "The price announced from `effectiveUntil` for this line (`Price.announced`, T335); null when none is announced or the line is missing. `/cost` with `at` on or after that day prices the line at it (T336; an addition, T360)",
      }),
  })
  .meta({ id: "CostLine" });

/** A part of a usage record no price rule reaches (issue 37, T300). */
export const UnpricedPartSchema = z
  .strictObject({
    part: z.string().meta({ description: "The record's field, e.g. `prompt_tokens_details.audio_tokens`" }),
    quantity: z.number().int().min(0).meta({ description: "Tokens or calls it holds; 0 for a setting" }),
    reason: z.string(),
  })
  .meta({ id: "UnpricedPart" });

/** Whether an offer may lead a ranking by cost (issue 38 §2, T340, T341). */
export const OfferTrustSchema = z
  .strictObject({
    trusted: z.boolean().meta({
      description: `The offer may lead: confidence \`${LEADING_CONFIDENCE}\` or better, not ${UNCONFIRMED_BELOW_MAKER}× or more below the maker's own total on one source's word, and, beside a maker's price, stated by two sources or the seller's own list (T452)`,
    }),
    makerRatio: z.number().nullable().meta({
      description:
        "The maker's total for the same usage ÷ this offer's, 2 decimals (above 1: cheaper than the maker); null for the maker's own offer, when the maker has no total in the same currency, or for a total of 0",
    }),
    flags: z.array(z.enum(TRUST_FLAGS)).meta({
      description:
        "Why the offer may not lead: `below_medium_confidence`; `unconfirmed_below_maker` (far below the maker, fewer than two sources state its price); `suspected_currency_slip` beside it when the ratio is a CNY/USD rate (×6.2–7.6); `single_source` (the model has a maker's price and the offer rests on one source that is not the seller's own list, T452)",
    }),
  })
  .meta({
    id: "OfferTrust",
    description:
      "An addition (T340): the ranking puts trusted offers first, so the first estimate is the cheapest one a buyer can trust; every offer is kept",
  });

/** The cost of a usage on one model in one channel and seller (issue 17). */
export const CostEstimateSchema = z
  .strictObject({
    model: modelId,
    name: z.string(),
    channel: z.enum(CHANNELS),
    seller: z.string().meta({ description: "The seller of the offer (the maker itself in `direct`)" }),
    bracket: z
      .strictObject({
        contextMin: z.number().int().min(0),
        contextMax: z.number().int().nullable(),
        promptTokensPerRequest: z.number().min(0),
      })
      .meta({ description: "The context bracket the whole request is billed in (T141)" }),
    lines: z.array(CostLineSchema),
    totals: z
      .array(
        z.strictObject({
          denomination: z.enum(["currency", "credit"]),
          currency: z.string(),
          amount: z.number(),
        }),
      )
      .nullable()
      .meta({
        description:
          "Per denomination and currency; null when a line is missing or a part is unpriced (no fake total, T143, T300)",
      }),
    partialTotals: z
      .array(z.strictObject({ denomination: z.enum(["currency", "credit"]), currency: z.string(), amount: z.number() }))
      .meta({
        description: "The sum of the priced lines alone, also when the estimate is incomplete (an addition, T300)",
      }),
    complete: z.boolean(),
    missing: z.array(z.enum(USAGE_FIELDS)),
    unpriced: z.array(UnpricedPartSchema).meta({
      description: "The usage record's parts no price rule reaches, with the reason (an addition, T300)",
    }),
    confidence: confidence.nullable().meta({ description: "The weakest confidence of the priced lines" }),
    trust: OfferTrustSchema,
    pricedAs: modelId.nullable().meta({
      description:
        "The undated model whose prices priced this dated snapshot (`model`), where the snapshot's own prices lack a line its undated name prices and both price the usage's standard-tier lines alike — e.g. `openai/gpt-4o` for `openai/gpt-4o-2024-08-06` on `tier=priority`; null when the model's own prices are used (an addition, T347, T361)",
    }),
  })
  .meta({ id: "CostEstimate" });

/** RFC 9457 problem details (api-v1.md Errors, D25). */
export const ProblemSchema = z
  .strictObject({
    type: z.literal("about:blank"),
    title: z.string().meta({ description: "The reason phrase of the status" }),
    status: z.number().int().min(400).max(599),
    detail: z.string(),
  })
  .meta({ id: "Problem" });

// ---- Response types, inferred from the schemas (one description of each shape, issue 19 §1) ----

/** One price dimension in one channel; `amount` in display units, e.g. USD per 1M tokens (D7). */
export type ApiPrice = z.infer<typeof PriceSchema>;
export type ApiModel = z.infer<typeof ModelSchema>;
export type ApiProvider = z.infer<typeof ProviderSchema>;
export type ApiSuggestion = z.infer<typeof SuggestionSchema>;
export type ApiSource = z.infer<typeof SourceSchema>;
export type ApiRate = z.infer<typeof RateSchema>;
export type ApiChannel = z.infer<typeof ChannelSchema>;
export type ApiMeta = z.infer<typeof DatasetSummarySchema>;
export type ApiHistorySeries = z.infer<typeof HistorySeriesSchema>;
export type ApiChange = z.infer<typeof ChangeSchema>;
export type ApiCostEstimate = z.infer<typeof CostEstimateSchema>;

/** The success envelope (api-v1.md "Response envelope"); `meta` adds endpoint fields (T13). */
export interface Envelope<T> {
  data: T;
  meta: { datasetVersion: string; generatedAt: string } & Record<string, unknown>;
}
