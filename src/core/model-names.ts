import type { PublishedModel } from "../domain/dataset.js";
import { lookupTable } from "../domain/lookup-table.js";
import { DISTINCT } from "./identity/overrides.js";
import { isMoving, keyOf } from "./identity/spelling.js";
import { SNAPSHOT_DATE } from "./identity/spelling-rules.js";

/** A source's name of a model and the spelling it gave the model (a name may only repeat it). */
export interface NameCandidate {
  readonly name: string | null;
  readonly model: string;
  /** The maker's own listing (direct channel): its name, even an id, is the maker's. */
  readonly official?: boolean;
}

/**
 * A model's display name (issue 25 §4, T185): the first name a candidate gives that names the model
 * (candidates in preference order: the maker's own listing first, then the most official source;
 * a moving alias's listing names nothing), its reseller `Vendor: ` prefix and region, `(latest)` or
 * `(free)` tag off. A name that only repeats an id is skipped, and when it is the maker's own, the
 * name {@link derivedName} writes from the slug is the name; so too when no candidate names it.
 * Never the raw slug of a model whose id has words to write.
 */
export function modelName(candidates: readonly NameCandidate[], slug: string): string {
  for (const c of candidates) {
    // (a moving alias's name is whatever it pointed at when the source wrote it)
    if (isMoving(keyOf(c.model))) continue;
    const name = displayName(c.name);
    if (!name) continue;
    if (!repeatsId(name, [c.model, slug])) return name;
    // The maker's own name is only the id: the name is written from it the maker's way, never
    // taken from a lesser source ("OpenAI o3", "o4 Mini High" of a reasoning-effort listing).
    if (c.official) return derivedName(slug);
  }
  return derivedName(slug);
}

/**
 * A display name as people know it (issue 12 §10): a reseller's `Vendor: ` prefix and a region,
 * `(latest)` or `(free)` tag off (`Claude Opus 4.1 (latest)` is Claude Opus 4.1); null when nothing
 * is left.
 */
export function displayName(name: string | null): string | null {
  if (!name) return null;
  const cleaned = name
    .replace(/^[^:]{1,40}:\s+(?=\S)/, "")
    .replace(/\s*\((latest|free|eu|us|apac|global|jp|au|ca|uk|us-gov)\)\s*$/i, "")
    .trim();
  return cleaned === "" ? null : cleaned;
}

/**
 * True when a source's "name" only repeats an id (T185), a tag in parentheses aside: a repository
 * path (`Qwen/Qwen3.5-4B`), the id as spelled but for case (`gpt-4.20-beta-0309-reasoning`,
 * `DALL-E-3`), words without a capital (`gpt 4o audio preview`), or a dashed id of three or more
 * words (`Cerebras-Llama-4-Maverick-17B-128E-Instruct`).
 */
export function repeatsId(raw: string, ids: readonly string[]): boolean {
  if (raw.includes("/")) return true;
  // (a tag after the id does not make it a name: `gpt-image-1 (image gen)`)
  const name = raw.replace(/\s*\(.*?\)\s*/g, " ").trim();
  // makers capitalize their names: `gpt 4 vision`, `text embedding 3` are ids written out
  if (/\s/.test(name) && !/[A-Z]/.test(name)) return true;
  const lower = name.toLowerCase();
  return ids.some((raw) => {
    const id = raw.slice(raw.lastIndexOf("/") + 1).toLowerCase();
    if (lower === id) return true;
    if (!/[A-Z]/.test(name) && lower.replace(/\s+/g, "-") === id.replace(/[_:]/g, "-")) return true;
    return !/\s/.test(name) && name.split("-").length >= 3 && keyOf(name) === keyOf(id);
  });
}

/** Words a maker writes its own way (brand capitals, acronyms). */
const WORDS: Readonly<Record<string, string>> = lookupTable({
  gpt: "GPT",
  chatgpt: "ChatGPT",
  dall·e: "DALL·E",
  glm: "GLM",
  qwq: "QwQ",
  qvq: "QvQ",
  deepseek: "DeepSeek",
  minimax: "MiniMax",
  codellama: "Code Llama",
  openai: "OpenAI",
  oss: "OSS",
  tts: "TTS",
  asr: "ASR",
  ocr: "OCR",
  it: "IT",
  vl: "VL",
  hd: "HD",
  api: "API",
  moe: "MoE",
  nv: "NV",
  bert: "BERT",
  pii: "PII",
  usd: "USD",
  fp8: "FP8",
  fp16: "FP16",
  bf16: "BF16",
  awq: "AWQ",
});

/**
 * The name of a model no source names, written from its slug (issue 25 §4, T185), the one tested
 * rule: words split on dashes and title-cased (a brand as its maker writes it: `GPT`, `GLM`,
 * `DeepSeek`, `Code Llama`); sizes in capitals (`17B`, `128E`, `A22B`, `8x7B`); single-digit
 * versions that the slug splits rejoin with a dot (`claude-3-5-sonnet` → `Claude 3.5 Sonnet`), a
 * `.0` so made dropped; `GPT` keeps its dash to the version (`GPT-4o Audio Preview`); versions,
 * dates and lower-case model lines that start with a digit or `o` plus digit stay as written
 * (`v0.1`, `2507`, `o3`).
 */
