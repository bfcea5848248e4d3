import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, inject } from "vitest";
import { loadView } from "../src/catalogue/load-view.js";
import type { ApiCostEstimate } from "../src/catalogue/schemas.js";
import { ViewHolder } from "../src/catalogue/view-holder.js";
import { loadRunContext, publishRun } from "../src/ingest/run-pipeline.js";
import { SOURCES } from "../src/sources/registry.js";
import type { CatalogueStore } from "../src/store/catalogue-store.js";
import { openSqliteStore } from "../src/store/open-store.js";
import { startServer, type TestServer } from "./harness.js";
import { recordedPayload } from "./recorded-payloads.js";
import { apiJson, browserTest, withPage } from "./web-browser.js";

/**
 * The calculator says what an announced price does to a workload (issue 37 §4, T360, T362), in
 * Chromium on the real Vite build. No recorded copy states an end ahead of time (T338), so, as
 * test/announced-prices.test.ts does, the real pipeline runs on a real recorded copy at a run date
 * before its boundary (only the run's date chosen): llm-prices 2025-11-01 `historical-v1.json`, read
 * on 2025-02-01, prices DeepSeek Chat at 0.14 / 0.28 until 2025-02-08, then 0.27 / 1.10. A month of
 * 1M input and 1M output tokens costs 0.14 + 0.28 = $0.42, and 0.27 + 1.10 = $1.37 from 2025-02-08.
 */

const it = browserTest;
const DEEPSEEK = "deepseek/deepseek-chat";
const RUN_DAY = "2025-02-01";

let dir: string;
let store: CatalogueStore;
let server: TestServer;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "tariff-web-announced-"));
  store = await openSqliteStore(join(dir, "tariff.db"));
  const payload = { ...recordedPayload("llm-prices", "2025-11-01"), observedAt: `${RUN_DAY}T00:00:00.000Z` };
  await publishRun(store, await loadRunContext(store), SOURCES, {
    runTime: `${RUN_DAY}T00:00:00.000Z`,
    outcomes: new Map([["llm-prices", { kind: "payload", payload }]]),
    guards: null,
    finishedAt: `${RUN_DAY}T00:01:00.000Z`,
  });
  const view = (await loadView(store, SOURCES))!;
  server = await startServer(view, {
    compression: true,
    web: { root: inject("webRoot"), views: new ViewHolder(view) },
  });
}, 120_000);
afterAll(async () => {
  await server?.close();
  await store?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe.concurrent("the calculator on a price with an announced successor (T362)", () => {
  it("says what each price becomes and the month's total from that day, both as the API states them", ({
    browser,
    expect,
  }) =>
    withPage(browser, async (page) => {
      const usage = "inputTokens=1000000&outputTokens=1000000&requests=100";
      const now = await apiJson<{ data: ApiCostEstimate[] }>(server, `/cost?model=${DEEPSEEK}&${usage}`);
      const direct = now.data.find((e) => e.channel === "direct")!;
      // The lines carry the price's end and successor (T360).
      expect(direct.lines.map((l) => [l.usage, l.amount, l.effectiveUntil, l.announced?.amount])).toEqual([
        ["inputTokens", 0.14, "2025-02-08T00:00:00.000Z", 0.27],
        ["outputTokens", 0.28, "2025-02-08T00:00:00.000Z", 1.1],
      ]);
      const later = await apiJson<{ data: ApiCostEstimate[] }>(
        server,
        `/cost?model=${DEEPSEEK}&channel=direct&${usage}&at=2025-02-08`,
      );
      expect([direct.totals![0]!.amount, later.data[0]!.totals![0]!.amount]).toEqual([0.42, 1.37]);

      await page.goto(`${server.base}/cost?models=${DEEPSEEK}&per=month&input=1000000&output=1000000&channel=direct`);
      const row = page.locator(`[data-testid=estimates] tr[data-model="${DEEPSEEK}"]`);
      const announced = row.getByTestId("announced");
      await expect
        .poll(() => announced.locator("li").allTextContents())
        .toEqual([
          "Input $0.14: from 2025-02-08 this becomes $0.27 (llm-prices)",
          "Output $0.28: from 2025-02-08 this becomes $1.10 (llm-prices)",
        ]);
      const from = row.getByTestId("total-from");
      await expect.poll(() => from.textContent()).toBe("From 2025-02-08: $1.37 a month");
      expect(await from.getAttribute("data-amount")).toBe("1.37");
      expect(await row.locator('td[data-label="Per month"] .total').textContent()).toBe("$0.42");
    }));

  it("on the day itself the announced price is the price: nothing more is announced", ({ browser, expect }) =>
    withPage(browser, async (page) => {
      await page.goto(
        `${server.base}/cost?models=${DEEPSEEK}&per=month&input=1000000&output=1000000&channel=direct&at=2025-02-08`,
      );
      const row = page.locator(`[data-testid=estimates] tr[data-model="${DEEPSEEK}"]`);
      await expect.poll(() => row.locator('td[data-label="Per month"] .total').textContent()).toBe("$1.37");
      expect(await row.getByTestId("announced").count()).toBe(0);
    }));
});

describe.concurrent("the model page's price history (T364)", () => {
  it("draws the announced price as a future point: Input continues dashed to $0.27 on 2025-02-08, labelled announced", ({
    browser,
    expect,
  }) =>
    withPage(browser, async (page) => {
      await page.goto(`${server.base}/m/${DEEPSEEK}`);
      await page.locator("[data-ready=true]").waitFor();
      const input = page.locator("figure.chart-card", {
        has: page.locator("figcaption strong", { hasText: /^Input$/ }),
      });
      await expect.poll(() => input.getByTestId("announced-point").textContent()).toBe("2025-02-08 (announced)0.27");
      expect(await input.locator(".chart").getAttribute("aria-label")).toContain("announced: 0.27 from 2025-02-08");
      await expect.poll(() => input.locator(".u-legend").textContent()).toContain("Input (announced)");
    }));
});
