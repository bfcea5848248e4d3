import { readFileSync } from "node:fs";
import semver from "semver";
import { describe, expect, it } from "vitest";

/**
 * Issue 15: `engines.node` of package.json agrees with every installed package's own `engines.node`
 * (as npm records them in package-lock.json): each Node version we declare is one every package
 * accepts, so `npm install` on a declared version warns of nothing (T98).
 */
const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
  engines: { node: string };
};
const lock = JSON.parse(readFileSync(new URL("../package-lock.json", import.meta.url), "utf8")) as {
  packages: Record<string, { version?: string; engines?: { node?: string } | string[] }>;
};

describe("engines", () => {
  it("every package's engines.node accepts every Node version package.json declares", () => {
    const declared = pkg.engines.node;
    const disagreeing: string[] = [];
    let checked = 0;
    for (const [path, entry] of Object.entries(lock.packages)) {
      if (path === "" || !entry.engines || Array.isArray(entry.engines) || !entry.engines.node) continue;
      checked++;
      if (!semver.subset(declared, entry.engines.node))
        disagreeing.push(`${path}@${entry.version}: ${entry.engines.node}`);
    }
    expect(checked).toBeGreaterThan(50);
    expect(disagreeing).toEqual([]);
  });

  it("the Node running the tests is one package.json declares", () => {
    expect(semver.satisfies(process.version, pkg.engines.node)).toBe(true);
  });
});
