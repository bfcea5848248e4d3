import { useId } from "preact/hooks";
import { useLocation } from "preact-iso";
import { useDataset } from "../dataset.js";

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The page's point in time (T208): `at=YYYY-MM-DD` of its URL, or null for the latest prices. */
export function usePageAt(): string | null {
  const at = useLocation().query.at ?? "";
  return DAY.test(at) ? at : null;
}

/**
 * Time travel (issue 28 §6, T208): a date picker setting the page's `at`, up to the served
 * dataset version's day; "Latest prices" clears it. The page asks the API with the same `at`.
 */
export function AtPicker(props: {
  readonly at: string | null;
  readonly onChange: (at: string | null) => void;
  /** The control's name; "Prices as of" unless the page says otherwise. */
  readonly label?: string;
}) {
  const id = useId();
  const dataset = useDataset();
  const max = dataset?.datasetVersion.slice(0, 10);
  return (
    <div class="field at-field">
      <label for={id}>{props.label ?? "Prices as of"}</label>
      <div class="at-row">
        <input
          id={id}
          type="date"
          value={props.at ?? max ?? ""}
          max={max}
          onChange={(event) => {
            const value = event.currentTarget.value;
            props.onChange(DAY.test(value) && value !== max ? value : null);
          }}
        />
        {props.at ? (
          <button type="button" onClick={() => props.onChange(null)}>
            Latest prices
          </button>
        ) : null}
      </div>
    </div>
  );
}

/** A note that the page shows a past day's prices, with the way back to the latest. */
export function PastNotice(props: { readonly at: string | null; readonly version?: string | undefined }) {
  if (!props.at) return null;
  return (
    <p class="past" role="note">
      Prices as published on {props.at}
      {props.version ? ` (dataset ${props.version.slice(0, 10)})` : ""}: a past day, not today's prices.
    </p>
  );
}
