import type { Direction, Modality } from "../../domain/dimension.js";
import { lookupTable } from "../../domain/lookup-table.js";
import { type FieldRule, rule } from "../field-map.js";

/**
 * The field map of Mistral's model files (T70, issue 48): a meter's `denominator` → unit, factor and
 * modality, by the direction of the list it is in. USD. `/1000 Pages` is per page (×0.001);
 * `/1000 Annotated Pages` (OCR annotations) has no dimension of ours and is counted.
 */
export const DENOMINATORS: Readonly<
  Record<string, { readonly unit: FieldRule["unit"]; readonly factor: string; readonly modality: Modality }>
> = lookupTable({
  "/M Tokens": { unit: "mtok", factor: "1", modality: "text" },
  "/M Chars": { unit: "mchars", factor: "1", modality: "text" },
  "/Min": { unit: "minute", factor: "1", modality: "audio" },
  "/1000 Pages": { unit: "page", factor: "0.001", modality: "text" },
});

/** The rule of a meter, or null when its denominator is not mapped. */
export function meterRule(direction: Direction, denominator: string): FieldRule | null {
  const d = DENOMINATORS[denominator.trim()];
  return d ? rule(direction, d.unit, d.factor, { modality: d.modality }) : null;
}

/** `status` → the listing's status hint; files marked `Retired` are not in the docs' copies. */
export const STATUS = { Active: "active", Deprecated: "deprecated" } as const;
