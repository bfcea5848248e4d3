import { z } from "zod";

/**
 * An integer environment variable (a decimal string) with its bounds, default and help text
 * (`description`, shown by `tariff --help` with the default in brackets).
 */
export function envInteger(bounds: { min: number; max?: number; fallback: number }, description: string) {
  const int = z.coerce.number().int().min(bounds.min);
  return (bounds.max === undefined ? int : int.max(bounds.max)).default(bounds.fallback).meta({ description });
}
