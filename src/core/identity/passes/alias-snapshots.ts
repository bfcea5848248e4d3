import { amountsAgree } from "../../../domain/amount.js";
import { priceKey } from "../../../domain/dataset.js";
import { dimensionKey } from "../../../domain/dimension.js";
import { SNAPSHOT_ALIASES } from "../overrides.js";
import { normalizeName, signatureOf } from "../placement.js";
import type { ResolvedListing } from "../resolve.js";
import { keyOf } from "../spelling.js";
import type { IdentityState } from "./state.js";

/**
 * Snapshots behind API aliases (issue 36 §5, T327). A reviewed API alias (`SNAPSHOT_ALIASES`:
 * DeepSeek's `deepseek-chat`, `deepseek-reasoner`) serves one snapshot at a time; where a source
 * says which, at the maker's price, the alias's direct prices are that snapshot's too, with the
 * alias's listings as their evidence. Pure.
 */

/** A listing of an alias that names the snapshot it serves, and the text prices it states (`signatureOf`). */
export interface AliasStatement {
  readonly snapshot: string;
  readonly source: string;
  readonly signature: string;
}

/**
 * Pass 7 (T327): the statements of which snapshot each reviewed alias serves in this run. A
 * statement is a listing placed on the alias whose display name (`normalizeName`) is the name of
 * exactly one other model of the maker, no alias itself, and no name the maker's own listings give
 * the alias (zenmux's `deepseek/deepseek-chat` "DeepSeek-V3.2 (Non-thinking Mode)", models.dev).
 * Whether it speaks of today's alias is for its prices to say ({@link servedSnapshots}). Fills
 * `aliasStatements`.
 */
export function findAliasStatements(state: IdentityState): void {
  const names = modelsByName(state.resolved);
  const byAlias = new Map<string, ResolvedListing[]>();
  for (const r of state.resolved)
    if (isSnapshotAlias(r.maker, r.modelId)) byAlias.set(r.modelId, [...(byAlias.get(r.modelId) ?? []), r]);
  for (const [alias, listings] of byAlias) {
    const ownNames = new Set(
      listings.flatMap((r) =>
        r.channel === "direct" && r.listing.seller === r.maker && r.listing.name ? [normalizeName(r.listing.name)] : [],
      ),
    );
    const statements: AliasStatement[] = [];
    for (const r of listings) {
      const name = r.listing.name ? normalizeName(r.listing.name) : "";
      const signature = signatureOf(r.listing);
      if (name.length < 3 || ownNames.has(name) || signature === "") continue;
      const targets = [...(names.get(name) ?? [])].filter(
        (id) => id !== alias && id.startsWith(`${r.maker}/`) && !isSnapshotAlias(r.maker, id),
      );
      if (targets.length === 1) statements.push({ snapshot: targets[0]!, source: r.source, signature });
    }
    if (statements.length > 0) state.aliasStatements.set(alias, statements);
  }
}

/** True when `modelId` of `maker` is a reviewed API alias of its snapshots (`SNAPSHOT_ALIASES`). */
export function isSnapshotAlias(maker: string, modelId: string): boolean {
  const aliases = SNAPSHOT_ALIASES[maker];
  return aliases !== undefined && Object.hasOwn(aliases, keyOf(modelId.slice(maker.length + 1)));
}

/** Normalized display name → the model ids listings of that name landed on. */
function modelsByName(resolved: readonly ResolvedListing[]): Map<string, Set<string>> {
  const names = new Map<string, Set<string>>();
  for (const r of resolved) {
    if (!r.listing.name) continue;
    const name = normalizeName(r.listing.name);
    names.set(name, (names.get(name) ?? new Set<string>()).add(r.modelId));
  }
  return names;
}

/** The base text price of a published row set: what `/rates` reads (direct, standard, no cache, no qualifiers). */
interface BasePrice {
  readonly modelId: string;
  readonly channel: string;
  readonly direction: string;
  readonly modality: string;
  readonly tier: string;
  readonly cache: string;
  readonly contextMin: number;
  readonly qualifiers: Readonly<Record<string, string>>;
  readonly amount: number;
}

/**
 * The snapshot each alias serves in this run (T327): the one its statements name at the maker's
 * price for the alias, as reconciled (`prices`: its direct text input and output; a reseller's stale
 * name at a stale price, or OpenRouter's "DeepSeek V3" at a host's price, says nothing of today's
 * alias). Statements naming two snapshots at that price cancel.
 * @returns alias model id → snapshot model id
 */
export function servedSnapshots(
  statements: ReadonlyMap<string, readonly AliasStatement[]>,
  prices: readonly BasePrice[],
): Map<string, string> {
  const served = new Map<string, string>();
  for (const [alias, said] of statements) {
    const base = (direction: string) =>
      prices.find(
        (p) =>
          p.modelId === alias &&
          p.channel === "direct" &&
          p.direction === direction &&
          p.modality === "text" &&
          p.tier === "standard" &&
          p.cache === "none" &&
          p.contextMin === 0 &&
          Object.keys(p.qualifiers).length === 0,
      )?.amount;
    const input = base("input");
    const output = base("output");
    if (input === undefined || output === undefined) continue;
    const named = new Set(said.filter((s) => statesPrice(s.signature, input, output)).map((s) => s.snapshot));
    if (named.size === 1) served.set(alias, [...named][0]!);
  }
  return served;
}

/** True when a listing's text signature (`input=…,output=…`) states exactly this input and output. */
function statesPrice(signature: string, input: number, output: number): boolean {
  const sides = signature.split(",").map((kv) => kv.split("=") as [string, string]);
  const agree = (side: string, amount: number) => {
    const stated = sides.filter(([s]) => s === side).map(([, a]) => Number(a));
    return stated.length === 1 && amountsAgree(stated[0]!, amount);
  };
  return agree("input", input) && agree("output", output);
}

/**
 * The listings the aliases' snapshots gain (T327): each direct listing of an alias that serves a
 * snapshot in this run, placed on that snapshot as well, with the prices that agree with the
 * alias's reconciled price (`published`: price key → amount, `priceKey`): the snapshot's price in
 * this period is the alias's, not a stale statement the alias's reconciliation outvoted. Its
 * spelling (the alias) stays its evidence, and it is never the snapshot's canonical spelling (a
 * source's own listing of the snapshot keeps its vote). For reconciliation only: the snapshot's
 * metadata stays its own.
 */
export function behindAliases(
  listings: readonly ResolvedListing[],
  snapshotOf: ReadonlyMap<string, string>,
  published: ReadonlyMap<string, number>,
): ResolvedListing[] {
  return listings.flatMap((r) => {
    const snapshot = snapshotOf.get(r.modelId);
    if (!snapshot || r.channel !== "direct") return [];
    const prices = r.listing.prices.filter((p) => {
      const dimension = { ...p.dimension, qualifiers: { ...p.dimension.qualifiers, ...r.qualifiers } };
      const key = priceKey(
        { modelId: r.modelId, channel: r.channel, seller: r.seller, unit: p.unit, ...dimension },
        dimensionKey(dimension),
      );
      const amount = published.get(key);
      return amount !== undefined && amountsAgree(amount, p.amount);
    });
    return prices.length === 0
      ? []
      : [{ ...r, listing: { ...r.listing, prices }, modelId: snapshot, canonicalSpelling: false }];
  });
}
