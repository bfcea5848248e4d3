import { isOpenWeightsFamily } from "../maker.js";
import type { Item } from "../placement.js";
import { SIZE_TOKEN } from "../spelling-rules.js";
import { attach, found, learn, mayFound } from "./place.js";
import type { IdentityState } from "./state.js";

/**
 * Pass 2b (T280): listings under the maker's organisation found models on open-weights evidence
 * (the source says open weights or names the weights, or the maker sells nothing itself).
 *
 * A listing that may found a model attaches only to one its spelling names without dropping a
 * snapshot date (`deepseek-r1-0528` is not `deepseek-r1`). The others attach after every founding
 * (`attachTheRest`), so none lands on a base model first. A source's own open-weights evidence
 * founds first; the open-weights family table only then (T183), so the tuned release sources name
 * as open weights (`llama-3.1-8b-instruct`) is the model a host's base spelling (`llama-3.1-8b`)
 * attaches to. A spelling without sizes founds last (see {@link foundOrg}).
 */
export function foundOrgModels(state: IdentityState): void {
  const unsized: Item[] = [];
  const org = state.items.filter((i) => i.evidence === "org");
  for (const item of org) if (mayFound(state, item)) foundOrg(state, item, unsized);
  for (const item of org)
    if (!mayFound(state, item) && isOpenWeightsFamily(item.maker, item.spelling.key) && state.ownMakers.has(item.maker))
      foundOrg(state, item, unsized);
  for (const item of unsized)
    state.placements.set(item, learn(state, item, attach(state, item, item.maker, false, true) ?? found(state, item)));
}

/**
 * Attaches an org listing (learning its spelling) or founds its model. A spelling without sizes
 * (`meta-llama/llama-4-maverick`) founds only after the sized ones did: it may be the maker's one
 * model of that name (the sizeless level, issue 25 §1), so it is put on `unsized`.
 */
function foundOrg(state: IdentityState, item: Item, unsized: Item[]): void {
  const placed = attach(state, item, item.maker, false);
  if (placed) state.placements.set(item, learn(state, item, placed));
  else if (!item.spelling.key.split("-").some((t) => SIZE_TOKEN.test(t))) unsized.push(item);
  else state.placements.set(item, found(state, item));
}
