import { useEffect, useId, useState } from "preact/hooks";
import { getJson, query } from "../api.js";
import type { Envelope, Suggestion } from "../types.js";

/** Wait after the last keystroke before asking `/models/search`. */
const TYPE_PAUSE_MS = 120;

/** What a {@link ModelPicker} shows and whom it tells of a pick, a keystroke or an Enter. */
export interface ModelPickerProps {
  readonly label: string;
  readonly value?: string;
  readonly placeholder?: string;
  readonly onPick: (suggestion: Suggestion) => void;
  readonly onInput?: (text: string) => void;
  readonly onSubmit?: (text: string) => void;
  /** Clear the box after a pick (compare: pick several). */
  readonly clearOnPick?: boolean;
}

/**
 * A search box that suggests models as you type (`/models/search`, T124): the ARIA 1.2 combobox
 * pattern (list popup, arrow keys move, Enter picks, Escape closes), so keyboard and screen-reader
 * users get the same suggestions as a pointer. Enter with no suggestion chosen calls `onSubmit`.
 */
export function ModelPicker(props: ModelPickerProps) {
  const id = useId();
  const listId = `${id}-list`;
  const [text, setText] = useState(props.value ?? "");
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const suggestions = useSuggestions(text, open, () => setActive(-1));

  const pick = (suggestion: Suggestion) => {
    setOpen(false);
    setActive(-1);
    setText(props.clearOnPick ? "" : suggestion.label.split(" — ")[0]!);
    props.onPick(suggestion);
  };

  const onKeyDown = comboKeys({
    count: suggestions.length,
    open,
    setOpen,
    setActive,
    // Enter: the active suggestion when the list is open, else the text as typed.
    enter: () => {
      const chosen = open && active >= 0 ? suggestions[active] : undefined;
      if (chosen) pick(chosen);
      else {
        setOpen(false);
        props.onSubmit?.(text.trim());
      }
    },
  });

  const expanded = open && suggestions.length > 0;
  return (
    <div class="picker">
      <label for={id}>{props.label}</label>
      <input
        id={id}
        type="text"
        role="combobox"
        autocomplete="off"
        spellcheck={false}
        aria-autocomplete="list"
        aria-expanded={expanded}
        aria-controls={listId}
        aria-activedescendant={expanded && active >= 0 ? `${id}-opt-${active}` : undefined}
        placeholder={props.placeholder}
        value={text}
        onInput={(event) => {
          const value = event.currentTarget.value;
          setText(value);
          setOpen(true);
          props.onInput?.(value.trim());
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onKeyDown={onKeyDown}
      />
      <SuggestionList
        id={id}
        label={props.label}
        suggestions={suggestions}
        active={active}
        hidden={!expanded}
        onPick={pick}
      />
    </div>
  );
}

/**
 * The suggestions of `/models/search` for `text` while the list is `open`, asked
 * {@link TYPE_PAUSE_MS} after the last keystroke; an answer overtaken by newer text is aborted.
 * `onAnswer` runs when suggestions arrive (the picker forgets its active option).
 */
function useSuggestions(text: string, open: boolean, onAnswer: () => void): Suggestion[] {
  const [suggestions, setSuggestions] = useState<Suggestion[]>([]);
  useEffect(() => {
    if (!open) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      getJson<Envelope<Suggestion[]>>(`/models/search${query({ q: text.trim(), limit: 10 })}`, controller.signal).then(
        ({ body }) => {
          setSuggestions(body.data);
          onAnswer();
        },
        () => {
          if (!controller.signal.aborted) setSuggestions([]);
        },
      );
    }, TYPE_PAUSE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [text, open]);
  return suggestions;
}

/** The combobox's listbox (`${id}-list`): one option per suggestion, `active` marked selected. */
function SuggestionList(props: {
  readonly id: string;
  readonly label: string;
  readonly suggestions: readonly Suggestion[];
  readonly active: number;
  readonly hidden: boolean;
  readonly onPick: (suggestion: Suggestion) => void;
}) {
  const { id, active } = props;
  return (
    <div
      id={`${id}-list`}
      role="listbox"
      aria-label={`${props.label}: suggestions`}
      class="suggestions"
      hidden={props.hidden}
    >
      {props.suggestions.map((s, i) => (
        // The keyboard stays in the box (aria-activedescendant), which handles the keys of the options.
        // biome-ignore lint/a11y/useKeyWithClickEvents: the combobox input handles Enter and the arrows
        <div
          key={s.id}
          tabIndex={-1}
          id={`${id}-opt-${i}`}
          role="option"
          aria-selected={i === active}
          class={i === active ? "active" : undefined}
          // Keep the focus in the box so the click lands before blur closes the list.
          onMouseDown={(event) => event.preventDefault()}
          onClick={() => props.onPick(s)}
        >
          {s.label}
          <span class="muted"> {s.id}</span>
        </div>
      ))}
    </div>
  );
}

/**
 * The combobox's keys (ARIA 1.2): ArrowDown opens the list and moves down, ArrowUp moves up (both
 * wrap), Escape closes it, Enter calls `enter`.
 */
function comboKeys(combo: {
  readonly count: number;
  readonly open: boolean;
  readonly setOpen: (open: boolean) => void;
  readonly setActive: (update: (active: number) => number) => void;
  readonly enter: () => void;
}): (event: KeyboardEvent) => void {
  const { count, setActive } = combo;
  return (event) => {
    if (event.key === "ArrowDown") {
      event.preventDefault();
      combo.setOpen(true);
      if (count > 0) setActive((a) => (a + 1) % count);
    } else if (event.key === "ArrowUp") {
      event.preventDefault();
      if (count > 0) setActive((a) => (a <= 0 ? count - 1 : a - 1));
    } else if (event.key === "Escape") {
      if (combo.open) event.preventDefault();
      combo.setOpen(false);
      setActive(() => -1);
    } else if (event.key === "Enter") {
      event.preventDefault();
      combo.enter();
    }
  };
}

/**
 * "Add a model" (compare, the calculator; T208): a picker that adds the picked id to `ids` once —
 * `onAdd` gets the longer list — and, with `max` ids already, tells `onFull` instead.
 */
export function AddModel(props: {
  readonly ids: readonly string[];
  readonly max: number;
  readonly placeholder: string;
  readonly onAdd: (ids: string[]) => void;
  readonly onFull?: (id: string) => void;
}) {
  const { ids } = props;
  return (
    <ModelPicker
      label="Add a model"
      placeholder={props.placeholder}
      clearOnPick
      onPick={(s) => {
        if (ids.includes(s.id)) return;
        if (ids.length >= props.max) props.onFull?.(s.id);
        else props.onAdd([...ids, s.id]);
      }}
    />
  );
}
