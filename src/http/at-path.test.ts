import { describe, expect, it } from "vitest";
import { atPathToQuery } from "./at-path.js";

describe("the path form of at (T314)", () => {
  it("moves the date into the query, keeping the request's own query after it", () => {
    expect(atPathToQuery("/api/v1/at/2026-03-01/exports/models-dev/api.json")).toBe(
      "/api/v1/exports/models-dev/api.json?at=2026-03-01",
    );
    expect(atPathToQuery("/api/v1/at/2026-03-01/models?limit=5")).toBe("/api/v1/models?at=2026-03-01&limit=5");
  });

  it("leaves every other URL as it is", () => {
    for (const url of [
      "/api/v1/models",
      "/api/v1/at/2026-3-1/models",
      "/api/v1/at/2026-03-01",
      "/api/v1/at/latest/models",
      "/at/2026-03-01/models",
    ])
      expect(atPathToQuery(url)).toBe(url);
  });
});
