import { type Dimension, dimension, dimensionKey } from "../src/domain/dimension.js";
import type { Listing } from "../src/domain/observation.js";
import { checkPageText } from "../src/sources/shared/page-health.js";
import type { ParseReport, SourceAdapter } from "../src/sources/source.js";

/**
 * The page-evolution edits (issue 46 §6, T409; listed in docs/page-evolution.md): edits a maker's
 * next copy would plausibly make, applied to the text of a recorded copy of its pricing page, each
 * with what it must change in the parse. {@link readEdited} reads an edited copy as the pipeline
 * does (the text gate, then the parse); {@link priceTable} is what is compared.
 *
 * Test material: pure text edits of real copies; the amounts they add (a doubled successor, a
 * cache-write value, a `$1,250` row) are invented, and said so here.
 */

/** The edits that must leave every price the copy states read the same (or read what they add). */
export interface Plan {
  readonly frontMatter: boolean;
  readonly absoluteLinks: boolean;
  readonly escapeDollars: boolean;
  readonly nbsp: boolean;
  readonly credits: boolean;
  /** A column added before output; "-" on every `noneEvery`-th row. */
  readonly addColumn: { readonly noneEvery: number } | null;
  /** Columns reordered: sort keys, one per column. */
  readonly reorder: readonly number[] | null;
  /** Columns renamed: a synonym choice per column. */
  readonly rename: readonly number[] | null;
  /** A row split into "through D" / "starting D+1" rows (successor at twice the amounts). */
  readonly datedSplit: {
    readonly row: number;
    readonly future: boolean;
    readonly days: number;
    readonly format: number;
  } | null;
  /**
   * An announced increase withdrawn (issue 46's "the increase is withdrawn"; the wordings of T465):
   * the later copy keeps one row for the model and adds the maker's note that the introductory price
   * "is now the standard price" and the increase "will not occur". With a future `datedSplit` in the
   * plan it is that split's increase that is withdrawn (the split the same copy had before); else
   * this row's, through `days` after the copy's day (`future`) or before it (the note stays on the
   * page after the day). `rowsStay` (future only): the copy still shows the dated rows beside the
   * note, which outranks them. `wording`: the real two sentences, or one "has been cancelled" sentence.
   */
  readonly withdrawal: {
    readonly row: number;
    readonly future: boolean;
    readonly days: number;
    readonly format: number;
    readonly rowsStay: boolean;
    readonly wording: number;
  } | null;
  /** Two rows of equal prices merged into one cell "A / B". */
  readonly twoInCell: { readonly pair: number } | null;
  /** A new row priced with thousands separators (`$1,250 / MTok`). */
  readonly thousands: boolean;
  /** OpenAI only: a pane's rows written as objects keyed by column. */
  readonly keyedRows: boolean;
}

/** The edits that must refuse the page or publish nothing of what they add. */
export type Fault = "rotate" | "foreign" | "futureRow";

/** What an edited copy must read, relative to the original's parse. */
export interface Expected {
  /** Prices of (model, tier) that end on `until`, `next` twice the amount (dated rows). */
  readonly validity: { readonly model: string; readonly tier: Dimension["tier"]; readonly until: string }[];
  /** New prices: model → dimension → amount (a new row, a new column). */
  readonly added: { readonly model: string; readonly dimension: Dimension; readonly amount: number }[];
  /** The page must be refused with this reason (set by the edit that adds the fault). */
  refuse: RegExp | null;
  /** An unmapped key that must be reported (an unknown column, an unmatched row). */
  readonly reported: RegExp[];
  /** Models whose announced increase the copy's note withdraws: the note must be read, none of their prices dated. */
  readonly withdrawn: string[];
}

const DATE_FORMATS = [
  (d: string) => d,
  (d: string) =>
    new Date(`${d}T00:00:00Z`).toLocaleDateString("en-US", {
      month: "long",
      day: "numeric",
      year: "numeric",
      timeZone: "UTC",
    }),
  (d: string) =>
    new Date(`${d}T00:00:00Z`).toLocaleDateString("en-GB", {
      month: "long",
      day: "numeric",
      year: "numeric",
      timeZone: "UTC",
    }),
];

