import type { CatalogueView } from "../src/catalogue/view.js";

/**
 * The price moves of a price-file export against the recorded file it extends (issue 38 §3, T311):
 * every key both files price where the export's amount is 2× or more away from the recorded one
 * (or one of them is 0 and the other not), field by field. Shared by the export suites and the
 * reviewed list `test/golden/export-moves.json`.
 */
export interface ExportMove {
  readonly export: "litellm" | "models-dev" | "genai-prices";
  /** LiteLLM: the key; models.dev: `<provider>/<model key>`; genai-prices: `<provider id>/<model id>`. */
  readonly key: string;
  /** The file's price field; genai-prices' may add the prompt bracket (`input_mtok >200000`) and time of day (`@16:30Z`), T350. */
  readonly field: string;
  /** USD per token (LiteLLM), per 1M tokens (models.dev, genai-prices; per 1K requests for `requests_kcount`), as each file states it. */
  readonly recorded: number;
  readonly exported: number;
}

/** A reviewed move: the move, what Tariff's price rests on, and why it stands. */
export interface ReviewedMove extends ExportMove {
  readonly evidence: string;
  readonly reason: string;
}

const LITELLM_FIELDS = [
  "input_cost_per_token",
  "output_cost_per_token",
  "cache_read_input_token_cost",
  "cache_creation_input_token_cost",
  "output_cost_per_reasoning_token",
  "output_cost_per_image_token",
  "input_cost_per_audio_token",
  "output_cost_per_audio_token",
];
const MODELS_DEV_FIELDS = ["input", "output", "cache_read", "cache_write", "reasoning", "input_audio", "output_audio"];

/** 2× or more apart, or one zero and the other not. */
function moved(a: number, b: number): boolean {
  if (a === b) return false;
  if (a === 0 || b === 0) return true;
  return Math.max(a / b, b / a) >= 2;
}

type Entry = Record<string, unknown>;
const isObject = (v: unknown): v is Entry => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * The moves of the LiteLLM export against the recorded LiteLLM file, over LiteLLM's main price
 * fields or the ones given.
 */
export function litellmMoves(
  recorded: Entry,
  exported: Entry,
  fields: readonly string[] = LITELLM_FIELDS,
): ExportMove[] {
  const moves: ExportMove[] = [];
  for (const [key, r] of Object.entries(recorded)) {
    const x = exported[key];
    if (!isObject(r) || !isObject(x)) continue;
    for (const field of fields) {
      const a = r[field];
      const b = x[field];
      if (typeof a === "number" && typeof b === "number" && moved(a, b))
        moves.push({ export: "litellm", key, field, recorded: a, exported: b });
    }
  }
  return moves;
}

/** The moves of the models.dev export against the recorded `api.json`. */
export function modelsDevMoves(recorded: Entry, exported: Entry): ExportMove[] {
  const moves: ExportMove[] = [];
  for (const [provider, p] of Object.entries(recorded)) {
    const xp = exported[provider];
    if (!isObject(p) || !isObject(p.models) || !isObject(xp) || !isObject(xp.models)) continue;
    for (const [key, m] of Object.entries(p.models)) {
      const x = xp.models[key];
      if (!isObject(m) || !isObject(x) || !isObject(m.cost) || !isObject(x.cost)) continue;
      for (const field of MODELS_DEV_FIELDS) {
        const a = m.cost[field];
        const b = x.cost[field];
        if (typeof a === "number" && typeof b === "number" && moved(a, b))
          moves.push({ export: "models-dev", key: `${provider}/${key}`, field, recorded: a, exported: b });
      }
    }
  }
  return moves;
}

/** genai-prices' base price fields a recorded `data.json` states (USD per 1M tokens; requests per 1K). */
const GENAI_PRICES_FIELDS = [
  "input_mtok",
  "output_mtok",
  "cache_read_mtok",
  "cache_write_mtok",
  "input_audio_mtok",
  "cache_audio_read_mtok",
  "output_audio_mtok",
  "requests_kcount",
];
/**
 * What genai-prices' calculator charges a usage at when a file lacks its field: the nearest priced
 * ancestor (audio tokens are input or output tokens, cached tokens input tokens); a missing request
 * fee is none (T350).
 */
const GENAI_PRICES_FALLBACK: Record<string, string> = {
  cache_read_mtok: "input_mtok",
  cache_write_mtok: "input_mtok",
  input_audio_mtok: "input_mtok",
  cache_audio_read_mtok: "cache_read_mtok",
  output_audio_mtok: "output_mtok",
};

