import { describe, expect, it } from "vitest";
import { recordedPayload, recordedReport } from "../../../test/recorded-payloads.js";
import type { Listing } from "../../domain/observation.js";
import { SOURCES } from "../registry.js";
import { listSnapshots } from "../snapshot-reader.js";
import { checkPageAgainstLastGood, checkPageText, pageTitle } from "./page-health.js";

// The health gate of the makers' own pages (issue 35 §2, T291), on every gated file of every
// registered page source (issue 48 §4: derived from the registry, no source named here).
const FIRST_PARTY = SOURCES.filter((a) => a.pageHealth);
const dates = (id: string) => [...listSnapshots("data/upstream")].filter(([, s]) => s.includes(id)).map(([d]) => d);
const page = (id: string, date: string, file: string) => recordedPayload(id, date).files.get(file) as string;
const GATED = FIRST_PARTY.flatMap((a) =>
  Object.entries(a.pageHealth!).map(([file, spec]) => ({ id: a.id, file, spec })),
);

// Issue 48 §4–§5 (T476): derived, not a list of names. Every live file of a maker's own list that is a
// Markdown page is gated; what is left ungated is a JSON API (OpenRouter, authoritative for its own
// resale prices) or source files (Mistral's TypeScript model files).
it("every Markdown page of a source authoritative for a maker's own list is gated", () => {
  expect(FIRST_PARTY.map((a) => a.id)).toEqual(expect.arrayContaining(["official-anthropic", "official-openai"]));
  for (const a of SOURCES.filter((s) => s.info.authoritativeFor.length > 0)) {
    const files = a.upstream.files(a.upstream.setting?.defaults ?? []);
    for (const f of files.filter((f) => /\.md$/.test(f.name)))
      expect(a.pageHealth?.[f.name], `${a.id} ${f.name}`).toBeDefined();
    if (!a.pageHealth) for (const f of files) expect(f.name, a.id).toMatch(/\.(json|ts)$/);
  }
});

