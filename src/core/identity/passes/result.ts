import type { SourceId } from "../../../domain/observation.js";
import { hostedMaker } from "../maker.js";
import type { IdentityResult } from "../resolve.js";
import { keyOf, parseSpelling, strippedForms } from "../spelling.js";
import { SNAPSHOT_DATE } from "../spelling-rules.js";
import { finalId, type IdentityState, namesFamily } from "./state.js";

/**
 * The result of identity resolution read off the state the passes filled (T280): resolved and
 * unmatched listings, the aliases each model answers to (D1), the unmatched count per source, and
 * the lookup of earlier runs' ids (T66).
 */
export function resultOf(state: IdentityState): IdentityResult {
  const unresolved = new Map<SourceId, number>();
  for (const u of state.unmatched) unresolved.set(u.source, (unresolved.get(u.source) ?? 0) + 1);
  return {
    resolved: state.resolved,
    aliases: aliasesOf(state),
    unresolved,
    unmatched: state.unmatched,
    publisherNames: state.publisherNames,
    aliasStatements: state.aliasStatements,
    lookup: (maker, slug) => lookup(state, maker, slug),
  };
}

/** model id → its alias set, sorted, without its own slug and without other models' slugs or their keys. */
function aliasesOf(state: IdentityState): Map<string, readonly string[]> {
  const aliases = new Map<string, readonly string[]>();
  for (const [id, set] of state.aliasSets) {
    const maker = id.slice(0, id.indexOf("/"));
    const slug = id.slice(maker.length + 1);
    const others = state.slugsByMaker.get(maker) ?? new Set<string>();
    const otherKeys = new Set([...others].filter((s) => s !== slug).map(keyOf));
    aliases.set(
      id,
      [...set]
        .filter((a) => {
          const key = parseSpelling(a).key;
          return a !== slug && !others.has(a) && !otherKeys.has(key);
        })
        .sort(),
    );
  }
  return aliases;
}

/** The model id an earlier run's `<maker>/<slug>` names now, or null (`IdentityResult.lookup`, T66). */
function lookup(state: IdentityState, maker: string, slug: string): string | null {
  // An earlier version's id under a host names its maker's model now (`togethercomputer/llama-2-7b`
  // is meta/llama-2-7b, T183).
  const owner = hostedMaker(maker, slug) ?? maker;
  const catalogue = state.catalogues.get(owner);
  // An earlier version's slug may carry a decoration the grammar now reads off (`ft-gpt-4o`, T181).
  const hit =
    catalogue?.find(keyOf(slug)) ??
    strippedForms(keyOf(slug), namesFamily(owner))
      .map((f) => catalogue?.find(f.key))
      .find((x) => x !== undefined);
  // A dated id of an earlier run never names another snapshot now (issue 48: Mistral's
  // `mistral-small-2501`, gone from its docs in 2026-01, was found as Small 3.2 through the family's
  // base key; T66, T246): it rests as a tombstone until a source lists that snapshot again.
  if (hit === undefined || datedOtherwise(keyOf(slug), hit)) return null;
  return finalId(state, `${owner}/${hit}`);
}

/**
 * True when `key` names a snapshot by its date and `slug` is itself a snapshot of another date
 * (`mistral-small-2501` is never `mistral-small-2506`, T66). An undated slug (an alias model holding
 * dated spellings, `gpt-3.5-turbo`) is not judged here.
 */
function datedOtherwise(key: string, slug: string): boolean {
  const date = SNAPSHOT_DATE.exec(key)?.[1];
  const own = SNAPSHOT_DATE.exec(slug)?.[1];
  return date !== undefined && own !== undefined && own !== date;
}
