/**
 * Answers of a checkout, captured for a before/after diff of a refactor that must not change them
 * (issue 34 §3, T275). Not part of `npm test`: nothing here asserts. Starts `tariff serve` of the
 * checkout `<tree>` on the store in `<dataDir>` (INGEST_EVERY=off, port 18734) and writes to `<outDir>`:
 * `http.txt` (status, Content-Type, ETag, Cache-Control, x-dataset-version, Location, Retry-After and
 * Vary, body length, SHA-256 and head of every endpoint with and without `at=`, each asked twice),
 * `mcp.txt` (every tool with and without `at`), `exports-*` (`tariff export all`, with `--at`), and
 * `cost.*` (`tariff cost` on a small log). `generatedAt` is left out (it is the build's time).
 *
 *   DATA_DIR=/tmp/replay npx tsx src/cli/main.ts ingest --snapshots data/upstream   # once
 *   cp -r /tmp/replay /tmp/a && cp -r /tmp/replay /tmp/b
 *   git archive <before> | tar -x -C /tmp/before && ln -s "$PWD/node_modules" /tmp/before/
 *   npx tsx bench/answers-snapshot.ts /tmp/before /tmp/a /tmp/out-before
 *   npx tsx bench/answers-snapshot.ts "$PWD" /tmp/b /tmp/out-after && diff -r /tmp/out-before /tmp/out-after
 */
import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const [wt, dataDir, out] = process.argv.slice(2) as [string, string, string];
mkdirSync(out, { recursive: true });
const PORT = 18734;
const env = {
  ...process.env,
  DATA_DIR: dataDir,
  INGEST_EVERY: "off",
  LOG_LEVEL: "warn",
  PORT: String(PORT),
  HOST: "127.0.0.1",
  RATE_LIMIT_PER_MINUTE: "0",
};
const tsx = join(wt, "node_modules/.bin/tsx");
const main = join(wt, "src/cli/main.ts");

const server = spawn(tsx, [main, "serve"], { cwd: wt, env, stdio: ["ignore", "ignore", "pipe"] });
let err = "";
await new Promise<void>((resolve, reject) => {
  server.stderr.on("data", (c: Buffer) => {
    err += c;
    if (/serving dataset/.test(err)) resolve();
  });
  server.on("exit", () => reject(new Error(err)));
});
const base = `http://127.0.0.1:${PORT}`;
const M = "anthropic/claude-opus-4-0";
const days = [
  "2025-06-01",
  "2025-07-01",
  "2025-08-15",
  "2025-10-20",
  "2026-03-02",
  "2026-06-01",
  "2026-06-30",
  "2099-01-01",
  "2025-13-01",
  "bad",
];
const paths: string[] = [
  "/meta",
  "/providers",
  "/sources",
  "/models",
  "/models?limit=5&sort=-input",
  "/models/search?q=opus",
  `/models/${M}`,
  `/models/${M}?channel=all`,
  `/models/${M}/history`,
  "/models/openai/gpt-4o",
  "/compare?models=openai/gpt-4o,anthropic/claude-opus-4-0",
  "/rates",
  "/rates?limit=3",
  "/cost?model=openai/gpt-4o&inputTokens=1000&cachedInputTokens=500&outputTokens=100",
  "/changes",
  "/changes?limit=3",
  "/changes.xml",
  "/openapi.json",
  "/exports/litellm/model_prices_and_context_window.json",
  "/exports/models-dev/api.json",
  "/exports/genai-prices/data.json",
  "/models/nobody/nothing",
];
const withAt = [
  `/models/${M}`,
  "/compare?models=openai/gpt-4o,anthropic/claude-opus-4-0",
  "/rates",
  "/models",
  "/changes",
  "/cost?model=openai/gpt-4o&inputTokens=1000&cachedInputTokens=500&outputTokens=100",
  "/exports/litellm/model_prices_and_context_window.json",
  "/exports/models-dev/api.json",
  "/exports/genai-prices/data.json",
];
const urls = [...paths];
for (const p of withAt) for (const d of days) urls.push(`${p}${p.includes("?") ? "&" : "?"}at=${d}`);
urls.push(`/models/${M}?at=2025-08-15&at=2025-08-15`, `/rates?%61t=2025-08-15`, `/rates?at=2025-08-15&unknown=1`);
const keep = ["content-type", "etag", "cache-control", "x-dataset-version", "location", "retry-after", "vary"];
const lines: string[] = [];
for (const u of urls) {
  for (let pass = 0; pass < 2; pass++) {
    const r = await fetch(`${base}/api/v1${u}`, { headers: { "accept-encoding": "identity" } });
    const text = await r.text();
    const h = keep.map((k) => `${k}=${r.headers.get(k)}`).join(" | ");
    const norm = text.replace(/"generatedAt":"[^"]*"/g, "");
    const sha = createHash("sha256").update(norm).digest("hex").slice(0, 16);
    lines.push(`${pass} GET ${u}\n  ${r.status} ${h}\n  ${text.length} ${sha} ${norm.slice(0, 3000)}`);
  }
}
writeFileSync(join(out, "http.txt"), `${lines.join("\n")}\n`);