export function derivedName(slug: string): string {
  // dates keep their dashes (`2024-10-01`, `09-2025`); DALL·E is one word
  const tokens = slug
    .replace(/(\d{4})-(\d{2})-(\d{2})(?=-|$)/g, "$1_$2_$3")
    .replace(/-(\d{2})-(20\d{2})(?=-|$)/g, "-$1_$2")
    .replace(/^dall-e\b/, "dall·e")
    .split("-")
    .filter((t) => t.length > 0)
    .map((t) => t.replace(/_/g, "-"));
  const words: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    // a version the slug spells with dashes: 3-5 → 3.5 (single digits only; dates stay)
    if (/^\d$/.test(t) && /^\d$/.test(tokens[i + 1] ?? "") && words.length > 0) {
      const minor = tokens[i + 1]!;
      words.push(minor === "0" ? t : `${t}.${minor}`);
      i++;
      continue;
    }
    words.push(word(t));
  }
  const out: string[] = [];
  for (const w of words) {
    const last = out.at(-1);
    if (last === "GPT" && /^\d/.test(w)) out[out.length - 1] = `GPT-${w}`;
    else out.push(w);
  }
  return out.join(" ");
}

function word(token: string): string {
  const known = WORDS[token];
  if (known) return known;
  // sizes: 17b, 128e, a22b, 8x7b, 300m, 1.5b
  if (/^(?:a?\d+(?:\.\d+)?[bmke]|\d+x\d+b)$/.test(token)) return token.toUpperCase().replace(/X/, "x");
  // versions, dates and o-series ids stay as written
  if (/^(?:v?\d[\w.-]*|o\d\w*)$/.test(token)) return token;
  // a brand with its version attached: qwen2.5 → Qwen2.5, llama3 → Llama3
  const m = /^([a-z]+)(\d[\w.]*)$/.exec(token);
  if (m) return `${word(m[1]!)}${m[2]}`;
  return token.charAt(0).toUpperCase() + token.slice(1);
}

/**
 * One display name per model of a maker (issue 12 §10, T68). Sources give one name to several
 * models (`GPT-4o` to `gpt-4o` and `gpt-4o-2024-05-13`; `Phi-3-mini instruct (128k)` to the 4k
 * model too): of the models sharing a name, the one whose slug the name spells keeps it; a dated
 * snapshot gets its date (`GPT-4o 2024-05-13`); any other the name its slug writes
 * ({@link derivedName}), its slug only when that collides too. Names compare as a reader does:
 * case, punctuation and parentheses ignored. Pure.
 */
export function disambiguateNames(models: readonly PublishedModel[]): PublishedModel[] {
  const groups = new Map<string, number[]>();
  models.forEach((m, i) => {
    if (!m.listed) return;
    const k = `${m.provider}|${comparableName(m.name)}`;
    groups.set(k, [...(groups.get(k) ?? []), i]);
  });
  const out = [...models];
  for (const members of groups.values()) {
    if (members.length < 2) continue;
    const nameKey = new Set(keyOf(out[members[0]!]!.name.replace(/\(.*?\)/g, "")).split("-"));
    const score = (i: number) => {
      const tokens = keyOf(out[i]!.slug).split("-");
      const hits = tokens.filter((t) => nameKey.has(t)).length;
      return hits / (tokens.length + nameKey.size - hits);
    };
    const dated = (i: number) => Number(SNAPSHOT_DATE.test(keyOf(out[i]!.slug)));
    const owner = [...members].sort(
      (a, b) => dated(a) - dated(b) || score(b) - score(a) || out[a]!.slug.length - out[b]!.slug.length,
    )[0]!;
    const taken = (i: number, name: string) =>
      members.some((j) => j !== i && comparableName(out[j]!.name) === comparableName(name));
    const unwrap = (name: string) =>
      name
        .replace(/\s*\((latest|free|preview|beta)\)\s*/gi, " ")
        .replace(/[()]/g, "")
        .replace(/\s+/g, " ")
        .trim();
    // The owner keeps its name; a word in parentheses that tells it apart from the others is written
    // unbracketed like theirs (`Grok 4.20 (Reasoning)` beside `Grok 4.20 (Non-Reasoning)`).
    const own = out[owner]!;
    if (
      /\(.*?\)/.test(own.name) &&
      !taken(owner, unwrap(own.name)) &&
      comparableName(unwrap(own.name)) !== comparableName(own.name)
    )
      out[owner] = { ...own, name: unwrap(own.name) };
    for (const i of members) {
      if (i === owner) continue;
      const m = out[i]!;
      // A word in parentheses that tells the model apart stays, unbracketed (`Grok 4.20 (Reasoning)`
      // beside `Grok 4.20` is `Grok 4.20 Reasoning`, issue 25 §4).
      const unwrapped = unwrap(m.name);
      if (!taken(i, unwrapped)) {
        out[i] = { ...m, name: unwrapped };
        continue;
      }
      const date = SNAPSHOT_DATE.exec(keyOf(m.slug))?.[1];
      const base = m.name.replace(/\s*\(.*?\)\s*/g, " ").trim();
      // Else the name the slug writes (it tells them apart), the slug only when even that collides.
      const derived = derivedName(m.slug);
      out[i] = { ...m, name: date && !base.includes(date) ? `${base} ${date}` : taken(i, derived) ? m.slug : derived };
    }
  }
  return out;
}

/** A name as a reader compares it: lower case, parentheses and punctuation off. */
export function comparableName(name: string): string {
  return name
    .toLowerCase()
    .replace(/\(.*?\)/g, "")
    .replace(/[^a-z0-9]/g, "");
}

/** The pairs the override file keeps apart although they share a name (they keep both names). */
export function distinctPairs(): ReadonlySet<string> {
  return new Set(DISTINCT.flatMap(([a, b]) => [`${a}|${b}`, `${b}|${a}`]));
}
