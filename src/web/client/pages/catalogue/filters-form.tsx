import { useId } from "preact/hooks";
import { MODALITIES } from "../../../../domain/dimension.js";
import { AtPicker } from "../../components/at-picker.js";
import { FilterPanel } from "../../components/filter-panel.js";
import { MakerSelect } from "../../components/maker-select.js";
import { ModelPicker } from "../../components/model-picker.js";
import { SelectField, type SelectOption } from "../../components/select-field.js";
import { CHANNEL_OPTIONS, CONFIDENCE_LEVELS } from "../../format.js";
import { type CatalogueLinkChange, CONTEXTS, type Filters, SORTS, type Sort } from "./filters.js";

/** The weights filter's choices (`openWeights`): either, open, closed. */
const WEIGHTS: readonly SelectOption[] = [
  ["", "Open or closed"],
  ["true", "Open weights"],
  ["false", "Closed weights"],
];

/**
 * The catalogue's search form (issue 18 §1, issue 28 §4): the search text as typed, the order, and
 * the filters behind a panel — maker, channel, modality, context window, weights, confidence, day.
 * A filter chosen is a link of the page (`go`); a model picked opens its page (`onPick`).
 */
export function FiltersForm(props: {
  readonly filters: Filters;
  readonly sort: Sort;
  readonly text: string;
  readonly onText: (text: string) => void;
  readonly at: string | null;
  readonly go: (next: CatalogueLinkChange) => void;
  readonly onPick: (id: string) => void;
}) {
  const { filters, go, at } = props;
  const sortId = useId();
  const active = [
    filters.provider,
    filters.channel,
    filters.modality,
    filters.minContext,
    filters.openWeights,
    filters.confidence,
    at,
  ].filter(Boolean).length;
  return (
    <search>
      <form class="filters" aria-label="Find models" onSubmit={(event) => event.preventDefault()}>
        <ModelPicker
          label="Search models"
          value={props.text}
          placeholder="e.g. opus, gpt-4o, llama"
          onInput={props.onText}
          onSubmit={props.onText}
          onPick={(s) => props.onPick(s.id)}
        />
        <SelectField
          id={sortId}
          label="Order"
          value={props.sort}
          options={SORTS.map(
            ([value, name]): SelectOption => [value, value === "id" && filters.q ? "Best match" : name],
          )}
          onChange={(v) => go({ sort: v })}
        />
        <FilterPanel active={active}>
          <FilterFields filters={filters} at={at} go={go} />
        </FilterPanel>
      </form>
    </search>
  );
}

/** The filters of the panel, each a labelled select (the maker's a searchable one) and the day. */
function FilterFields(props: {
  readonly filters: Filters;
  readonly at: string | null;
  readonly go: (next: CatalogueLinkChange) => void;
}) {
  const { filters, go } = props;
  const ids = { channel: useId(), modality: useId(), open: useId(), context: useId(), conf: useId() };
  return (
    <>
      <MakerSelect value={filters.provider} onChange={(slug) => go({ provider: slug || null })} />
      <SelectField
        id={ids.channel}
        label="Sold in"
        value={filters.channel}
        options={[["", "Any channel"], ...CHANNEL_OPTIONS.map((c): SelectOption => [c.id, c.name])]}
        onChange={(v) => go({ channel: v || null })}
      />
      <SelectField
        id={ids.modality}
        label="Priced modality"
        value={filters.modality}
        options={[["", "Any"], ...MODALITIES.filter((m) => m !== "text").map((m): SelectOption => [m, m])]}
        onChange={(v) => go({ modality: v || null })}
      />
      <SelectField
        id={ids.context}
        label="Context window"
        value={filters.minContext}
        options={[["", "Any size"], ...CONTEXTS.map(([n, name]): SelectOption => [String(n), name])]}
        onChange={(v) => go({ minContext: v || null })}
      />
      <SelectField
        id={ids.open}
        label="Weights"
        value={filters.openWeights}
        options={WEIGHTS}
        onChange={(v) => go({ openWeights: v || null })}
      />
      <SelectField
        id={ids.conf}
        label="Confidence"
        value={filters.confidence}
        options={[["", "Any confidence"], ...CONFIDENCE_LEVELS.map((level): SelectOption => [level, level])]}
        onChange={(v) => go({ confidence: v || null })}
      />
      <AtPicker at={props.at} onChange={(day) => go({ at: day })} />
    </>
  );
}
