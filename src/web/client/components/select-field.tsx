/** One choice of a {@link SelectField}: the value it submits and the text it shows. */
export type SelectOption = readonly [value: string, label: string];

/**
 * A labelled `<select>` in the pages' `.field` layout (the catalogue's filters, the calculator's
 * options): `options` in display order; `onChange` gets the chosen option's value.
 */
export function SelectField(props: {
  readonly id: string;
  readonly label: string;
  readonly value: string;
  readonly options: readonly SelectOption[];
  readonly onChange: (value: string) => void;
}) {
  return (
    <div class="field">
      <label for={props.id}>{props.label}</label>
      <select id={props.id} value={props.value} onChange={(e) => props.onChange(e.currentTarget.value)}>
        {props.options.map(([value, label]) => (
          <option key={value} value={value}>
            {label}
          </option>
        ))}
      </select>
    </div>
  );
}
