import type { Dimension, Modality } from "../domain/dimension.js";
import type { Unit } from "../domain/unit.js";

// The bounds a price's unit and amount must keep (issue 13 §3, T73): the row-local checks of the
// plausibility guards (`plausibility.ts`), which announced amounts pass too (issue 47 §1, T422).

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

/**
 * True when a positive `amount` (display units) lies outside the bounds of its unit and direction
 * ({@link BOUNDS}, {@link DIRECTION_BOUNDS}): the check every price row passes, and every announced
 * amount too (issue 47 §1, T422).
 */
export function outsideBounds(amount: number, unit: Unit, direction: Dimension["direction"]): boolean {
  const [min, max] = DIRECTION_BOUNDS[`${unit}/${direction}`] ?? BOUNDS[unit];
  return amount < min || amount > max;
}
