import { describe, expect, it } from "vitest";
import { payloadOf } from "../../../test/recorded-payloads.js";
import { recordedPayload } from "../../../test/recorded-runs.js";
import { isBaseTextDimension } from "../../domain/dimension.js";
import type { Listing } from "../../domain/observation.js";
import { officialAnthropicSource } from "../official-anthropic/index.js";
import { officialOpenaiSource } from "../official-openai/index.js";
import { readStatements, STATEMENT_PATTERNS } from "./page-statements.js";

// Issue 46 §3 (T465): the sentences a maker's page uses to announce, confirm or withdraw a change.
// The wordings are Anthropic's own for Claude Sonnet 5 (2026-07 … 2026-08, as the public recorders of
// the page keep them); no recorded copy of ours has them, so they are written into the REAL recorded
// 2026-05-01 copy on Claude Sonnet 4.5 (edited: its row split into dated rows, the note added, the
// model's name and amounts put in the real sentences' places), read on the copy's day.

const DAY = "2026-05-01";
const real = () => recordedPayload("official-anthropic", DAY).files.get("pricing.md") as string;
const ROW = /^\| Claude Sonnet 4\.5 .*$/m;
const DATED = [
  "| Claude Sonnet 4.5 [through June 30, 2026](/docs/en/about-claude/pricing) | $3 / MTok | $3.75 / MTok | $6 / MTok | $0.30 / MTok | $15 / MTok |",
  "| Claude Sonnet 4.5 starting July 1, 2026 | $4.50 / MTok | $5.63 / MTok | $9 / MTok | $0.45 / MTok | $22.50 / MTok |",
].join("\n");
const ANNOUNCED =
  "Introductory pricing of $3/$15 per million input/output tokens is in effect through June 30, 2026, after which the standard pricing of $4.50/$22.50 per million input/output tokens will take effect.";
const WITHDRAWN =
  "The $3/$15 per million input/output token pricing for Claude Sonnet 4.5, announced at launch as introductory pricing through June 30, 2026, is now the standard price. The previously scheduled increase to $4.50/$22.50 per million input/output tokens on July 1, 2026 will not occur.";

/** The real copy with the Sonnet 4.5 row replaced (or kept) and a note under the Model pricing table. */
function edited(rows: string | null, note: string | null): string {
  let text = real();
  if (rows !== null) text = text.replace(ROW, rows);
  if (note !== null) text = text.replace(/\n<Note>\nMTok = /, `\n<Note>\n${note}\n</Note>\n\n<Note>\nMTok = `);
  return text;
}

const parse = (text: string) =>
  officialAnthropicSource.parseReport!(payloadOf({ "pricing.md": text }, `${DAY}T00:00:00.000Z`));
const sonnet = (listings: readonly Listing[]) => listings.find((l) => l.model === "claude-sonnet-4-5")!;
const base = (l: Listing, direction: "input" | "output") =>
  l.prices.find((p) => p.dimension.direction === direction && isBaseTextDimension(p.dimension));
const forReview = (unmapped: Readonly<Record<string, number>> | undefined) =>
  Object.entries(unmapped ?? {}).filter(([k]) => k.startsWith("sentence for review:"));

describe("the reviewed wordings", () => {
  it.each(STATEMENT_PATTERNS.map((p) => [p.kind, p]))("%s: its pattern reads its own real sentence", (_, p) => {
    expect(p.pattern.test(p.example.sentence)).toBe(true);
    const read = readStatements(p.example.sentence, () => []);
    expect(read.map((s) => s.kind)).toEqual([p.kind]);
  });

  it("no recorded copy of either page states a change; OpenAI's dated sentences are read or reported", () => {
    for (const date of ["2025-11-01", "2025-12-01", "2026-02-01", "2026-03-01", "2026-04-01", "2026-05-01"])
      expect(readStatements(recordedPayload("official-anthropic", date).files.get("pricing.md")!, () => [])).toEqual(
        [],
      );
    // The 2026-06-01 footnote dates which models an uplift covers: read, nothing to apply.
    const june = readStatements(recordedPayload("official-openai", "2026-06-01").files.get("pricing.md")!, () => []);
    expect(june.map((s) => s.kind)).toEqual(["scope"]);
    // The 2026-03-01 copy's container sentence: a dated billing change no wording reads, for review.
    const march = readStatements(recordedPayload("official-openai", "2026-03-01").files.get("pricing.md")!, () => []);
    expect(march).toEqual([
      {
        kind: "review",
        sentence: "Starting March 31, 2026, container usage will be billed per 20-minute session.",
        reason: "a dated price sentence no reviewed wording matches",
      },
    ]);
    expect(
      forReview(officialOpenaiSource.parseReport!(recordedPayload("official-openai", "2026-06-01")).unmapped),
    ).toEqual([]);
  });
  it("a pane's rows are data, not prose: a dated row written with `$` strings is never a sentence (T513)", () => {
    // The real 2026-06-01 copy with a future-dated gpt-4o row above the real one, its amounts written
    // as "$…" strings (invented amounts); before T513 the whole `rows={[…]}` literal was one
    // "sentence" with a date and a dollar, counted for review in /sources.
    const june = recordedPayload("official-openai", "2026-06-01");
    const text = (june.files.get("pricing.md") as string).replace(
      /^(\s*)\["gpt-4o", 2\.5, 1\.25, 10\],$/m,
      '$1["gpt-4o (starting January 1, 2027)", "$5", "$2.50", "$20"],\n$1["gpt-4o", 2.5, 1.25, 10],',
    );
    expect(text).toContain("gpt-4o (starting January 1, 2027)");
    expect(readStatements(text, () => []).map((s) => s.kind)).toEqual(["scope"]);
    const r = officialOpenaiSource.parseReport!(payloadOf({ "pricing.md": text }, june.observedAt));
    expect(forReview(r.unmapped)).toEqual([]);
  });
});

