import { FINE_TUNING_QUALIFIER, type FineTuningKind } from "../../domain/dimension.js";
import { canonicalSeller, isMaker } from "../../domain/sellers.js";
import {
  BEDROCK_REGIONS,
  BEDROCK_VERSIONS,
  FINE_TUNING_PREFIX,
  LOOSE_PATTERNS,
  LOOSE_TOKENS,
  ORTHOGRAPHY,
  PATH_FAMILIES,
  ROUTER_VARIANTS,
  ROUTING_SEGMENTS,
  SELLER_PREFIXES,
  SERVING_SUFFIXES,
  SIZE_TOKEN,
  SNAPSHOT_DATE,
  TASK_SEGMENTS,
  VENDOR_STEMS,
  VERSION_TAG,
} from "./spelling-rules.js";

/**
 * Reading of one source spelling of a model id by the spelling grammar (`spelling-rules.ts`,
 * issue 12 T60). Pure.
 */
export interface Spelling {
  /** The organisation the spelling names (`meta-llama` of `meta-llama/Llama-3.3-70B`, `anthropic` of a Bedrock id), lower-case, or null. */
  readonly org: string | null;
  /** The model part: lower-case, routing gone, dots kept (`claude-3.5-sonnet`). */
  readonly core: string;
  /** Comparison key of {@link core}: orthography normalized, punctuation as `-` (`claude-3-5-sonnet`). */
  readonly key: string;
  /**
   * Qualifiers the routing carried: `region` (Bedrock profile), `variant` (router `:free`),
   * `fine_tuning` (OpenAI's `ft:` ids, T181).
   */
  readonly qualifiers: Readonly<Record<string, string>>;
}

const cache = new Map<string, Spelling>();

/** Parses one spelling (memoized: the same strings recur in every run). */
export function parseSpelling(raw: string): Spelling {
  let hit = cache.get(raw);
  if (!hit) {
    hit = parse(raw);
    cache.set(raw, hit);
  }
  return hit;
}

function parse(raw: string): Spelling {
  let s = raw.trim().toLowerCase().replace(/^hf:/, "");
  const qualifiers: Record<string, string> = {};
  let org: string | null = null;
  // OpenAI's `ft:gpt-4o-2024-08-06`: serving a fine-tuned model is a dimension of the base (T181)
  if (s.startsWith(`${FINE_TUNING_PREFIX}:`)) {
    qualifiers[FINE_TUNING_QUALIFIER] = "inference" satisfies FineTuningKind;
    s = s.slice(FINE_TUNING_PREFIX.length + 1);
  }
  const colon = /:([a-z0-9-]+)$/.exec(s);
  if (colon?.[1] && ROUTER_VARIANTS.has(colon[1])) {
    qualifiers.variant = colon[1];
    s = s.slice(0, colon.index);
  }
  if (s.includes("/")) {
    const parts = s.split("/").filter((p) => p.length > 0);
    // fal's `fal-ai/flux-pro/v1.1-ultra`, `fal-ai/bytedance/seedream/v3/text-to-image`: the model is
    // spelled across the path from its family's segment on, the task segment aside.
    const from = parts.findIndex((p, i) => i < parts.length - 1 && PATH_FAMILIES.test(p));
    if (from >= 0) {
      const orgs = parts.slice(0, from).filter((p) => !ROUTING_SEGMENTS.has(p));
      org = orgs.length > 0 ? orgs[0]!.replace(/^~/, "") : null;
      s = parts
        .slice(from)
        .filter((p) => !TASK_SEGMENTS.has(p))
        .join("-");
      return { org, core: s, key: keyOf(s), qualifiers };
    }
    const orgs = parts.slice(0, -1).filter((p) => !ROUTING_SEGMENTS.has(p));
    org = orgs.length > 0 ? orgs[0]!.replace(/^~/, "") : null;
    s = parts.at(-1) ?? s;
  }
  s = s.replace(/^regional\./, "");
  for (const region of BEDROCK_REGIONS) {
    if (s.startsWith(`${region}.`) && /^[a-z0-9-]+\.[a-z]/.test(s.slice(region.length + 1))) {
      qualifiers.region = region;
      s = s.slice(region.length + 1);
      break;
    }
  }
  s = BEDROCK_VERSIONS[s] ?? s;
  // Bedrock's `vendor.model` (no path: `rednote-hilab/dots.ocr` keeps its dot).
  const dot = raw.includes("/") ? null : /^([a-z][a-z0-9-]*)\.(?=[a-z])/.exec(s);
  if (dot?.[1] && (!/\d/.test(dot[1]) || isMaker(canonicalSeller(dot[1])))) {
    org ??= dot[1];
    // Bedrock's legacy Claude ids spell the version after `-v`: `claude-v2:1` is Claude 2.1
    s = s
      .slice(dot[0].length)
      .replace(
        /^claude(-instant)?-v(\d)(?::(\d))?$/,
        (_, instant, major, minor) => `claude${instant ?? ""}-${major}${minor ? `.${minor}` : ""}`,
      );
    // Bedrock's DeepSeek ids leave the family out: `deepseek.v3-v1:0`, `deepseek.r1-v1:0`
    if (VENDOR_STEMS[dot[1]]?.test(s)) s = `${dot[1]}-${s}`;
    // Bedrock's API version tags (`-v1:0`, `-v1`, Cohere's `-v14`, `openai.gpt-oss-120b-1:0`); a
    // single-digit `-v2`… names a model version (`titan-embed-text-v2`, `nemotron-nano-9b-v2`).
    // A `-v2:0` on a wordless id is the model's version (`cohere.embed-v4:0`, `titan-embed-text-v2:0`).
    s = s
      .replace(/(-v\d+|-1)?:\d+$/, (tag: string, version?: string) => {
        const kept = version && /^-v[2-9]$/.test(version) && !/\d/.test(s.slice(0, -tag.length));
        return kept ? version : "";
      })
      .replace(/-v(1|\d{2,})$/, "");
  }
  s = s.replace(/@(default|latest)$/, "").replace(/@/, "-");
  // Ollama's `gpt-oss:120b-cloud` spells size after a colon.
  s = s.replace(/:(?=\d+[a-z])/, "-");
  return { org, core: s, key: keyOf(s), qualifiers };
}