const addDays = (day: string, n: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
const nextDay = (day: string) => addDays(day, 1);
const twice = (n: number) => Number((n * 2).toPrecision(10));
const rotate = <T>(xs: readonly T[]): T[] => (xs.length ? [xs.at(-1) as T, ...xs.slice(0, -1)] : []);

type Split = Pick<NonNullable<Plan["datedSplit"]>, "future" | "days" | "format">;

/** The dated-split cells for a row on `today`: the original row ends, the successor doubles. */
function datedNames(name: string, plan: Split, today: string, brackets: boolean) {
  const through = plan.future ? addDays(today, plan.days) : addDays(today, -plan.days - 1);
  const starting = nextDay(through);
  const fmt = DATE_FORMATS[plan.format % DATE_FORMATS.length] as (d: string) => string;
  return {
    ended: brackets ? `${name} [through ${fmt(through)}]` : `${name} (through ${fmt(through)})`,
    next: `${name} starting ${fmt(starting)}`,
    until: starting,
    through: fmt(through),
    starting: fmt(starting),
  };
}

/** What a withdrawal note says: the model by its page name, its standing amounts, the cancelled days. */
interface Withdrawn {
  readonly name: string;
  readonly id: string;
  readonly input: number | null;
  readonly output: number | null;
  readonly through: string;
  readonly starting: string;
}

/**
 * The maker's note withdrawing an increase: the real sentences of Anthropic's Sonnet 5 callout
 * (T465's example, 2026-08) with this model, its amounts and days put in their places, or one
 * sentence in the "has been cancelled" wording the reviewed pattern also reads.
 */
function withdrawalNote(w: Withdrawn, wording: number): string {
  const pair = (k: 1 | 2) =>
    w.input !== null && w.output !== null
      ? `$${k === 2 ? twice(w.input) : w.input}/$${k === 2 ? twice(w.output) : w.output} `
      : "";
  return wording % 2 === 0
    ? `The ${pair(1)}per million input/output token pricing for ${w.name}, announced at launch as introductory pricing through ${w.through}, is now the standard price. The previously scheduled increase to ${pair(2)}per million input/output tokens on ${w.starting} will not occur.`
    : `The price increase for ${w.name} scheduled for ${w.starting} has been cancelled, and its introductory pricing of ${pair(1)}per million input/output tokens stays.`;
}

// ---------------------------------------------------------------------------------------------
// Anthropic: Markdown tables.

const renderRow = (cells: readonly string[]) => `| ${cells.join(" | ")} |`;

/** The Model pricing table's header line and row lines. */
function modelTable(lines: readonly string[]): { header: number; end: number } {
  const section = lines.findIndex((l) => /^##\s+Model pricing/.test(l));
  const header = lines.findIndex((l, i) => i > section && l.trim().startsWith("|"));
  let end = header + 2;
  while (lines[end]?.trim().startsWith("|")) end++;
  return { header, end };
}

const splitCells = (line: string) =>
  line
    .trim()
    .replace(/^\||\|$/g, "")
    .split("|")
    .map((c) => c.trim());

const ANTHROPIC_SYNONYMS: Readonly<Record<string, readonly string[]>> = {
  model: ["Model", "Model name"],
  "base input tokens": ["Base Input Tokens", "Input", "Input tokens", "Base input"],
  "5m cache writes": ["5m Cache Writes", "5-minute cache writes", "5m cache write tokens"],
  "1h cache writes": ["1h Cache Writes", "1-hour cache writes"],
  "cache hits & refreshes": ["Cache Hits & Refreshes", "Cache reads", "Cache hits"],
  "output tokens": ["Output Tokens", "Output", "Output tokens"],
};

/**
 * Applies `plan` (and `fault`) to an Anthropic copy.
 * @param original the copy's parse (for the models and the web search fee a new row takes)
 */
export function editAnthropic(
  text: string,
  today: string,
  plan: Plan,
  fault: Fault | null,
  original: readonly Listing[],
) {
  const lines = text.split("\n");
  const { header, end } = modelTable(lines);
  let head = splitCells(lines[header] as string);
  let rows = lines.slice(header + 2, end).map(splitCells);
  const expected: Expected = { validity: [], added: [], refuse: null, reported: [], withdrawn: [] };
  const idOf = (cell: string) => {
    const m = /^Claude (Opus|Sonnet|Haiku) (\d+)(?:\.(\d+))?/.exec(cell);
    return m ? `claude-${(m[1] as string).toLowerCase()}-${m[2]}${m[3] ? `-${m[3]}` : ""}` : null;
  };
  const double = (cells: readonly string[]) =>
    cells.map((c, i) => (i === 0 ? c : c.replace(/([\d.]+)/, (a) => String(twice(Number(a))))));

  const amountAt = (row: readonly string[], header: RegExp) => {
    const cell = row[head.findIndex((h) => header.test(h))] ?? "";
    const m = /(\d+(?:\.\d+)?)/.exec(cell);
    return m ? Number(m[1]) : null;
  };
  const withdrawnOf = (row: readonly string[], d: ReturnType<typeof datedNames>): Withdrawn | null => {
    const name = /^Claude (?:Opus|Sonnet|Haiku) [\d.]+/.exec(row[0] as string)?.[0];
    const id = idOf(row[0] as string);
    return name && id
      ? {
          name,
          id,
          input: amountAt(row, /^Base Input/),
          output: amountAt(row, /^Output/),
          through: d.through,
          starting: d.starting,
        }
      : null;
  };
  let withdrawn: Withdrawn | null = null;
  if (plan.datedSplit) {
    const i = plan.datedSplit.row % rows.length;
    const row = rows[i] as string[];
    const name = row[0] as string;
    const id = idOf(name);
    const d = datedNames(name, plan.datedSplit, today, true);
    const ended = [d.ended, ...row.slice(1)];
    const next = double([d.next, ...row.slice(1)]);
    // A withdrawal of this split: the later copy keeps one row (or still shows the dated rows).
    const withdraws = plan.withdrawal !== null && plan.datedSplit.future;
    if (withdraws) withdrawn = withdrawnOf(row, d);
    // A past split: the doubled row is the one that ended, today's is the original.
    if (!withdraws || plan.withdrawal?.rowsStay)
      rows.splice(i, 1, ...(plan.datedSplit.future ? [ended, next] : [double(ended), [d.next, ...row.slice(1)]]));
    if (plan.datedSplit.future && id && !withdraws)
      expected.validity.push({ model: id, tier: "standard", until: d.until });
  }
  if (plan.withdrawal && !withdrawn) {
    // No future split to withdraw: the increase of one of the copy's own rows, on its own days.
    const w = plan.withdrawal;
    const own = rows
      .map((r, i) => ({ r, i }))
      .filter(({ r }) => /^Claude \w+ [\d.]+/.test(r[0] as string) && !/\b(?:through|starting)\b/.test(r[0] as string));
    const pick = own[w.row % Math.max(1, own.length)];
    if (pick) {
      const d = datedNames(pick.r[0] as string, w, today, true);
      withdrawn = withdrawnOf(pick.r, d);
      if (w.rowsStay && w.future)
        rows.splice(pick.i, 1, [d.ended, ...pick.r.slice(1)], double([d.next, ...pick.r.slice(1)]));
    }
  }
  if (withdrawn) expected.withdrawn.push(withdrawn.id);
  if (fault === "futureRow") {
    const i = rows.findIndex((r) => /^Claude Opus 4\.1$/.test(r[0] as string));
    const at = Math.max(i, 0);
    const row = rows[at] as string[];
    rows.splice(at, 0, double([`${row[0]} (starting January 1, 2027)`, ...row.slice(1)]));
    const id = idOf(row[0] as string);
    if (id) expected.validity.push({ model: id, tier: "standard", until: "2027-01-01" });
  }
  if (plan.twoInCell) {
    const plain = rows.map((r, i) => ({ r, i })).filter(({ r }) => /^Claude \w+ [\d.]+$/.test(r[0] as string));
    const pairs = plain.flatMap((a) =>
      plain.filter((b) => b.i > a.i && b.r.slice(1).join("|") === a.r.slice(1).join("|")).map((b) => [a, b] as const),
    );
    const pair = pairs[plan.twoInCell.pair % Math.max(1, pairs.length)];
    if (pair) {
      const [a, b] = pair;
      rows[a.i] = [`${a.r[0]} / ${b.r[0]}`, ...a.r.slice(1)];
      rows = rows.filter((_, i) => i !== b.i);
    }
  }
  if (plan.thousands) {
    rows.push(["Claude Opus 9", "$1,250 / MTok", "-", "-", "-", "$6,250 / MTok"].slice(0, head.length));
    const search = original.flatMap((l) => l.prices).find((p) => p.dimension.direction === "tool");
    expected.added.push(
      { model: "claude-opus-9", dimension: dimension("input"), amount: 1250 },
      { model: "claude-opus-9", dimension: dimension("output"), amount: 6250 },
      ...(search ? [{ model: "claude-opus-9", dimension: search.dimension, amount: search.amount }] : []),
    );
  }
  if (fault === "foreign") {
    rows.push(
      ["GPT-4o", "$2.50 / MTok", "-", "-", "$1.25 / MTok", "$10 / MTok"].slice(0, head.length),
      ["Gemini 2.5 Pro", "$1.25 / MTok", "-", "-", "$0.31 / MTok", "$10 / MTok"].slice(0, head.length),
    );
    expected.reported.push(/another maker's model \(openai/, /another maker's model \(google/);
  }
  if (fault === "rotate") {
    rows = rows.map((r) => [r[0] as string, ...rotate(r.slice(1))]);
    expected.refuse = /health: incoherent rows: rule \w+/;
  }
  if (plan.addColumn) {
    const at = head.length - 1;
    const every = plan.addColumn.noneEvery;
    head = [...head.slice(0, at), "Cache Storage", ...head.slice(at)];
    rows = rows.map((r, i) => [...r.slice(0, at), i % every === 0 ? "-" : "$0.10 / MTok", ...r.slice(at)]);
    expected.reported.push(/^Model pricing: Cache Storage$/);
  }
  if (plan.rename) {
    const choice = plan.rename;
    head = head.map((h, i) => {
      const options = ANTHROPIC_SYNONYMS[h.toLowerCase()];
      return options ? (options[(choice[i] ?? 0) % options.length] as string) : h;
    });
  }
  if (plan.reorder) {
    const keys = plan.reorder;
    const order = head.map((_, i) => i).sort((a, b) => (keys[a] ?? 0) - (keys[b] ?? 0) || a - b);
    head = order.map((i) => head[i] as string);
    rows = rows.map((r) => order.map((i) => r[i] ?? ""));
  }
  const dashes = head.map(() => "---");
  // The withdrawal note goes where Anthropic puts its callouts: under the Model pricing table.
  const note = withdrawn ? ["", "<Note>", withdrawalNote(withdrawn, plan.withdrawal?.wording ?? 0), "</Note>"] : [];
  lines.splice(header, end - header, renderRow(head), renderRow(dashes), ...rows.map(renderRow), ...note);
  let out = lines.join("\n");
  out = textEdits(out, plan, "https://platform.claude.com");
  if (plan.nbsp) out = out.replace(/ \/ MTok/g, "\u00a0/\u00a0MTok");
  return { text: out, expected };
}

/** The edits on the whole text: credits section, escaped `$`, links, front matter. */
function textEdits(text: string, plan: Plan, origin: string): string {
  let out = text;
  if (plan.credits)
    out += [
      "",
      "## Pricing on partner platforms",
      "",
      "Prices on partner platforms are billed in credits (1 credit = $0.01); regional endpoints carry a 1.1× multiplier.",
      "",
      "| Model | Input | Output |",
      "|---|---|---|",
      "| Claude Opus 4.7 | 500 credits / MTok | 2,500 credits / MTok |",
      "| gpt-5.4 | 250 credits / MTok | 1,500 credits / MTok |",
      "",
    ].join("\n");
  // Markdown and prose only: a JS string literal does not escape `$`.
  if (plan.escapeDollars)
    out = out
      .split("\n")
      .map((l) => (/["'`]/.test(l) ? l : l.replace(/(?<!\\)\$(?=\d)/g, "\\$")))
      .join("\n");
  if (plan.absoluteLinks) out = out.replace(/\]\(\//g, `](${origin}/`).replace(/href="\//g, `href="${origin}/`);
  if (plan.frontMatter)
    out = `---\ntitle: Pricing\ndescription: Pricing of models and features\n---\n${out.replace(/^# Pricing\s*\n/m, "")}`;
  return out;
}

// ---------------------------------------------------------------------------------------------
// OpenAI: TextTokenPricingTables panes.

type Cell = string | number | null;

/** The panes of a copy: where each rows literal's row lines are, its tier and its rows. */
function openaiPanes(text: string) {
  const lines = text.split("\n");
  const panes: { open: number; rowsStart: number; rowsEnd: number; tier: string; rows: Cell[][]; indent: string }[] =
    [];
  for (let i = 0; i < lines.length; i++) {
    if (!/<TextTokenPricingTables\b/.test(lines[i] as string)) continue;
    const rowsAt = lines.findIndex((l, j) => j > i && /rows=\{\[/.test(l));
    let tier = "";
    for (let j = i; j < rowsAt; j++) tier = /tier="([^"]*)"/.exec(lines[j] as string)?.[1] ?? tier;
    let end = rowsAt + 1;
    const rows: Cell[][] = [];
    let indent = "          ";
    while (!/^\s*\]\}/.test(lines[end] as string)) {
      const m = /^(\s*)(\[.*\]),?\s*$/.exec(lines[end] as string);
      if (m) {
        indent = m[1] as string;
        rows.push(JSON.parse(m[2] as string) as Cell[]);
      }
      end++;
    }
    panes.push({ open: i, rowsStart: rowsAt + 1, rowsEnd: end, tier, rows, indent });
    i = end;
  }
  return { lines, panes };
}

const OPENAI_SYNONYMS: readonly (readonly string[])[] = [
  ["Model", "Model name"],
  ["Input", "Input tokens"],
  ["Cached input", "Cache reads", "Cached input tokens"],
  ["Cache writes", "Cache write tokens"],
  ["Output", "Output tokens"],
];
const camel = (h: string) => h.toLowerCase().replace(/\s+(\w)/g, (_, c: string) => c.toUpperCase());

/** Applies `plan` (and `fault`) to an OpenAI copy. */
export function editOpenai(text: string, today: string, plan: Plan, fault: Fault | null) {
  const { lines, panes } = openaiPanes(text);
  const expected: Expected = { validity: [], added: [], refuse: null, reported: [], withdrawn: [] };
  const std = panes.find((p) => p.tier === "standard" && p.rows.length > 0);
  const double = (row: Cell[]) => row.map((c, i) => (i > 0 && typeof c === "number" ? twice(c) : c));
  const idOf = (cell: Cell) => String(cell).replace(/\s*\(.*$/, "");
  const withdrawnOf = (row: readonly Cell[], d: ReturnType<typeof datedNames>): Withdrawn => {
    const name = idOf(row[0] ?? "");
    const amount = (c: Cell | undefined) => (typeof c === "number" ? c : null);
    return { name, id: name, input: amount(row[1]), output: amount(row[3]), through: d.through, starting: d.starting };
  };
  let withdrawn: Withdrawn | null = null;
  if (std && plan.datedSplit) {
    const i = plan.datedSplit.row % std.rows.length;
    const row = std.rows[i] as Cell[];
    const name = idOf(row[0] ?? "");
    const d = datedNames(name, plan.datedSplit, today, false);
    const ended = [d.ended, ...row.slice(1)];
    const next = double([d.next, ...row.slice(1)]);
    // A withdrawal of this split: the later copy keeps one row (or still shows the dated rows).
    const withdraws = plan.withdrawal !== null && plan.datedSplit.future;
    if (withdraws) withdrawn = withdrawnOf(row, d);
    if (!withdraws || plan.withdrawal?.rowsStay)
      std.rows.splice(i, 1, ...(plan.datedSplit.future ? [ended, next] : [double(ended), [d.next, ...row.slice(1)]]));
    // A split row loses its `(<272K context length)` suffix: the name is the model's; the row is still its base bracket.
    if (plan.datedSplit.future && !withdraws) expected.validity.push({ model: name, tier: "standard", until: d.until });
  }
  if (std && plan.withdrawal && !withdrawn) {
    // No future split to withdraw: the increase of one of the pane's own rows, on its own days.
    const w = plan.withdrawal;
    const own = std.rows.map((r, i) => ({ r, i })).filter(({ r }) => !/\b(?:through|starting)\b/.test(String(r[0])));
    const pick = own[w.row % Math.max(1, own.length)];
    if (pick) {
      const d = datedNames(idOf(pick.r[0] ?? ""), w, today, false);
      withdrawn = withdrawnOf(pick.r, d);
      if (w.rowsStay && w.future)
        std.rows.splice(pick.i, 1, [d.ended, ...pick.r.slice(1)], double([d.next, ...pick.r.slice(1)]));
    }
  }
  if (withdrawn) expected.withdrawn.push(withdrawn.id);
  if (std && fault === "futureRow") {
    const i = Math.max(
      0,
      std.rows.findIndex((r) => r[0] === "gpt-4o"),
    );
    const row = std.rows[i] as Cell[];
    std.rows.splice(i, 0, double([`${idOf(row[0] ?? "")} (starting January 1, 2027)`, ...row.slice(1)]));
    expected.validity.push({ model: idOf(row[0] ?? ""), tier: "standard", until: "2027-01-01" });
  }
  if (plan.twoInCell)
    for (const pane of panes.filter((p) => p.rows.length > 1)) {
      const plain = pane.rows.map((r, i) => ({ r, i })).filter(({ r }) => /^[a-z0-9.-]+$/.test(String(r[0])));
      const pairs = plain.flatMap((a) =>
        plain
          .filter((b) => b.i > a.i && JSON.stringify(b.r.slice(1)) === JSON.stringify(a.r.slice(1)))
          .map((b) => [a, b] as const),
      );
      const pair = pairs[plan.twoInCell.pair % Math.max(1, pairs.length)];
      if (!pair) continue;
      const [a, b] = pair;
      pane.rows[a.i] = [`${a.r[0]} / ${b.r[0]}`, ...a.r.slice(1)];
      pane.rows.splice(b.i, 1);
      break;
    }
  if (std && plan.thousands) {
    std.rows.push(["gpt-9-ultra", "$1,250", "$125", "$6,250"]);
    for (const [cache, direction, amount] of [
      ["none", "input", 1250],
      ["read", "input", 125],
      ["none", "output", 6250],
    ] as const)
      expected.added.push({ model: "gpt-9-ultra", dimension: dimension(direction, { cache }), amount });
  }
  if (std && fault === "foreign") {
    std.rows.push(["claude-opus-4-1", 15, 1.5, 75], ["Gemini 2.5 Pro", 1.25, 0.31, 10]);
    expected.reported.push(/another maker's model \(anthropic/, /another maker's model \(google/);
  }
  if (std && fault === "rotate") {
    std.rows = std.rows.map((r) => [r[0] ?? "", ...rotate(r.slice(1))]);
    expected.refuse = /health: incoherent rows: rule \w+/;
  }
  // Column edits give the panes a header (the recorded copies give none).
  const columnEdits = plan.addColumn || plan.rename || plan.reorder || plan.keyedRows;
  const headers = new Map<(typeof panes)[number], string[]>();
  if (columnEdits)
    for (const pane of panes) {
      let head = ["Model", "Input", "Cached input", "Output"];
      let rows = pane.rows;
      if (plan.addColumn) {
        const every = plan.addColumn.noneEvery;
        head = ["Model", "Input", "Cached input", "Cache writes", "Output"];
        rows = rows.map((r, i) => {
          const input = r[1];
          const plainId = /^(?:gpt|o\d|babbage|davinci)[a-z0-9.-]*(?: \(<\d+K context length\))?$/.test(String(r[0]));
          // A dated model's rows (a split, a future row) state no cache write: its end is the table's own.
          const dated = expected.validity.some((v) => String(r[0]).startsWith(`${v.model} `) || r[0] === v.model);
          const value = i % every === 0 || typeof input !== "number" || !plainId || dated ? "-" : input;
          if (value !== "-") {
            const model = String(r[0]).replace(/\s*\(<.*$/, "");
            expected.added.push({
              model,
              dimension: dimension("input", { cache: "write", tier: pane.tier as Dimension["tier"] }),
              amount: value as number,
            });
          }
          return [...r.slice(0, 3), value, ...r.slice(3)];
        });
      }
      if (plan.rename) {
        const choice = plan.rename;
        head = head.map((h, i) => {
          const options = OPENAI_SYNONYMS.find((s) => s[0] === h) ?? [h];
          return options[(choice[i] ?? 0) % options.length] as string;
        });
      }
      if (plan.reorder) {
        const keys = plan.reorder;
        const order = head.map((_, i) => i).sort((a, b) => (keys[a] ?? 0) - (keys[b] ?? 0) || a - b);
        head = order.map((i) => head[i] as string);
        rows = rows.map((r) => order.map((i) => r[i] ?? null));
      }
      pane.rows = rows;
      headers.set(pane, head);
    }
  // Rewrite from the last pane up so earlier line numbers hold.
  for (const pane of [...panes].reverse()) {
    const head = headers.get(pane);
    const rowLines =
      plan.keyedRows && head
        ? pane.rows.map(
            (r) =>
              `${pane.indent}{ ${head.map((h, i) => `"${camel(h)}": ${JSON.stringify(r[i] ?? null)}`).join(", ")} },`,
          )
        : pane.rows.map((r) => `${pane.indent}[${r.map((c) => JSON.stringify(c)).join(", ")}],`);
    lines.splice(pane.rowsStart, pane.rowsEnd - pane.rowsStart, ...rowLines);
    if (head && !plan.keyedRows)
      lines.splice(pane.open + 1, 0, `        columns={[${head.map((h) => JSON.stringify(h)).join(", ")}]}`);
  }
  // The withdrawal note: a paragraph of its own above the first pricing section.
  if (withdrawn) {
    const first = lines.findIndex((l) => /^<div className="pricing-switcher-layout">/.test(l));
    lines.splice(Math.max(first, 0), 0, `<p>${withdrawalNote(withdrawn, plan.withdrawal?.wording ?? 0)}</p>`, "");
  }
  let out = lines.join("\n");
  if (plan.nbsp) out = out.replace(/Prices per 1M tokens\./g, "Prices\u00a0per 1M\u00a0tokens.");
  out = textEdits(out, plan, "https://developers.openai.com");
  return { text: out, expected };
}

// ---------------------------------------------------------------------------------------------

/** A parse as compared: model → `dimension|unit` → amount and stated end. */
export type PriceTable = Map<string, Map<string, string>>;

const priceKey = (d: Dimension, unit: string) => `${dimensionKey(d)}|${unit}`;

/** The prices of a parse, as compared. */
export function priceTable(listings: readonly Listing[]): PriceTable {
  const out: PriceTable = new Map();
  for (const l of listings) {
    const m = out.get(l.model) ?? new Map<string, string>();
    for (const p of l.prices)
      m.set(
        priceKey(p.dimension, p.unit),
        `${p.amount}${p.validity ? ` until ${p.validity.until} → ${p.validity.next}` : ""}`,
      );
    out.set(l.model, m);
  }
  return out;
}

/** What the edited copy must read: the original's prices with the expected ends and additions. */
export function expectedTable(original: readonly Listing[], expected: Expected): PriceTable {
  const out: PriceTable = new Map();
  for (const l of original) {
    const m = new Map<string, string>();
    const ends = expected.validity.find((v) => v.model === l.model);
    for (const p of l.prices) {
      const d = p.dimension;
      const dated = ends && d.tier === ends.tier && d.contextMin === 0 && d.direction !== "tool";
      m.set(priceKey(d, p.unit), `${p.amount}${dated ? ` until ${ends.until} → ${twice(p.amount)}` : ""}`);
    }
    out.set(l.model, m);
  }
  for (const a of expected.added) {
    const m = out.get(a.model) ?? new Map<string, string>();
    m.set(priceKey(a.dimension, a.dimension.direction === "tool" ? "kcalls" : "mtok"), String(a.amount));
    out.set(a.model, m);
  }
  return out;
}

/** Reads an edited copy as the pipeline does: the page's text gate, then the parse. */
export function readEdited(adapter: SourceAdapter, text: string, observedAt: string): ParseReport {
  for (const [file, spec] of Object.entries(adapter.pageHealth ?? {})) checkPageText(adapter.id, file, text, spec);
  const parse = adapter.parseReport ?? ((p) => ({ listings: adapter.parse(p), unmapped: {} }));
  return parse({ files: new Map([["pricing.md", text]]), observedAt });
}

/** Model ids spelled as a date note: a month, a "through"/"starting" word. */
export const DATED_ID =
  /through|until|starting|effective|january|february|march|april|june|july|august|september|october|november|december|\(|\s/i;
