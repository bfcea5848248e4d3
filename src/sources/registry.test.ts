import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isSourceId, SOURCE_ID_PATTERN, SOURCE_IDS } from "../domain/observation.js";
import { SOURCES } from "./registry.js";
import { baseUrlVariable } from "./upstream.js";

// Issue 30 §3, T235: a source is one folder, `src/sources/<id>/`, and one registry line. The
// registry and the source folders (and their recorded payloads) name the same sources.
const FOLDERS = readdirSync("src/sources", { withFileTypes: true })
  .filter((e) => e.isDirectory() && existsSync(join("src/sources", e.name, "index.ts")))
  .map((e) => e.name);
const ids = SOURCES.map((a) => a.id);

describe("the source registry (issue 30 §3, T235)", () => {
  it("registers every source folder once, each under its folder's name", () => {
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual([...FOLDERS].sort());
    for (const id of ids) expect(id).toMatch(SOURCE_ID_PATTERN);
  });

  it("lists the ids of SOURCE_IDS, in their order (issue 45 §4, T399)", () => {
    expect(ids).toEqual([...SOURCE_IDS]);
  });

  it.each(ids)("%s keeps its parts in its folder and its recorded payloads in data/upstream/%s", (id) => {
    for (const file of ["index.ts", "field-map.ts", "README.md"])
      expect(existsSync(join("src/sources", id, file)), `${id}/${file}`).toBe(true);
    expect(existsSync(join("data/upstream", id))).toBe(true);
    // Issue 45 §3, T394: the fake upstream's payload builders are test material, kept out of src/.
    expect(existsSync(join("test/payloads", `${id}.ts`)), `test/payloads/${id}.ts`).toBe(true);
    expect(existsSync(join("src/sources", id, "fake-payloads.ts")), `${id}/fake-payloads.ts`).toBe(false);
  });

  it("the recorded payloads are those of registered sources", () => {
    const recorded = readdirSync("data/upstream", { withFileTypes: true }).filter((e) => e.isDirectory());
    expect(recorded.map((e) => e.name).filter((name) => !isSourceId(name))).toEqual([]);
  });

  it("each source has its own SOURCE_URL_<ID> variable and settings of distinct names", () => {
    expect(new Set(ids.map(baseUrlVariable)).size).toBe(ids.length);
    const settings = SOURCES.flatMap((a) => (a.upstream.setting ? [a.upstream.setting.variable] : []));
    expect(new Set(settings).size).toBe(settings.length);
    for (const name of settings) expect(name).not.toMatch(/^SOURCE_URL_/);
  });
});