const written = new Map<string, string>();

/**
 * A core spelling with the orthography rules applied, dots kept (`qwen2p5-7b` → `qwen2.5-7b`).
 * Memoized like {@link parseSpelling}: the same few thousand spellings recur in every run.
 */
export function orthographic(core: string): string {
  const hit = written.get(core);
  if (hit !== undefined) return hit;
  let s = core.toLowerCase().replace(/[_\s]+/g, "-");
  for (const [pattern, replacement] of ORTHOGRAPHY) s = s.replace(pattern, replacement);
  // (a long-lived server sees new spellings with every run: the memo starts over past a bound)
  if (written.size > 200_000) written.clear();
  written.set(core, s);
  return s;
}

/** The comparison key of a core spelling: orthography rules, then `.`, `_`, `:`, spaces as `-`. */
export function keyOf(core: string): string {
  return orthographic(core)
    .replace(/[.:@]+/g, "-")
    .replace(/-+/g, "-")
    .replace(/^-|-$/g, "");
}

/** The key without snapshot markers: a trailing date, `-latest`, a `-0` minor (`claude-opus-4-0` is Opus 4). */
export function baseKey(key: string): string {
  let k = key;
  for (let i = 0; i < 3; i++) {
    const next = k
      .replace(/-latest$/, "")
      .replace(SNAPSHOT_DATE, "")
      .replace(VERSION_TAG, "")
      .replace(/(?<=\d)-0$/, "");
    if (next === k) break;
    k = next;
  }
  return k.length > 0 ? k : key;
}

/** True when the key ends in a snapshot date. */
export function isDated(key: string): boolean {
  return SNAPSHOT_DATE.test(key);
}

/** True when the key is a moving alias (`-latest`). */
export function isMoving(key: string): boolean {
  return key.endsWith("-latest");
}

/** Word-order-insensitive key of the base (`claude-4-5-sonnet` ≍ `claude-sonnet-4-5`). */
export function sortedKey(key: string): string {
  return baseKey(key).split("-").sort().join("-");
}

/**
 * The word-order-insensitive key without a mixture-of-experts model's active-parameter size
 * (`a12b`, `a3b`) where a total size stays: sellers drop it (Bedrock's `nemotron-super-3-120b` is
 * NVIDIA's `nemotron-3-super-120b-a12b`, issue 25 §1). The key's sorted form when nothing is dropped.
 */
