import type { Browser } from "playwright-core";
import { describe, expect, it } from "vitest";
import type { ApiChange, ApiModel, ApiPrice } from "../src/catalogue/schemas.js";
import { CONFIDENCE_LEVELS } from "../src/domain/confidence.js";
import { listedPrice } from "../src/domain/listed-price.js";
import type { TestServer } from "./harness.js";
import { apiJson, axeViolations, DESKTOP, money, PHONE, useWebCatalogue, withPage } from "./web-browser.js";

/**
 * Issue 28 "Must show": the web catalogue answers what people come with — what will it cost, what is
 * cheapest, what changed — in real headless Chromium on the real app, the bundled replay and the real
 * Vite build. Amounts are read from the API in the test (reconciliation decides them), except the
 * issue's own workload: Claude Sonnet 4.5 at Anthropic's list price, $3 / $15 per 1M tokens
 * (data/upstream/official-anthropic/2025-12-01/pricing.md.gz), so 1,000 requests of 10,000 input and
 * 2,000 output tokens cost $30 + $30 = $60.00 a month.
 */

const SONNET = "anthropic/claude-sonnet-4-5";
const _FIVE = [SONNET, "openai/gpt-4o", "google/gemini-2.5-pro", "deepseek/deepseek-chat", "openai/gpt-4o-mini"];

let server: TestServer;
let browser: Browser;
useWebCatalogue((setup) => {
  ({ server, browser } = setup);
});

const api = <T>(path: string) => apiJson<T>(server, path);

// The cost calculator's own suite is test/web-cost.test.ts (issue 38 §7: one row per model, usage
// as people state it); every page's accessibility and phone layout is test/web-layout.test.ts.

/** A price of `?channel=all` (T201). */
type ChannelPrice = ApiPrice & { channel: string; seller: string };

/** Layout shifts since the page started, as the browser reports them (CLS, without input-caused shifts). */
const CLS_PROBE = () => {
  const w = window as unknown as { __cls: number };
  w.__cls = 0;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[])
      if (!e.hadRecentInput) w.__cls += e.value;
  }).observe({ type: "layout-shift", buffered: true });
};

