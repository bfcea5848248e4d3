/**
 * The budget of the property tests (fast-check) and fuzzers (issue 34 §1, T270): a small local
 * budget while working, the full one in CI. `TARIFF_FUZZ_RUNS` chooses: `full` (the default when
 * `CI=true`), `local` (the default otherwise), or a positive integer, the runs of every property.
 */
export type FuzzBudget = "full" | "local" | number;

/**
 * The budget this run was given.
 * @throws Error naming `TARIFF_FUZZ_RUNS` when it holds anything but `full`, `local` or a positive integer
 */
export function fuzzBudget(): FuzzBudget {
  const setting = process.env.TARIFF_FUZZ_RUNS ?? (process.env.CI === "true" ? "full" : "local");
  if (setting === "full" || setting === "local") return setting;
  if (!/^[1-9]\d*$/.test(setting))
    throw new Error(`TARIFF_FUZZ_RUNS must be "full", "local" or a positive integer, not ${JSON.stringify(setting)}`);
  return Number(setting);
}

/** The runs of one property under this run's budget: `local` or `full` as chosen, else the given count. */
export function propertyRuns(runs: { local: number; full: number }): number {
  const budget = fuzzBudget();
  return budget === "full" ? runs.full : budget === "local" ? runs.local : budget;
}