export function activeSizeOffKey(key: string): string {
  const tokens = sortedKey(key).split("-");
  const total = tokens.some((t) => /^\d+(?:\.\d+)?b$/.test(t));
  return tokens.filter((t) => !(total && /^a\d+(?:\.\d+)?b$/.test(t))).join("-");
}

/** The base key without the {@link LOOSE_TOKENS} resellers add or drop (`-instruct`, `-it`, `-versatile`). */
export function looseKey(key: string): string {
  const kept = baseKey(key)
    .split("-")
    .filter((t) => !LOOSE_TOKENS.has(t) && !LOOSE_PATTERNS.some((p) => p.test(t)));
  return kept.length > 0 ? kept.join("-") : baseKey(key);
}

/**
 * The loose key without size tokens (`llama-4-maverick` of `llama-4-maverick-17b-128e-instruct`):
 * the catalogue's last level, used only where one model of the maker answers it (issue 25 §1).
 */
export function sizelessKey(key: string): string {
  const kept = looseKey(key)
    .split("-")
    .filter((t) => !SIZE_TOKEN.test(t));
  return kept.length > 0 ? kept.join("-") : looseKey(key);
}

/** One way of reading a spelling once its reseller decorations are taken off. */
export interface Stripped {
  readonly key: string;
  readonly qualifiers: Readonly<Record<string, string>>;
}

/**
 * The key with a seller prefix and/or one serving suffix taken off, each with the qualifiers the
 * suffix becomes (`deepseek-r1-0528-turbo` → `deepseek-r1-0528` + `variant: turbo`). The full key
 * is not among them. `namesFamily` tells whether a prefix-less remainder still names a family.
 */
export function strippedForms(key: string, namesFamily: (key: string) => boolean): Stripped[] {
  const out: Stripped[] = [];
  const prefixed: Stripped[] = [{ key, qualifiers: {} }];
  // Prefixes chain too (`databricks-meta-llama-3-3-70b-instruct`); an old `ft-` slug is a fine-tuning id.
  for (let i = 0; i < prefixed.length && i < 4; i++) {
    const from = prefixed[i]!;
    if (from.key.startsWith(`${FINE_TUNING_PREFIX}-`)) {
      const rest = from.key.slice(FINE_TUNING_PREFIX.length + 1);
      if (namesFamily(rest)) {
        const form = { key: rest, qualifiers: { ...from.qualifiers, fine_tuning: "inference" } };
        out.push(form);
        prefixed.push(form);
      }
    }
    for (const prefix of SELLER_PREFIXES) {
      if (!from.key.startsWith(`${prefix}-`)) continue;
      const rest = from.key.slice(prefix.length + 1);
      if (namesFamily(rest) && !prefixed.some((p) => p.key === rest)) {
        const form = { key: rest, qualifiers: from.qualifiers };
        out.push(form);
        prefixed.push(form);
      }
    }
  }
  for (const start of prefixed) {
    // Suffixes chain (`…-instruct-fp8-fast`): take them off one at a time, qualifiers accumulating.
    let frontier: Stripped[] = [start];
    for (let depth = 0; depth < 3 && frontier.length > 0; depth++) {
      const next: Stripped[] = [];
      for (const form of frontier)
        for (const [suffix, qualifiers] of Object.entries(SERVING_SUFFIXES))
          if (form.key.endsWith(`-${suffix}`) && form.key.length > suffix.length + 2)
            next.push({
              key: form.key.slice(0, -(suffix.length + 1)),
              qualifiers: { ...form.qualifiers, ...qualifiers },
            });
      out.push(...next);
      frontier = next;
    }
  }
  return out;
}

/**
 * The part of a core spelling that reads as `key` (`qwen2.5-72b-instruct` of
 * `qwen2.5-72b-instruct-fp8` for key `qwen2-5-72b-instruct`), so a slug keeps its maker's dots; the
 * key itself when no part does.
 */
export function coreFor(core: string, key: string): string {
  if (keyOf(core) === key) return core;
  const starts = [0, ...[...core.matchAll(/-/g)].map((m) => m.index + 1)];
  const ends = [...[...core.matchAll(/-/g)].map((m) => m.index), core.length];
  for (const start of starts)
    for (const end of [...ends].reverse())
      if (end > start && keyOf(core.slice(start, end)) === key) return core.slice(start, end);
  return key;
}
