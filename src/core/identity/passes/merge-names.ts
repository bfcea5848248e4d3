import { mergeByName } from "../merge-by-name.js";
import type { IdentityState } from "./state.js";

/**
 * Pass 5 (T280): models of one maker with one display name whose keys agree but for order or loose
 * tokens merge (`merge-by-name.ts`); fills `renames` (old id → surviving id).
 */
export function mergeNames(state: IdentityState): void {
  for (const [from, to] of mergeByName(state.placements, state.mirrors, state.catalogues)) state.renames.set(from, to);
}