describe.each(GATED)("$id $file", ({ id, file, spec }) => {
  it("every recorded copy passes the page checks", () => {
    expect(dates(id).length).toBeGreaterThanOrEqual(1);
    for (const d of dates(id)) expect(() => checkPageText(id, file, page(id, d, file), spec)).not.toThrow();
  });

  const real = page(id, dates(id).at(-1)!, file);
  // The page's title where it states it: YAML front matter (Z.ai's copy) or its first `# ` heading.
  const FRONT = /^---\r?\n[\s\S]*?\r?\n---\s*\r?\n/;
  const title = pageTitle(real);
  const body = real.replace(FRONT, "").replace(/^#\s+.+$/m, "");
  // A page that states no title (Google's, T476) gets one: `# Welcome to the docs` opens it.
  const retitled = (text: string) =>
    FRONT.test(real)
      ? real.replace(/^title:.*$/m, `title: ${text}`)
      : title === null
        ? `# ${text}\n${real}`
        : real.replace(/^#\s+.+$/m, `# ${text}`);
  // Invented: no interstitial or home page was recorded. Markers as Cloudflare's challenge page writes them.
  it.each([
    [
      "interstitial",
      "<!DOCTYPE html><html><head><title>Just a moment...</title></head><body>cf-chl</body></html>",
      /health: interstitial/,
    ],
    [
      "soft 404 (HTML)",
      `<!doctype html><html><head><title>Home</title></head><body>${"x".repeat(20_000)}</body></html>`,
      /health: soft 404 \(an HTML document/,
    ],
    // A page without a title of its own (Google's, T476) is told from another page by its canaries.
    spec.title
      ? [
          "soft 404 (another page)",
          retitled("Welcome to the docs"),
          /health: soft 404 \(the page's title is "Welcome to the docs"/,
        ]
      : [
          "soft 404 (another page)",
          `# Welcome to the docs\n\n${"Get started with the API in minutes.\n".repeat(Math.ceil(spec.bytes[0] / 30))}`,
          /health: canary .* missing/,
        ],
    ["canary gone", real.replace(new RegExp(spec.canaries[0]!.source, "gm"), ""), /health: canary .* missing/],
    [
      "too small",
      // (cut by bytes: a Chinese page's characters are three bytes each)
      Buffer.from(real)
        .subarray(0, Math.min(4000, Math.floor(spec.bytes[0] * 0.9)))
        .toString("utf8"),
      /health: (size \d+ bytes outside the page's band|canary)/,
    ],
    ["too large", real + "\n".repeat(spec.bytes[1]), /health: size \d+ bytes outside the page's band/],
  ])("fails a %s", (_name, text, reason) => {
    expect(() => checkPageText(id, file, text, spec)).toThrow(reason);
  });

  // Issue 46 §4 (T408), edited from the real copy: the title moves into YAML front matter and the
  // page's links become absolute — decoration, not a soft 404.
  it("passes its copy with the title in front matter and absolute links", () => {
    // (A page without a title, Google's: front matter gives it the maker's own name for the page.)
    const named = title ?? "Gemini Developer API pricing";
    const edited = `---\ntitle: "${named}"\ndescription: Prices\n---\n\n${body.replace(/\]\(\//g, "](https://example.com/")}`;
    expect(pageTitle(edited)).toBe(named);
    expect(() => checkPageText(id, file, edited, spec)).not.toThrow();
    const other = edited.replace(`title: "${named}"`, "title: Page not found");
    if (spec.title)
      expect(() => checkPageText(id, file, other, spec)).toThrow(/soft 404 \(the page's title is "Page not found"/);
    else
      expect(() => checkPageText(id, file, other.replace(new RegExp(spec.canaries[0]!.source, "g"), ""), spec)).toThrow(
        /canary/,
      );
  });
});

describe("against the last good copy", () => {
  const a = SOURCES.find((s) => s.id === "official-anthropic")!;
  const last = recordedReport(a, "2026-04-01").listings;
  const next = recordedReport(a, "2026-05-01").listings;
  const scaled = (ls: readonly Listing[], model: string, factor: number): Listing[] =>
    ls.map((l) =>
      l.model === model
        ? { ...l, prices: l.prices.map((p, i) => (i === 0 ? { ...p, amount: p.amount * factor } : p)) }
        : l,
    );

  it("the real month-to-month change passes (Opus 4.7 added)", () => {
    expect(checkPageAgainstLastGood(next, last)).toBeNull();
    expect(checkPageAgainstLastGood(next, null)).toBeNull();
  });

  it("one amount ×100 or ÷1000 fails the page; ×2 (a price move) does not", () => {
    expect(checkPageAgainstLastGood(scaled(next, "claude-haiku-3", 100), last)).toBe(
      "health: claude-haiku-3 input moved by a unit factor ×100 (0.25 → 25) against the last good copy",
    );
    expect(checkPageAgainstLastGood(scaled(next, "claude-opus-4", 0.001), last)).toMatch(/÷1000 \(15 → 0\.015\)/);
    expect(checkPageAgainstLastGood(scaled(next, "claude-opus-4", 2), last)).toBeNull();
  });

  it("losing more than a quarter of the priced rows fails; a quarter passes", () => {
    const half = next.filter((_, i) => i % 2 === 0);
    // About half the rows are gone (the page's rows are not spread evenly over its listings); the
    // message states the share of the last good copy's rows that are gone.
    const failure = checkPageAgainstLastGood(half, last) ?? "";
    const [, gone, of, pct] =
      /^health: (\d+) of (\d+) priced rows of the last good copy are gone \((\d+\.\d) %, more than a quarter\)$/.exec(
        failure,
      ) ?? [];
    expect(pct, failure).toBe(((Number(gone) / Number(of)) * 100).toFixed(1));
    expect(Number(pct)).toBeGreaterThan(40);
    expect(Number(pct)).toBeLessThan(60);
    const rows = last.reduce((n, l) => n + l.prices.length, 0);
    expect(checkPageAgainstLastGood(next.slice(0, next.length - 3), last)).toBeNull();
    expect(rows).toBeGreaterThan(0);
  });
});
