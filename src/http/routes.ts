import { changesFeed, RSS_CONTENT_TYPE } from "../catalogue/changes-feed.js";
import { compareModels } from "../catalogue/compare-models.js";
import { getMeta } from "../catalogue/get-meta.js";
import { getModel } from "../catalogue/get-model.js";
import { getModelHistory } from "../catalogue/get-model-history.js";
import { listChanges } from "../catalogue/list-changes.js";
import { listModels } from "../catalogue/list-models.js";
import { listProviders } from "../catalogue/list-providers.js";
import { listRates } from "../catalogue/list-rates.js";
import { listSources } from "../catalogue/list-sources.js";
import type { RawQuery } from "../catalogue/params.js";
import { searchModels } from "../catalogue/search-models.js";
import type { CatalogueView } from "../catalogue/view.js";
import { MAX_AGE } from "./cache-control.js";

/** Base path of API v1. */
export const API_PREFIX = "/api/v1";

/** Request facts a verb may need beyond the query: the absolute origin for links (D19). */
export interface RouteContext {
  /** `PUBLIC_BASE_URL` when set, else `<protocol>://<host>` of the request. */
  readonly baseUrl: string;
}

/**
 * One GET endpoint: its path (Fastify syntax), max-age (D22) and the catalogue verb it calls.
 * A verb returns a JSON-able envelope, or a string for non-JSON bodies (`contentType` says which).
 */
export interface RouteSpec {
  readonly path: string;
  readonly maxAge: number;
  readonly contentType?: string;
  /** True when the body embeds the request's origin (so responses are cached per host). */
  readonly usesBaseUrl?: boolean;
  readonly handle: (
    view: CatalogueView,
    query: RawQuery,
    params: Readonly<Record<string, string>>,
    context: RouteContext,
  ) => unknown;
}

/** Every endpoint of api-v1.md; HTTP and MCP call the same verbs. */
export const ROUTES: readonly RouteSpec[] = [
  { path: "/meta", maxAge: MAX_AGE.meta, handle: (v, q) => getMeta(v, q) },
  { path: "/providers", maxAge: MAX_AGE.providers, handle: (v, q) => listProviders(v, q) },
  { path: "/models", maxAge: MAX_AGE.models, handle: (v, q) => listModels(v, q) },
  { path: "/models/search", maxAge: MAX_AGE.search, handle: (v, q) => searchModels(v, q) },
  {
    path: "/models/:provider/:model",
    maxAge: MAX_AGE.model,
    handle: (v, q, p) => getModel(v, p.provider ?? "", p.model ?? "", q),
  },
  { path: "/compare", maxAge: MAX_AGE.compare, handle: (v, q) => compareModels(v, q) },
  { path: "/sources", maxAge: MAX_AGE.sources, handle: (v, q) => listSources(v, q) },
  { path: "/rates", maxAge: MAX_AGE.rates, handle: (v, q) => listRates(v, q) },
  {
    path: "/models/:provider/:model/history",
    maxAge: MAX_AGE.history,
    handle: (v, q, p) => getModelHistory(v, p.provider ?? "", p.model ?? "", q),
  },
  { path: "/changes", maxAge: MAX_AGE.changes, handle: (v, q) => listChanges(v, q) },
  {
    path: "/changes.xml",
    maxAge: MAX_AGE.changes,
    contentType: RSS_CONTENT_TYPE,
    usesBaseUrl: true,
    handle: (v, q, _p, context) => changesFeed(v, q, context.baseUrl),
  },
];
