import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiMeta, ApiSource } from "../src/catalogue/schemas.js";
import { daysBetween } from "../src/domain/freshness.js";
import { serveWebCatalogue, type WebCatalogue } from "./web-support.js";

/**
 * Issue 27 §4 "Must show" in real headless Chromium (Debian's `chromium` via playwright-core), on
 * the bundled replay: the footer and each model page say "prices as of <date> (N days ago)" from
 * `/meta` freshness, a notice shows when that is older than a week, and the sources page's badges
 * are `/sources` health, badge for badge (T225, T227). The page's clock is set where a case needs
 * a given "now".
 */

const CHROMIUM = "/usr/bin/chromium";
const FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"];
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
const BUNDLED_DAY = "2026-06-01";

let web: WebCatalogue;
let browser: Browser;

beforeAll(async () => {
  web = await serveWebCatalogue();
  browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
});
afterAll(async () => {
  await browser?.close();
  await web?.close();
});

async function api<T>(path: string): Promise<T> {
  const res = await fetch(`${web.server.base}/api/v1${path}`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: T }).data;
}

/** A fresh page, its clock at `now` when given; nothing on it may fail. */
async function withPage(now: Date | null, check: (page: Page) => Promise<void>): Promise<void> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") problems.push(`console error: ${m.text()}`);
  });
  page.on("pageerror", (e) => problems.push(`uncaught: ${e.message}`));
  page.on("response", (r) => {
    if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url()}`);
  });
  if (now) await page.clock.setFixedTime(now);
  try {
    await check(page);
    expect(problems).toEqual([]);
  } finally {
    await context.close();
  }
}

/** axe-core's serious and critical violations on the page, as "impact rule: targets" (run in the page). */
async function seriousViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ content: AXE_SOURCE });
  return page.evaluate<string[]>(`axe.run(document).then((result) => result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => v.impact + " " + v.id + ": " + v.nodes.map((n) => n.target.join(" ")).join(", ")))`);
}

describe("the web catalogue says how fresh its prices are (issue 27 §4)", () => {
  it("the footer says the date and age from /meta, and a notice says the data is older than a week", async () => {
    const meta = await api<ApiMeta>("/meta");
    expect(meta.freshness.newestEvidenceAt).toBe(`${BUNDLED_DAY}T00:00:00.000Z`);
    await withPage(null, async (page) => {
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
      expect(await seriousViolations(page)).toEqual([]);
    });
  });

  it("two days after the data: the age says so, and there is no notice; the model page says it too", async () => {
    await withPage(new Date("2026-06-03T12:00:00.000Z"), async (page) => {
      await page.goto(`${web.server.base}/m/anthropic/claude-opus-4-0`);
      await page.locator("[data-ready=true]").waitFor();
      expect(await page.locator("footer").textContent()).toContain(`prices as of ${BUNDLED_DAY} (2 days ago)`);
      expect(await page.locator("article .lead").textContent()).toContain(`prices as of ${BUNDLED_DAY} (2 days ago)`);
      expect(await page.getByRole("note").count()).toBe(0);
      expect(await seriousViolations(page)).toEqual([]);
    });
  });

  it("the sources page's badges are /sources health, badge for badge", async () => {
    const sources = await api<ApiSource[]>("/sources");
    // Health is judged now (T310): the replay's sources last succeeded on 2026-06-01 at the latest
    // (Anthropic's page on 2025-12-01), so each is stale once that is more than a week ago.
    const now = Date.now();
    expect(sources.map((s) => [s.source, s.health])).toEqual(
      sources.map((s) => [s.source, now - Date.parse(s.lastSuccessAt!) > 7 * 86_400_000 ? "stale" : "fresh"]),
    );
    await withPage(null, async (page) => {
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
      expect(await seriousViolations(page)).toEqual([]);
    });
  });
});
