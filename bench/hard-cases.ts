/**
 * Hard cases of issue 24 (not part of `npm test`; the held-out checks are kept outside the project,
 * so this is our own set): makers' list prices on 2026-06-01 where the recorded upstream sources
 * disagree, each judged by hand from the recorded payloads (which source moved, when, and whether the
 * move is coherent) and the makers' published pricing, with the reason beside it.
 *
 * `npx tsx bench/hard-cases.ts <tariff.db>` scores the store's latest dataset: a case passes when the
 * published amount is the expected one (`null`: no price with that label is published there).
 */
import { readFileSync } from "node:fs";
import Database from "better-sqlite3";

interface Case {
  readonly model: string;
  readonly label: string;
  /** Expected amount (USD per 1M tokens unless the label says otherwise); null: not published. */
  readonly expected: number | null;
  readonly channel?: string;
  /** Label matched as a prefix (for "not published" cases over several labels). */
  readonly prefix?: boolean;
  readonly why: string;
}

/** The cases, by maker, in `hard-cases.json` (data, not code: one line a case). */
const SECTIONS = JSON.parse(readFileSync(new URL("./hard-cases.json", import.meta.url), "utf8")) as readonly {
  readonly section: string;
  readonly cases: readonly Case[];
}[];
const CASES: readonly Case[] = SECTIONS.flatMap((s) => s.cases);

const path = process.argv[2];
if (!path) throw new Error("usage: tsx bench/hard-cases.ts <tariff.db>");
const db = new Database(path, { readonly: true });
const rows = db.prepare("select model_id, channel, label, amount from price_span where valid_to is null").all() as {
  model_id: string;
  channel: string;
  label: string;
  amount: number;
}[];
let passed = 0;
for (const c of CASES) {
  const channel = c.channel ?? "direct";
  const found = rows.filter(
    (r) =>
      r.model_id === c.model && r.channel === channel && (c.prefix ? r.label.startsWith(c.label) : r.label === c.label),
  );
  const ok = c.expected === null ? found.length === 0 : found.length === 1 && found[0]!.amount === c.expected;
  if (ok) passed++;
  const got = found.length === 0 ? "—" : found.map((r) => r.amount).join(", ");
  console.log(
    `${ok ? "ok  " : "MISS"} ${c.model} [${channel}] ${c.label}: expected ${c.expected ?? "none"}, published ${got} (${c.why})`,
  );
}
console.log(`${passed} of ${CASES.length}`);
