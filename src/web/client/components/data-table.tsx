import type { ComponentChildren } from "preact";
import { TableWrap } from "./table-wrap.js";

/** A column of a table: its heading, and `numeric` for a right-aligned column of amounts or counts. */
export type Column = string | { readonly label: string; readonly numeric: true };

/** A right-aligned column (amounts, counts). */
export function numeric(label: string): Column {
  return { label, numeric: true };
}

/** A table's header row: one `th scope="col"` per column, numeric ones with class `num`. */
export function ColumnHeads(props: { readonly columns: readonly Column[] }) {
  return (
    <thead>
      <tr>
        {props.columns.map((column) =>
          typeof column === "string" ? (
            <th scope="col" key={column}>
              {column}
            </th>
          ) : (
            <th scope="col" class="num" key={column.label}>
              {column.label}
            </th>
          ),
        )}
      </tr>
    </thead>
  );
}

/**
 * A list as a table with fixed columns: in a {@link TableWrap} named `label`, a caption for
 * screen readers only, the column headings, and `children` as the body's rows.
 */
export function DataTable(props: {
  readonly label: string;
  readonly caption: ComponentChildren;
  readonly columns: readonly Column[];
  readonly class?: string;
  readonly children: ComponentChildren;
}) {
  return (
    <TableWrap label={props.label}>
      <table class={props.class}>
        <caption class="visually-hidden">{props.caption}</caption>
        <ColumnHeads columns={props.columns} />
        <tbody>{props.children}</tbody>
      </table>
    </TableWrap>
  );
}
