import { readFileSync } from "node:fs";
import { describe, expect } from "vitest";
import type { ApiMeta } from "../src/catalogue/schemas.js";
import { SOURCE_IDS } from "../src/domain/observation.js";
import { baseUrlVariable } from "../src/sources/upstream.js";
import { it } from "./fixtures.js";

/**
 * Issue 50 §5: the figures and lists the docs state in prose come from the code, so they cannot
 * drift unseen (the docs check, docs/checks, runs their commands only). Each check below failed on
 * the drift the issue found: README's SOURCE_URL list without `_OFFICIAL_OPENAI`, its sample log line
 * naming a URL and "6 more", docs/deploy.md's 17,761 prices where /meta said 17,747.
 */

const README = readFileSync("README.md", "utf8");
const DEPLOY = readFileSync("docs/deploy.md", "utf8");
const count = (n: number) => n.toLocaleString("en-US");

describe("the docs' figures and lists are the code's (issue 50 §5)", () => {
  // Issue 48 §4 (T475): the row states the rule and names examples, so a new source (its folder and
  // one registry line) needs no edit here; the rule is checked on every registered id.
  it("README's SOURCE_URL_<ID> row states the variable's rule, which names every registered source's, and no other", () => {
    const row = README.split("\n").find((l) => l.startsWith("| `SOURCE_URL_<ID>`"));
    expect(row).toBeDefined();
    expect(row).toContain("`SOURCE_URL_` and the source's id upper-cased, `-` as `_`");
    for (const id of SOURCE_IDS) expect(baseUrlVariable(id)).toBe(`SOURCE_URL_${id.toUpperCase().replace(/-/g, "_")}`);
    const named = [...row!.matchAll(/`(SOURCE_URL_[A-Z_]+)`/g)].map((m) => m[1]!).filter((v) => v !== "SOURCE_URL_");
    expect(named.length).toBeGreaterThan(0);
    for (const v of named) expect(SOURCE_IDS.map((id) => baseUrlVariable(id))).toContain(v);
  });

  it("README's sample 'unreachable' line counts the other sources, or leaves the count out, and names a file, never a URL (T193)", () => {
    const line = README.split("\n").find((l) => l.startsWith("tariff: live sources unreachable ("));
    expect(line).toBeDefined();
    expect(line).not.toMatch(/https?:\/\//);
    expect(line).toMatch(/\(models-dev: api\.json: /);
    const count = /, and (\d+|…) more\)/.exec(line!)?.[1];
    expect(count).toBeDefined();
    if (count !== "…") expect(Number(count)).toBe(SOURCE_IDS.length - 1);
  });

  it("docs/deploy.md's catalogue row is what /meta answers on the bundled replay", async ({ api }) => {
    const meta = ((await (await api.get("/api/v1/meta")).json()) as { data: ApiMeta }).data;
    const row = DEPLOY.split("\n").find((l) => l.startsWith("| catalogue (2026-06-01 bundled data)"));
    expect(row).toBe(
      `| catalogue (2026-06-01 bundled data) | ${count(meta.models)} models, ${count(meta.providers)} makers, ` +
        `${count(meta.prices)} prices in ${meta.channels.length} channels | \`/api/v1/meta\` after the first start |`,
    );
  });

  it("README says /sources health is judged against now, not at the dataset version (T310)", () => {
    expect(README).not.toMatch(/judged at the dataset version/);
    expect(README).toMatch(/`health` \(T225, T310\), judged against now/);
  });
});