describe("the model page", () => {
  for (const viewport of [DESKTOP, PHONE])
    it(`makes one API request for its prices, shifts less than 0.1 and shows the headline above the fold (${viewport.width}×${viewport.height})`, ({
      expect,
    }) =>
      withPage(
        browser,
        async (page) => {
          const modelRequests: string[] = [];
          page.on("request", (r) => {
            const path = new URL(r.url()).pathname;
            if (path.startsWith(`/api/v1/models/${SONNET}`) && !path.endsWith("/history")) modelRequests.push(r.url());
          });
          await page.addInitScript(CLS_PROBE);
          await page.goto(`${server.base}/m/${SONNET}`);
          await page.locator("[data-ready=true]").waitFor();
          await page.waitForLoadState("networkidle");
          expect(modelRequests).toEqual([`${server.base}/api/v1/models/${SONNET}?channel=all`]);
          const cls = await page.evaluate(() => (window as unknown as { __cls: number }).__cls);
          expect(cls).toBeLessThan(0.1);
          const model = await api<{ data: ApiModel }>(`/models/${SONNET}?channel=all`);
          const listed = listedPrice(model.data.prices as ChannelPrice[]);
          expect(listed?.channel).toBe("direct");
          for (const [id, price] of [
            ["headline-input", listed!.input!],
            ["headline-output", listed!.output!],
          ] as const) {
            const cell = page.locator(`[data-testid=${id}] .money`);
            expect(await cell.textContent()).toBe(money(price.amount));
            const box = (await cell.boundingBox())!;
            expect(box.y + box.height, id).toBeLessThanOrEqual(viewport.height);
          }
          // Nothing is wider than the screen: no horizontal scrolling on a phone (issue 28 §8).
          expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
          process.stdout.write(
            `web model page ${viewport.width}×${viewport.height}: cumulative layout shift ${cls.toFixed(4)}\n`,
          );
        },
        { viewport },
      ));

  it("when its API answers are 429 problems it says to try again and states nothing about the model's channels", ({
    expect,
  }) =>
    withPage(
      browser,
      async (page) => {
        let refused = 0;
        await page.route(`**/api/v1/models/${SONNET}**`, (route) => {
          refused++;
          return route.fulfill({
            status: 429,
            headers: { "content-type": "application/problem+json", "retry-after": "30" },
            body: JSON.stringify({
              type: "about:blank",
              title: "Too Many Requests",
              status: 429,
              detail: "rate limited",
            }),
          });
        });
        await page.goto(`${server.base}/m/${SONNET}`);
        const notice = page.locator("[data-testid=retry]").first();
        await notice.waitFor();
        expect(refused).toBeGreaterThan(0);
        expect(await notice.textContent()).toMatch(/again in (30|29|28) s/);
        expect(await page.getByRole("button", { name: "Try again now" }).first().isVisible()).toBe(true);
        const text = (await page.locator("main").textContent()) ?? "";
        expect(text).not.toMatch(/channel|sold|sells|not sold|no price/i);
        expect(
          await page.locator("[data-testid=offers], [data-testid=maker-prices], [data-testid=summary]").count(),
        ).toBe(0);
        // The retry asks again: the same request once the API answers.
        await page.unroute(`**/api/v1/models/${SONNET}**`);
        await page.getByRole("button", { name: "Try again now" }).first().click();
        await page.locator("[data-testid=summary]").waitFor();
      },
      { expected: (p) => p.startsWith("HTTP 429:") },
    ));

  it("the head of a model's HTML previews its price (title, description, Open Graph)", async ({ expect }) => {
    const res = await fetch(`${server.base}/m/${SONNET}`, { headers: { accept: "text/html" } });
    expect(res.status).toBe(200);
    const html = await res.text();
    const model = await api<{ data: ApiModel }>(`/models/${SONNET}?channel=all`);
    const listed = listedPrice(model.data.prices as ChannelPrice[])!;
    const description = `Claude Sonnet 4.5: ${money(listed.input!.amount)} input / ${money(listed.output!.amount)} output per 1M tokens (the maker's price, ${listed.confidence} confidence). Every channel's price with its sources on Tariff.`;
    expect(html).toContain("<title>Claude Sonnet 4.5 prices · Tariff</title>");
    expect(html).toContain(`<meta name="description" content="${description}" />`);
    expect(html).toContain(`<meta property="og:title" content="Claude Sonnet 4.5 prices · Tariff" />`);
    expect(html).toContain(`<meta property="og:description" content="${description}" />`);
    expect(html.match(/<meta property="og:title"/g)).toHaveLength(1);
  });

  it("at= in the URL shows a past day's prices, set by the date picker", ({ expect }) =>
    withPage(browser, async (page) => {
      const id = "deepseek/deepseek-v4-pro";
      await page.goto(`${server.base}/m/${id}`);
      await page.locator("[data-ready=true]").waitFor();
      await page.getByLabel("Prices as of", { exact: true }).first().fill("2026-05-15");
      await page.waitForURL(`${server.base}/m/${id}?at=2026-05-15`);
      const past = await api<{ data: ApiModel }>(`/models/${id}?channel=all&at=2026-05-15`);
      const listed = listedPrice(past.data.prices as ChannelPrice[])!;
      await expect
        .poll(() => page.locator("[data-testid=headline-input] .money").textContent())
        .toBe(money(listed.input!.amount));
      const now = await api<{ data: ApiModel }>(`/models/${id}?channel=all`);
      // The day chosen is before DeepSeek's cut (data/upstream 2026-06-01): the page shows the old price.
      expect(listedPrice(now.data.prices as ChannelPrice[])!.input!.amount).not.toBe(listed.input!.amount);
      expect(await page.locator(".past").textContent()).toContain("2026-05-15");
      await page.reload();
      await expect
        .poll(() => page.locator("[data-testid=headline-input] .money").textContent())
        .toBe(money(listed.input!.amount));
    }));
});

