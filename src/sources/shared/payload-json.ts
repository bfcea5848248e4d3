import type { z } from "zod";
import type { SourceId } from "../../domain/observation.js";
import type { SourcePayload } from "../source.js";
import { SourcePayloadError } from "../source.js";

/**
 * Reading the JSON files of a payload, with the messages a failing source's `lastError` shows
 * (T151). Every message starts with the source id and names the file.
 */

/**
 * The text of `file` in `payload`.
 * @throws SourcePayloadError `<source>: payload has no <file> (files: …)` when it is absent
 */
export function payloadFile(source: SourceId, payload: SourcePayload, file: string): string {
  const text = payload.files.get(file);
  if (text === undefined) {
    const names = [...payload.files.keys()].join(", ") || "none";
    throw new SourcePayloadError(`${source}: payload has no ${file} (files: ${names})`);
  }
  return text;
}

/**
 * `JSON.parse` of one file's text.
 * @throws SourcePayloadError `<source>: <file> is not JSON: <parser message>`
 */
export function parseJson(source: SourceId, file: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new SourcePayloadError(`${source}: ${file} is not JSON: ${(error as Error).message}`);
  }
}

/**
 * The JSON value of `file` in `payload` ({@link payloadFile} then {@link parseJson}).
 * @throws SourcePayloadError when the file is absent or not JSON
 */
export function payloadJson(source: SourceId, payload: SourcePayload, file: string): unknown {
  return parseJson(source, file, payloadFile(source, payload, file));
}

/** What a JSON value is, for messages: `null`, `an array`, `a string`, `an object`… */
export function jsonKind(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  const type = typeof value;
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

/** The first three issues of a zod error as `at [0][models]: <message>` (`(root)` for the top level). */
export function zodIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((i) => `at ${i.path.length > 0 ? i.path.map((p) => `[${String(p)}]`).join("") : "(root)"}: ${i.message}`)
    .join("; ");
}

/**
 * The JSON value of `file` in `payload`, validated by `schema`.
 * @param expected what the file must be, for the message (`an array of providers {id, models[]}`)
 * @throws SourcePayloadError when the file is absent or not JSON ({@link payloadJson}), or
 *   `<source>: <file> is not <expected>: <the first issues>` when it does not fit
 */
export function payloadSchema<T>(
  source: SourceId,
  payload: SourcePayload,
  file: string,
  schema: z.ZodType<T>,
  expected: string,
): T {
  const parsed = schema.safeParse(payloadJson(source, payload, file));
  if (!parsed.success)
    throw new SourcePayloadError(`${source}: ${file} is not ${expected}: ${zodIssues(parsed.error)}`);
  return parsed.data;
}
