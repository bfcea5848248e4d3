import { describe, expect, it } from "vitest";
import { ChangesQuery, GetModelQuery, ListModelsQuery } from "../src/catalogue/params.js";
import type { CatalogueView } from "../src/catalogue/view.js";
import { ViewHolder } from "../src/catalogue/view-holder.js";
import { callTool } from "../src/mcp/server.js";
import { enumValues, isIntegerParam, toolInputSchema, toRawQuery } from "../src/mcp/tool-args.js";
import { TOOLS } from "../src/mcp/tools.js";
import { loadReplay } from "./harness.js";
import { textOf } from "./mcp-support.js";

// T20: how tool arguments become the raw query the HTTP route would see, and the faults a live
// catalogue cannot produce (no view yet, a verb that throws).
describe("tool arguments (T20)", () => {
  it("reads integer and enum parameters off the params.ts schemas", () => {
    expect(isIntegerParam(ListModelsQuery.shape.limit)).toBe(true);
    expect(isIntegerParam(ChangesQuery.shape.days)).toBe(true);
    expect(isIntegerParam(ListModelsQuery.shape.q)).toBe(false);
    expect(enumValues(GetModelQuery.shape.channel)).toHaveLength(9);
    expect(enumValues(ListModelsQuery.shape.q)).toBeNull();
  });

  it("turns numbers into their decimal string and keeps only the endpoint's parameters", () => {
    const raw = toRawQuery(ListModelsQuery, { limit: 1.5, q: "opus", provider: undefined, channel: "direct" });
    expect([...raw]).toEqual([
      ["q", ["opus"]],
      ["limit", ["1.5"]],
    ]);
    expect([...toRawQuery(ListModelsQuery, { limit: 1e21 })]).toEqual([["limit", ["1e+21"]]]);
  });

  it("refuses a query parameter without a tool description", () => {
    expect(() => toolInputSchema(ListModelsQuery, [], { q: "text" })).toThrow(/provider has no tool description/);
  });
});

describe("tool faults", () => {
  const getMeta = TOOLS.find((t) => t.name === "get_meta")!;

  it("answers a 503 problem while no view is loaded", () => {
    const result = callTool(getMeta, new ViewHolder(null), {}, () => {});
    expect(result.isError).toBe(true);
    expect(JSON.parse(textOf(result))).toMatchObject({ type: "about:blank", status: 503 });
  });

  it("logs an unexpected fault and answers a 500 problem without internals (D25)", async () => {
    const { view, store } = await loadReplay();
    await store.close();
    // Invented: a view whose rates cannot be read, since a real view never throws.
    const broken = Object.defineProperty({ ...view }, "rates", {
      get() {
        throw new Error("secret internal detail");
      },
    }) as CatalogueView;
    const logged: string[] = [];
    const listRates = TOOLS.find((t) => t.name === "list_rates")!;
    const result = callTool(listRates, new ViewHolder(broken), {}, (_error, tool) => logged.push(tool));
    expect(logged).toEqual(["list_rates"]);
    expect(JSON.parse(textOf(result))).toMatchObject({ status: 500 });
    expect(textOf(result)).not.toContain("secret");
  });
});