/** The ModelPrice genai-prices uses at `at`: the last conditional price whose constraint holds, else the first (its own rule). */
function activePrices(prices: unknown, at: Date): Entry | undefined {
  if (!Array.isArray(prices)) return isObject(prices) ? prices : undefined;
  const seconds = at.getUTCHours() * 3600 + at.getUTCMinutes() * 60;
  const clock = (t: string) => {
    const [h, m] = t.split(":").map(Number);
    return (h ?? 0) * 3600 + (m ?? 0) * 60;
  };
  for (const c of [...prices].reverse()) {
    if (!isObject(c) || !isObject(c.prices)) continue;
    const k = c.constraint;
    if (!isObject(k)) return c.prices;
    if (typeof k.start_date === "string" && at >= new Date(k.start_date)) return c.prices;
    if (typeof k.start_time === "string" && typeof k.end_time === "string") {
      const [s, e] = [clock(k.start_time), clock(k.end_time)];
      if (e < s ? seconds >= s || seconds < e : seconds >= s && seconds < e) return c.prices;
    }
  }
  const first: unknown = prices[0];
  return isObject(first) && isObject(first.prices) ? first.prices : undefined;
}

/** A price at a prompt of `prompt` tokens: a number, or TieredPrices' tier whose start the prompt exceeds (genai-prices' rule). */
function priceAt(value: unknown, prompt: number): number | undefined {
  if (typeof value === "number") return value;
  if (!isObject(value) || typeof value.base !== "number" || !Array.isArray(value.tiers)) return undefined;
  let price = value.base;
  for (const t of value.tiers as Entry[])
    if (typeof t.start === "number" && typeof t.price === "number" && prompt > t.start) price = t.price;
  return price;
}

/** What a usage of `field` costs at a prompt length: the field's own price, else its fallback's (T350). */
function effectivePrice(prices: Entry, field: string, prompt: number): number | undefined {
  for (let f: string | undefined = field; f; f = GENAI_PRICES_FALLBACK[f]) {
    const v = priceAt(prices[f], prompt);
    if (v !== undefined) return v;
  }
  return field === "requests_kcount" ? 0 : undefined;
}

/**
 * The export's price for what the recorded field meant: its effective price, except that a recorded
 * `output_mtok` of a medium-generating model is compared with the medium's own output price the export
 * states when that is nearer (T350, as T311 reads models.dev's `cost.output`: genai-prices' file
 * writes Gemini 2.5 Flash Image's image-token 30 as `output_mtok`, the export writes
 * `output_image_mtok` 30 beside the text 2.50).
 */
function exportedPrice(
  r: Entry,
  x: Entry,
  field: string,
  prompt: number,
  recorded: number | undefined,
): number | undefined {
  const own = effectivePrice(x, field, prompt);
  if (field !== "output_mtok" || recorded === undefined || own === undefined) return own;
  const distance = (v: number) => Math.abs(Math.log((v + 1e-12) / (recorded + 1e-12)));
  let best = own;
  for (const medium of ["audio", "image", "video"]) {
    const key = `output_${medium}_mtok`;
    const v = r[key] === undefined ? priceAt(x[key], prompt) : undefined;
    if (v !== undefined && distance(v) < distance(best)) best = v;
  }
  return best;
}

/** Every tier start of every TieredPrices in the price sets. */
function bracketStarts(...sets: Entry[]): number[] {
  const starts = new Set<number>();
  for (const set of sets)
    for (const v of Object.values(set))
      if (isObject(v) && Array.isArray(v.tiers))
        for (const t of v.tiers as Entry[]) if (typeof t.start === "number") starts.add(t.start);
  return [...starts].sort((a, b) => a - b);
}

/** The daily window boundaries of a model's conditional prices (`HH:MM:SSZ`). */
function windowTimes(prices: unknown): string[] {
  if (!Array.isArray(prices)) return [];
  return prices.flatMap((c: unknown) =>
    isObject(c) && isObject(c.constraint)
      ? [c.constraint.start_time, c.constraint.end_time].filter((t): t is string => typeof t === "string")
      : [],
  );
}

/** A provider's models by id (the first of an id, as genai-prices' matcher would meet it). */
function modelsById(provider: unknown): Map<string, Entry> {
  const byId = new Map<string, Entry>();
  if (!isObject(provider) || !Array.isArray(provider.models)) return byId;
  for (const m of provider.models) if (isObject(m) && typeof m.id === "string" && !byId.has(m.id)) byId.set(m.id, m);
  return byId;
}

/**
 * The moves of the genai-prices export against the recorded `data.json` (T350), like with like: for
 * each `<provider id>/<model id>` both files list, the prices genai-prices would use on `date`
 * (start-date constraints resolved; a model with daily windows on either side compared at each
 * window boundary, `@HH:MMZ`), and for every field the recorded file states, the price the export
 * charges that usage (its own field, else the ancestor its calculator falls back to: a lost audio or
 * cache price is a move, a field only the export adds is not) at every prompt bracket either side
 * states (`field >start`, a bracket listed only where its pair of prices differs from the one below).
 */
