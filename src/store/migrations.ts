import type { CreateTableBuilder, Kysely, Migration, MigrationProvider, Selectable } from "kysely";
import { priceKey } from "../domain/dataset.js";
import { dimensionKey } from "../domain/dimension.js";
import { dimensionOfColumns } from "./columns.js";
import type { ModelTable, PriceTable } from "./schema.js";
import { type ModelSpanRow, type PriceSpanRow, type SpanTables, writeSpans } from "./spans.js";

/** A column of a table: name, SQL type, and whether it is NOT NULL. */
type Column = readonly [name: string, type: "text" | "integer" | "bigint" | "double precision", notNull: boolean];

// biome-ignore format: one column per line
/**
 * The columns of a published price as migration 0001 created them (after `dataset_version`, `ord`),
 * which 0006's `price_span` repeats after `price_key`. Frozen with the migrations that use them:
 * a later change of the price row is a new migration, never an edit here.
 */
const PRICE_COLUMNS: readonly Column[] = [
  ["model_id", "text", true], ["channel", "text", true], ["seller", "text", true], ["label", "text", true],
  // The dimension (T236: a new tier or cache kind is a value of its text column, not a column).
  ["direction", "text", true], ["modality", "text", true], ["tier", "text", true], ["cache", "text", true],
  ["context_min", "bigint", true], ["context_max", "bigint", false], ["qualifiers", "text", true],
  ["amount", "double precision", true], ["unit", "text", true], ["display_unit", "text", true],
  ["denomination", "text", true], ["currency", "text", true], ["confidence", "text", true],
  ["confidence_score", "double precision", true], ["sources", "text", true], ["dissenting", "text", true],
  ["disputed", "integer", true], ["fallback_amount", "double precision", false], ["effective_from", "text", true],
  ["stale_since", "text", false], ["observations", "text", true],
];

// biome-ignore format: one column per line
/** The columns of a published model as migration 0001 created them (after `dataset_version`); frozen likewise. */
const MODEL_COLUMNS: readonly Column[] = [
  ["id", "text", true], ["provider", "text", true], ["slug", "text", true], ["name", "text", true],
  ["family", "text", false], ["context_window", "bigint", false], ["max_output_tokens", "bigint", false],
  ["open_weights", "integer", true], ["first_seen_at", "text", true], ["lifecycle_state", "text", true],
  ["released_on", "text", false], ["deprecated_on", "text", false], ["retires_on", "text", false],
  ["aliases", "text", true],
];

// biome-ignore format: one column per line
/** The columns of migration 0002's change records; frozen likewise. */
const CHANGE_RECORD_COLUMNS: readonly Column[] = [
  ["dataset_version", "text", true], ["seq", "integer", true], ["kind", "text", true], ["model_id", "text", true],
  ["model_name", "text", true], ["provider_name", "text", true], ["channel", "text", true], ["seller", "text", true],
  ["label", "text", true], ["display_unit", "text", true], ["old_amount", "double precision", false],
  ["new_amount", "double precision", false], ["delta_pct", "double precision", false], ["occurred_at", "text", true],
];

// biome-ignore format: one column per line
/** The columns of migration 0002's history points; frozen likewise. */
const HISTORY_POINT_COLUMNS: readonly Column[] = [
  ["model_id", "text", true], ["series_key", "text", true], ["date", "text", true], ["seq", "integer", true],
  ["label", "text", true], ["display_unit", "text", true], ["amount", "double precision", true],
  ["recorded_by", "text", true],
];

const DATASET_VERSION: Column = ["dataset_version", "text", true];
const SPAN: readonly Column[] = [
  ["valid_from", "text", true],
  ["valid_to", "text", false],
];

/** Creates table `name` with `columns`, in order, and the primary key `<name>_pk` over `key`. */
async function createTable(db: Kysely<unknown>, name: string, columns: readonly Column[], key: readonly string[]) {
  await columns
    .reduce(
      (t, [column, type, notNull]) => t.addColumn(column, type, (c) => (notNull ? c.notNull() : c)),
      db.schema.createTable(name) as CreateTableBuilder<string, string>,
    )
    .addPrimaryKeyConstraint(`${name}_pk`, [...key])
    .execute();
}

/**
 * Adds columns to an existing table, one ALTER per column (SQLite adds a single column per
 * statement). A column with a default (what existing rows get) is NOT NULL; one without is nullable.
 */
async function addColumns(
  db: Kysely<unknown>,
  table: string,
  columns: readonly (readonly [name: string, type: Column[1], fallback?: string | number])[],
) {
  for (const [name, type, fallback] of columns)
    await db.schema
      .alterTable(table)
      .addColumn(name, type, (c) => (fallback === undefined ? c : c.notNull().defaultTo(fallback)))
      .execute();
}

/**
 * Schema migrations, written once for both dialects (issue 5 §1). Numbered; never edited once
 * released — add a new one instead.
 */