const client = new Client({ name: "capture", version: "0" });
await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
const calls: [string, Record<string, unknown>][] = [
  ["get_meta", {}],
  ["list_providers", {}],
  ["list_sources", {}],
  ["list_models", { limit: 5 }],
  ["search_models", { q: "opus" }],
  ["get_model", { provider: "anthropic", model: "claude-opus-4-0" }],
  ["get_model_history", { provider: "anthropic", model: "claude-opus-4-0" }],
  ["compare_models", { models: "openai/gpt-4o,anthropic/claude-opus-4-0" }],
  ["list_rates", { limit: 5 }],
  ["estimate_cost", { model: "openai/gpt-4o", inputTokens: 1000, outputTokens: 100 }],
  ["list_changes", { limit: 3 }],
];
const mlines: string[] = [];
for (const [name, args] of calls) {
  const variants = [args, ...days.map((d) => ({ ...args, at: d }))];
  for (const a of variants) {
    const r = await client.callTool({ name, arguments: a });
    mlines.push(
      `${name} ${JSON.stringify(a)}\n  ${JSON.stringify(r).replace(/\\?"generatedAt\\?":\\?"[^"\\]*\\?"/g, "")}`,
    );
  }
}
writeFileSync(join(out, "mcp.txt"), `${mlines.join("\n")}\n`);
await client.close();
server.kill("SIGTERM");
await new Promise((r) => server.on("exit", r));

const run = (args: string[]) => {
  const x = spawnSync(tsx, [main, ...args], { cwd: wt, env, encoding: "utf8" });
  return `exit ${x.status}\n${x.stdout}\n${x.stderr.replaceAll(dataDir, "<data>").replaceAll(out, "<out>")}`;
};
for (const [dir, extra] of [
  ["exports-now", []],
  ["exports-at", ["--at", "2025-10-20"]],
  ["exports-early", ["--at", "2025-06-01"]],
] as const) {
  const d = join(out, dir);
  mkdirSync(d, { recursive: true });
  writeFileSync(join(d, "_stdout.txt"), run(["export", "all", d, ...extra]));
  for (const f of readdirSync(d))
    if (f.endsWith(".json"))
      writeFileSync(join(d, f), readFileSync(join(d, f), "utf8").replace(/"generatedAt":"[^"]*"/g, ""));
}
const log = join(out, "usage.jsonl");
writeFileSync(
  log,
  `${[
    { timestamp: "2025-09-03T08:00:00Z", model: "deepseek/deepseek-chat", inputTokens: 100000, outputTokens: 50000 },
    {
      timestamp: "2026-02-10T08:00:00Z",
      model: "openai/gpt-4o",
      inputTokens: 2000,
      cachedInputTokens: 500,
      outputTokens: 100,
    },
    { timestamp: "2024-01-01T08:00:00Z", model: "openai/gpt-4o", inputTokens: 5 },
    { timestamp: "2026-05-01T08:00:00Z", model: "anthropic/claude-opus-4-0", inputTokens: 300000, outputTokens: 1000 },
  ]
    .map((r) => JSON.stringify(r))
    .join("\n")}\n`,
);
writeFileSync(join(out, "cost.json"), run(["cost", log, "--json"]));
writeFileSync(join(out, "cost.txt"), run(["cost", log]));
console.log("captured", urls.length, "urls", mlines.length, "tool calls");
