import { afterAll, beforeAll, describe, expect } from "vitest";
import type { ApiMeta, ApiSource } from "../src/catalogue/schemas.js";
import { daysBetween } from "../src/domain/freshness.js";
import { axeViolations, browserTest as it, withPage } from "./web-browser.js";
import { serveWebCatalogue, type WebCatalogue } from "./web-support.js";

/**
 * Issue 27 §4 "Must show" in real headless Chromium (Debian's `chromium` via playwright-core), on
 * the bundled replay: the footer and each model page say "prices as of <date> (N days ago)" from
 * `/meta` freshness, a notice shows when that is older than a week, and the sources page's badges
 * are `/sources` health, badge for badge (T225, T227). The page's clock is set where a case needs
 * a given "now".
 */

const BUNDLED_DAY = "2026-06-01";

let web: WebCatalogue;

beforeAll(async () => {
  web = await serveWebCatalogue();
});
afterAll(async () => {
  await web?.close();
});

async function api<T>(path: string): Promise<T> {
  const res = await fetch(`${web.server.base}/api/v1${path}`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: T }).data;
}

describe("the web catalogue says how fresh its prices are (issue 27 §4)", () => {
  it("the footer says the date and age from /meta, and a notice says the data is older than a week", async ({
    browser,
  }) => {
    const meta = await api<ApiMeta>("/meta");
    expect(meta.freshness.newestEvidenceAt).toBe(`${BUNDLED_DAY}T00:00:00.000Z`);
    await withPage(browser, async (page) => {
      await page.goto(`${web.server.base}/`);
      const footer = page.locator("footer");
      await footer.getByText("prices as of").waitFor();
      const days = daysBetween(meta.freshness.newestEvidenceAt!, Date.now());
      expect(days).toBeGreaterThan(7); // the bundled data, read after 2026-06-08
      expect(await footer.textContent()).toContain(`prices as of ${BUNDLED_DAY} (${days} days ago)`);
      const notice = page.getByRole("note");
      expect(await notice.textContent()).toBe(
        `Not current: these prices are as of ${BUNDLED_DAY}, ${days} days ago, older than a week: no newer ` +
          "evidence has been published since. See Sources for each source's last success.",
      );
      expect(await axeViolations(page)).toEqual([]);
    });
  });

  it("two days after the data: the age says so, and there is no notice; the model page says it too", async ({
    browser,
  }) => {
    const now = new Date("2026-06-03T12:00:00.000Z");
    await withPage(
      browser,
      async (page) => {
        await page.goto(`${web.server.base}/m/anthropic/claude-opus-4-0`);
        await page.locator("[data-ready=true]").waitFor();
        expect(await page.locator("footer").textContent()).toContain(`prices as of ${BUNDLED_DAY} (2 days ago)`);
        expect(await page.locator("article .lead").textContent()).toContain(`prices as of ${BUNDLED_DAY} (2 days ago)`);
        expect(await page.getByRole("note").count()).toBe(0);
        expect(await axeViolations(page)).toEqual([]);
      },
      { now },
    );
  });

  it("the sources page's badges are /sources health, badge for badge", async ({ browser }) => {
    const sources = await api<ApiSource[]>("/sources");
    // Health is judged now (T310): the replay's sources last succeeded on 2026-06-01 at the latest
    // (Anthropic's page on 2025-12-01), so each is stale once that is more than a week ago.
    const now = Date.now();
    expect(sources.map((s) => [s.source, s.health])).toEqual(
      sources.map((s) => [s.source, now - Date.parse(s.lastSuccessAt!) > 7 * 86_400_000 ? "stale" : "fresh"]),
    );
    await withPage(browser, async (page) => {
      await page.goto(`${web.server.base}/sources`);
      const rows = page.locator("tbody tr");
      await rows.first().waitFor();
      const shown = await rows.evaluateAll((trs) =>
        trs.map((tr) => [
          tr.querySelector("th .muted")?.textContent?.split(" ")[0],
          tr.querySelector(".badge")?.textContent,
        ]),
      );
      expect(shown).toEqual(sources.map((s) => [s.source, s.health]));
      expect(await axeViolations(page)).toEqual([]);
    });
  });
});
