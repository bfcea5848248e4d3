/** Byte order of two strings (`<`), for sorts whose result must not depend on the locale. */
export function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
