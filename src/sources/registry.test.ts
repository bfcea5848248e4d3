import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isSourceId, SOURCE_ID_PATTERN, SOURCE_IDS } from "../domain/observation.js";
import { isMaker } from "../domain/sellers.js";
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
    // Issue 45 §3, T394: the fake upstream's payload builders are test material, kept out of src/;
    // a maker's gated page without its own file is served as any maker's page (issue 48 §4, T475).
    const adapter = SOURCES.find((a) => a.id === id)!;
    expect(
      existsSync(join("test/payloads", `${id}.ts`)) || adapter.pageHealth !== undefined,
      `test/payloads/${id}.ts`,
    ).toBe(true);
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

// Issue 48 §4, T433: the makers' own sources are documented from the registry, not pinned.
describe("docs/first-party-sources.md", () => {
  const doc = readFileSync("docs/first-party-sources.md", "utf8");
  const rows = [...doc.matchAll(/^\| `([a-z0-9-]+)` \| ([a-z0-9-]+) \| (\S+)/gm)].map((m) => ({
    id: m[1]!,
    maker: m[2]!,
    url: m[3]!,
  }));
  const makerSources = SOURCES.filter((a) => a.info.authoritativeFor.some(isMaker));

  it("each row of its table is a registered source authoritative for the row's maker", () => {
    expect(rows.length).toBeGreaterThanOrEqual(2);
    for (const row of rows)
      expect(SOURCES.find((a) => a.id === row.id)?.info.authoritativeFor, row.id).toContain(row.maker);
  });

  it.each(makerSources.map((a) => a.id))("%s: its README names its live URL and its homepage", (id) => {
    const a = SOURCES.find((s) => s.id === id)!;
    const readme = readFileSync(join("src/sources", id, "README.md"), "utf8");
    expect(readme).toContain(new URL(a.info.homepage).host);
    expect(readme).toContain(new URL(a.upstream.baseUrl).host);
  });
});
