import type { Listing, SourceId } from "../../domain/observation.js";
import type { MakerEvidence } from "./maker.js";
import { coreFor, isDated, isMoving, keyOf, type Spelling } from "./spelling.js";

/**
 * What the steps of identity resolution share (issue 12 T63, issue 25): a listing in flight, where
 * it landed, and the small rules of slugs and signatures. Pure.
 */

/** One listing on its way through resolution, with its spelling and its maker's evidence. */
export interface Item {
  readonly source: SourceId;
  readonly makerSpellings: boolean;
  readonly listing: Listing;
  readonly spelling: Spelling;
  readonly maker: string;
  readonly evidence: MakerEvidence;
  /**
   * The Hugging Face repo a source names for the listing's weights, read as a spelling, when it is
   * the maker's repo: the precise spelling of the model a reseller's short id serves (issue 25 §1).
   */
  readonly weights: Spelling | null;
}

/** Where a listing landed under its maker: the model slug, the key it matched, the qualifiers its spelling became. */
export interface Placement {
  readonly slug: string;
  readonly key: string;
  readonly qualifiers: Readonly<Record<string, string>>;
}

/** A suffix that names a kind of model (`-thinking`, a reasoning effort), not a way of serving it. */
export function namesAKind(form: { qualifiers: Readonly<Record<string, string>> }): boolean {
  return form.qualifiers.variant === "thinking" || form.qualifiers.reasoning_effort !== undefined;
}

/** A model slug from a core spelling read as `key`: the grammar's characters only, no dash at an end. */
export function slugFor(core: string, key: string): string {
  // Fireworks' `p` for a dot is no maker's spelling (`qwen2p5-coder-14b` → `qwen2.5-coder-14b`).
  const written = core.replace(/(\d)p(\d)/g, "$1.$2");
  const spelled = keyOf(written) === key ? written : core;
  return coreFor(spelled.replace(/[^a-z0-9.-]+/g, "-"), key)
    .replace(/-+/g, "-")
    .replace(/^[-.]+|[-.]+$/g, "");
}

/** True when `core` reads as `key` by punctuation alone (no orthography rule rewrote it). */
export function plainly(core: string, key: string): boolean {
  return core.replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "") === key;
}

/** Preference of a key as a model's slug: plain (0), dated snapshot (1), moving alias (2). */
export function rank(key: string): number {
  return isMoving(key) ? 2 : isDated(key) ? 1 : 0;
}

/** The base text input/output amounts of a listing, as one comparable string (empty when none). */
export function signatureOf(l: Listing): string {
  return l.prices
    .filter((p) => p.dimension.cache === "none" && p.dimension.tier === "standard" && p.dimension.contextMin === 0)
    .filter(
      (p) =>
        p.dimension.modality === "text" && (p.dimension.direction === "input" || p.dimension.direction === "output"),
    )
    .map((p) => `${p.dimension.direction}=${p.amount}`)
    .sort()
    .join(",");
}

/**
 * True when two signatures ({@link signatureOf}) do not price a model apart: every direction both
 * price has the same amount (issue 33 §5, T262). A side one of them does not price — a row its
 * adapter rejected, a listing of one side only — is no evidence either way.
 */
export function signaturesAgree(x: string, y: string): boolean {
  if (x === y) return true;
  const sides = (s: string) => new Map(s.split(",").map((kv) => kv.split("=") as [string, string]));
  const a = sides(x);
  const b = sides(y);
  let shared = 0;
  for (const [side, amount] of a) {
    const other = b.get(side);
    if (other === undefined) continue;
    if (other !== amount) return false;
    shared += 1;
  }
  return shared > 0;
}

/** A display name's comparable form: vendor prefix, parentheses and punctuation off, lower case. */
export function normalizeName(name: string): string {
  return name
    .replace(/^[^:]+:\s+/, "")
    .toLowerCase()
    .replace(/\(.*?\)/g, "")
    .replace(/[^a-z0-9]/g, "");
}

/** Byte order. */
export function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** `record` without `key`. */
export function omit(record: Readonly<Record<string, string>>, key: string): Record<string, string> {
  const { [key]: _, ...rest } = record;
  return rest;
}

/** The maker a placed listing's model is under: a mirror's family maker, else the listing's maker. */
export function modelOf(item: Item, mirrors: ReadonlyMap<Item, string>): string {
  return mirrors.get(item) ?? item.maker;
}
