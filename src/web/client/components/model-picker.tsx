import { useEffect, useId, useState } from "preact/hooks";
import { getJson, query } from "../api.js";
import type { Envelope, Suggestion } from "../types.js";

/** Wait after the last keystroke before asking `/models/search`. */
const TYPE_PAUSE_MS = 120;

/**
 * A search box that suggests models as you type (`/models/search`, T124): the ARIA 1.2 combobox
 * pattern (list popup, arrow keys move, Enter picks, Escape closes), so keyboard and screen-reader
 * users get the same suggestions as a pointer. Enter with no suggestion chosen calls `onSubmit`.
 */
export function ModelPicker(props: {
  readonly label: string;
  readonly value?: string;
  readonly placeholder?: string;
  readonly onPick: (suggestion: Suggestion) => void;
  readonly onInput?: (text: string) => void;
  readonly onSubmit?: (text: string) => void;
  /** Clear the box after a pick (compare: pick several). */
  readonly clearOnPick?: boolean;
}) {
  const id = useId();
  const listId = `${id}-list`;
  const [text, setText] = useState(props.value ?? "");
  const [suggestions, setSuggestions] = useState<Suggestion[]>([]);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);

  useEffect(() => {
    if (!open) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      getJson<Envelope<Suggestion[]>>(`/models/search${query({ q: text.trim(), limit: 10 })}`, controller.signal).then(
        ({ body }) => {
          setSuggestions(body.data);
          setActive(-1);
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

  const pick = (suggestion: Suggestion) => {
    setOpen(false);
    setActive(-1);
    setText(props.clearOnPick ? "" : suggestion.label.split(" — ")[0]!);
    props.onPick(suggestion);
  };

  const onKeyDown = (event: KeyboardEvent) => {
    const count = suggestions.length;
    if (event.key === "ArrowDown") {
      event.preventDefault();
      setOpen(true);
      if (count > 0) setActive((a) => (a + 1) % count);
    } else if (event.key === "ArrowUp") {
      event.preventDefault();
      if (count > 0) setActive((a) => (a <= 0 ? count - 1 : a - 1));
    } else if (event.key === "Escape") {
      if (open) event.preventDefault();
      setOpen(false);
      setActive(-1);
    } else if (event.key === "Enter") {
      const chosen = open && active >= 0 ? suggestions[active] : undefined;
      event.preventDefault();
      if (chosen) pick(chosen);
      else {
        setOpen(false);
        props.onSubmit?.(text.trim());
      }
    }
  };

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
      <div id={listId} role="listbox" aria-label={`${props.label}: suggestions`} class="suggestions" hidden={!expanded}>
        {suggestions.map((s, i) => (
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
            onClick={() => pick(s)}
          >
            {s.label}
            <span class="muted"> {s.id}</span>
          </div>
        ))}
      </div>
    </div>
  );
}
