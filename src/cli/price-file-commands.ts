import { type Command, InvalidArgumentError, Option } from "commander";
import { CHANNELS } from "../domain/channel.js";

/** The price files `tariff export` writes, by format: the file name each consumer reads. */
export const EXPORT_FILES = {
  litellm: "model_prices_and_context_window.json",
  "models-dev": "api.json",
  "genai-prices": "data.json",
} as const;
export type ExportFormat = keyof typeof EXPORT_FILES;

/** The usage-log formats `tariff cost` reads. */
export const LOG_FORMATS = ["jsonl", "csv"] as const;

/**
 * `tariff export <format> <dir>` and `tariff cost <file>` (issue 29 §1 and §4), registered on the
 * `tariff` program by one line in main.ts. Like every command, each imports what it runs when it
 * runs (T134).
 */
export function registerPriceFileCommands(program: Command): void {
  program
    .command("export")
    .description(
      "write a consumer's price file for static hosting: litellm (model_prices_and_context_window.json), " +
        "models-dev (api.json), genai-prices (data.json), or all three",
    )
    .addArgument(program.createArgument("<format>", "the file to write").choices([...Object.keys(EXPORT_FILES), "all"]))
    .argument("<dir>", "folder to write into (created when missing)")
    .option("--at <date>", "export the dataset version in force on YYYY-MM-DD (UTC)")
    .option(
      "--base-url <url>",
      "absolute URL the files link models back to (default PUBLIC_BASE_URL, else http://127.0.0.1:<PORT>)",
      parseUrl,
    )
    .action(async (format: string, dir: string, opts: { at?: string; baseUrl?: string }) => {
      const { exportFiles } = await import("./export-files.js");
      await exportFiles(format, dir, opts);
    });

  program
    .command("cost")
    .description(
      "price a usage log (JSON Lines or CSV: provider usage objects, OpenTelemetry GenAI attributes or token " +
        "counts, each with a timestamp and a model) at each record's own day's prices; totals per model, channel and day",
    )
    .argument("<file>", "the log (.csv is CSV, anything else JSON Lines)")
    .option("--as <model>", "price every record on this model instead (what would this have cost on it)")
    .addOption(
      new Option("--channel <channel>", "channel to price in; a record's own channel field wins")
        .choices([...CHANNELS])
        .default("direct"),
    )
    .addOption(
      new Option("--format <format>", "the log's format, when its name does not say").choices([...LOG_FORMATS]),
    )
    .option("--json", "print the report as JSON")
    .action(async (file: string, opts: { as?: string; channel: string; format?: "jsonl" | "csv"; json?: boolean }) => {
      const { costFile } = await import("./cost-file.js");
      await costFile(file, opts);
    });
}

function parseUrl(value: string): string {
  try {
    const url = new URL(value);
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error();
    return value.replace(/\/+$/, "");
  } catch {
    throw new InvalidArgumentError("expected an absolute http(s) URL");
  }
}
