import { dimensionKey } from "../../domain/dimension.js";
import type { Listing } from "../../domain/observation.js";
import { SourcePayloadError } from "../source.js";

/**
 * The health gate of a maker's own price page (issue 35 §2, T291): checks a page must pass before
 * any of it is believed. Pure; two halves:
 *
 * - {@link checkPageText}, on the text alone, inside the adapter's parse (so the replay applies it
 *   too): not an interstitial, not a soft 404, canary present, size within the page's band.
 * - {@link checkPageAgainstLastGood}, on the parse against the last good copy's parse, in the live
 *   pipeline beside the general guards (`parseOutcome`): at most a quarter of its priced rows gone,
 *   and no amount moved by a unit factor (×100, ×1000 or their inverses) — one such amount
 *   fails the page, where the general scale-shift guard (T192) needs half of them.
 *
 * A page that fails is a failed source, its reason in `/sources`; its last good copy keeps its place (T178).
 */

/** What one first-party page must look like (declared in the source's own folder). */
export interface PageHealthSpec {
  /** Text every good copy holds (each pattern must match). */
  readonly canaries: readonly RegExp[];
  /**
   * The page's title (front matter `title:` or first `# ` heading, {@link pageTitle}): another one is a
   * different page served at the address (a soft 404). Absent for a page that states no title
   * (Google's Markdown rendering, T476): any title, or none, then passes.
   */
  readonly title?: RegExp;
  /**
   * The band of sizes (UTF-8 bytes) a good copy has: `[min, max]`, set around the recorded copies
   * (documented in the source's README). Outside it the page is not believed.
   */
  readonly bytes: readonly [number, number];
}

/** Markers of a bot-check or interstitial page served instead of the content (Cloudflare and others). */
const INTERSTITIAL = [
  /just a moment\.\.\./i,
  /checking your browser/i,
  /cf-chl|challenge-platform|cf_chl_opt/i,
  /attention required! \| cloudflare/i,
  /enable javascript and cookies to continue/i,
  /verify you are human/i,
];

/**
 * Checks a page's text before it is parsed.
 * @param source the source id (for the message)
 * @param file the payload file's name
 * @throws SourcePayloadError `…: health: interstitial …`, `…: health: soft 404 …`,
 *   `…: health: canary … missing`, `…: health: size …` when the page is not to be believed
 */
export function checkPageText(source: string, file: string, text: string, spec: PageHealthSpec): void {
  const fail = (reason: string): never => {
    throw new SourcePayloadError(`${source}: ${file}: health: ${reason}`);
  };
  const marker = INTERSTITIAL.find((m) => m.test(text));
  if (marker) fail(`interstitial (a bot-check page, marker ${marker.source}), not the price page`);
  if (/^\s*(<!doctype html|<html[\s>])/i.test(text))
    fail("soft 404 (an HTML document where the page's Markdown twin was asked for)");
  const title = pageTitle(text);
  if (spec.title && (title === null || !spec.title.test(title)))
    fail(`soft 404 (the page's title is ${title === null ? "missing" : JSON.stringify(title)}, not the price page's)`);
  const plain = text.replace(/[\u00a0\u2007\u2009\u202f]/g, " ");
  const missing = spec.canaries.find((c) => !c.test(plain));
  if (missing) fail(`canary ${missing.source} missing`);
  const bytes = Buffer.byteLength(text, "utf8");
  const [min, max] = spec.bytes;
  if (bytes < min || bytes > max) fail(`size ${bytes} bytes outside the page's band ${min}–${max}`);
}

/**
 * A page's title (issue 46 §4, T408): YAML front matter's `title:` (`---\ntitle: Pricing\n---`, quotes
 * dropped) when the page opens with front matter, else its first `# ` heading; null when it has neither.
 */
export function pageTitle(text: string): string | null {
  const front = /^\uFEFF?\s*---\r?\n([\s\S]*?)\r?\n---\s*(?:\r?\n|$)/.exec(text);
  const fromFront = front ? /^title:\s*(.+?)\s*$/m.exec(front[1] as string)?.[1] : undefined;
  if (fromFront) return fromFront.replace(/^(["'])(.*)\1$/, "$2").trim();
  return /^#\s+(.+)$/m.exec(text)?.[1]?.trim() ?? null;
}

/** The largest share (0–1) of the last good copy's priced rows a page may lose (a quarter). */
export const MAX_PAGE_ROW_DROP = 0.25;

/** Ratios that are a unit slip (cents for dollars, per 1K for per 1M, …), not a price move. */
const UNIT_FACTORS = [100, 1000];

/** Amounts (with a readable label) by `seller / model / dimension / unit`, priced rows only. */
function amounts(listings: readonly Listing[]): Map<string, { amount: number; label: string }> {
  const out = new Map<string, { amount: number; label: string }>();
  for (const l of listings)
    for (const p of l.prices) {
      if (!(p.amount > 0)) continue;
      const d = p.dimension;
      const label = [
        l.model,
        d.direction,
        d.cache === "none" ? "" : `cache ${d.cache}`,
        d.tier === "standard" ? "" : d.tier,
      ]
        .filter(Boolean)
        .join(" ");
      out.set(`${l.seller}/${l.model} ${dimensionKey(d)}|${p.unit}`, { amount: p.amount, label });
    }
  return out;
}

/**
 * Checks a first-party page's parse against its last good copy's parse.
 * @param next this copy's listings
 * @param last the last good copy's listings, or null on the source's first run
 * @returns why the page is not believed (`health: …`), or null
 */
export function checkPageAgainstLastGood(next: readonly Listing[], last: readonly Listing[] | null): string | null {
  if (!last) return null;
  const before = amounts(last);
  const now = amounts(next);
  if (before.size === 0) return null;
  const gone = [...before.keys()].filter((k) => !now.has(k)).length;
  if (gone / before.size > MAX_PAGE_ROW_DROP) {
    return `health: ${gone} of ${before.size} priced rows of the last good copy are gone (${((gone / before.size) * 100).toFixed(1)} %, more than a quarter)`;
  }
  for (const [key, was] of before) {
    const is = now.get(key)?.amount;
    if (is === undefined) continue;
    const ratio = is / was.amount;
    const factor = UNIT_FACTORS.find((f) => Math.abs(ratio / f - 1) < 1e-9 || Math.abs(ratio * f - 1) < 1e-9);
    if (factor !== undefined) {
      const by = ratio > 1 ? `×${factor}` : `÷${factor}`;
      return `health: ${was.label} moved by a unit factor ${by} (${was.amount} → ${is}) against the last good copy`;
    }
  }
  return null;
}
