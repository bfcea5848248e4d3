import { environmentDocs } from "./config.js";

/** The help's "Environment" section (issue 15): one line per variable, its default in brackets. */
export function environmentHelp(): string {
  const variables = environmentDocs();
  const width = Math.max(...variables.map((v) => v.name.length)) + 2;
  const lines = variables.map((v) => `  ${v.name.padEnd(width)}${v.meaning} [${v.fallback}]`);
  return `\nEnvironment (default in brackets):\n${lines.join("\n")}\n`;
}
