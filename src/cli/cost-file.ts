import { SingleBar } from "cli-progress";
import { loadConfig } from "./config.js";
import { priceLog } from "./cost-log.js";
import { formatReport } from "./cost-log-text.js";
import { endpointServices } from "./endpoint-services.js";
import { loadCurrentView, storeLine } from "./load-view.js";
import { logFormatOf, logSize, readUsageLog } from "./usage-log.js";

/**
 * `tariff cost <file>` (issue 29 §4): prices a usage log against the local store (replayed first
 * when empty, like `serve`), with a progress bar on stderr when it is a terminal, and prints the
 * report on stdout (text, or JSON with `--json`).
 * @throws Error when the log cannot be read, or `--as` names no model
 */
export async function costFile(
  file: string,
  opts: { as?: string; channel: string; format?: "jsonl" | "csv"; json?: boolean },
): Promise<void> {
  const config = loadConfig();
  const size = logSize(file);
  process.stderr.write(`tariff cost: ${storeLine(config)}\n`);
  const view = await loadCurrentView(config);
  // Every record is priced at its own day's prices (T216): many days, so every version's spans are
  // read once, by the first record's call (T275).
  const services = endpointServices(config, { manyDays: true });
  const bar = process.stderr.isTTY
    ? new SingleBar({
        format: "tariff cost [{bar}] {percentage}% | {value}/{total} bytes | ETA {eta}s",
        stream: process.stderr,
        hideCursor: true,
        clearOnComplete: true,
      })
    : null;
  bar?.start(size, 0);
  try {
    const records = readUsageLog(file, opts.format ?? logFormatOf(file), (read) => bar?.update(Math.min(read, size)));
    const report = await priceLog(view, records, { as: opts.as, channel: opts.channel, services });
    bar?.stop();
    process.stdout.write(opts.json ? `${JSON.stringify(report, null, 2)}\n` : formatReport(report, file));
  } finally {
    bar?.stop();
  }
}
