import { describe, it } from "vitest";
import type { ApiChange, ApiCostEstimate, ApiModel, ApiProvider } from "../src/catalogue/schemas.js";
import { CHANNEL_NAMES, MULTI_SELLER_CHANNELS } from "../src/domain/channel.js";
import { useWebCatalogue, withPage } from "./web-browser.js";

/**
 * Issue 38 §2 and §5 in Chromium on the real Vite build and the bundled replay (T340–T344): the
 * calculator's headline and the model page's cheapest offer are offers a buyer can trust, and the
 * pages say what the API says of a context window, a last change and a move's confidence. Amounts
 * and verdicts are read from the API in the test.
 */

const SONNET = "anthropic/claude-sonnet-4-5";
const THREE = [SONNET, "openai/gpt-5", "google/gemini-2.5-pro"];

const site = useWebCatalogue();
const api = site.api;

describe.concurrent("offers a buyer can trust lead (T340)", () => {
  it("the calculator's headline for Sonnet 4.5, GPT-5 and Gemini 2.5 Pro is /cost's first estimate, a trusted one, not qihang-ai", ({
    expect,
  }) =>
    withPage(site.browser, async (page) => {
      await page.goto(`${site.server.base}/cost?models=${THREE.join(",")}&requests=30000&input=2000&output=400`);
      const body = await api<{ data: ApiCostEstimate[] }>(
        `/cost?models=${THREE.join(",")}&channel=all&inputTokens=60000000&outputTokens=12000000&requests=30000`,
      );
      const first = body.data[0]!;
      expect(first.trust.trusted).toBe(true);
      const answer = page.getByTestId("answer");
      await expect.poll(() => answer.textContent()).toContain(first.name);
      const text = (await answer.textContent()) ?? "";
      // The page names a multi-seller channel's seller, else the channel (the headline moved to
      // OpenRouter's channel with T452: poe's one-source offer no longer leads).
      expect(text).toContain(MULTI_SELLER_CHANNELS.has(first.channel) ? first.seller : CHANNEL_NAMES[first.channel]);
      expect(text).not.toContain("qihang-ai");
      // Issue 50 §1, T452: the headline shows its confidence.
      expect(await answer.locator("[data-confidence]").getAttribute("data-confidence")).toBe(first.confidence);
    }));

  it("Sonnet 4.5's page: the cheapest offer is a trusted one; qihang-ai's row is marked unconfirmed", ({ expect }) =>
    withPage(site.browser, async (page) => {
      await page.goto(`${site.server.base}/m/${SONNET}`);
      await page.locator("[data-ready=true]").waitFor();
      expect(await page.getByTestId("cheapest").textContent()).not.toContain("qihang-ai");
      const row = page.locator("[data-testid=offers] tbody tr[data-seller=qihang-ai]");
      expect(await row.locator("[data-trust=unconfirmed]").textContent()).toBe("unconfirmed: suspected CNY/USD slip");
    }));
});

describe.concurrent("one answer per question (T342–T344)", () => {
  it('Llama 3.3 70B\'s page: the maker lists it only in plan credits, said so, not "publishes none" above its credits (issue 50)', ({
    expect,
  }) =>
    withPage(site.browser, async (page) => {
      const LLAMA = "meta/llama-3.3-70b-instruct";
      const model = await api<{ data: ApiModel }>(`/models/${LLAMA}`);
      // The replay's Llama API row (models.dev seller `llama`): 0 credits, included in plan, no money price.
      expect(model.data.prices.length).toBeGreaterThan(0);
      expect(model.data.prices.every((p) => p.denomination === "credit")).toBe(true);
      await page.goto(`${site.server.base}/m/${LLAMA}`);
      await page.locator("[data-ready=true]").waitFor();
      const summary = (await page.getByTestId("summary").textContent()) ?? "";
      expect(summary).toContain("The maker lists it only in a plan, in credits");
      expect(summary).not.toContain("The maker publishes none");
      await expect
        .poll(() => page.getByTestId("maker-credits-only").textContent())
        .toContain("publishes no price in money");
    }));

  it("Sonnet 4.5's page states both windows the API and /cost state", ({ expect }) =>
    withPage(site.browser, async (page) => {
      const model = await api<{ data: ApiModel }>(`/models/${SONNET}`);
      expect([model.data.contextWindow, model.data.longContextWindow]).toEqual([200000, 1000000]);
      await page.goto(`${site.server.base}/m/${SONNET}`);
      await page.locator("[data-ready=true]").waitFor();
      expect(await page.getByTestId("context-window").textContent()).toBe(
        "200,000 tokens; 1,000,000 with long context",
      );
    }));

  it("GPT-4o's page: no price change since the first day of the data, not a change on it", ({ expect }) =>
    withPage(site.browser, async (page) => {
      await page.goto(`${site.server.base}/m/openai/gpt-4o`);
      await page.locator("[data-ready=true]").waitFor();
      await expect.poll(() => page.getByTestId("last-change").textContent()).toBe("none since 2025-07-01");
    }));

  it("GPT-4o's page names the maker as /providers does: \"confirmed on OpenAI's page\", not its slug (T363)", ({
    expect,
  }) =>
    withPage(site.browser, async (page) => {
      const providers = await api<{ data: ApiProvider[] }>("/providers");
      expect(providers.data.find((p) => p.slug === "openai")?.name).toBe("OpenAI");
      const model = await api<{ data: ApiModel }>("/models/openai/gpt-4o");
      const confirmed = model.data.prices.filter((p) => (p.evidence?.length ?? 0) > 0);
      expect(confirmed.length).toBeGreaterThan(0);
      await page.goto(`${site.server.base}/m/openai/gpt-4o`);
      await page.locator("[data-ready=true]").waitFor();
      const notes = page.getByTestId("maker-prices").getByTestId("page-confirmation");
      await expect.poll(() => notes.first().textContent()).toMatch(/^ confirmed on OpenAI's page, \d{4}-\d{2}-\d{2}$/);
      // The main table: prices without a qualifier but the seller (the regional ones are folded apart).
      const main = confirmed.filter((p) => Object.keys(p.qualifiers).every((k) => k === "seller"));
      expect(await notes.count()).toBe(main.length);
    }));

  it("the changes page shows each move's confidence: DeepSeek's cache read 0.028 → 0.0028 is low", ({ expect }) =>
    withPage(site.browser, async (page) => {
      const changes = await api<{ data: ApiChange[] }>(
        "/changes?provider=deepseek&channel=direct&days=365&q=deepseek-chat",
      );
      const move = changes.data.find(
        (c) => c.model === "deepseek/deepseek-chat" && c.label === "Input (cache read)" && c.newAmount === 0.0028,
      )!;
      expect(move.confidence).toBe("low");
      await page.goto(`${site.server.base}/changes?provider=deepseek&channel=direct&days=365&q=deepseek-chat`);
      const rows = page.locator("[data-testid] tbody tr", { hasText: "DeepSeek" }).filter({ hasText: "cache read" });
      await expect.poll(() => rows.count()).toBeGreaterThan(0);
      const levels = await rows.locator("[data-testid=change-confidence]").allTextContents();
      expect(levels).toContain("low");
      // Every row states a level, or that the move was superseded.
      for (const level of levels)
        expect(["verified", "high", "medium", "low", "unverified", "superseded"]).toContain(level);
    }));
});
