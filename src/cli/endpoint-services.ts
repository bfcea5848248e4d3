import type { EndpointServices } from "../catalogue/call.js";
import type { Config } from "./config.js";
import { upstreamFiles } from "./upstream-files.js";

/**
 * The services of a process's endpoint calls (issue 34 §3, T275), built once per process and
 * handed to every `callEndpoint` (HTTP, MCP, `tariff export`, `tariff cost`): the recorded upstream
 * files of the live-run archive and the snapshots folder (the price-file exports, T210), and how an
 * `at`'s point-in-time index is loaded.
 * @param options.manyDays the process asks about many days (`tariff cost`, T216): every version's
 *   spans are read once, at the first `at`, instead of one version's per day (T165, T199)
 * @param options.upstreamKept the versions whose recorded files stay parsed (default 4; the past-day
 *   worker keeps 1: it computes each version's export once, T470)
 */
export function endpointServices(
  config: Config,
  options: { manyDays?: boolean; upstreamKept?: number } = {},
): EndpointServices {
  return {
    upstream: upstreamFiles([config.live.archiveDir, config.snapshotsDir], options.upstreamKept),
    ...(options.manyDays ? { pointInTime: (view) => view.loadTimeline() } : {}),
  };
}
