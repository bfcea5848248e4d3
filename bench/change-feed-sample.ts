/**
 * The change-feed check of issue 24 (not part of `npm test`; nothing here asserts).
 *
 * `npx tsx bench/change-feed-sample.ts <tariff.db> [seed] [size]` draws a fixed-seed sample of
 * market changes (`price_increase`, `price_decrease`, `price_removed`, `unit_change`) published by
 * the store's last three runs, and prints, for each, what a reviewer needs to judge it by hand:
 * the change as the feed shows it (`occurredAt`, and the version that published it when that
 * differs), and every source's own amount for that price in each recorded payload of the last
 * five snapshot dates (parsed by the real adapters from `data/upstream`), so "the market moved"
 * and "dated at the run whose payloads changed" can be read off.
 *
 * The sample: the rows in publication order (dataset version, then detection order), shuffled by
 * a Fisher–Yates pass driven by mulberry32(seed), the first `size` taken.
 */
import Database from "better-sqlite3";
import type { Dimension } from "../src/domain/dimension.js";
import type { Listing, SourceId } from "../src/domain/observation.js";
import { SOURCES } from "../src/sources/registry.js";
import { listSnapshots, readSnapshotPayload } from "../src/sources/snapshot-reader.js";

const ROOT = "data/upstream";
const MARKET = ["price_increase", "price_decrease", "price_removed", "unit_change"];

interface ChangeRow {
  dataset_version: string;
  seq: number;
  kind: string;
  model_id: string;
  channel: string;
  seller: string;
  label: string;
  old_amount: number | null;
  new_amount: number | null;
  occurred_at: string;
}

interface SpanRow {
  direction: string;
  modality: string;
  tier: string;
  cache: string;
  context_min: number;
  unit: string;
  qualifiers: string;
  observations: string;
}

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const [path, seedArg, sizeArg] = process.argv.slice(2);
if (!path) throw new Error("usage: tsx bench/change-feed-sample.ts <tariff.db> [seed] [size]");
const seed = Number(seedArg ?? 24);
const size = Number(sizeArg ?? 30);
const db = new Database(path, { readonly: true });
const runs = (
  db.prepare("select dataset_version from run order by dataset_version").all() as { dataset_version: string }[]
).map((r) => r.dataset_version);
const last3 = runs.slice(-3);
const rows = db
  .prepare(
    `select * from change_record where dataset_version in (${last3.map(() => "?").join(",")}) and kind in (${MARKET.map(() => "?").join(",")}) order by dataset_version, seq`,
  )
  .all(...last3, ...MARKET) as ChangeRow[];
const random = mulberry32(seed);
const shuffled = [...rows];
for (let i = shuffled.length - 1; i > 0; i--) {
  const j = Math.floor(random() * (i + 1));
  [shuffled[i], shuffled[j]] = [shuffled[j]!, shuffled[i]!];
}
const sample = shuffled.slice(0, size);

const dates = [...listSnapshots(ROOT).keys()].sort().slice(-5);
const parsed = new Map<string, readonly Listing[]>();
function listings(source: SourceId, date: string): readonly Listing[] | null {
  const key = `${source}/${date}`;
  if (!parsed.has(key)) {
    const adapter = SOURCES.find((a) => a.id === source)!;
    try {
      parsed.set(key, adapter.parse(readSnapshotPayload(ROOT, source, date)));
    } catch {
      parsed.set(key, []);
      return null;
    }
  }
  return parsed.get(key)!;
}

/** The source's amount for the span's dimension in its listing on `date` (qualifiers of the listing a subset). */
function amountOn(source: SourceId, seller: string, model: string, span: SpanRow, date: string): string {
  const all = listings(source, date);
  if (all === null) return "n/a";
  if (!(listSnapshots(ROOT).get(date) ?? []).includes(source)) return "·";
  const listing = all.find((l) => l.seller === seller && l.model === model);
  if (!listing) return "—";
  const qualifiers = JSON.parse(span.qualifiers) as Record<string, string>;
  const match = listing.prices.find((p) => {
    const d: Dimension = p.dimension;
    return (
      d.direction === span.direction &&
      d.modality === span.modality &&
      d.tier === span.tier &&
      d.cache === span.cache &&
      d.contextMin === span.context_min &&
      p.unit === span.unit &&
      Object.entries(d.qualifiers).every(([k, v]) => qualifiers[k] === v)
    );
  });
  return match ? String(match.amount) : "∅";
}

console.log(`seed ${seed}, ${sample.length} of ${rows.length} market changes published by ${last3.join(", ")}`);
// Issue 52: the counts per kind over the whole replay (every kind, market or not), as `/changes?kind=` serves them.
const counts = db.prepare("select kind, count(*) n from change_record group by kind order by kind").all() as {
  kind: string;
  n: number;
}[];
console.log(`counts per kind, all runs: ${counts.map((c) => `${c.kind} ${c.n}`).join(", ")}`);
// Issue 52 §1 (T493): a renamed seller's evidence is stored under its former name.
const formerNames = new Map<string, string[]>();
for (const { summary } of db.prepare("select summary from run").all() as { summary: string }[])
  for (const r of (JSON.parse(summary) as { sellerRenames?: { from: string; to: string }[] }).sellerRenames ?? [])
    formerNames.set(r.to, [...(formerNames.get(r.to) ?? []), r.from]);
console.log(
  `amount columns: ${dates.join(" ")} (· no payload that date, — listing absent, ∅ listing without this price)`,
);
sample.forEach((c, n) => {
  const published = c.dataset_version.slice(0, 10);
  const occurred = c.occurred_at.slice(0, 10);
  console.log(
    `\n#${n + 1} ${c.kind} ${c.model_id} [${c.channel}/${c.seller}] "${c.label}" ${c.old_amount} → ${c.new_amount}` +
      ` occurredAt ${occurred}${occurred === published ? "" : ` (published ${published})`}`,
  );
  // The price as last published (the removed one, or the changed one now), with its observations.
  const names = [c.seller, ...(formerNames.get(c.seller) ?? [])];
  const spanOf = (seller: string) =>
    db
      .prepare(
        "select * from price_span where model_id = ? and channel = ? and seller = ? and label = ? order by valid_from desc limit 1",
      )
      .get(c.model_id, c.channel, seller, c.label.replace(`seller: ${c.seller}`, `seller: ${seller}`)) as
      | SpanRow
      | undefined;
  const seller = names.find((n) => spanOf(n) !== undefined) ?? c.seller;
  const span = spanOf(seller);
  if (seller !== c.seller) console.log(`   (seller ${c.seller}, named ${seller} in the payloads before: T493)`);
  if (!span) {
    console.log("   (no price row with this label)");
    return;
  }
  const evidence = new Map<string, { source: SourceId; listing: string }>();
  const spans = db
    .prepare("select observations from price_span where model_id = ? and channel = ? and seller = ? and label = ?")
    .all(c.model_id, c.channel, seller, c.label.replace(`seller: ${c.seller}`, `seller: ${seller}`)) as {
    observations: string;
  }[];
  for (const s of spans)
    for (const o of JSON.parse(s.observations) as { source: SourceId; listing?: string }[])
      if (o.listing) evidence.set(`${o.source}|${o.listing}`, { source: o.source, listing: o.listing });
  for (const { source, listing } of evidence.values()) {
    const amounts = dates.map((d) =>
      names
        .map((n) => amountOn(source, n, listing, span, d))
        .reduce((a, b) => (a === "—" ? b : a))
        .padStart(9),
    );
    console.log(`   ${source.padEnd(13)} ${listing.slice(0, 44).padEnd(44)} ${amounts.join(" ")}`);
  }
});
