/** Every store a suite may run against: the catalogue's two back-ends and the rate limit's Redis. */
export const TEST_STORES = ["sqlite", "postgres", "redis"] as const;
export type TestStore = (typeof TEST_STORES)[number];

/**
 * The stores this run tests (issue 34 §1, T273): all of {@link TEST_STORES}, or those listed in
 * `TARIFF_TEST_STORES` (comma-separated, e.g. `sqlite`). The `stores` project leaves out the files
 * that need a store not listed (vitest.config.ts); parameterized files run on the listed back-ends.
 * Node's own modules only: vitest.config.ts reads it.
 * @throws Error naming the variable and the unknown store
 */
export function selectedStores(env: NodeJS.ProcessEnv = process.env): readonly TestStore[] {
  const setting = env.TARIFF_TEST_STORES?.trim();
  if (!setting) return TEST_STORES;
  const listed = setting.split(",").map((s) => s.trim());
  const unknown = listed.filter((s) => !(TEST_STORES as readonly string[]).includes(s));
  if (unknown.length > 0)
    throw new Error(
      `TARIFF_TEST_STORES lists ${TEST_STORES.join(", ")}, comma-separated; not ${JSON.stringify(setting)}`,
    );
  return TEST_STORES.filter((s) => listed.includes(s));
}
