import { callEndpoint, type EndpointServices, NO_SERVICES } from "../catalogue/call.js";
import type { Endpoint } from "../catalogue/endpoint.js";
import { ENDPOINTS } from "../catalogue/endpoints/index.js";
import type { Envelope } from "../catalogue/schemas.js";
import type { CatalogueView } from "../catalogue/view.js";
import { lookupTable } from "../domain/lookup-table.js";
import {
  renderChanges,
  renderCompare,
  renderCost,
  renderHistory,
  renderMeta,
  renderModel,
  renderModels,
  renderProviders,
  renderRates,
  renderSources,
  renderSuggestions,
} from "./render.js";
import { inputFromArgs, pathValues } from "./tool-args.js";

/**
 * The assistant connector's tools (issue 8): one per endpoint descriptor that names a tool (T162),
 * running the same descriptor as the HTTP route, so data and validation are the HTTP ones.
 */
export interface ToolSpec {
  readonly name: string;
  readonly title: string;
  /** Written for a model choosing a tool: what it answers, units, when to prefer another tool. */
  readonly description: string;
  /** The endpoint the tool mirrors. */
  readonly endpoint: Endpoint;
  /**
   * Answers the endpoint on tool arguments through `callEndpoint` (T275), as the HTTP route does.
   * @throws CatalogueError exactly as for HTTP; StoreUnavailableError when an `at`'s index cannot be read (T199)
   */
  run(view: CatalogueView, args: Readonly<Record<string, unknown>>, services?: EndpointServices): Promise<ToolOutput>;
}

/** The endpoint's body (the HTTP JSON body) and its short text rendering. */
export interface ToolOutput {
  readonly body: Envelope<unknown>;
  readonly text: string;
}

/**
 * Short text renderings of the tools' bodies, by tool name. A tool without one answers its body
 * as compact JSON text (the structured content is the body either way).
 */
// biome-ignore lint/suspicious/noExplicitAny: each renderer takes its own endpoint's body.
const RENDERERS: Readonly<Record<string, (body: any) => string>> = lookupTable({
  get_meta: renderMeta,
  list_providers: renderProviders,
  list_models: renderModels,
  search_models: renderSuggestions,
  get_model: renderModel,
  get_model_history: renderHistory,
  compare_models: renderCompare,
  list_changes: renderChanges,
  list_sources: renderSources,
  list_rates: renderRates,
  estimate_cost: renderCost,
});

/** The tool of one endpoint descriptor. */
export function toolOf(endpoint: Endpoint & { tool: { description: string } }): ToolSpec {
  const render = RENDERERS[endpoint.name] ?? ((body: unknown) => JSON.stringify(body));
  return {
    name: endpoint.name,
    title: endpoint.summary,
    description: endpoint.tool.description,
    endpoint,
    async run(view, args, services = NO_SERVICES) {
      const input = inputFromArgs(endpoint.input, args);
      const { body } = await callEndpoint(endpoint, view, { input, path: pathValues(args), baseUrl: "" }, services);
      return { body: body as Envelope<unknown>, text: render(body) };
    },
  };
}

/** Every tool, in the descriptors' order. */
export const TOOLS: readonly ToolSpec[] = ENDPOINTS.filter(
  (e): e is Endpoint & { tool: { description: string } } => e.tool !== null,
).map(toolOf);
