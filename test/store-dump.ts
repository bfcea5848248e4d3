import { writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import SQLite from "better-sqlite3";

/**
 * A full, deterministic text export of a SQLite store, to prove a refactoring changed nothing the
 * catalogue publishes (issue 34 §4, T282): every table, every column, rows ordered by all their
 * columns, one JSON array a line under a `## table (columns) n rows` heading. Numbers print as
 * JavaScript writes them (shortest round-trip), so two stores dump alike only when every value is
 * the same. The wall-clock times of the replay itself (`run.finished_at`, the migrations' times)
 * read `<wall-clock>`; every other column is kept.
 *
 * Before and after a change (the replay takes minutes; run it from the checkout):
 *   DATA_DIR=/tmp/before npx tsx src/cli/main.ts ingest --snapshots data/upstream
 *   npx tsx test/store-dump.ts /tmp/before/tariff.db /tmp/before.txt
 *   … the same into /tmp/after after the change …
 *   cmp /tmp/before.txt /tmp/after.txt
 */
export function dumpStore(dbPath: string): string {
  const db = new SQLite(dbPath, { readonly: true, fileMustExist: true });
  try {
    const tables = db
      .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
      .all()
      .map((t) => t.name);
    const out: string[] = [];
    for (const table of tables) {
      const columns = db
        .prepare<[], { name: string }>(`PRAGMA table_info("${table}")`)
        .all()
        .map((c) => c.name);
      const order = columns.map((c) => `"${c}"`).join(", ");
      const rows = db.prepare(`SELECT * FROM "${table}" ORDER BY ${order}`).raw().all() as unknown[][];
      const clock = columns.indexOf(WALL_CLOCK[table] ?? "");
      out.push(`## ${table} (${columns.join(",")}) ${rows.length} rows`);
      for (const row of rows) {
        if (clock >= 0) row[clock] = "<wall-clock>";
        out.push(JSON.stringify(row, (_key, value) => (typeof value === "bigint" ? value.toString() : value)));
      }
    }
    return `${out.join("\n")}\n`;
  } finally {
    db.close();
  }
}

/** table → its column that holds when the replay ran, not anything it read. */
const WALL_CLOCK: Readonly<Record<string, string>> = { run: "finished_at", kysely_migration: "timestamp" };

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [db, file] = process.argv.slice(2);
  if (!db || !file) {
    console.error("usage: npx tsx test/store-dump.ts <tariff.db> <out.txt>");
    process.exit(2);
  }
  writeFileSync(file, dumpStore(db));
}
