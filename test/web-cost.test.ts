import { join } from "node:path";
import type { Page } from "playwright-core";
import { describe, it } from "vitest";
import type { ApiCostEstimate } from "../src/catalogue/schemas.js";
import { axeViolations, DESKTOP, PHONE, SCREENSHOTS, useWebCatalogue, withPage } from "./web-browser.js";

/**
 * The cost calculator (issue 28 §1; issue 38 §7, T348–T349) in real headless Chromium on the real
 * app, the bundled replay and the real Vite build: usage as people state it ("2M tokens a day", no
 * request count), one row per model — its first offer in `/cost`'s order and the maker's price
 * beside it — every channel behind a disclosure, and a phone page under five screens for three
 * models. Amounts are read from the API in the test (reconciliation decides them), except the issue
 * 28 workload: Claude Sonnet 4.5 at Anthropic's list price, $3 / $15 per 1M tokens
 * (data/upstream/official-anthropic/2025-12-01/pricing.md.gz), so 1,000 requests of 10,000 input and
 * 2,000 output tokens cost $30 + $30 = $60.00 a month.
 */

const SONNET = "anthropic/claude-sonnet-4-5";
const THREE = [SONNET, "openai/gpt-5", "google/gemini-2.5-pro"];

const site = useWebCatalogue();
const api = site.api;

/** A money total as the calculator shows it: 2 decimals, more only below a cent. */
const money = (amount: number) =>
  new Intl.NumberFormat("en", {
    style: "currency",
    currency: "USD",
    minimumFractionDigits: 2,
    maximumFractionDigits: amount !== 0 && Math.abs(amount) < 0.01 ? 6 : 2,
  }).format(amount);

/** The rows as shown: the model, its offer (channel, seller), the month's total and the maker's. */
function readRows(page: Page) {
  return page.locator("[data-testid=estimates] > tbody > tr").evaluateAll((trs) =>
    trs.map((tr) => {
      const row = tr as HTMLElement;
      return {
        offer: `${row.dataset.model}|${row.dataset.channel}|${row.dataset.seller}`,
        total: row.querySelector('td[data-label="Per month"] .total')?.textContent ?? null,
        maker: row.querySelector(`td[data-label="The maker's price"] .total`)?.textContent ?? null,
      };
    }),
  );
}

const single = (e: ApiCostEstimate) =>
  e.totals?.length === 1 && e.totals[0]!.denomination === "currency" ? e.totals[0]!.amount : null;

/**
 * The rows `/cost`'s answer should show: per model, in the order of its first offer, the model's
 * first offer in the API's order with a money total (T349: the API ranks, the page does not), and
 * the maker's (direct) total.
 */
function expectedRows(data: readonly ApiCostEstimate[]) {
  const models = [...new Set(data.map((e) => e.model))];
  return models.map((model) => {
    const offers = data.filter((e) => e.model === model);
    const first = offers.find((e) => single(e) !== null) ?? offers[0]!;
    const direct = offers.find((e) => e.channel === "direct");
    return {
      offer: `${first.model}|${first.channel}|${first.seller}`,
      total: single(first) === null ? null : money(single(first)!),
      maker: direct && single(direct) !== null ? money(single(direct)!) : null,
    };
  });
}

/** Three models, 1.5M input and 500K output tokens a day: 2M tokens a day, no request count. */
const TWO_M_A_DAY = `/cost?models=${THREE.join(",")}&per=day&input=1500000&output=500000`;
/** The same month in `/cost`'s terms: × 30 days, spread over requests of the assumed 10,000-token prompt. */
const TWO_M_A_DAY_API = `/cost?models=${THREE.join(",")}&channel=all&inputTokens=45000000&outputTokens=15000000&requests=4500`;

