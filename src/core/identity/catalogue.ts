import { activeSizeOffKey, baseKey, isDated, isMoving, looseKey, sizelessKey, sortedKey } from "./spelling.js";
import { LOOSE_TOKENS, SIZE_TOKEN, SNAPSHOT_DATE } from "./spelling-rules.js";

/**
 * One maker's models and the keys that name them (issue 12, T63). Lookup goes from the most to the
 * least exact reading: the key itself, its word-order-insensitive form, its base (snapshot markers
 * off), then its loose form (`-instruct`, `-it`… off), its word order with a mixture-of-experts
 * model's active size off (`a12b`), last its sizeless form where the maker has one
 * model of that name (issue 25 §1). A reading that names two models is no match.
 */
export class MakerCatalogue {
  /** key → slug */
  private readonly exact = new Map<string, string>();
  private readonly sorted = new Map<string, Set<string>>();
  private readonly base = new Map<string, Set<string>>();
  private readonly loose = new Map<string, Set<string>>();
  private readonly sizeless = new Map<string, Set<string>>();
  private readonly activeOff = new Map<string, Set<string>>();
  /** normalized display name → slug, or null when two models carry it */
  private readonly names = new Map<string, string | null>();
  /** slug → keys that name it */
  readonly keysOf = new Map<string, Set<string>>();

  /** Adds `key` as a spelling of model `slug` (the first slug a key names keeps it). */
  add(key: string, slug: string): void {
    if (!this.exact.has(key)) this.exact.set(key, slug);
    const keys = this.keysOf.get(slug) ?? new Set<string>();
    keys.add(key);
    this.keysOf.set(slug, keys);
    for (const [index, k] of [
      [this.sorted, sortedKey(key)],
      [this.base, baseKey(key)],
      [this.loose, looseKey(key)],
      [this.sizeless, sizelessKey(key)],
      [this.activeOff, activeSizeOffKey(key)],
    ] as const) {
      const set = index.get(k) ?? new Set<string>();
      set.add(slug);
      index.set(k, set);
    }
  }

  /** Records a display name of model `slug` (normalized, see `normalizeName`); a name two models carry names neither. */
  addName(name: string, slug: string): void {
    if (name.length < 3) return;
    const known = this.names.get(name);
    this.names.set(name, known === undefined || known === slug ? slug : null);
  }

  /** The one model carrying a normalized display name, or undefined. */
  byName(name: string): string | undefined {
    return this.names.get(name) ?? undefined;
  }

  /** The slug `key` names exactly, or undefined. */
  exactly(key: string): string | undefined {
    return this.exact.get(key);
  }

  /**
   * The slug a key names at the most exact level that names one model, or undefined. Without
   * `dropSnapshot`, a reading that takes a snapshot date off (`deepseek-r1-0528` → `deepseek-r1`)
   * is not tried; without `sizeless` (by default as `dropSnapshot`), nor the sizeless level.
   */
  find(key: string, dropSnapshot = true, sizeless = dropSnapshot): string | undefined {
    const hit = this.exact.get(key);
    if (hit) return hit;
    const dated = this.byDate(key);
    if (dated) return dated;
    const levels: [Map<string, Set<string>>, (k: string) => string][] = [];
    if (dropSnapshot || baseKey(key) === key)
      levels.push(
        [this.sorted, sortedKey],
        [this.base, baseKey],
        [this.loose, looseKey],
        // (a seller that drops a mixture-of-experts model's active size, issue 25 §1)
        [this.activeOff, activeSizeOffKey],
      );
    for (const [index, form] of levels) {
      const slugs = index.get(form(key));
      if (!slugs || slugs.size === 0) continue;
      const one = this.choose([...slugs], (k) => form(k) === form(key));
      if (one && !this.otherSnapshot(key, one)) return one;
    }
    // Only once every model is in (a lookup that may found a model first does not use it): a level
    // that needs uniqueness cannot be asked while the catalogue is still growing.
    return sizeless && (dropSnapshot || baseKey(key) === key) ? this.bySize(key) : undefined;
  }

