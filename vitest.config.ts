import { defineConfig } from "vitest/config";

/**
 * Two projects: `sqlite` runs every suite on the embedded store; `postgres` runs the HTTP suites
 * again, unchanged, on a catalogue replayed into real PostgreSQL (issue 5 "Must show").
 */
export default defineConfig({
  test: {
    globalSetup: ["test/global-setup.ts"],
    pool: "forks",
    testTimeout: 60_000,
    hookTimeout: 180_000,
    projects: [
      { extends: true, test: { name: "sqlite", include: ["src/**/*.test.ts", "test/**/*.test.ts"] } },
      {
        extends: true,
        test: {
          name: "postgres",
          include: ["test/http-*.test.ts", "test/changes-history.test.ts", "test/catalogue-replay.test.ts"],
        },
      },
    ],
  },
});
