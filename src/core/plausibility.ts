import { amountsAgree } from "../domain/amount.js";
import type { Channel } from "../domain/channel.js";
import type { Dimension } from "../domain/dimension.js";
import { lookupTable } from "../domain/lookup-table.js";
import type { SourceId } from "../domain/observation.js";
import type { Denomination, Unit } from "../domain/unit.js";
import { MODALITY_UNITS, outsideBounds } from "./price-bounds.js";

/**
 * Plausibility guards (issue 13 §3–4, T73/T74). Pure: one source's price row is judged against
 * bounds for its unit and against what the other sources say of the same model; a row that fails
 * is quarantined — not published, counted per source and reason in `/sources`.
 *
 * Every check reads the same input set, so the verdicts do not depend on row order. Every check
 * judges every row, carried ones included (T178): a source that failed keeps the verdicts of its
 * last good run, so its absence changes nothing — but for `outlier`: a carried row tenfold off the
 * fresh ones is an older statement the market has left, and lags instead (T170).
 */

/** One source's price row after identity resolution: the unit the guards judge. */
export interface ScreenRow {
  readonly source: SourceId;
  /** Identity of the source listing the row belongs to: rows of one listing share it (pairs input with output). */
  readonly listing: number;
  readonly modelId: string;
  readonly channel: Channel;
  readonly seller: string;
  /** The dimension with the spelling's qualifiers (region, variant, seller) merged in. */
  readonly dimension: Dimension;
  /** Display units (e.g. USD per 1M tokens). */
  readonly amount: number;
  readonly unit: Unit;
  readonly denomination: Denomination;
  readonly currency: string;
  /** The source says the model is free here: a `:free` variant, a free tier (T74). */
  readonly saysFree: boolean;
  /** The seller is a plan: a 0 is usage included in the plan (T5), never judged as a money price. */
  readonly plan: boolean;
  /**
   * False for a row carried from a source's last good run (T11). Carried rows are judged like fresh
   * ones (T178): their verdicts are those of the run they come from, unless the others moved; they
   * are never quarantined as outliers (a move since is no unit slip).
   */
  readonly fresh: boolean;
  /**
   * The row's source shows fresh evidence of a market move for this price: it left the published
   * amount by a coherent move (now, or in an earlier run and still states its new amount), and the
   * move is no uniform rescale of its whole listing (T171). A tenfold difference is then no outlier.
   */
  readonly moved?: boolean;
  /** The row is a context bracket whose threshold the source derives from a generic field (T173). */
  readonly thresholdDerived?: boolean;
}

/** Why a row was quarantined. */
export const REJECT_REASONS = [
  "out_of_bounds",
  "unit_modality",
  "zero_not_free",
  "zero_vs_positive",
  "output_below_input",
  "modality_mirror",
  "outlier",
  "shifted_field",
  "currency_table",
  "bracket_threshold",
  "audio_only_text",
  "unexplained_jump",
  // A discount window or tier above its standard price that one source alone states (T331).
  "above_standard",
  // An amount or bracket that is no finite number, dropped at the adapter boundary (T252).
  "not_finite",
  // A price a reviewed line says the source copied from a sibling model (T365, `copied-prices.ts`).
  "copied_price",
  // Announcements judged as evidence at the adapter boundary (issue 47 §1, T420–T422,
  // `announcement-screen.ts`): the price stays, its stated end and successor are refused.
  // A date that is no real calendar day ("2027-13-45", "2027-02-30"), in an announcement or a dated row.
  "invalid_date",
  // An announced day more than ANNOUNCEMENT_HORIZON_DAYS after the run (year 9999).
  "beyond_horizon",
  // An announced amount outside the bounds of its unit, as a price today would be (`out_of_bounds`).
  "announced_out_of_bounds",
  // An announced amount OUTLIER_FACTOR times or more off the price it replaces: a slip, not a move.
  "announced_jump",
  // A direct price one source alone moved against the others, held for a run (issue 52 §4, T496).
  "lone_move",
  // A removal one recorder made while another source still lists the offer (issue 52 §3, T495).
  "removal_held",
  // A time window on the maker's channel that the maker's own list does not state (issue 48, T534).
  "window_unstated",
] as const;
export type RejectReason = (typeof REJECT_REASONS)[number];

/** Two amounts this far apart (either way) are a unit slip, not a price difference. */
export const OUTLIER_FACTOR = 10;
/** With no other source, an output at least this many times below its input is not a price. */
export const LONE_INVERSION_FACTOR = 5;

