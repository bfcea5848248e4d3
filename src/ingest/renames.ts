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
    prices: previous.prices.map((p) => (renames.has(p.modelId) ? { ...p, modelId: follow(p.modelId) } : p)),
  };
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