export function genaiPricesMoves(
  recorded: readonly unknown[],
  exported: readonly unknown[],
  date: string,
): ExportMove[] {
  const moves: ExportMove[] = [];
  const exportedProviders = new Map<string, unknown>();
  for (const p of exported) if (isObject(p) && typeof p.id === "string") exportedProviders.set(p.id, p);
  for (const rp of recorded) {
    if (!isObject(rp) || typeof rp.id !== "string") continue;
    const xModels = modelsById(exportedProviders.get(rp.id));
    for (const [id, rm] of modelsById(rp)) {
      const xm = xModels.get(id);
      if (!xm) continue;
      const times = [...new Set([...windowTimes(rm.prices), ...windowTimes(xm.prices)])].sort();
      for (const time of times.length > 0 ? times : ["00:00:00Z"]) {
        const at = new Date(`${date}T${time}`);
        const r = activePrices(rm.prices, at);
        const x = activePrices(xm.prices, at);
        if (!r || !x) continue;
        const when = times.length > 0 ? ` @${time.slice(0, 5)}Z` : "";
        const prompts = [0, ...bracketStarts(r, x)];
        for (const field of GENAI_PRICES_FIELDS) {
          if (r[field] === undefined) continue;
          let below: string | undefined;
          for (const start of prompts) {
            const a = effectivePrice(r, field, start === 0 ? 0 : start + 1);
            const b = exportedPrice(r, x, field, start === 0 ? 0 : start + 1, a);
            if (a === undefined || b === undefined) continue;
            const pair = `${a}/${b}`;
            if (pair !== below && moved(a, b))
              moves.push({
                export: "genai-prices",
                key: `${rp.id}/${id}`,
                field: `${field}${start === 0 ? "" : ` >${start}`}${when}`,
                recorded: a,
                exported: b,
              });
            below = pair;
          }
        }
      }
    }
  }
  return moves;
}

/** One line per move, for comparing lists. */
export function moveLine(m: ExportMove): string {
  return `${m.export} ${m.key} ${m.field}: ${m.recorded} → ${m.exported}`;
}

/** A genai-prices field's dimension in Tariff's terms (direction, cache, modality). */
function dimensionOf(field: string): { direction: string; cache: string; modality: string } {
  const base = field.split(" ")[0]!;
  const modality = /_(audio|image|video)_/.exec(base)?.[1] ?? "text";
  const cache = base.startsWith("cache_") ? (base.includes("_read_") ? "read" : "write") : "none";
  const direction = base.startsWith("output_") ? "output" : base === "requests_kcount" ? "request" : "input";
  return { direction, cache, modality };
}

/**
 * What the export's price behind a genai-prices move rests on (T350): the standard prices of the
 * move's dimension (every modality and prompt bracket) of `model` at `seller`, each with its confidence
 * and agreeing sources; or that Tariff has none there.
 */
export function genaiPricesEvidence(view: CatalogueView, model: string, seller: string, field: string): string {
  const { direction, cache } = dimensionOf(field);
  const prices = view.dataset.prices.filter(
    (p) =>
      p.modelId === model &&
      p.seller === seller &&
      p.tier === "standard" &&
      p.direction === direction &&
      p.cache === cache &&
      Object.keys(p.qualifiers).every((k) => k === "seller"),
  );
  if (prices.length === 0) return `${model} at ${seller}: no standard ${direction} ${cache} price`;
  return `${model} at ${seller}: ${prices
    .map(
      (p) =>
        `${p.direction}${p.cache === "none" ? "" : ` cache ${p.cache}`} ${p.modality}${p.contextMin > 0 ? ` >${p.contextMin}` : ""} ${p.amount} ${p.confidence} (${p.sources.join(", ")})`,
    )
    .join("; ")}`;
}

/** What the export's price of `model` at `seller` rests on: confidence and agreeing sources of its text input and output. */
export function evidenceOf(view: CatalogueView, model: string, seller: string): string {
  const prices = view.dataset.prices.filter(
    (p) =>
      p.modelId === model &&
      p.seller === seller &&
      p.tier === "standard" &&
      p.cache === "none" &&
      p.modality === "text" &&
      p.contextMin === 0 &&
      (p.direction === "input" || p.direction === "output"),
  );
  if (prices.length === 0) return `${model} at ${seller}`;
  return `${model} at ${seller}: ${prices
    .map((p) => `${p.direction} ${p.amount} ${p.confidence} (${p.sources.join(", ")})`)
    .join("; ")}`;
}
