import { foundOwn } from "../found-own.js";
import { FAMILY_IDS } from "../overrides.js";
import { slugFor } from "../placement.js";
import { keyOf } from "../spelling.js";
import { catalogueOf, type IdentityState, miss, namesFamily } from "./state.js";

/**
 * Pass 2a (T280): the makers' own listings found models (`found-own.ts`: dated snapshots each a
 * model; undated aliases join the snapshot whose prices they repeat). Fills `ownMakers` and
 * `heldBack`: a moving alias whose last snapshot is not listed in this run is counted unmatched,
 * never moved back (T184).
 */
export function foundOwnModels(state: IdentityState): void {
  const own = state.items.filter((i) => i.evidence === "own");
  for (const i of own) state.ownMakers.add(i.maker);
  const pointers = pointersOf(state);
  for (const maker of state.ownMakers) {
    const mine = own.filter((i) => i.maker === maker);
    const held = foundOwn(
      catalogueOf(state, maker),
      mine,
      state.placements,
      namesFamily(maker),
      pointers.get(maker),
      FAMILY_IDS[maker],
    );
    for (const item of mine)
      if (!state.placements.has(item) && held.has(item.spelling.key)) {
        state.heldBack.add(item);
        miss(
          state,
          item.source,
          item.listing,
          "moving alias: the snapshot it pointed at is not listed in this run, and it never moves back",
          `${maker}/${slugFor(held.get(item.spelling.key)!, held.get(item.spelling.key)!)}`,
        );
      }
  }
}

/** maker → moving alias key → the key of the model it pointed at in the previous version (memory, T184). */
function pointersOf(state: IdentityState): Map<string, Map<string, string>> {
  const pointers = new Map<string, Map<string, string>>();
  for (const [alias, id] of state.memory.movingAliases ?? []) {
    const maker = alias.slice(0, alias.indexOf("/"));
    if (!id.startsWith(`${maker}/`)) continue;
    const map = pointers.get(maker) ?? new Map<string, string>();
    map.set(alias.slice(maker.length + 1), keyOf(id.slice(maker.length + 1)));
    pointers.set(maker, map);
  }
  return pointers;
}
