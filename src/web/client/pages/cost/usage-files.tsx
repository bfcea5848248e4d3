import { useId, useState } from "preact/hooks";
import { formatCount } from "../../format.js";
import { type LogSummary, summarizeLog } from "../../usage-log-summary.js";
import { parseUsageObject, type RequestTokens } from "../../usage-object.js";

/** What reading a pasted object or a log said: read (muted) or not (an error). */
type ReadNote = { readonly ok: boolean; readonly text: string } | null;

/** "Or paste a usage object": one request's tokens from an API response's usage (T277). */
export function UsagePaste(props: { readonly onRead: (tokens: RequestTokens) => void }) {
  const id = useId();
  const [paste, setPaste] = useState("");
  const [note, setNote] = useState<ReadNote>(null);
  const read = () => {
    try {
      const { tokens, shape } = parseUsageObject(paste);
      props.onRead(tokens);
      setNote({ ok: true, text: `Read as ${shape.replace("-", " ")} usage: one request's tokens filled in.` });
    } catch (error) {
      setNote({ ok: false, text: (error as Error).message });
    }
  };
  return (
    <details class="paste">
      <summary>Or paste a usage object from an API response</summary>
      <div class="field">
        <label for={id}>Usage object (OpenAI, Anthropic or Gemini)</label>
        <textarea
          id={id}
          rows={5}
          spellcheck={false}
          placeholder='{"prompt_tokens": 1200, "completion_tokens": 300, "prompt_tokens_details": {"cached_tokens": 1000}}'
          value={paste}
          onInput={(e) => setPaste(e.currentTarget.value)}
        />
      </div>
      <button type="button" onClick={read}>
        Use these tokens per request
      </button>
      <Note note={note} />
    </details>
  );
}

/**
 * "Or read a usage log" (T348): a JSON Lines log of the records `tariff cost` reads, summed in the
 * browser (nothing is sent) into tokens a day over the days it spans, with its average request.
 */
export function LogFile(props: { readonly onRead: (summary: LogSummary) => void }) {
  const id = useId();
  const [note, setNote] = useState<ReadNote>(null);
  const read = async (file: File | undefined) => {
    if (!file) return;
    const summary = summarizeLog(await file.text());
    if (summary.records === 0) {
      setNote({ ok: false, text: `No record with usage in ${file.name} (${summary.unreadable} lines not read).` });
      return;
    }
    props.onRead(summary);
    setNote({
      ok: true,
      text:
        `Read ${formatCount(summary.records)} records` +
        (summary.days === null ? " without times, taken as a month" : ` over ${formatCount(summary.days)} days`) +
        (summary.unreadable > 0 ? ` (${formatCount(summary.unreadable)} lines not read)` : "") +
        ": tokens a day and the average request filled in. `tariff cost` prices each record at its own day's prices.",
    });
  };
  return (
    <details class="paste">
      <summary>Or read a usage log (JSON Lines)</summary>
      <div class="field">
        <label for={id}>Usage log file</label>
        <input
          id={id}
          type="file"
          accept=".jsonl,.json,.ndjson,application/json,text/plain"
          onChange={(e) => void read(e.currentTarget.files?.[0])}
        />
        <span class="hint muted">Read in your browser; nothing is uploaded.</span>
      </div>
      <Note note={note} />
    </details>
  );
}

/** The note under a reader, in a polite live region. */
function Note(props: { readonly note: ReadNote }) {
  const { note } = props;
  return note ? (
    <p class={note.ok ? "muted" : "error"} role="status">
      {note.text}
    </p>
  ) : null;
}
