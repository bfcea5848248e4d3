import { describe, expect, it } from "vitest";
import { z } from "zod";
import { isNumberParam } from "../src/catalogue/endpoint.js";
import { changesEndpoint } from "../src/catalogue/endpoints/changes.js";
import { modelEndpoint } from "../src/catalogue/endpoints/model.js";
import { modelsEndpoint } from "../src/catalogue/endpoints/models.js";
import { CatalogueError } from "../src/catalogue/errors.js";
import type { CatalogueView } from "../src/catalogue/view.js";
import { ViewHolder } from "../src/catalogue/view-holder.js";
import { callTool } from "../src/mcp/server.js";
import { enumValues, inputFromArgs, toolInputSchema } from "../src/mcp/tool-args.js";
import { TOOLS } from "../src/mcp/tools.js";
import { loadReplay } from "./harness.js";
import { textOf } from "./mcp-support.js";

// T20, T162: how tool arguments become the endpoint's typed input, and the faults a live
// catalogue cannot produce (no view yet, a verb that throws).
describe("tool arguments (T20, T162)", () => {
  it("reads integer and enum parameters off the endpoint descriptors", () => {
    expect(isNumberParam(modelsEndpoint.input.shape.limit)).toBe(true);
    expect(isNumberParam(changesEndpoint.input.shape.days)).toBe(true);
    expect(isNumberParam(modelsEndpoint.input.shape.q)).toBe(false);
    // The nine D2 channels and `all` (T201).
    expect(enumValues(modelEndpoint.input.shape.channel)).toHaveLength(10);
    expect(enumValues(modelsEndpoint.input.shape.q)).toBeNull();
  });

  it("validates arguments with the endpoint's own input: digit strings are integers, the rest a 400", () => {
    // An argument the endpoint does not take is ignored; `sort` and `prices` have defaults (T203).
    expect(inputFromArgs(modelsEndpoint.input, { limit: "05", q: "opus", tier: "batch" })).toEqual({
      limit: 5,
      q: "opus",
      sort: "id",
      prices: "direct",
    });
    expect(inputFromArgs(modelsEndpoint.input, {})).toEqual({ limit: 50, sort: "id", prices: "direct" });
    for (const limit of [1.5, 1e21, "+5", "1e2", "", 0, 501])
      expect(() => inputFromArgs(modelsEndpoint.input, { limit }), String(limit)).toThrow(
        new CatalogueError("bad_request", "limit must be an integer from 1 to 500"),
      );
    expect(() => inputFromArgs(modelEndpoint.input, { channel: "bedrock" })).toThrow(/channel must be one of: /);
  });

  it("refuses an input parameter without a description", () => {
    const probe = { ...modelsEndpoint, name: "probe", input: z.object({ x: z.string().optional() }) };
    expect(() => toolInputSchema(probe)).toThrow(/parameter x of probe has no description/);
  });
});

describe("tool faults", () => {
  const getMeta = TOOLS.find((t) => t.name === "get_meta")!;

  it("answers a 503 problem while no view is loaded", async () => {
    const result = await callTool(getMeta, new ViewHolder(null), {}, () => {});
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
    const result = await callTool(listRates, new ViewHolder(broken), {}, (_error, tool) => logged.push(tool));
    expect(logged).toEqual(["list_rates"]);
    expect(JSON.parse(textOf(result))).toMatchObject({ status: 500 });
    expect(textOf(result)).not.toContain("secret");
  });
});