  /**
   * True when `key` names a snapshot by its date and `slug` is not that snapshot while the maker
   * dates this family's snapshots (T246): Bedrock's `mistral-small-2402` is no spelling of
   * `mistral-small`, the alias of Mistral's newest Small, when Mistral lists 2409, 2501… but not 2402.
   */
  private otherSnapshot(key: string, slug: string): boolean {
    const date = SNAPSHOT_DATE.exec(key)?.[1];
    if (!date) return false;
    const mine = this.keysOf.get(slug) ?? new Set<string>();
    if ([...mine].some((k) => SNAPSHOT_DATE.exec(k)?.[1] === date)) return false;
    if ([...mine].some((k) => isDated(k))) return false;
    const base = baseKey(key);
    for (const [other, keys] of this.keysOf)
      if (other !== slug && [...keys].some((k) => isDated(k) && baseKey(k) === base)) return true;
    return false;
  }

  /**
   * The one model whose sizeless key is `key`'s and whose sizes include `key`'s
   * (`llama4-maverick-17b-instruct` → `llama-4-maverick-17b-128e-instruct`, `qwen3-coder:480b` →
   * `qwen3-coder-480b-a35b-instruct`; `qwen3-32b` never reaches `qwen3-235b-a22b`), or undefined.
   */
  private bySize(key: string): string | undefined {
    const slugs = this.sizeless.get(sizelessKey(key));
    if (!slugs) return undefined;
    const sizes = key.split("-").filter((t) => SIZE_TOKEN.test(t));
    const fits = [...slugs].filter((slug) =>
      [...(this.keysOf.get(slug) ?? [])].some((k) => sizes.every((t) => k.split("-").includes(t))),
    );
    return fits.length === 1 ? fits[0] : undefined;
  }

  /**
   * The one model whose keys carry the same snapshot date token and the same tokens but for loose
   * ones (`kimi-k2-instruct-0905` → `kimi-k2-0905-preview`), else the one whose tokens the key
   * extends by version numbers and a size only (`mistral-small-3.1-24b-instruct-2503` →
   * `mistral-small-2503`), or undefined.
   */
  private byDate(key: string): string | undefined {
    const date = /-(\d{4})(?=-|$)/.exec(key)?.[1];
    if (!date || /^(19|20)\d\d$/.test(date)) return undefined;
    // The same tokens but for the date, loose tokens and a `preview` tag.
    const core = (k: string) =>
      k
        .split("-")
        .filter((t) => t !== date && t !== "preview" && !LOOSE_TOKENS.has(t))
        .sort()
        .join("-");
    const mine = core(key);
    const hits = new Set<string>();
    for (const [slug, keys] of this.keysOf)
      for (const k of keys) if (k.split("-").includes(date) && core(k) === mine) hits.add(slug);
    if (hits.size === 0) {
      // A family id that adds a version and a size to the maker's dated id (issue 25 §1):
      // `mistral-small-3.1-24b-instruct-2503` is `mistral-small-2503`.
      const tokens = mine.split("-");
      for (const [slug, keys] of this.keysOf)
        for (const k of keys) {
          if (!k.split("-").includes(date)) continue;
          const theirs = core(k).split("-");
          const extra = tokens.filter((t) => !theirs.includes(t));
          const sized = theirs.some((t) => SIZE_TOKEN.test(t));
          if (
            extra.length > 0 &&
            theirs.every((t) => tokens.includes(t)) &&
            extra.every((t) => /^\d{1,2}$/.test(t) || (!sized && SIZE_TOKEN.test(t)))
          )
            hits.add(slug);
        }
    }
    return hits.size === 1 ? [...hits][0] : undefined;
  }

  /**
   * Of several models one reading names, the one a moving spelling points at: the model holding an
   * undated, non-moving key of that reading (`claude-3-5-haiku` with its aliases; a family id such as
   * `mistral-large-3` is another reading); else the newest dated one when all are dated snapshots of
   * one base; else none (ambiguous).
   */
  private choose(slugs: readonly string[], reads: (key: string) => boolean): string | undefined {
    if (slugs.length === 1) return slugs[0];
    const undated = slugs.filter((s) =>
      [...(this.keysOf.get(s) ?? [])].some((k) => !isDated(k) && !isMoving(k) && reads(k)),
    );
    if (undated.length === 1) return undated[0];
    if (undated.length > 1) return undefined;
    const bases = new Set(slugs.map((s) => baseKey([...(this.keysOf.get(s) ?? [s])][0]!)));
    if (bases.size > 1) return undefined;
    return [...slugs].sort().at(-1);
  }

  /** Every model slug of the maker. */
  slugs(): string[] {
    return [...this.keysOf.keys()];
  }
}