describe.concurrent("usage as people state it (T348)", () => {
  it('"2M tokens a day" without a request count: a month of 30 days on each model, one row per model', ({ expect }) =>
    withPage(
      site.browser,
      async (page) => {
        await page.goto(`${site.server.base}/cost?models=${THREE.join(",")}`);
        // The form counts a day unless told otherwise; the counts are typed as people write them.
        await page.getByLabel("Input tokens a day", { exact: true }).fill("1.5M");
        await page.getByLabel("Output tokens a day", { exact: true }).fill("500K");
        await page.waitForURL(
          (url) =>
            url.searchParams.get("per") === "day" &&
            url.searchParams.get("input") === "1500000" &&
            url.searchParams.get("output") === "500000" &&
            !url.searchParams.has("requests"),
        );
        const body = await api<{ data: ApiCostEstimate[] }>(TWO_M_A_DAY_API);
        expect(new Set(body.data.map((e) => e.model)).size).toBe(3);
        const expected = expectedRows(body.data);
        await expect.poll(() => readRows(page)).toEqual(expected);
        expect(expected.every((r) => r.total !== null && r.maker !== null)).toBe(true);
        // Sonnet 4.5 at the maker's $3 / $15: 45M × 3 + 15M × 15, / 1M = $135 + $225.
        expect(expected.find((r) => r.offer.startsWith(SONNET))!.maker).toBe("$360.00");
        const note = await page.getByTestId("month-note").textContent();
        expect(note).toContain("45M input and 15M output tokens (30 days), in 4,500 requests of about 10,000");
        expect(note).toContain("a request size of 10,000 tokens is assumed");
        // Given, the request size spreads the month over that many requests.
        await page.getByLabel("Average request size", { exact: true }).fill("5K");
        await page.waitForURL((url) => url.searchParams.get("size") === "5000");
        await expect.poll(() => page.getByTestId("month-note").textContent()).toContain("in 9,000 requests");
        // A count that is not one says so and keeps the last good workload.
        await page.getByLabel("Output tokens a day", { exact: true }).fill("lots");
        await expect.poll(() => page.getByText("Not a count: write e.g. 2M").count()).toBe(1);
        expect(new URL(page.url()).searchParams.get("output")).toBe("500000");
      },
      { viewport: DESKTOP },
    ));

  it("every channel of a model is behind its disclosure, in the API's order", ({ expect }) =>
    withPage(site.browser, async (page) => {
      await page.goto(`${site.server.base}${TWO_M_A_DAY}`);
      const body = await api<{ data: ApiCostEstimate[] }>(TWO_M_A_DAY_API);
      await expect.poll(async () => (await readRows(page)).length).toBe(3);
      const sonnet = page.locator(`[data-testid=estimates] > tbody > tr[data-model="${SONNET}"]`);
      const offers = body.data.filter((e) => e.model === SONNET);
      expect(offers.length).toBeGreaterThan(10);
      const list = sonnet.getByTestId("offers");
      expect(await list.isVisible()).toBe(false);
      await sonnet.getByText(`${offers.length} offers`).click();
      expect(await list.isVisible()).toBe(true);
      const shown = await list
        .locator("li")
        .evaluateAll((lis) =>
          lis.map((li) => `${(li as HTMLElement).dataset.channel}|${(li as HTMLElement).dataset.seller}`),
        );
      expect(shown).toEqual(offers.map((e) => `${e.channel}|${e.seller}`));
    }));

  it("a link of the per-request calculator still reads as it did: Sonnet 4.5, 1,000 × (10,000 in + 2,000 out) is $60.00", ({
    expect,
  }) =>
    withPage(site.browser, async (page) => {
      await page.goto(`${site.server.base}/cost?models=${SONNET}&requests=1000&input=10000&output=2000&channel=direct`);
      await expect
        .poll(() => readRows(page))
        .toEqual([{ offer: `${SONNET}|direct|anthropic`, total: "$60.00", maker: "$60.00" }]);
      expect(await page.getByLabel("Requests per month", { exact: true }).inputValue()).toBe("1000");
      expect(await page.getByLabel("Input tokens per request", { exact: true }).inputValue()).toBe("10K");
    }));

  it("a usage object pasted fills one request's tokens; the ranked candidates are priced one row per model", ({
    expect,
  }) =>
    withPage(site.browser, async (page) => {
      await page.goto(`${site.server.base}/cost?per=request&requests=1000`);
      await page.getByText("Or paste a usage object").click();
      // OpenAI's chat usage: prompt_tokens includes the cached tokens (T140: inputTokens excludes them).
      await page
        .getByLabel("Usage object (OpenAI, Anthropic or Gemini)", { exact: true })
        .fill(
          '{"usage": {"prompt_tokens": 12000, "completion_tokens": 2000, "prompt_tokens_details": {"cached_tokens": 2000}}}',
        );
      await page.getByRole("button", { name: "Use these tokens per request" }).click();
      await page.waitForURL(
        (url) => url.searchParams.get("input") === "10000" && url.searchParams.get("cached") === "2000",
      );
      expect(await page.getByLabel("Output tokens per request", { exact: true }).inputValue()).toBe("2K");
      await page.getByRole("button", { name: "Rank the cheapest candidates" }).click();
      await page.waitForURL((url) => (url.searchParams.get("models") ?? "").split(",").length === 8);
      const models = new URL(page.url()).searchParams.get("models")!;
      const body = await api<{ data: ApiCostEstimate[] }>(
        `/cost?models=${models}&channel=all&inputTokens=10000000&cachedInputTokens=2000000&outputTokens=2000000&requests=1000`,
      );
      await expect.poll(() => readRows(page)).toEqual(expectedRows(body.data));
    }));

  it("a usage log read in the browser fills tokens a day over the days it spans and its average request", ({
    expect,
  }) =>
    withPage(site.browser, async (page) => {
      await page.goto(`${site.server.base}/cost?models=${SONNET}`);
      await page.getByText("Or read a usage log").click();
      // Three records over two days (invented, in the providers' shapes): 2 × 10,000 + 40,000 prompt
      // tokens and 3 × 1,000 output, so 30,000 input and 1,500 output a day, requests of 20,000.
      const log = [
        {
          timestamp: "2026-06-01T10:00:00Z",
          model: "claude-sonnet-4-5",
          usage: { input_tokens: 10000, output_tokens: 1000 },
        },
        { timestamp: "2026-06-01T11:00:00Z", inputTokens: 10000, outputTokens: 1000 },
        {
          created: Date.parse("2026-06-02T09:00:00Z") / 1000,
          usage: { prompt_tokens: 40000, completion_tokens: 1000 },
        },
      ]
        .map((r) => JSON.stringify(r))
        .join("\n");
      await page
        .getByLabel("Usage log file", { exact: true })
        .setInputFiles({ name: "june.jsonl", mimeType: "application/json", buffer: Buffer.from(log) });
      await page.waitForURL(
        (url) =>
          url.searchParams.get("per") === "day" &&
          url.searchParams.get("input") === "30000" &&
          url.searchParams.get("output") === "1500" &&
          url.searchParams.get("size") === "20000",
      );
      expect(await page.getByText("Read 3 records over 2 days").count()).toBe(1);
      await expect.poll(async () => (await readRows(page)).length).toBe(1);
    }));

  it("a month given as one request is refused with the API's reason, not priced as a 10M-token prompt", ({ expect }) =>
    withPage(
      site.browser,
      async (page) => {
        await page.goto(`${site.server.base}/cost?models=${SONNET}&requests=1&input=10000000&output=2000000`);
        await expect
          .poll(() => page.getByRole("alert").first().textContent())
          .toMatch(/more than the context window of anthropic\/claude-sonnet-4-5/);
        expect(await page.locator("[data-testid=estimates]").count()).toBe(0);
      },
      { expected: (p) => p.startsWith("HTTP 400:") && p.includes("/api/v1/cost?") },
    ));
});

describe.concurrent("the phone page (issue 38 §7)", () => {
  it("three models, 2M tokens a day: under five screens of 390×844; screenshots at both sizes", async ({ expect }) => {
    const heights: Record<string, number> = {};
    for (const viewport of [PHONE, DESKTOP])
      await withPage(
        site.browser,
        async (page) => {
          await page.goto(`${site.server.base}${TWO_M_A_DAY}`);
          await expect.poll(async () => (await readRows(page)).length).toBe(3);
          await page.waitForLoadState("networkidle");
          heights[`${viewport.width}x${viewport.height}`] = await page.evaluate(
            () => document.documentElement.scrollHeight,
          );
          await page.screenshot({
            path: join(SCREENSHOTS, `cost-day-${viewport.width}x${viewport.height}.png`),
            fullPage: true,
          });
          expect(await axeViolations(page)).toEqual([]);
          expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
        },
        { viewport },
      );
    // The issue measured 33,169 px for three models (92 rows); five phone screens are 4,220 px.
    console.log(`calculator page height, three models: ${JSON.stringify(heights)}`);
    expect(heights["390x844"]).toBeLessThan(5 * PHONE.height);
  });
});
