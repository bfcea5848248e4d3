/**
 * An empty JSON object with no prototype, for the exports' objects keyed by upstream text or our
 * spellings (issue 33 §2, T315): LiteLLM's model keys and entry fields, models.dev's provider and
 * model keys. Writing `obj["__proto__"] = v` to a plain object sets its prototype (the key is lost
 * from the file, and `v`'s fields show through every later read), and `"constructor" in obj` is
 * true before anything is written; on this object every `Object.prototype` name is an ordinary own
 * key. `JSON.stringify` writes it like any object (own enumerable keys, in insertion order).
 * `test/lookup-tables.test.ts` fails on an object of `src/exports` written with a computed key
 * that is not made here.
 */
export function jsonObject<V = unknown>(): Record<string, V> {
  return Object.create(null) as Record<string, V>;
}