/**
 * The makers' own platforms that bill in another currency (T172): models.dev lists their tables in
 * USD columns, copying the maker's USD list for most models and giving the platform's own amounts
 * (CNY) for some. An amount there that stands to the maker's USD list in the ratio of a CNY price to a
 * USD one on every priced dimension ({@link CURRENCY_RATIO}) is a CNY amount read as USD.
 */
export const CURRENCY_PLATFORMS: Readonly<Record<string, { readonly maker: string; readonly currency: string }>> =
  lookupTable({
    zhipuai: { maker: "zai", currency: "CNY" },
    "moonshotai-cn": { maker: "moonshotai", currency: "CNY" },
    "minimax-cn": { maker: "minimax", currency: "CNY" },
    "alibaba-cn": { maker: "alibaba", currency: "CNY" },
  });

/**
 * The band of ratios (platform amount ÷ maker's USD amount) that a CNY list read as USD falls in:
 * Zhipu's GLM-5.1 at 6 / 24 / 1.3 beside Z.ai's 1.4 / 4.4 / 0.26 (4.3, 5.5, 5.0); the yuan is
 * worth about a seventh of a dollar and CNY lists are set a little below the converted USD price.
 */
export const CURRENCY_RATIO: readonly [number, number] = [3.5, 9];

/** Qualifiers that say who sells or where, not what is billed: ignored when sources are compared. */
const SELLER_QUALIFIERS = new Set(["seller", "region", "backend"]);

/** The verdicts of {@link screenRows}: one per input row, null when the row is kept. */
export type Verdicts = readonly (RejectReason | null)[];

/** Judges every row; returns one verdict per row in input order. */
export function screenRows(rows: readonly ScreenRow[]): Verdicts {
  const verdicts: (RejectReason | null)[] = rows.map(() => null);
  const reject = (i: number, reason: RejectReason) => {
    if (verdicts[i] === null) verdicts[i] = reason;
  };
  // Row-local checks first: their rejects take no part in the cross-source checks.
  rows.forEach((r, i) => {
    if (!MODALITY_UNITS[r.dimension.modality].includes(r.unit)) reject(i, "unit_modality");
    else if (r.amount > 0 && outOfBounds(r)) reject(i, "out_of_bounds");
  });
  const live = rows.map((_, i) => i).filter((i) => verdicts[i] === null);

  // Zero (T74): a price only when the source says free — a free offer, or an output it does not
  // bill beside the input it does (embeddings, rerankers) — and never beside a positive amount.
  const positiveSlots = new Set(live.filter((i) => rows[i]!.amount > 0).map((i) => slotKey(rows[i]!)));
  const billedInputs = new Set(
    live
      .filter((i) => rows[i]!.amount > 0 && rows[i]!.dimension.direction === "input")
      .map((i) => ownPairKey(rows[i]!)),
  );
  const makerFree = makerOffersFree(rows, live);
  for (const i of live) {
    const r = rows[i]!;
    if (r.amount !== 0 || r.plan) continue;
    const unbilledOutput =
      r.dimension.direction === "output" && r.dimension.cache === "none" && billedInputs.has(ownPairKey(r));
    if (!r.saysFree && !unbilledOutput && !makerFree.has(i)) reject(i, "zero_not_free");
    else if (positiveSlots.has(slotKey(r))) reject(i, "zero_vs_positive");
  }

  const positive = live.filter((i) => rows[i]!.amount > 0 && !rows[i]!.plan);
  // Field and unit errors a row shows by itself beside its own listing or the maker's list (T172,
  // T173): their rejects take no part in the comparisons between sources below.
  for (const [i, reason] of [
    ...shiftedFields(rows, positive),
    ...currencyTables(rows, positive),
    ...derivedBrackets(rows, positive),
    ...audioOnlyText(rows, positive),
  ])
    reject(i, reason);
  const compared = positive.filter((i) => verdicts[i] === null);
  const cross: [number, RejectReason][] = [
    ...inversions(rows, compared),
    ...mirrors(rows, compared, positive),
    ...outliers(rows, compared),
  ];
  // A carried row that stands tenfold off the fresh ones is an older statement the market has left
  // (a move since is no unit slip): it lags in reconciliation (T170) rather than vanishing (T178).
  for (const [i, reason] of cross) if (reason !== "outlier" || rows[i]!.fresh) reject(i, reason);
  return verdicts;
}

