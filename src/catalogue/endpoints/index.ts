import type { Endpoint } from "../endpoint.js";
import { changesEndpoint } from "./changes.js";
import { changesFeedEndpoint } from "./changes-feed.js";
import { compareEndpoint } from "./compare.js";
import { costEndpoint } from "./cost.js";
import { genaiPricesExportEndpoint, litellmExportEndpoint, modelsDevExportEndpoint } from "./exports.js";
import { historyEndpoint } from "./history.js";
import { metaEndpoint } from "./meta.js";
import { modelEndpoint } from "./model.js";
import { modelsEndpoint } from "./models.js";
import { providersEndpoint } from "./providers.js";
import { ratesEndpoint } from "./rates.js";
import { searchEndpoint } from "./search.js";
import { sourcesEndpoint } from "./sources.js";

/**
 * Every endpoint of API v1 (api-v1.md), each described once (T162). HTTP routes, Cache-Control,
 * the OpenAPI document and the MCP tools are all built from this list; order is the tools' order.
 */
export const ENDPOINTS: readonly Endpoint[] = [
  metaEndpoint,
  providersEndpoint,
  modelsEndpoint,
  searchEndpoint,
  modelEndpoint,
  historyEndpoint,
  compareEndpoint,
  changesEndpoint,
  changesFeedEndpoint,
  sourcesEndpoint,
  ratesEndpoint,
  costEndpoint,
  // issue 29: the consumers' price files (no MCP tools).
  litellmExportEndpoint,
  modelsDevExportEndpoint,
  genaiPricesExportEndpoint,
];