describe.concurrent("the catalogue", () => {
  it("sorting by input price ascending puts a priced model first, in the API's order", ({ expect }) =>
    withPage(browser, async (page) => {
      await page.goto(`${server.base}/`);
      await page.getByLabel("Order", { exact: true }).selectOption("input");
      await page.waitForURL(/sort=input/);
      const body = await api<{ data: ApiModel[] }>("/models?sort=input&prices=listed&limit=50");
      const first = body.data[0]!;
      expect(first.prices.find((p) => p.direction === "input")).toBeDefined();
      const row = page.locator("table.models tbody tr").first();
      await expect.poll(() => row.getAttribute("data-model")).toBe(first.id);
      const amount = await row.locator("td").nth(1).locator(".amount").getAttribute("data-amount");
      expect(Number(amount)).toBe(first.prices.find((p) => p.direction === "input")!.amount);
      const amounts = await page
        .locator("table.models tbody tr td:nth-of-type(2) .amount")
        .evaluateAll((els) => els.map((e) => Number((e as HTMLElement).dataset.amount)));
      expect(amounts.length).toBe(body.data.length);
      expect([...amounts].sort((a, b) => a - b)).toEqual(amounts);
    }));

  it("every confidence filter returns only rows whose badge shows that level (one rule, T202)", async ({ expect }) => {
    let rows = 0;
    for (const level of CONFIDENCE_LEVELS)
      await withPage(browser, async (page) => {
        const body = await api<{ data: ApiModel[] }>(
          `/models?listedConfidence=${level}&sort=sellers&prices=listed&limit=50`,
        );
        await page.goto(`${server.base}/?confidence=${level}`);
        await page.getByRole("status").first().waitFor();
        await expect.poll(() => page.locator("table.models tbody tr").count()).toBe(body.data.length);
        const badges = await page
          .locator("table.models tbody tr")
          .evaluateAll((trs) =>
            trs.map((tr) => tr.querySelector(".row-confidence .badge[data-confidence]")?.textContent),
          );
        expect(badges, level).toEqual(body.data.map(() => level));
        rows += badges.length;
      });
    // The filters are not all empty: the rule is tested on real rows.
    expect(rows).toBeGreaterThan(50);
  });

  it("a model no maker prices shows the cheapest channel's price, marked with its channel", ({ expect }) =>
    withPage(browser, async (page) => {
      const body = await api<{ data: ApiModel[] }>("/models?sort=sellers&prices=listed&limit=50");
      const resold = body.data.find((m) => m.prices.some((p) => p.channel !== "direct"));
      expect(resold).toBeDefined();
      await page.goto(`${server.base}/`);
      const row = page.locator(`table.models tbody tr[data-model="${resold!.id}"]`);
      await row.waitFor();
      const input = resold!.prices.find((p) => p.direction === "input")!;
      expect(await row.locator(".via").first().getAttribute("data-channel")).toBe(input.channel);
      expect(await row.locator(".amount").first().textContent()).toBe(money(input.amount));
    }));
});