describe("a page's dated sentences on its listings", () => {
  it("the dated rows and their note announce the successor; the note confirms, nothing is for review", () => {
    const r = parse(edited(DATED, ANNOUNCED));
    const l = sonnet(r.listings);
    expect(base(l, "input")).toMatchObject({ amount: 3, validity: { until: "2026-07-01", next: 4.5 } });
    expect(base(l, "output")).toMatchObject({ amount: 15, validity: { until: "2026-07-01", next: 22.5 } });
    expect(forReview(r.unmapped)).toEqual([]);
  });

  it("the real withdrawal (one row, two sentences) leaves the price standing with no end", () => {
    const r = parse(edited(null, WITHDRAWN));
    for (const p of sonnet(r.listings).prices) expect(p.validity).toBeUndefined();
    expect(base(sonnet(r.listings), "input")?.amount).toBe(3);
    expect(forReview(r.unmapped)).toEqual([]);
  });

  it("the withdrawal outranks dated rows the page still shows: no price of the model keeps that end", () => {
    const withRows = parse(edited(DATED, null));
    expect(sonnet(withRows.listings).prices.filter((p) => p.validity).length).toBeGreaterThan(4);
    const r = parse(edited(DATED, WITHDRAWN));
    expect(sonnet(r.listings).prices.filter((p) => p.validity)).toEqual([]);
    expect(base(sonnet(r.listings), "output")?.amount).toBe(15);
  });

  it("a sentence naming the model dates its standard input and output when the table does not", () => {
    const r = parse(
      edited(null, "Introductory pricing of $3 / $15 per MTok applies to Claude Sonnet 4.5 through June 30, 2026."),
    );
    const l = sonnet(r.listings);
    expect(base(l, "input")?.validity).toEqual({ until: "2026-07-01", next: null });
    expect(base(l, "output")?.validity).toEqual({ until: "2026-07-01", next: null });
    expect(l.prices.filter((p) => p.validity).length).toBe(2);
  });

  it("a dated price sentence no wording reads is counted and quoted for review, and changes nothing", () => {
    const sentence = "Starting July 1, 2026, Claude Sonnet 4.5 will be billed at $4.50 / MTok for input.";
    const r = parse(edited(null, sentence));
    expect(forReview(r.unmapped)).toEqual([
      [`sentence for review: "${sentence}" — a dated price sentence no reviewed wording matches`, 1],
    ]);
    expect(sonnet(r.listings).prices.filter((p) => p.validity)).toEqual([]);
  });

  it("an announcement or withdrawal the page's prices do not bear out is for review, never applied", () => {
    const r = parse(
      edited(
        null,
        `${ANNOUNCED} The $9/$45 pricing for Claude Opus 9, announced as introductory pricing through June 30, 2026, is now the standard price.`,
      ),
    );
    expect(forReview(r.unmapped).map(([k]) => k.replace(/^sentence for review: ".*" — /, ""))).toEqual([
      "an announcement naming no model, and no row the page dates to 2026-07-01 at $3/$15 per 1M tokens",
      "a withdrawal naming no model the page prices",
    ]);
    expect(r.listings.flatMap((l) => l.prices).filter((p) => p.validity)).toEqual([]);
  });
});