/**
 * Free is a price (issue 36 §3, T330; amends T74): the rows of 0 for the maker's own offer
 * (`direct`) of an uncached, standard-tier token input or output that at least two sources state for
 * the same slot, or that one states and the maker's own platform in another currency
 * ({@link CURRENCY_PLATFORMS}) also lists at 0 (Z.ai's GLM-4.5-Flash: LiteLLM and models.dev at 0 / 0,
 * and Zhipu's own table too; that table's 0 is kept with it). The maker offers the model free; any
 * other 0 stays `zero_not_free` (models.dev's NVIDIA 0 / 0, one source alone), and
 * a 0 beside a positive amount for the same slot stays `zero_vs_positive`.
 */
function makerOffersFree(rows: readonly ScreenRow[], live: readonly number[]): Set<number> {
  const offered = (r: ScreenRow) =>
    r.amount === 0 &&
    !r.plan &&
    r.dimension.cache === "none" &&
    r.dimension.tier === "standard" &&
    (r.dimension.direction === "input" || r.dimension.direction === "output");
  const zeros = live.filter((i) => offered(rows[i]!));
  const sourcesBySlot = new Map<string, Set<SourceId>>();
  const makersOwn = new Set<string>();
  for (const i of zeros) {
    const r = rows[i]!;
    const platform = CURRENCY_PLATFORMS[r.seller];
    if (platform) makersOwn.add(`${platform.maker}#${compareKey(r)}`);
    if (r.channel !== "direct") continue;
    const slot = slotKey(r);
    const set = sourcesBySlot.get(slot) ?? new Set<SourceId>();
    set.add(r.source);
    sourcesBySlot.set(slot, set);
  }
  const free = zeros.filter((i) => {
    const r = rows[i]!;
    if (r.channel !== "direct") return false;
    return (sourcesBySlot.get(slotKey(r))?.size ?? 0) >= 2 || makersOwn.has(`${r.seller}#${compareKey(r)}`);
  });
  // The maker's own platform says free where the maker's own offer is: its 0 is that platform's price.
  const freeOffers = new Set(free.map((i) => `${rows[i]!.seller}#${compareKey(rows[i]!)}`));
  const platforms = zeros.filter((i) => {
    const platform = CURRENCY_PLATFORMS[rows[i]!.seller];
    return platform !== undefined && freeOffers.has(`${platform.maker}#${compareKey(rows[i]!)}`);
  });
  return new Set([...free, ...platforms]);
}

function outOfBounds(r: ScreenRow): boolean {
  return outsideBounds(r.amount, r.unit, r.dimension.direction);
}

/** What is billed, without who sells it: model, dimension (seller qualifiers dropped), unit, money. */
function compareKey(r: ScreenRow, overrides: Partial<Dimension> = {}): string {
  const d = { ...r.dimension, ...overrides };
  const q = Object.keys(d.qualifiers)
    .filter((k) => !SELLER_QUALIFIERS.has(k))
    .sort()
    .map((k) => `${k}=${d.qualifiers[k]}`)
    .join("&");
  return [
    r.modelId,
    d.direction,
    d.modality,
    d.tier,
    d.cache,
    d.contextMin,
    d.contextMax ?? "",
    q,
    r.unit,
    r.denomination,
    r.currency,
  ].join("|");
}

/** One listing's context with the direction set to input: pairs a listing's input and output rows. */
function ownPairKey(r: ScreenRow): string {
  return `${r.listing}#${compareKey(r, { direction: "input" })}`;
}

/** The published slot a row votes in (as build-dataset groups them): model, channel, seller, dimension, unit. */
function slotKey(r: ScreenRow): string {
  const q = Object.keys(r.dimension.qualifiers)
    .sort()
    .map((k) => `${k}=${r.dimension.qualifiers[k]}`)
    .join("&");
  const d = r.dimension;
  return [
    r.modelId,
    r.channel,
    r.seller,
    d.direction,
    d.modality,
    d.tier,
    d.cache,
    d.contextMin,
    d.contextMax,
    q,
    r.unit,
  ].join("|");
}

function group(rows: readonly ScreenRow[], indexes: readonly number[], key: (r: ScreenRow) => string | null) {
  const groups = new Map<string, number[]>();
  for (const i of indexes) {
    const k = key(rows[i]!);
    if (k === null) continue;
    const list = groups.get(k);
    if (list) list.push(i);
    else groups.set(k, [i]);
  }
  return groups;
}

