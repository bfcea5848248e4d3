import type { Dataset } from "../domain/dataset.js";

/**
 * The previous dataset version as if its renamed ids had always been the surviving ones (issue 12
 * §11, T66): change detection then compares a merged model with its own past, so merging spellings
 * is never a market change. Pure.
 */
export function withRenames(previous: Dataset, renames: ReadonlyMap<string, string>): Dataset {
  if (renames.size === 0) return previous;
  const follow = (id: string) => renames.get(id) ?? id;
  const models = new Map<string, Dataset["models"][number]>();
  for (const m of previous.models) {
    const id = follow(m.id);
    if (!models.has(id)) models.set(id, { ...m, id });
  }
  return {
    ...previous,
    models: [...models.values()],
    // A merged-away model's prices stand in only where the survivor had none, with no evidence: a
    // difference against them is reconciliation (`reference_changed`), never a market move.
    prices: mergedPrices(previous, follow, renames),
  };
}

function mergedPrices(
  previous: Dataset,
  follow: (id: string) => string,
  renames: ReadonlyMap<string, string>,
): Dataset["prices"] {
  const own = new Set(
    previous.prices
      .filter((p) => !renames.has(p.modelId))
      .map((p) => `${p.modelId}|${p.channel}|${p.seller}|${p.label}`),
  );
  const out: Dataset["prices"][number][] = [];
  for (const p of previous.prices) {
    if (!renames.has(p.modelId)) {
      out.push(p);
      continue;
    }
    const moved = { ...p, modelId: follow(p.modelId), observations: [] };
    const key = `${moved.modelId}|${moved.channel}|${moved.seller}|${moved.label}`;
    if (own.has(key)) continue;
    own.add(key);
    out.push(moved);
  }
  return out;
}

/** Carries each renamed id's last history amounts over to the surviving id (D17: no repeated point). */
export function renameLastPoints(lastPoints: Map<string, number>, renames: ReadonlyMap<string, string>): void {
  if (renames.size === 0) return;
  for (const [key, amount] of [...lastPoints]) {
    const bar = key.indexOf("|");
    const target = renames.get(key.slice(0, bar));
    if (!target) continue;
    const moved = `${target}${key.slice(bar)}`;
    if (!lastPoints.has(moved)) lastPoints.set(moved, amount);
  }
}
