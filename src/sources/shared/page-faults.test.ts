import { describe, expect, it } from "vitest";
import { fakeOf } from "../../../test/fake-upstream.js";
import { recordedPayload, recordedReport } from "../../../test/recorded-payloads.js";
import type { Listing } from "../../domain/observation.js";
import { SOURCES } from "../registry.js";
import { listSnapshots } from "../snapshot-reader.js";
import type { SourceAdapter, SourcePayload } from "../source.js";
import { checkPageAgainstLastGood, checkPageText } from "./page-health.js";

// Issue 48 §5 (T476): the official pages' fault matrix of issue 35 (soft 404, interstitial, half the
// price rows, one amount ×100, an empty page), data-driven over every recorded copy of every gated
// page of the registry — no source named here. Each broken copy goes through what the pipeline does
// with a page (`parseOutcome`: the text gate, the parse, the gate against the last good copy, here the
// copy itself unbroken) and must be refused. The live matrix (test/live-official.test.ts) shows the
// same refusals through a whole run for Anthropic and OpenAI. Mistral's source files are no page: the
// general guards judge them (T190, T192).

const PAGES = SOURCES.filter((a) => a.pageHealth);
const COPIES = PAGES.flatMap((a) =>
  [...listSnapshots("data/upstream")]
    .filter(([, sources]) => sources.includes(a.id))
    .map(([date]) => ({ id: a.id, adapter: a, date })),
).filter((c) => !(fakeOf(c.id).failedCopies ?? []).includes(c.date));

/** What the pipeline makes of a page payload: its refusal, or null when it would be believed. */
function judge(adapter: SourceAdapter, payload: SourcePayload, last: readonly Listing[]): string | null {
  try {
    for (const [file, spec] of Object.entries(adapter.pageHealth ?? {}))
      checkPageText(adapter.id, file, payload.files.get(file) ?? "", spec);
    const listings = adapter.parseReport ? adapter.parseReport(payload).listings : adapter.parse(payload);
    return checkPageAgainstLastGood(listings, last);
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** An amount as a page writes it: `$0.25`, `\$0.6`, `￥1.00`, `0.2元`, or a JS row's first number. */
const AMOUNT = /(\\?\$\s*|[￥¥]\s*)(\d[\d,]*(?:\.\d+)?)|(\d+(?:\.\d+)?)(?=\s*元)|(?<=",\s*)(\d+(?:\.\d+)?)/;

/** `text` with the first amount of its first price row that states one ×100 (a cents-for-dollars slip). */
function slipped(id: string, name: string, text: string): string {
  const rows = new Set(text.split("\n"));
  for (const line of fakeOf(id as never)
    .empty(name, text)
    .split("\n"))
    rows.delete(line);
  const row = text.split("\n").find((l) => rows.has(l) && AMOUNT.test(l) && !/^\s*$/.test(l));
  if (!row) throw new Error(`${id}: no price row states an amount`);
  const edited = row.replace(
    AMOUNT,
    (m, _sign: string | undefined, a: string | undefined, b: string | undefined, c) => {
      const amount = a ?? b ?? (c as string);
      return m.replace(amount, String(Number(amount.replace(/,/g, "")) * 100));
    },
  );
  return text.replace(row, edited);
}

const FAULTS: readonly { name: string; edit: (id: string, name: string, text: string) => string; reason: RegExp }[] = [
  {
    // Invented: no home page was recorded; a docs site's home page answered 200 at the page's address.
    name: "a soft 404 (the site's home page, 200)",
    edit: () =>
      `<!DOCTYPE html><html lang="en"><head><title>Docs</title></head><body><h1>Welcome</h1>${"<p>Get started.</p>".repeat(1500)}</body></html>`,
    reason: /health: soft 404/,
  },
  {
    // Invented: Cloudflare's challenge page, as it is served to a bot.
    name: "an interstitial (Just a moment…)",
    edit: () =>
      '<!DOCTYPE html><html><head><title>Just a moment...</title></head><body><div id="cf-chl-widget"></div></body></html>',
    reason: /health: interstitial/,
  },
  {
    name: "half the price rows gone",
    edit: (id, name, text) => fakeOf(id as never).dropRows(name, text, (i) => i % 2 === 0),
    reason: /health: \d+ of \d+ priced rows of the last good copy are gone|health: canary|has no|no priced|states no/,
  },
  { name: "one amount ×100", edit: slipped, reason: /health: .* moved by a unit factor ×100/ },
  {
    name: "an empty page (every price row gone)",
    edit: (id, name, text) => fakeOf(id as never).empty(name, text),
    reason: /health: |has no|no priced|states no|no model/,
  },
];

describe.each(COPIES)("$id, copy $date", ({ id, adapter, date }) => {
  const payload = recordedPayload(id, date);
  const original = recordedReport(adapter, date).listings;

  it("is believed as recorded", () => {
    expect(judge(adapter, payload, original)).toBeNull();
  });

  it.each(FAULTS)("refuses $name", ({ edit, reason }) => {
    const files = new Map(payload.files);
    for (const name of Object.keys(adapter.pageHealth!)) files.set(name, edit(id, name, files.get(name) ?? ""));
    const why = judge(adapter, { ...payload, files }, original);
    expect(why).toMatch(reason);
  });
});