function ratio(a: number, b: number): number {
  return a > b ? a / b : b / a;
}

/**
 * `outlier`: an amount {@link OUTLIER_FACTOR}× or more away from every other source's amount for
 * the same price (model, channel, seller, dimension; regions aside — sellers of open weights
 * legitimately differ tenfold, one seller's regions do not), when at least one of those others is itself not that far from everybody (so two
 * sources that disagree tenfold, with no third, quarantine neither). A row whose source shows fresh
 * evidence of a market move ({@link ScreenRow.moved}) is no outlier: DeepSeek cut its cache hits to a
 * tenth and Portkey moved first (T171).
 */
function outliers(rows: readonly ScreenRow[], indexes: readonly number[]): [number, RejectReason][] {
  const out: [number, RejectReason][] = [];
  for (const members of group(rows, indexes, (r) => `${r.channel}#${r.seller}#${compareKey(r)}`).values()) {
    const farFromAll = (i: number) => {
      const others = members.filter((j) => rows[j]!.source !== rows[i]!.source);
      return others.length > 0 && others.every((j) => ratio(rows[i]!.amount, rows[j]!.amount) >= OUTLIER_FACTOR);
    };
    const candidates = new Set(members.filter(farFromAll));
    for (const i of candidates) {
      if (rows[i]!.moved) continue;
      const supported = members.some((j) => rows[j]!.source !== rows[i]!.source && !candidates.has(j));
      if (supported) out.push([i, "outlier"]);
    }
  }
  return out;
}

/**
 * `output_below_input`: a source's text output below its own input for the same model, channel
 * and condition, when every other source that states both says output ≥ input (the output goes,
 * and the input too when the pair is another source's pair swapped); or, when no other source states the pair, an output at
 * least {@link LONE_INVERSION_FACTOR}× below the input (that output goes). Zeros are judged apart.
 */
function inversions(rows: readonly ScreenRow[], indexes: readonly number[]): [number, RejectReason][] {
  // One listing states one input and one output per context (adapters keep the first per dimension).
  const pairs = new Map<string, { source: SourceId; modelKey: string; input?: number; output?: number }>();
  for (const i of indexes) {
    const r = rows[i]!;
    const d = r.dimension;
    if ((d.direction !== "input" && d.direction !== "output") || r.unit !== "mtok") continue;
    if (d.modality !== "text" || d.cache !== "none") continue;
    const key = ownPairKey(r);
    const pair = pairs.get(key) ?? { source: r.source, modelKey: compareKey(r, { direction: "input" }) };
    if (pair[d.direction] === undefined || i < pair[d.direction]!) pair[d.direction] = i;
    pairs.set(key, pair);
  }
  const complete = [...pairs.values()].filter(
    (p): p is { source: SourceId; modelKey: string; input: number; output: number } =>
      p.input !== undefined && p.output !== undefined,
  );
  const byModel = new Map<string, typeof complete>();
  for (const p of complete) byModel.set(p.modelKey, [...(byModel.get(p.modelKey) ?? []), p]);
  const out: [number, RejectReason][] = [];
  for (const p of complete) {
    const input = rows[p.input]!.amount;
    const output = rows[p.output]!.amount;
    if (!(output < input) || amountsAgree(output, input)) continue;
    const others = (byModel.get(p.modelKey) ?? []).filter((o) => o.source !== p.source);
    if (others.length === 0) {
      if (input / output >= LONE_INVERSION_FACTOR) out.push([p.output, "output_below_input"]);
      continue;
    }
    const opposite = others.every((o) => rows[o.output]!.amount >= rows[o.input]!.amount);
    const strictly = others.some((o) => rows[o.output]!.amount > rows[o.input]!.amount);
    if (!opposite || !strictly) continue;
    // A swap (this input is another's output and vice versa) loses both rows; else the output.
    const swapped = others.some(
      (o) => amountsAgree(input, rows[o.output]!.amount) && amountsAgree(output, rows[o.input]!.amount),
    );
    out.push([p.output, "output_below_input"]);
    if (swapped) out.push([p.input, "output_below_input"]);
  }
  return out;
}

/**
 * `modality_mirror`: a row that repeats another modality's amount of the same dimension (the image
 * output rate given as the text output, the text input rate copied into the audio input) while the
 * sources that give its own modality an amount of its own — no such copy — are at least as many as
 * those agreeing with the copy. A copy is the weaker witness, so it loses a tie.
 */
