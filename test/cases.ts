import { expect, it } from "vitest";

/**
 * One test per row of a table of cases for a pure function: `fn(...arguments)` must equal the
 * row's last element (`toEqual`). The title names the function, the arguments and the expected
 * value, so a failure reads as the case it is. For the table tests of src/domain and src/core.
 */
export function eachCase<A extends unknown[], R>(
  name: string,
  fn: (...args: A) => R,
  rows: readonly (readonly [...A, R])[],
): void {
  for (const row of rows) {
    const args = row.slice(0, -1) as unknown as A;
    const expected = row.at(-1) as R;
    it(`${name}(${args.map((a) => JSON.stringify(a)).join(", ")}) = ${JSON.stringify(expected)}`, () => {
      expect(fn(...args)).toEqual(expected);
    });
  }
}
