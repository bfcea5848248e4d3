import { nearestModels } from "./endpoints/search.js";
import { type CatalogueError, notFound } from "./errors.js";
import { matchModels, modelFilter, modelsOf } from "./model-query.js";
import type { CatalogueView } from "./view.js";

/** How many ids an unknown model's 404 suggests. */
const SUGGESTIONS = 5;

/**
 * The 404 of a model id the catalogue does not hold (issue 49 §3, T484): how new the data is (the
 * dataset version, the newest evidence of any source, and the day asked with `at`), so a model
 * released since reads as "not listed yet", and the nearest ids — by edit distance over slug and
 * name as search's fuzzy suggestions (T206), the maker's own first, else search's ranking of its words.
 */
export function unknownModel(view: CatalogueView, requested: string, at?: string): CatalogueError {
  const slash = requested.indexOf("/");
  const provider = slash > 0 ? requested.slice(0, slash).toLowerCase() : null;
  const name = slash > 0 ? requested.slice(slash + 1) : requested;
  const models = modelsOf(view);
  let near = nearestModels(models, name, SUGGESTIONS * 4).map((e) => e.model.id);
  if (near.length === 0)
    near = matchModels(view, modelFilter(name.replace(/[-_.]/g, " "), [], undefined))
      .slice(0, SUGGESTIONS * 4)
      .map((r) => r.entry.model.id);
  const own = provider === null ? [] : near.filter((id) => id.startsWith(`${provider}/`));
  const ids = [...new Set([...own, ...near])].slice(0, SUGGESTIONS);
  const version = view.meta.datasetVersion;
  const newest = view.meta.freshness.newestEvidenceAt;
  const asOf = at ? `on ${at} (dataset ${version})` : `in dataset ${version}, its newest source evidence of ${newest}`;
  return notFound(
    `unknown model ${requested}: no model or alias of that id ${asOf}; a model released since is not listed yet. ` +
      (ids.length > 0 ? `Nearest ids: ${ids.join(", ")}` : "No id is near it: search with GET /models/search?q="),
  );
}
