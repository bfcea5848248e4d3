import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { type Provider, waitForUpdate } from "@pydantic/genai-prices";
import { describe, expect, it } from "vitest";
import {
  GENAI_PRICES_PACKAGE_PROVIDERS,
  GENAI_PRICES_PACKAGE_VERSION,
  type PackageProvider,
} from "./genai-prices-package.js";

// Issue 49 §3, T518: the export's copy of the package's own provider data (API patterns and usage
// extractors) is the installed package's, so an upgrade that changes them fails here until the copy
// is rewritten (TARIFF_WRITE_GENAI_PRICES_PACKAGE=1). The copy is a JSON data file (T531), written
// here and formatted as Biome formats it, so the rewrite passes `npm run lint` as written.
const FILE = "src/exports/genai-prices-package.json";

function installed(): { version: string; providers: Promise<Provider[] | null> } {
  const pkg = JSON.parse(readFileSync("node_modules/@pydantic/genai-prices/package.json", "utf8")) as {
    version: string;
  };
  // No updatePrices in this file: the package's active data is its bundled data.
  return { version: pkg.version, providers: waitForUpdate() };
}

function packageProviders(providers: readonly Provider[]): Record<string, PackageProvider> {
  const out: Record<string, PackageProvider> = {};
  for (const p of providers)
    out[p.id] = { api_pattern: p.api_pattern, ...(p.extractors ? { extractors: p.extractors } : {}) };
  return out;
}

describe("the export's copy of @pydantic/genai-prices' own provider data", () => {
  it("is the installed package's API patterns and usage extractors, provider by provider", async () => {
    const { version, providers } = installed();
    const own = packageProviders((await providers) ?? []);
    if (process.env.TARIFF_WRITE_GENAI_PRICES_PACKAGE === "1") {
      writeFileSync(FILE, `${JSON.stringify({ version, providers: own }, null, 2)}\n`);
      execFileSync("node_modules/.bin/biome", ["format", "--write", FILE], { stdio: "ignore" });
      return;
    }
    expect(GENAI_PRICES_PACKAGE_VERSION).toBe(version);
    expect(Object.keys(own).length).toBeGreaterThan(30);
    expect(GENAI_PRICES_PACKAGE_PROVIDERS).toEqual(own);
  });

  it("maps Anthropic's 1-hour cache writes and web searches (what the recorded payload's older extractor drops)", () => {
    const dests = GENAI_PRICES_PACKAGE_PROVIDERS.anthropic!.extractors!.find(
      (e) => e.api_flavor === "default",
    )!.mappings.map((m) => m.dest);
    expect(dests).toEqual(expect.arrayContaining(["cache_write_5m_tokens", "cache_write_1h_tokens", "web_searches"]));
  });
});
