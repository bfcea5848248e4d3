import { amountsAgree } from "../domain/amount.js";
import type { Channel } from "../domain/channel.js";
import type { Dimension, Modality } from "../domain/dimension.js";
import type { SourceId } from "../domain/observation.js";
import type { Denomination, Unit } from "../domain/unit.js";

/**
 * Plausibility guards (issue 13 §3–4, T73/T74). Pure: one source's price row is judged against
 * bounds for its unit and against what the other sources say of the same model; a row that fails
 * is quarantined — not published, counted per source and reason in `/sources`.
 *
 * Every check reads the same input set, so the verdicts do not depend on row order. Row-local
 * checks (bounds, unit and modality, zero) judge every row; the cross-source checks judge the rows
 * of sources that ran now (see {@link ScreenRow.fresh}).
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
   * False for a row carried from a source's last good run (T11). Carried rows witness for the
   * cross-source checks but are not themselves quarantined by them: they are older statements
   * (a market move since is no unit slip) that reconciliation already weighs at half and marks stale.
   */
  readonly fresh: boolean;
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
] as const;
export type RejectReason = (typeof REJECT_REASONS)[number];

/**
 * Inclusive bounds of a positive amount per unit (display units, USD or any currency). Chosen from
 * the recorded payloads: the dearest real token price is o1-pro's output at 600 USD per 1M tokens,
 * the cheapest real ones are cache reads near 0.001; a per-second price of Whisper on Groq is
 * 0.0000111 USD (0.04 USD an hour). Anything outside is a unit slip (per token read as per 1K,
 * per image read as per token), never a price.
 */
export const BOUNDS: Readonly<Record<Unit, readonly [number, number]>> = {
  mtok: [0.001, 1000],
  image: [0.00001, 10],
  request: [0.00001, 10],
  krequests: [0.001, 1000],
  kcalls: [0.001, 1000],
  second: [0.000001, 10],
  minute: [0.0001, 100],
  hour: [0.01, 1000],
  mchars: [0.01, 1000],
  page: [0.00001, 10],
};

/**
 * Tighter bounds for one direction of a unit: generating an image costs at least a tenth of a cent
 * everywhere (Titan's image embeddings, 0.00006 USD per input image, are why input stays lower).
 */
export const DIRECTION_BOUNDS: Readonly<
  Partial<Record<`${Unit}/${Dimension["direction"]}`, readonly [number, number]>>
> = {
  "image/output": [0.001, 10],
};

/**
 * Units a price of each modality may be in. Per-call fees (`request`, `tool`) are modality `text`
 * by convention and use the call units.
 */
export const MODALITY_UNITS: Readonly<Record<Modality, readonly Unit[]>> = {
  text: ["mtok", "mchars", "page", "request", "krequests", "kcalls"],
  image: ["mtok", "image"],
  audio: ["mtok", "second", "minute", "hour"],
  video: ["mtok", "second"],
};

/** Two amounts this far apart (either way) are a unit slip, not a price difference. */
export const OUTLIER_FACTOR = 10;
/** With no other source, an output at least this many times below its input is not a price. */
export const LONE_INVERSION_FACTOR = 5;

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
  for (const i of live) {
    const r = rows[i]!;
    if (r.amount !== 0 || r.plan) continue;
    const unbilledOutput =
      r.dimension.direction === "output" && r.dimension.cache === "none" && billedInputs.has(ownPairKey(r));
    if (!r.saysFree && !unbilledOutput) reject(i, "zero_not_free");
    else if (positiveSlots.has(slotKey(r))) reject(i, "zero_vs_positive");
  }

  const positive = live.filter((i) => rows[i]!.amount > 0 && !rows[i]!.plan);
  const cross: [number, RejectReason][] = [
    ...inversions(rows, positive),
    ...mirrors(rows, positive),
    ...outliers(rows, positive),
  ];
  for (const [i, reason] of cross) if (rows[i]!.fresh) reject(i, reason);
  return verdicts;
}

function outOfBounds(r: ScreenRow): boolean {
  const [min, max] = DIRECTION_BOUNDS[`${r.unit}/${r.dimension.direction}`] ?? BOUNDS[r.unit];
  return r.amount < min || r.amount > max;
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
 * sources that disagree tenfold, with no third, quarantine neither).
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
function mirrors(rows: readonly ScreenRow[], indexes: readonly number[]): [number, RejectReason][] {
  const out: [number, RejectReason][] = [];
  const groups = group(rows, indexes, (r) =>
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
      if (!mirrorsOther(i)) continue;
      const own = members.filter((z) => rows[z]!.dimension.modality === rows[i]!.dimension.modality);
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
