import { useId } from "preact/hooks";
import { useApi } from "../api.js";
import type { Provider } from "../types.js";

/** A select of every maker of `/providers` (name and model count), "" for all makers. */
export function MakerSelect(props: { readonly value: string; readonly onChange: (slug: string) => void }) {
  const id = useId();
  const providers = useApi<Provider[]>("/providers");
  const list = providers.state === "ok" ? [...providers.data.data].sort((a, b) => a.name.localeCompare(b.name)) : [];
  return (
    <div class="field">
      <label for={id}>Maker</label>
      <select id={id} value={props.value} onChange={(event) => props.onChange(event.currentTarget.value)}>
        <option value="">All makers</option>
        {list.map((p) => (
          <option key={p.slug} value={p.slug}>
            {p.name} ({p.models})
          </option>
        ))}
        {/* A maker named by the URL keeps its option while the list loads. */}
        {props.value && !list.some((p) => p.slug === props.value) ? (
          <option value={props.value}>{props.value}</option>
        ) : null}
      </select>
    </div>
  );
}