describe.concurrent("the changes page", () => {
  it("leads with the makers' own moves with the true count and pages by the cursor; resellers folded; RSS links to pages", ({
    expect,
  }) =>
    withPage(browser, async (page) => {
      await page.goto(`${server.base}/changes?days=365`);
      type Feed = { data: ApiChange[]; meta: { total: number; nextCursor: string | null } };
      const makers = await api<Feed>("/changes?days=365&channel=direct&limit=100");
      expect(makers.meta.total).toBeGreaterThan(makers.data.length);
      expect(makers.data.every((c) => c.channel === "direct")).toBe(true);
      const rows = page.locator("[data-testid=maker-moves] tbody tr");
      await expect.poll(() => rows.count()).toBe(makers.data.length);
      const firstRows = await rows.evaluateAll((trs) =>
        trs.slice(0, 5).map((tr) => ({
          href: tr.querySelector("a")?.getAttribute("href"),
          date: tr.querySelector("time")?.getAttribute("datetime"),
        })),
      );
      expect(firstRows).toEqual(makers.data.slice(0, 5).map((c) => ({ href: `/m/${c.model}`, date: c.occurredAt })));
      await expect
        .poll(() => page.locator("#maker-moves-title").textContent())
        .toBe(`The makers' own moves (${new Intl.NumberFormat("en").format(makers.meta.total)})`);
      // The next page continues after the last row, by the API's cursor.
      await page.getByRole("button", { name: "Show more changes" }).first().click();
      const next = await api<Feed>(
        `/changes?days=365&channel=direct&limit=100&cursor=${encodeURIComponent(makers.meta.nextCursor!)}`,
      );
      await expect.poll(() => rows.count()).toBe(makers.data.length + next.data.length);
      // Resellers' and plans' moves are folded below, with their own count.
      const resellers = await api<Feed>(
        "/changes?days=365&channel=reseller_1,reseller_2,reseller_3,reseller_4,reseller_5,coding_plan,token_plan,other&limit=100",
      );
      await expect
        .poll(() => page.locator("#reseller-moves-title").textContent())
        .toBe(`Resellers' and plans' moves (${new Intl.NumberFormat("en").format(resellers.meta.total)})`);
      expect(await page.locator("[data-testid=reseller-moves]").isVisible()).toBe(false);
      const rss = await page.getByRole("link", { name: "RSS feed" }).getAttribute("href");
      expect(rss).toBe("/api/v1/changes.xml?days=365&link=web");
      const xml = await (await fetch(`${server.base}${rss}`)).text();
      expect(xml).toContain(`<link>${server.base}/m/`);
      expect(xml).not.toContain("/api/v1/models/");
      expect(await axeViolations(page)).toEqual([]);
    }));

  it("?days=7 counts every change of the window, not the page size", ({ expect }) =>
    withPage(browser, async (page) => {
      const all = await api<{ meta: { total: number } }>("/changes?days=7&limit=1");
      const direct = await api<{ meta: { total: number } }>("/changes?days=7&channel=direct&limit=1");
      await page.goto(`${server.base}/changes?days=7`);
      await expect.poll(() => page.locator("#maker-moves-title").textContent()).toContain(`(${direct.meta.total})`);
      const resellers = (await page.locator("#reseller-moves-title").textContent())!.match(/\(([\d,]+)\)/)![1]!;
      expect(direct.meta.total + Number(resellers.replace(/,/g, ""))).toBe(all.meta.total);
    }));
});

describe.concurrent("routing", () => {
  it.each([
    ["/index.html", "/"],
    ["/pricing", "/"],
    ["/cost/", "/cost"],
    ["/changes/?days=7", "/changes?days=7"],
    [`/m/${SONNET}/`, `/m/${SONNET}`],
  ])("%s answers 308 to %s", async (from, to) => {
    const res = await fetch(`${server.base}${from}`, { redirect: "manual", headers: { accept: "text/html" } });
    expect(res.status).toBe(308);
    expect(res.headers.get("location")).toBe(to);
  });

  it("an unknown page is an HTML 404 in a browser and the API's problem for other clients", ({ expect }) =>
    withPage(
      browser,
      async (page) => {
        const response = await page.goto(`${server.base}/no-such-page`);
        expect(response?.status()).toBe(404);
        await expect.poll(() => page.locator("h1").textContent()).toBe("Page not found");
        const problem = await fetch(`${server.base}/no-such-page`);
        expect(problem.status).toBe(404);
        expect(problem.headers.get("content-type")).toBe("application/problem+json");
      },
      { expected: (p) => p === `HTTP 404: ${server.base}/no-such-page` },
    ));
});
