import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CatalogueView } from "../src/catalogue/view.js";
import { loadConfig } from "../src/cli/config.js";
import { endpointServices } from "../src/cli/endpoint-services.js";
import { pastDayRenderer } from "../src/cli/past-day-renderer.js";
import type { PastDayRenderer } from "../src/http/past-days.js";
import { renderResponse } from "../src/http/render.js";
import { ROUTES } from "../src/http/routes.js";
import { copyReplayStore, loadReplay } from "./harness.js";

// Issue 47 §2 (T470): the worker thread that renders past days answers the same bytes as the
// process, on the bundled replay. A spawn suite (issue 45, T505): the worker boots its own module
// graph and loads the served version, seconds of CPU that the in-process suites need not pay.

const GENAI = "/api/v1/exports/genai-prices/data.json";
let view: CatalogueView;

beforeAll(async () => {
  const replay = await loadReplay();
  await replay.store.close();
  view = replay.view;
});

describe("the worker thread answers what the process renders (T470)", () => {
  let dir: string;
  let renderer: PastDayRenderer;
  let config: ReturnType<typeof loadConfig>;
  beforeAll(async () => {
    dir = await copyReplayStore(mkdtempSync(join(tmpdir(), "tariff-past-days-")));
    config = loadConfig({ DATA_DIR: dir });
    renderer = pastDayRenderer(config);
  });
  afterAll(async () => {
    await renderer.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("the same status, body and version for exports, lists, a model, /rates and /compare of past days", async () => {
    const services = endpointServices(config);
    const urls = [
      "/api/v1/exports/models-dev/api.json?at=2026-02-15",
      "/api/v1/models?at=2025-12-03&limit=100",
      "/api/v1/models/openai/gpt-4o?at=2026-01-05",
      "/api/v1/models/deepseek/deepseek-chat?at=2025-09-15&channel=direct",
      "/api/v1/rates?at=2026-03-03&provider=anthropic",
      "/api/v1/compare?at=2026-02-02&models=openai/gpt-4o,anthropic/claude-sonnet-4-5",
      "/api/v1/models/nobody/nothing?at=2026-02-02",
    ];
    const byPath = new Map(ROUTES.map((r) => [`/api/v1${r.path}`, r]));
    for (const url of urls) {
      const path = url.slice(0, url.indexOf("?"));
      const route = byPath.get(path) ?? ROUTES.find((r) => r.path === "/models/:provider/:model")!;
      const [, , , , provider = "", model = ""] = path.split("/");
      const params: Record<string, string> = route.path.includes(":provider") ? { provider, model } : {};
      const shape = { compression: true, counted: false };
      const own = await renderResponse(route, view, url, params, { baseUrl: "http://x" }, shape, services);
      const job = { served: view.version, generatedAt: view.generatedAt, path: route.path, url, params };
      const theirs = await renderer.render({ ...job, baseUrl: "http://x", compression: true });
      expect(theirs.kind, url).toBe("response");
      if (theirs.kind !== "response") continue;
      expect(theirs.status, url).toBe(own.status);
      expect(theirs.version, url).toBe(own.version);
      expect(theirs.cacheControl, url).toBe(own.cacheControl);
      expect(Buffer.from(theirs.body).equals(own.body), url).toBe(true);
      if (own.body.length > 4096) expect(theirs.br?.length ?? 0, url).toBeGreaterThan(0);
    }
    // The worker loads the served version first (seconds; minutes on a machine loaded by other runs).
  }, 240_000);

  it("declines a version that is not the store's latest: the process renders it", async () => {
    const job = {
      served: "2025-09-01T00:00:00.000Z",
      generatedAt: view.generatedAt,
      path: "/exports/genai-prices/data.json",
    };
    const result = await renderer.render({
      ...job,
      url: `${GENAI}?at=2025-09-02`,
      params: {},
      baseUrl: "",
      compression: false,
    });
    expect(result.kind).toBe("declined");
  });
});
