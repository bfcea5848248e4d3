import { createReadStream, statSync } from "node:fs";
import { extname } from "node:path";
import { createInterface } from "node:readline";
import { parse as parseCsv } from "csv-parse";

/**
 * Reading a usage log for `tariff cost` (issue 29 §4): JSON Lines (one record per line) or CSV (a
 * header row naming the fields), streamed, so a month of logs never sits in memory at once.
 */

import type { LOG_FORMATS } from "./price-file-commands.js";

/** The log formats read. */
export type LogFormat = (typeof LOG_FORMATS)[number];

/** One record of the log: its line (1-based; a CSV record's first line), and its fields or why it cannot be read. */
export type LogRecord =
  | { readonly line: number; readonly fields: Readonly<Record<string, unknown>> }
  | { readonly line: number; readonly error: string };

/** The format of a log by its file name: `.csv` is CSV, anything else JSON Lines. */
export function logFormatOf(path: string): LogFormat {
  return extname(path).toLowerCase() === ".csv" ? "csv" : "jsonl";
}

/** The size of a log in bytes (the progress bar's total). */
export function logSize(path: string): number {
  return statSync(path).size;
}

/**
 * The records of a log, in file order. `onBytes` is told how many bytes were read so far.
 * @throws Error when the file cannot be opened (ENOENT, EACCES, a folder)
 */
export async function* readUsageLog(
  path: string,
  format: LogFormat,
  onBytes: (read: number) => void = () => {},
): AsyncGenerator<LogRecord> {
  const stream = createReadStream(path);
  await new Promise<void>((resolve, reject) => {
    stream.once("open", () => resolve());
    stream.once("error", reject);
  });
  stream.on("data", () => onBytes(stream.bytesRead));
  if (format === "csv") yield* csvRecords(stream);
  else yield* jsonLines(stream);
}

async function* jsonLines(stream: NodeJS.ReadableStream): AsyncGenerator<LogRecord> {
  let line = 0;
  for await (const text of createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY })) {
    line++;
    if (text.trim() === "") continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      yield { line, error: "not JSON" };
      continue;
    }
    if (typeof value !== "object" || value === null || Array.isArray(value)) yield { line, error: "not a JSON object" };
    else yield { line, fields: value as Record<string, unknown> };
  }
}

async function* csvRecords(stream: NodeJS.ReadableStream): AsyncGenerator<LogRecord> {
  const parser = stream.pipe(
    parseCsv({ columns: true, skip_empty_lines: true, trim: true, bom: true, info: true, relax_column_count: false }),
  );
  try {
    for await (const row of parser as AsyncIterable<{ record: Record<string, string>; info: { lines: number } }>) {
      const fields: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(row.record)) if (v !== "") fields[k] = v;
      yield { line: row.info.lines, fields };
    }
  } catch (error) {
    // csv-parse stops at a malformed row (an unclosed quote, a wrong column count): said as the last record.
    const e = error as { lines?: number; message?: string };
    yield { line: e.lines ?? 0, error: `CSV: ${e.message ?? String(error)}` };
  }
}
