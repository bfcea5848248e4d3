import type { z } from "zod";
import type { UpstreamFilesOf } from "../exports/types.js";
import type { Endpoint, PathValues } from "./endpoint.js";
import { isSettledAt, PAST_MAX_AGE, publishedState, stateMeta } from "./point-in-time.js";
import type { CatalogueView } from "./view.js";

/**
 * What {@link callEndpoint} reads besides the view, built once per process in `src/cli/`
 * (issue 34 §3, T275): every transport (HTTP, MCP) and command (`tariff export`, `tariff cost`) of
 * a process hands the same object to every call.
 */
export interface EndpointServices {
  /**
   * Loads what `view.timeline(at)` reads for an `at=` question. Default: the spans of the version
   * in force that day ({@link CatalogueView.loadTimeline} with `at`, T165, T199: a server). `tariff
   * cost` asks about many days and loads every version's at once (`loadTimeline()`).
   * @throws StoreUnavailableError while the store cannot be read
   */
  readonly pointInTime?: (view: CatalogueView, at: string) => Promise<void>;
  /** The recorded upstream files of a dataset version, for the endpoints that read them (the price-file exports, T210); absent: none. */
  readonly upstream?: UpstreamFilesOf;
}

/** No services: the view's own point-in-time reads, no recorded upstream file. */
export const NO_SERVICES: EndpointServices = {};

/** One call of an endpoint: its typed input (validated at the transport's edge), path values and link origin. */
export interface EndpointCall<I extends z.ZodObject> {
  readonly input: z.output<I>;
  /** The path parameters (`/models/{provider}/{model}`); empty strings where the path has none. */
  readonly path?: PathValues;
  /** Absolute origin of links (D19, T90); "" where the caller embeds none. */
  readonly baseUrl: string;
}

/** The 200 answer of a call, with what a transport says about it besides the body. */
export interface EndpointAnswer<O extends z.ZodType = z.ZodType> {
  readonly body: z.output<O>;
  /** The dataset version answered: the view's, or with `at` the version in force then (T147); `x-dataset-version`. */
  readonly version: string;
  /** D22 max-age of the answer, seconds: the endpoint's, or {@link PAST_MAX_AGE} at least for a settled `at` (T148). */
  readonly maxAge: number;
  /** The headers the body determines ({@link Endpoint.headers}, T526); absent when the endpoint has none. */
  readonly headers?: Readonly<Record<string, string>>;
}

const NO_PATH: PathValues = { provider: "", model: "" };

/**
 * Answers one endpoint (issue 34 §3, T275): loads what its parameters need through `services` —
 * the point-in-time index of an `at` (T165, T199), the recorded upstream files of the version
 * answered (T210) — then runs it. The one place `at` is acted on: transports neither look at it
 * nor re-read the version or the max-age from the body.
 * @throws CatalogueError bad_request / not_found / moved, as the endpoint's `run` (D13, D14, T67)
 * @throws StoreUnavailableError when the point-in-time index cannot be read (a transport's 503, T199)
 */
export async function callEndpoint<I extends z.ZodObject, O extends z.ZodType>(
  endpoint: Endpoint<I, O>,
  view: CatalogueView,
  call: EndpointCall<I>,
  services: EndpointServices = NO_SERVICES,
): Promise<EndpointAnswer<O>> {
  const at = atOf(endpoint, call.input);
  let version = view.version;
  if (at !== undefined) {
    await (services.pointInTime ? services.pointInTime(view, at) : view.loadTimeline(at));
    version = stateMeta(view, publishedState(view, at)).datasetVersion;
  }
  const upstream = endpoint.readsUpstream && services.upstream ? await services.upstream(version) : undefined;
  const body = endpoint.run(view, call.input, call.path ?? NO_PATH, {
    baseUrl: call.baseUrl,
    ...(upstream ? { upstream } : {}),
  });
  const maxAge = at !== undefined && isSettledAt(view, at) ? Math.max(PAST_MAX_AGE, endpoint.maxAge) : endpoint.maxAge;
  if (!endpoint.headers) return { body, version, maxAge };
  const headers: Record<string, string> = {};
  for (const [name, header] of Object.entries(endpoint.headers)) headers[name] = header.value(body);
  return { body, version, maxAge, headers };
}

/** The `at` of a call, when its endpoint takes one (`atParam`) and it was given. */
function atOf(endpoint: Endpoint, input: Readonly<Record<string, unknown>>): string | undefined {
  return "at" in endpoint.input.shape && typeof input.at === "string" ? input.at : undefined;
}
