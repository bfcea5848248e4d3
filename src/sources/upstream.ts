import type { SourceId } from "../domain/observation.js";

/**
 * Where a source's live payload lives (issue 7 §1), declared by the source in its own folder
 * (`src/sources/<id>/index.ts`, issue 30 §3, T235): a base URL (overridable per source,
 * `SOURCE_URL_<ID>`) and the files of one payload, each fetched from `base + path` and stored
 * under the name its adapter reads (the `<source>/<run>/<file>` snapshot layout).
 */
export interface LiveUpstream {
  /** Default base URL, ending in `/`. */
  readonly baseUrl: string;
  /**
   * Hosts besides {@link baseUrl}'s (or its `SOURCE_URL_*` override's) that the upstream may
   * redirect to (T264); none when absent. Redirects anywhere else fail the source.
   */
  readonly redirectHosts?: readonly string[];
  /** A setting the payload's files depend on (Portkey's provider list); none for most sources. */
  readonly setting?: UpstreamSetting;
  /**
   * The payload's files.
   * @param setting the value of {@link setting} (its `defaults` unless the environment sets it); `[]` without one
   */
  files(setting: readonly string[]): readonly LiveFile[];
}

/** A list-valued setting of one source, read from a comma-separated environment variable. */
export interface UpstreamSetting {
  /** The environment variable, e.g. `PORTKEY_PROVIDERS`. */
  readonly variable: string;
  /** What it sets, for `tariff --help`. */
  readonly description: string;
  /** The value when the variable is unset or empty. */
  readonly defaults: readonly string[];
  /** How `tariff --help` names the default, e.g. `43 files`. */
  readonly fallbackHelp: string;
}

/** One file of a live payload. */
export interface LiveFile {
  /** Name in the payload (what the adapter reads), e.g. `api.json`. */
  readonly name: string;
  /** Path relative to the base URL. */
  readonly path: string;
  /**
   * The upstream may not have this file (yet, or any more): a 404 leaves it out of the payload
   * instead of failing the source (T455; Mistral's model files come and go with its models). The
   * adapter's own guards judge what is left.
   */
  readonly optional?: boolean;
}

/** A payload's files, each fetched at its own name under the base URL. */
export function filesNamed(...names: readonly string[]): LiveUpstream["files"] {
  return () => names.map((name) => ({ name, path: name }));
}

/** The environment variable overriding a source's base URL: `SOURCE_URL_MODELS_DEV`, … */
export function baseUrlVariable(source: SourceId): string {
  return `SOURCE_URL_${source.toUpperCase().replace(/-/g, "_")}`;
}

/** A payload's files, each fetched at its own name under the base URL, each one optional (T455). */
export function optionalFilesNamed(...names: readonly string[]): LiveUpstream["files"] {
  return () => names.map((name) => ({ name, path: name, optional: true }));
}
