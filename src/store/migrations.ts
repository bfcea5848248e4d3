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

/** Adds `columns` to a table being created, in order (the key constraints may then name any of them). */
function withColumns(columns: readonly Column[]) {
  return <T extends string>(table: CreateTableBuilder<T, string>): CreateTableBuilder<T, string> =>
    columns.reduce((t, [name, type, notNull]) => t.addColumn(name, type, (c) => (notNull ? c.notNull() : c)), table);
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
      await db.schema
        .createTable("provider")
        .addColumn("dataset_version", "text", (c) => c.notNull())
        .addColumn("slug", "text", (c) => c.notNull())
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("website", "text")
        .addColumn("pricing_url", "text")
        .addColumn("official", "integer", (c) => c.notNull())
        .addColumn("models", "integer", (c) => c.notNull())
        .addPrimaryKeyConstraint("provider_pk", ["dataset_version", "slug"])
        .execute();
      await db.schema
        .createTable("model")
        .addColumn("dataset_version", "text", (c) => c.notNull())
        .$call(withColumns(MODEL_COLUMNS))
        .addPrimaryKeyConstraint("model_pk", ["dataset_version", "id"])
        .execute();
      await db.schema
        .createTable("price")
        .addColumn("dataset_version", "text", (c) => c.notNull())
        .addColumn("ord", "integer", (c) => c.notNull())
        .$call(withColumns(PRICE_COLUMNS))
        .addPrimaryKeyConstraint("price_pk", ["dataset_version", "ord"])
        .execute();
      await db.schema
        .createTable("source_health")
        .addColumn("dataset_version", "text", (c) => c.notNull())
        .addColumn("source", "text", (c) => c.notNull())
        .addColumn("last_success_at", "text")
        .addColumn("last_error", "text")
        .addColumn("rows_last_run", "integer", (c) => c.notNull())
        .addPrimaryKeyConstraint("source_health_pk", ["dataset_version", "source"])
        .execute();
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
      await db.schema
        .createTable("change_record")
        .addColumn("dataset_version", "text", (c) => c.notNull())
        .addColumn("seq", "integer", (c) => c.notNull())
        .addColumn("kind", "text", (c) => c.notNull())
        .addColumn("model_id", "text", (c) => c.notNull())
        .addColumn("model_name", "text", (c) => c.notNull())
        .addColumn("provider_name", "text", (c) => c.notNull())
        .addColumn("channel", "text", (c) => c.notNull())
        .addColumn("seller", "text", (c) => c.notNull())
        .addColumn("label", "text", (c) => c.notNull())
        .addColumn("display_unit", "text", (c) => c.notNull())
        .addColumn("old_amount", "double precision")
        .addColumn("new_amount", "double precision")
        .addColumn("delta_pct", "double precision")
        .addColumn("occurred_at", "text", (c) => c.notNull())
        .addPrimaryKeyConstraint("change_record_pk", ["dataset_version", "seq"])
        .execute();
      await db.schema
        .createTable("history_point")
        .addColumn("model_id", "text", (c) => c.notNull())
        .addColumn("series_key", "text", (c) => c.notNull())
        .addColumn("date", "text", (c) => c.notNull())
        .addColumn("seq", "integer", (c) => c.notNull())
        .addColumn("label", "text", (c) => c.notNull())
        .addColumn("display_unit", "text", (c) => c.notNull())
        .addColumn("amount", "double precision", (c) => c.notNull())
        .addColumn("recorded_by", "text", (c) => c.notNull())
        .addPrimaryKeyConstraint("history_point_pk", ["model_id", "series_key", "date", "seq"])
        .execute();
    },
  },
  "0003_retention": {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable("run")
        .addColumn("retained", "integer", (c) => c.notNull().defaultTo(1))
        .execute();
    },
  },
  "0004_identity": {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable("model")
        .addColumn("former_ids", "text", (c) => c.notNull().defaultTo("[]"))
        .execute();
      await db.schema
        .alterTable("model")
        .addColumn("listed", "integer", (c) => c.notNull().defaultTo(1))
        .execute();
      await db.schema
        .alterTable("source_health")
        .addColumn("unmatched_last_run", "integer", (c) => c.notNull().defaultTo(0))
        .execute();
    },
  },
  // Issue 13 (T75): a source's last run status and time, quarantined and unmapped rows.
  // One ALTER per column: SQLite adds a single column per statement.
  "0005_issue13_source_health": {
    async up(db: Kysely<unknown>) {
      const table = () => db.schema.alterTable("source_health");
      await table().addColumn("last_run_status", "text").execute();
      await table().addColumn("last_run_at", "text").execute();
      await table()
        .addColumn("rejected_last_run", "integer", (c) => c.notNull().defaultTo(0))
        .execute();
      await table()
        .addColumn("rejected_by_reason", "text", (c) => c.notNull().defaultTo("{}"))
        .execute();
      await table()
        .addColumn("unmapped_last_run", "integer", (c) => c.notNull().defaultTo(0))
        .execute();
      await table()
        .addColumn("unmapped_by_field", "text", (c) => c.notNull().defaultTo("{}"))
        .execute();
    },
  },
  // Issue 17 (T146): prices and models as validity intervals instead of one copy per version, so
  // any published version (and any date, `at=`) can be read back and an unchanged run costs no rows.
  // Existing stores are converted version by version, oldest first, then the copies are dropped.
  "0006_price_spans": {
    async up(db: Kysely<unknown>) {
      const spanColumns = <T extends string>(table: T) =>
        db.schema
          .createTable(table)
          .addColumn("valid_from", "text", (c) => c.notNull())
          .addColumn("valid_to", "text");
      await spanColumns("price_span")
        .addColumn("price_key", "text", (c) => c.notNull())
        .$call(withColumns(PRICE_COLUMNS))
        .addPrimaryKeyConstraint("price_span_pk", ["price_key", "valid_from"])
        .execute();
      await db.schema.createIndex("price_span_valid_to").on("price_span").column("valid_to").execute();
      await spanColumns("model_span")
        .$call(withColumns(MODEL_COLUMNS))
        .addColumn("former_ids", "text", (c) => c.notNull())
        .addColumn("listed", "integer", (c) => c.notNull())
        .addPrimaryKeyConstraint("model_span_pk", ["id", "valid_from"])
        .execute();
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
