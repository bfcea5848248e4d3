import { mkdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, test as base, beforeAll, expect, vi } from "vitest";
import type { TestServer } from "./harness.js";
import { serveWebCatalogue, type WebCatalogue } from "./web-support.js";

/**
 * The browser side of the web tests (issue 18, issue 28): real headless Chromium (Debian's
 * `chromium`, driven by playwright-core), axe-core in the page, and the API the page reads.
 */

/** Debian's Chromium, driven by playwright-core (brief: real components). */
export const CHROMIUM = "/usr/bin/chromium";
export const CHROMIUM_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

/** The two screens of issue 28: a laptop and a phone. */
export const DESKTOP = { width: 1366, height: 900 } as const;
export const PHONE = { width: 390, height: 844 } as const;

/** Where the README's screenshots are written (the runs write them, T126). */
export const SCREENSHOTS = fileURLToPath(new URL("../docs/screenshots/", import.meta.url));

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/** Starts Chromium and makes sure the screenshot folder exists. */
export async function launchBrowser(): Promise<Browser> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
}

/** What a web suite reads: the web catalogue on the bundled replay, its server, and one Chromium. */
export interface WebSetup {
  readonly web: WebCatalogue;
  readonly server: TestServer;
  readonly browser: Browser;
}

/** What {@link useWebCatalogue} serves a file: read inside tests only. */
export interface WebCatalogueHandle extends WebSetup {
  /** `GET <path>` of the served API (`/api/v1` added), as JSON. */
  api<T>(path: string): Promise<T>;
}

/**
 * The setup the web suites share (issue 34 §5): the file's `beforeAll` serves the web catalogue on
 * the bundled replay (`serveWebCatalogue`), launches Chromium and gives a page 30 s to wait for the
 * API in `expect.poll` (a loaded machine needs more than the default second: the file's checks share
 * one thread with its server, which computes a past day (`at=`) in-process, a 2.5 s block on a quiet
 * machine; under CI's load 15 s was once not enough for the changes page); `bind`, when given,
 * gets them, and the returned handle reads them. The file's `afterAll` takes it all down again.
 */
export function useWebCatalogue(bind?: (setup: WebSetup) => void): WebCatalogueHandle {
  let setup: WebSetup | undefined;
  beforeAll(async () => {
    vi.setConfig({ expect: { poll: { timeout: 30_000 } } });
    const web = await serveWebCatalogue();
    setup = { web, server: web.server, browser: await launchBrowser() };
    bind?.(setup);
  });
  afterAll(async () => {
    vi.resetConfig();
    await setup?.browser.close();
    await setup?.web.close();
  });
  const made = (): WebSetup => {
    if (!setup) throw new Error("the web catalogue is served before the file's first test; read it inside a test");
    return setup;
  };
  return {
    get web() {
      return made().web;
    },
    get server() {
      return made().server;
    },
    get browser() {
      return made().browser;
    },
    api: <T>(path: string) => apiJson<T>(made().server, path),
  };
}

/**
 * `test` (and `it`) with a `browser` fixture (issue 34 §5): one Chromium per test worker, launched on
 * first use and shared by every browser suite the worker runs, instead of a launch per file.
 */
export const browserTest = base.extend<{ browser: Browser }>({
  browser: [
    // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from its first parameter
    async ({}, use) => {
      const browser = await launchBrowser();
      await use(browser);
      await browser.close();
    },
    { scope: "worker" },
  ],
});

/**
 * Runs `check` on a page of a fresh browser context (empty cache) of the given size, then expects
 * that nothing went wrong on the page — no console error, uncaught exception, failed or 4xx/5xx
 * request — but the problems `expected` accepts, and closes the context (also when `check` fails).
 * `check` gets the problems recorded so far. Each call is a context of its own, so the browser suites'
 * page checks run as `describe.concurrent` (T378): a check mostly waits (page load, networkidle, axe).
 */
export async function withPage(
  browser: Browser,
  check: (page: Page, problems: readonly string[]) => Promise<void>,
  options: {
    readonly expected?: (problem: string) => boolean;
    readonly viewport?: { readonly width: number; readonly height: number };
    /** The page's clock, fixed at this time (for "N days ago"). */
    readonly now?: Date;
  } = {},
): Promise<void> {
  const context = await browser.newContext({ viewport: { ...(options.viewport ?? { width: 1280, height: 900 }) } });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on("console", (m) => {
    // The browser logs every 4xx/5xx answer too; the response listener below records each with its URL.
    if (m.type() === "error" && !m.text().startsWith("Failed to load resource: the server responded with a status"))
      problems.push(`console error: ${m.text()} (${m.location().url})`);
  });
  page.on("pageerror", (e) => problems.push(`uncaught: ${e.message}`));
  page.on("requestfailed", (r) => {
    // The pages cancel an API request that a newer one supersedes (the model picker's suggestions, the
    // catalogue's list as you type: useApi's AbortController): on a loaded machine the older answer is
    // still in flight, and that is no fault.
    const superseded =
      r.failure()?.errorText === "net::ERR_ABORTED" && new URL(r.url()).pathname.startsWith("/api/v1/");
    if (!superseded) problems.push(`failed request: ${r.url()} ${r.failure()?.errorText}`);
  });
  page.on("response", (r) => {
    if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url()}`);
  });
  if (options.now) await page.clock.setFixedTime(options.now);
  try {
    await check(page, problems);
    const expected = options.expected ?? (() => false);
    expect(problems.filter((p) => !expected(p))).toEqual([]);
  } finally {
    await context.close();
  }
}

/**
 * axe-core run in the page: the violations as "impact rule: targets" — the serious and critical
 * ones, or with `every` those of every impact (moderate and minor too; issue 50).
 */
export async function axeViolations(page: Page, options: { every?: boolean } = {}): Promise<string[]> {
  await page.addScriptTag({ content: AXE_SOURCE });
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (c: Document, o: object) => Promise<AxeResult> } }).axe;
    // Every rule runs; only the violations are reported node by node (the rest one node each), which
    // is the part of axe's work these checks read (T381).
    const result = await axe.run(document, { resultTypes: ["violations"] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      targets: v.nodes.slice(0, 3).map((n) => n.target.join(" ")),
    }));
  });
  return violations
    .filter((v) => options.every === true || v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.impact} ${v.id}: ${v.targets.join(", ")}`);
}
interface AxeResult {
  violations: { id: string; impact: string | null; nodes: { target: string[] }[] }[];
}

/** A GET of the API the page reads, expected to answer 200. */
export async function apiJson<T>(server: TestServer, path: string): Promise<T> {
  const res = await fetch(`${server.base}/api/v1${path}`);
  expect(res.status, path).toBe(200);
  return (await res.json()) as T;
}

/** An amount as the page formats it: `$15.00`, `$0.0048` (2 to 6 decimals). */
export function money(amount: number, currency = "USD"): string {
  return new Intl.NumberFormat("en", {
    style: "currency",
    currency,
    minimumFractionDigits: 2,
    maximumFractionDigits: 6,
  }).format(amount);
}