function mirrors(
  rows: readonly ScreenRow[],
  indexes: readonly number[],
  witnesses: readonly number[] = indexes,
): [number, RejectReason][] {
  const out: [number, RejectReason][] = [];
  const judged = new Set(indexes);
  // Rows quarantined for a shifted field still show what they copy (Portkey's realtime audio cache
  // read repeats its text one), but they contradict nobody.
  const groups = group(rows, witnesses, (r) =>
    r.unit === "mtok" ? `${r.channel}#${r.seller}#${compareKey(r, { modality: "text" })}` : null,
  );
  for (const members of groups.values()) {
    if (new Set(members.map((i) => rows[i]!.dimension.modality)).size < 2) continue;
    const mirrorsOther = (i: number) =>
      members.some(
        (j) =>
          rows[j]!.dimension.modality !== rows[i]!.dimension.modality && amountsAgree(rows[j]!.amount, rows[i]!.amount),
      );
    for (const i of members) {
      if (!judged.has(i) || !mirrorsOther(i)) continue;
      const own = members.filter((z) => judged.has(z) && rows[z]!.dimension.modality === rows[i]!.dimension.modality);
      const agreeing = new Set(
        own.filter((z) => amountsAgree(rows[z]!.amount, rows[i]!.amount)).map((z) => rows[z]!.source),
      );
      const contradicting = new Set(
        own
          .filter((z) => !amountsAgree(rows[z]!.amount, rows[i]!.amount) && !mirrorsOther(z))
          .map((z) => rows[z]!.source),
      );
      if (contradicting.size > 0 && agreeing.size <= contradicting.size) out.push([i, "modality_mirror"]);
    }
  }
  return out;
}

/**
 * `shifted_field`: a field that holds its neighbour's amount (T172). A cache read is a discount on
 * its listing's uncached input: one above that input, or equal to the listing's output of the same
 * modality where output and input differ, is a value from the next column — Portkey's gpt-realtime
 * states 16 (its text output) as the text cache read and 64 (its audio output) as the audio cache
 * read, where OpenAI lists 0.40 for both.
 */
function shiftedFields(rows: readonly ScreenRow[], indexes: readonly number[]): [number, RejectReason][] {
  const byListing = group(rows, indexes, (r) =>
    r.unit === "mtok" && r.dimension.direction !== "request" && r.dimension.direction !== "tool"
      ? `${r.listing}#${compareKey(r, { direction: "input", cache: "none" })}`
      : null,
  );
  const out: [number, RejectReason][] = [];
  for (const members of byListing.values()) {
    const find = (direction: Dimension["direction"]) =>
      members.find((i) => rows[i]!.dimension.direction === direction && rows[i]!.dimension.cache === "none");
    const input = find("input");
    const output = find("output");
    for (const i of members) {
      const r = rows[i]!;
      if (r.dimension.direction !== "input" || r.dimension.cache !== "read") continue;
      const inputAmount = input === undefined ? null : rows[input]!.amount;
      const outputAmount = output === undefined ? null : rows[output]!.amount;
      const aboveInput = inputAmount !== null && r.amount > inputAmount && !amountsAgree(r.amount, inputAmount);
      const copiesOutput =
        outputAmount !== null &&
        amountsAgree(r.amount, outputAmount) &&
        (inputAmount === null || !amountsAgree(outputAmount, inputAmount));
      if (aboveInput || copiesOutput) out.push([i, "shifted_field"]);
    }
  }
  return out;
}

/**
 * `currency_table`: a listing of a maker's own foreign-currency platform ({@link CURRENCY_PLATFORMS})
 * whose every text token price the maker's own list (`direct`, any source) also states stands to it
 * within {@link CURRENCY_RATIO}, on at least two dimensions: the platform's CNY amounts in a USD
 * column (models.dev `zhipuai` GLM-5.1 at 6 / 24 where Z.ai lists 1.4 / 4.4) (T172).
 */
