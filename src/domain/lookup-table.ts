/**
 * A string-keyed table that upstream or request text may index (issue 33 §2, T250): a frozen copy
 * of `entries` with no prototype, so `TABLE["constructor"]`, `TABLE["__proto__"]`, `TABLE["toString"]`
 * and every other `Object.prototype` name read `undefined` like any other unknown key, instead of
 * a function of `Object.prototype`. `test/layering.test.ts` fails on a string-keyed constant table
 * that is indexed by a computed key and not built with this.
 * @param entries the table's own entries (an object literal; a `__proto__` key in it would be lost)
 * @returns the same entries, read-only, prototype-free (`Object.keys`/`entries` and `in` behave as usual)
 */
export function lookupTable<V>(entries: Readonly<Record<string, V>>): Readonly<Record<string, V>> {
  return Object.freeze(Object.assign(Object.create(null) as Record<string, V>, entries));
}
