import { unitOnly } from "../format.js";

/**
 * A table's head row of fixed columns (`<th scope="col">`); the columns named in `numeric` hold
 * numbers and are right-aligned (class `num`).
 */
export function ColumnHeads(props: { readonly columns: readonly string[]; readonly numeric?: readonly string[] }) {
  return (
    <thead>
      <tr>
        {props.columns.map((c) => (
          <th scope="col" key={c} class={props.numeric?.includes(c) ? "num" : undefined}>
            {c}
          </th>
        ))}
      </tr>
    </thead>
  );
}

/** A price dimension's name with its unit under it ("Input" / "per 1M tokens"). */
export function DimensionName(props: { readonly label: string; readonly displayUnit: string }) {
  return (
    <>
      {props.label}
      <div class="muted">{unitOnly(props.displayUnit)}</div>
    </>
  );
}