const migrations: Record<string, Migration> = {
  "0001_catalogue": {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("run")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("dataset_version", "text", (c) => c.notNull().unique())
        .addColumn("status", "text", (c) => c.notNull())
        .addColumn("started_at", "text", (c) => c.notNull())
        .addColumn("finished_at", "text", (c) => c.notNull())
        .addColumn("summary", "text", (c) => c.notNull())
        .execute();
      // biome-ignore format: one column per line
      await createTable(db, "provider", [
        DATASET_VERSION, ["slug", "text", true], ["name", "text", true], ["website", "text", false],
        ["pricing_url", "text", false], ["official", "integer", true], ["models", "integer", true],
      ], ["dataset_version", "slug"]);
      await createTable(db, "model", [DATASET_VERSION, ...MODEL_COLUMNS], ["dataset_version", "id"]);
      await createTable(
        db,
        "price",
        [DATASET_VERSION, ["ord", "integer", true], ...PRICE_COLUMNS],
        ["dataset_version", "ord"],
      );
      // biome-ignore format: one column per line
      await createTable(db, "source_health", [
        DATASET_VERSION, ["source", "text", true], ["last_success_at", "text", false], ["last_error", "text", false],
        ["rows_last_run", "integer", true],
      ], ["dataset_version", "source"]);
      await db.schema
        .createTable("source_state")
        .addColumn("source", "text", (c) => c.primaryKey())
        .addColumn("observed_at", "text", (c) => c.notNull())
        .addColumn("listings", "text", (c) => c.notNull())
        .execute();
    },
  },
  "0002_changes_history": {
    async up(db: Kysely<unknown>) {
      await createTable(db, "change_record", CHANGE_RECORD_COLUMNS, ["dataset_version", "seq"]);
      await createTable(db, "history_point", HISTORY_POINT_COLUMNS, ["model_id", "series_key", "date", "seq"]);
    },
  },
  "0003_retention": {
    async up(db: Kysely<unknown>) {
      await addColumns(db, "run", [["retained", "integer", 1]]);
    },
  },
  "0004_identity": {
    async up(db: Kysely<unknown>) {
      await addColumns(db, "model", [
        ["former_ids", "text", "[]"],
        ["listed", "integer", 1],
      ]);
      await addColumns(db, "source_health", [["unmatched_last_run", "integer", 0]]);
    },
  },
  // Issue 13 (T75): a source's last run status and time, quarantined and unmapped rows.
  "0005_issue13_source_health": {
    async up(db: Kysely<unknown>) {
      await addColumns(db, "source_health", [
        ["last_run_status", "text"],
        ["last_run_at", "text"],
        ["rejected_last_run", "integer", 0],
        ["rejected_by_reason", "text", "{}"],
        ["unmapped_last_run", "integer", 0],
        ["unmapped_by_field", "text", "{}"],
      ]);
    },
  },
  // Issue 17 (T146): prices and models as validity intervals instead of one copy per version, so
  // any published version (and any date, `at=`) can be read back and an unchanged run costs no rows.
  // Existing stores are converted version by version, oldest first, then the copies are dropped.
  "0006_price_spans": {
    async up(db: Kysely<unknown>) {
      await createTable(
        db,
        "price_span",
        [...SPAN, ["price_key", "text", true], ...PRICE_COLUMNS],
        ["price_key", "valid_from"],
      );
      await db.schema.createIndex("price_span_valid_to").on("price_span").column("valid_to").execute();
      const listing: readonly Column[] = [
        ["former_ids", "text", true],
        ["listed", "integer", true],
      ];
      await createTable(db, "model_span", [...SPAN, ...MODEL_COLUMNS, ...listing], ["id", "valid_from"]);
      await db.schema.createIndex("model_span_valid_to").on("model_span").column("valid_to").execute();

      const legacy = db as unknown as Kysely<
        SpanTables & { run: { dataset_version: string; retained: number }; price: PriceTable; model: ModelTable }
      >;
      const versions = await legacy
        .selectFrom("run")
        .select("dataset_version")
        .where("retained", "=", 1)
        .orderBy("dataset_version")
        .execute();
      for (const { dataset_version: v } of versions) {
        const [prices, models] = await Promise.all([
          legacy.selectFrom("price").selectAll().where("dataset_version", "=", v).orderBy("ord").execute(),
          legacy.selectFrom("model").selectAll().where("dataset_version", "=", v).orderBy("id").execute(),
        ]);
        await writeSpans(legacy, v, prices.map(legacyPriceRow), models.map(legacyModelRow));
      }
      await db.schema.dropTable("price").execute();
      await db.schema.dropTable("model").execute();
    },
  },
  // Issue 38 §1 (T310): each source's last live attempt, written by every live run, published or not.
  "0007_source_attempts": {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("source_attempt")
        .addColumn("source", "text", (c) => c.primaryKey())
        .addColumn("at", "text", (c) => c.notNull())
        .addColumn("status", "text", (c) => c.notNull())
        .addColumn("error_message", "text")
        .addColumn("http_status", "integer")
        .execute();
    },
  },
  // Issue 37 §4 / issue 35 §5 (T335, T337): a price's stated end and announced successor, and the
  // day an announced change takes effect on its change record. Nullable: older rows state none.
  "0008_announced_prices": {
    async up(db: Kysely<unknown>) {
      await addColumns(db, "price_span", [["validity", "text"]]);
      await addColumns(db, "change_record", [["effective_from", "text"]]);
    },
  },
};

/** A per-version price row of migrations 0001–0005 as a span row (its identity computed as the publish does). */
function legacyPriceRow(r: PriceTable): PriceSpanRow {
  const { dataset_version: _v, ord: _o, ...row } = r;
  const dimension = dimensionOfColumns(r, "price");
  const key = priceKey(
    { modelId: r.model_id, channel: r.channel, seller: r.seller, unit: r.unit, ...dimension },
    dimensionKey(dimension),
  );
  return { ...row, price_key: key };
}

function legacyModelRow(r: Selectable<ModelTable>): ModelSpanRow {
  const { dataset_version: _v, ...row } = r;
  return { ...row, former_ids: String(r.former_ids), listed: Number(r.listed) };
}

/** The in-code migration provider (no directory scan, so bundling and tsx both work). */
export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
