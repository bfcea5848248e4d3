import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { ApiModel } from "../src/catalogue/schemas.js";
import { ViewHolder } from "../src/catalogue/view-holder.js";
import { daysBetween } from "../src/domain/freshness.js";
import { judgedNow, loadReplay, startServer, type TestServer } from "./harness.js";
import { apiJson, launchBrowser, withPage } from "./web-browser.js";

/**
 * Issue 46 §5 Must show (T461): served today from the bundled data (its pages last read on the
 * 2026-06-01 run), GPT-4o's model page in Chromium on the real Vite build shows no `verified` badge
 * among the maker's prices and says why beside each price the page states: "not verified: OpenAI's
 * page was last read N days ago (35 days at most)", N counted from the API's `pageStale.lastReadAt`.
 */

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  const { view, store } = await loadReplay();
  await store.close();
  const today = judgedNow(view);
  server = await startServer(today, {
    compression: true,
    web: { root: inject("webRoot"), views: new ViewHolder(today) },
  });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe("the model page says why a price is not verified", () => {
  it("GPT-4o's maker prices: no verified badge, and the page's last read beside each", () =>
    withPage(browser, async (page) => {
      const model = await apiJson<{ data: ApiModel }>(server, "/models/openai/gpt-4o");
      const main = model.data.prices.filter((p) => Object.keys(p.qualifiers).every((k) => k === "seller"));
      const lapsed = main.filter((p) => p.pageStale);
      expect(lapsed.length).toBeGreaterThan(0);
      const days = daysBetween(lapsed[0]!.pageStale!.lastReadAt!, Date.now());
      await page.goto(`${server.base}/m/openai/gpt-4o`);
      await page.locator("[data-ready=true]").waitFor();
      const table = page.getByTestId("maker-prices");
      const notes = table.getByTestId("page-stale");
      await expect
        .poll(() => notes.first().textContent())
        .toBe(`not verified: OpenAI's page was last read ${days} days ago (35 days at most)`);
      expect(await notes.count()).toBe(lapsed.length);
      expect(await table.locator("[data-confidence=verified]").count()).toBe(0);
    }));
});