function currencyTables(rows: readonly ScreenRow[], indexes: readonly number[]): [number, RejectReason][] {
  const makerList = new Map<string, number[]>();
  for (const i of indexes) {
    const r = rows[i]!;
    if (r.channel !== "direct" || r.unit !== "mtok" || r.dimension.modality !== "text") continue;
    const k = compareKey(r);
    makerList.set(k, [...(makerList.get(k) ?? []), r.amount]);
  }
  const listings = group(rows, indexes, (r) => {
    const platform = CURRENCY_PLATFORMS[r.seller];
    return platform && r.modelId.startsWith(`${platform.maker}/`) && r.currency === "USD" ? `${r.listing}` : null;
  });
  const out: [number, RejectReason][] = [];
  const [low, high] = CURRENCY_RATIO;
  for (const members of listings.values()) {
    const compared = members.filter((i) => rows[i]!.unit === "mtok" && rows[i]!.dimension.modality === "text");
    const ratios = compared.flatMap((i) => {
      const list = makerList.get(compareKey(rows[i]!));
      return list ? [rows[i]!.amount / median(list)] : [];
    });
    if (ratios.length >= 2 && ratios.every((x) => x >= low && x <= high))
      for (const i of members) out.push([i, "currency_table"]);
  }
  return out;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * `bracket_threshold`: a context bracket whose threshold the source takes from a generic field
 * ({@link ScreenRow.thresholdDerived}) while another source states other thresholds for the model —
 * in the same channel and seller, or else in the maker's own list — and none states this one
 * (models.dev's `context_over_200k` "> 200K" on GPT-5.4, whose threshold OpenAI and three other
 * sources state as 272K) (T173).
 */
function derivedBrackets(rows: readonly ScreenRow[], indexes: readonly number[]): [number, RejectReason][] {
  const stated = new Map<string, Set<number>>();
  const add = (key: string, min: number) => stated.set(key, (stated.get(key) ?? new Set()).add(min));
  for (const i of indexes) {
    const r = rows[i]!;
    if (r.dimension.contextMin <= 0 || r.thresholdDerived) continue;
    add(`${r.modelId}#${r.channel}#${r.seller}`, r.dimension.contextMin);
    if (r.channel === "direct") add(`${r.modelId}#direct`, r.dimension.contextMin);
  }
  const out: [number, RejectReason][] = [];
  for (const i of indexes) {
    const r = rows[i]!;
    if (!r.thresholdDerived || r.dimension.contextMin <= 0) continue;
    const thresholds = stated.get(`${r.modelId}#${r.channel}#${r.seller}`) ?? stated.get(`${r.modelId}#direct`);
    if (thresholds && !thresholds.has(r.dimension.contextMin)) out.push([i, "bracket_threshold"]);
  }
  return out;
}

/**
 * `audio_only_text`: a text output price of a speech model — one whose output another listing
 * prices as audio alone — when the row's own listing states no audio output or the same amount as
 * its audio output: the speech price read, or copied, as text (gpt-4o-mini-tts writes audio only;
 * genai-prices gives its 12 as both) (T172).
 */
function audioOnlyText(rows: readonly ScreenRow[], indexes: readonly number[]): [number, RejectReason][] {
  const outputs = new Map<number, Map<string, number>>();
  for (const i of indexes) {
    const r = rows[i]!;
    if (r.dimension.direction !== "output" || r.dimension.cache !== "none" || r.unit !== "mtok") continue;
    if (r.dimension.tier !== "standard" || r.dimension.contextMin > 0) continue;
    const mine = outputs.get(r.listing) ?? new Map<string, number>();
    mine.set(r.dimension.modality, r.amount);
    outputs.set(r.listing, mine);
  }
  const speech = new Set<string>();
  for (const i of indexes) {
    const r = rows[i]!;
    const mine = outputs.get(r.listing);
    if (mine && mine.size === 1 && mine.has("audio")) speech.add(`${r.modelId}#${r.channel}#${r.seller}`);
  }
  const out: [number, RejectReason][] = [];
  for (const i of indexes) {
    const r = rows[i]!;
    if (r.dimension.direction !== "output" || r.dimension.modality !== "text" || r.unit !== "mtok") continue;
    if (!speech.has(`${r.modelId}#${r.channel}#${r.seller}`)) continue;
    const audio = outputs.get(r.listing)?.get("audio");
    if (audio === undefined || amountsAgree(audio, r.amount)) out.push([i, "audio_only_text"]);
  }
  return out;
}

/** Counts of verdicts per source and reason (rejected rows only). */
export function tallyRejections(
  rows: readonly ScreenRow[],
  verdicts: Verdicts,
): Map<SourceId, Partial<Record<RejectReason, number>>> {
  const tally = new Map<SourceId, Partial<Record<RejectReason, number>>>();
  verdicts.forEach((v, i) => {
    if (v === null) return;
    const source = rows[i]!.source;
    const t = tally.get(source) ?? {};
    t[v] = (t[v] ?? 0) + 1;
    tally.set(source, t);
  });
  return tally;
}
