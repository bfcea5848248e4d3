import { SOURCE_IDS, type SourceId } from "../domain/observation.js";
import type { SourceAdapter } from "./source.js";

/**
 * The adapter export of a source's folder (T475): `<id in camel case>Source`, e.g.
 * `official-zai` → `officialZaiSource`, from `src/sources/<id>/index.ts` (T235).
 */
export function adapterExportName(id: string): string {
  return `${id.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase())}Source`;
}

/**
 * The adapter of `id`, loaded from its folder (T475).
 * @throws Error when the folder's index exports no adapter under {@link adapterExportName}, or one
 *   filed under another id
 */
async function loadAdapter<Id extends SourceId>(id: Id): Promise<SourceAdapter & { readonly id: Id }> {
  // The module's own extension: `.ts` under tsx and vitest, `.js` in the build.
  const extension = import.meta.url.endsWith(".ts") ? "ts" : "js";
  const module = (await import(`./${id}/index.${extension}`)) as Record<string, unknown>;
  const adapter = module[adapterExportName(id)] as (SourceAdapter & { readonly id: Id }) | undefined;
  if (typeof adapter?.parse !== "function" || adapter.id !== id)
    throw new Error(
      `source registry: src/sources/${id}/index.ts exports no adapter ${adapterExportName(id)} of id ${id}`,
    );
  return adapter;
}

/**
 * One adapter per registered source id, keyed by it (issue 45 §4, T399). The registry is
 * `SOURCE_IDS` (src/domain/observation.ts): adding an upstream is its folder and one line there
 * (issue 48 §4, T475); each adapter is loaded from the folder of its id, an explicit list, never a
 * directory scan (T235). An id without its folder, or a folder without its adapter, fails at load.
 */
const ADAPTERS = new Map<SourceId, SourceAdapter>(
  await Promise.all(SOURCE_IDS.map(async (id) => [id, await loadAdapter(id)] as const)),
);

/**
 * Every configured source, in the order of the `/sources` list (that of `SOURCE_IDS`). An explicit
 * list, not a directory scan (T235).
 */
export const SOURCES: readonly SourceAdapter[] = SOURCE_IDS.map((id) => ADAPTERS.get(id)!);

/** The adapter of a registered source (T399). */
export function adapterOf<Id extends SourceId>(id: Id): SourceAdapter & { readonly id: Id } {
  return ADAPTERS.get(id) as SourceAdapter & { readonly id: Id };
}
