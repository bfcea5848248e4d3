/**
 * `npx tsx bench/cost-log.ts` (issue 29 §4): how long `tariff cost` takes on a 100,000-record usage
 * log. Not part of `npm test`: nothing here asserts a time.
 *
 * Writes a JSON Lines log of BENCH_RECORDS (100,000) records spread over every day from 2025-07-01 to
 * 2026-05-31, mixing the record kinds `tariff cost` reads (OpenAI Chat and Responses usage objects,
 * Anthropic usage with cache reads and writes, Gemini usageMetadata, OTLP spans with gen_ai.*
 * attributes, plain token counts) on famous models, then runs the compiled `node bin/tariff.js cost
 * <log> --json` against the store of DATA_DIR (default: a fresh replay of the bundled snapshots in a
 * temporary folder, timed apart) and reports the wall time, the records priced and the total.
 * `npm run build:server` first when src changed.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";

const RECORDS = Number(process.env.BENCH_RECORDS ?? 100_000);
const BIN = resolve(import.meta.dirname, "..", "bin", "tariff.js");

/** A deterministic pseudo-random sequence (the log is the same on every run). */
function random(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1_103_515_245 + 12_345) % 2 ** 31;
    return s / 2 ** 31;
  };
}

function record(i: number, next: () => number): Record<string, unknown> {
  const first = Date.parse("2025-07-01T00:00:00Z");
  const last = Date.parse("2026-05-31T23:59:59Z");
  const time = new Date(first + Math.floor(next() * (last - first)));
  const timestamp = time.toISOString();
  const input = 500 + Math.floor(next() * 60_000);
  const cached = Math.floor(input * next() * 0.6);
  const output = 50 + Math.floor(next() * 4_000);
  switch (i % 6) {
    case 0:
      return {
        timestamp,
        model: "gpt-4o",
        usage: { prompt_tokens: input, completion_tokens: output, prompt_tokens_details: { cached_tokens: cached } },
      };
    case 1:
      return {
        timestamp,
        model: "o3",
        usage: {
          input_tokens: input,
          input_tokens_details: { cached_tokens: cached },
          output_tokens: output,
          output_tokens_details: { reasoning_tokens: Math.floor(output / 2) },
        },
      };
    case 2:
      return {
        timestamp,
        model: "claude-opus-4-1-20250805",
        usage: {
          input_tokens: input - cached,
          cache_read_input_tokens: cached,
          cache_creation_input_tokens: 1000,
          output_tokens: output,
        },
      };
    case 3:
      return {
        timestamp,
        model: "gemini-2.5-flash",
        usageMetadata: { promptTokenCount: input, cachedContentTokenCount: cached, candidatesTokenCount: output },
      };
    case 4:
      return {
        startTimeUnixNano: String(time.getTime() * 1e6),
        attributes: [
          { key: "gen_ai.provider.name", value: { stringValue: "deepseek" } },
          { key: "gen_ai.response.model", value: { stringValue: "deepseek-chat" } },
          { key: "gen_ai.usage.input_tokens", value: { intValue: String(input) } },
          { key: "gen_ai.usage.cache_read.input_tokens", value: { intValue: String(cached) } },
          { key: "gen_ai.usage.output_tokens", value: { intValue: String(output) } },
        ],
      };
    default:
      return { timestamp, model: "openai/gpt-4o-mini", inputTokens: input, outputTokens: output };
  }
}

const dir = mkdtempSync(join(tmpdir(), "tariff-bench-cost-"));
try {
  const next = random(29);
  const lines: string[] = [];
  for (let i = 0; i < RECORDS; i++) lines.push(JSON.stringify(record(i, next)));
  const log = join(dir, "usage.jsonl");
  writeFileSync(log, `${lines.join("\n")}\n`);
  const env = { ...process.env, LOG_LEVEL: "warn", DATA_DIR: process.env.DATA_DIR ?? join(dir, "store") };
  if (!process.env.DATA_DIR) {
    const t = performance.now();
    const replay = spawnSync(process.execPath, [BIN, "ingest", "--snapshots", resolve("data/upstream")], { env });
    if (replay.status !== 0) throw new Error(`replay failed: ${replay.stderr}`);
    process.stdout.write(`replay of the bundled snapshots: ${((performance.now() - t) / 1000).toFixed(1)} s\n`);
  }
  const before = loadavg()[0]!;
  const t = performance.now();
  const run = spawnSync(process.execPath, [BIN, "cost", log, "--json"], { env, maxBuffer: 64 * 1024 * 1024 });
  const seconds = (performance.now() - t) / 1000;
  if (run.status !== 0) throw new Error(`tariff cost failed: ${run.stderr}`);
  const report = JSON.parse(run.stdout.toString("utf8")) as {
    records: number;
    priced: number;
    unpriced: number;
    totals: Record<string, number>;
    problems: { reason: string; count: number }[];
  };
  process.stdout.write(
    `tariff cost on ${RECORDS} records (${(lines.join("\n").length / 1e6).toFixed(1)} MB JSONL): ${seconds.toFixed(1)} s wall ` +
      `(store load and the point-in-time index included), ${report.priced} priced, ${report.unpriced} not priced, ` +
      `total ${JSON.stringify(report.totals)}\n` +
      `machine: ${cpus().length} cores (${cpus()[0]?.model ?? "?"}), 1-min load average ${before.toFixed(2)} before the run\n`,
  );
  for (const p of report.problems.slice(0, 5)) process.stdout.write(`  not priced: ${p.count} × ${p.reason}\n`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
