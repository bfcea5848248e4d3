import type { Listing } from "../../domain/observation.js";
import { canonicalSeller, isMaker } from "../../domain/sellers.js";
import { FAMILIES, HOST_ORGS, MAKER_PLATFORMS, NON_MAKER_ORGS, OPEN_WEIGHTS, ORG_MAKERS } from "./maker-rules.js";
import { MAKER_OVERRIDES, NOT_MODELS } from "./overrides.js";
import { keyOf, orthographic, type Spelling } from "./spelling.js";
import { SELLER_PREFIXES } from "./spelling-rules.js";

/**
 * Who made a listed model, and on what evidence (issue 12 §1–3, T61). Pure.
 *
 * - `own`: the seller is the maker (or the maker's own platform, `MAKER_PLATFORMS`) and no family
 *   names another maker; such listings found models.
 * - `org`: the spelling names the maker's organisation (`meta-llama/…`, `deepseek-ai/…`); founds
 *   a model when the source says it is open weights, or the maker sells nothing itself.
 * - `publisher`: the spelling names a third party's organisation (a fine-tune or merge by others,
 *   `thedrummer/…`); the publisher is the maker.
 * - `family`: the family table (`glm` → zai); such listings only attach to an existing model.
 */
export type MakerEvidence = "own" | "org" | "publisher" | "family";

export type MakerReading =
  | { readonly maker: string; readonly evidence: MakerEvidence }
  | { readonly excluded: string }
  | null;

/** The maker a family table entry names for a core spelling or display name, or null. */
export function familyOf(text: string): string | null {
  let s = orthographic(text.trim());
  for (let i = 0; i < 3; i++) {
    for (const [pattern, maker] of FAMILIES) if (pattern.test(s)) return maker;
    // `databricks-meta-llama-3-3-70b-instruct`, `zai-glm-4.7`: a seller prefix before the family.
    const prefix = SELLER_PREFIXES.find((p) => s.startsWith(`${p}-`));
    if (!prefix) break;
    s = s.slice(prefix.length + 1);
  }
  return null;
}

/**
 * True when `maker` published the weights of the model `key` names (the open-weights family table,
 * issue 25 T183): a host's listing under the maker's organisation may then found it.
 */
export function isOpenWeightsFamily(maker: string, key: string): boolean {
  return OPEN_WEIGHTS.some(([pattern, owner]) => owner === maker && pattern.test(key));
}

/**
 * The maker of a host's copy of another maker's weights (`togethercomputer/llama-2-7b` → meta,
 * `nvidia/DeepSeek-V3.2-NVFP4` → deepseek), or null when the host made the model (T183).
 */
export function hostedMaker(org: string, core: string): string | null {
  const host = canonicalSeller(org);
  const own = HOST_ORGS[host];
  if (!own || own.test(keyOf(core))) return null;
  const family = familyOf(core);
  return family && family !== host ? family : null;
}

/** The maker an organisation names (`meta-llama` → meta, `kwaipilot` → kuaishou), or null when it names none. */
export function orgMaker(org: string): string | null {
  // nano-gpt's second namespace of a publisher: `TheDrummer 2/Anubis-70B-v1`
  const name = org.replace(/\s+\d+$/, "");
  const mapped = ORG_MAKERS[name];
  if (mapped) return mapped;
  const canonical = canonicalSeller(name);
  return isMaker(canonical) || MAKER_PLATFORMS[canonical] === canonical ? canonical : null;
}

/** The maker whose own platform `seller` is (Bedrock → amazon), or the seller itself when it is a maker. */
export function platformMaker(seller: string): string | null {
  return MAKER_PLATFORMS[seller] ?? (isMaker(seller) ? seller : null);
}

/**
 * Reads the maker of one listing. `sellers` holds every seller slug of the run: an org equal to a
 * seller is that seller's namespace, not a publisher.
 */
export function readMaker(listing: Listing, spelling: Spelling, sellers: ReadonlySet<string>): MakerReading {
  const notModel = NOT_MODELS[spelling.key];
  if (notModel) return { excluded: `not a model: ${notModel}` };
  const override = MAKER_OVERRIDES[spelling.key];
  if (override)
    return { maker: override[0], evidence: platformMaker(listing.seller) === override[0] ? "own" : "publisher" };
  const family =
    familyOf(spelling.core) ??
    (listing.family ? familyOf(listing.family) : null) ??
    (listing.name ? familyOf(listing.name) : null);
  const org = spelling.org;
  if (org) {
    // A host's organisation lists other makers' weights too: those are their makers' models (T183).
    const hosted = hostedMaker(org, spelling.core);
    if (hosted) return { maker: hosted, evidence: platformMaker(listing.seller) === hosted ? "own" : "org" };
    const maker = orgMaker(org);
    if (maker) return { maker, evidence: platformMaker(listing.seller) === maker ? "own" : "org" };
    const slug = canonicalSeller(org.replace(/\s+\d+$/, ""));
    if (!NON_MAKER_ORGS.has(org) && !sellers.has(slug) && /^[a-z0-9][a-z0-9-]*$/.test(slug))
      return { maker: slug, evidence: "publisher" };
  }
  const own = platformMaker(listing.seller);
  // The family table naming the seller itself is the maker's own listing, also for a host that is
  // no maker of anything else (Fireworks' FireFunction, Deepgram's Nova).
  if (family) return { maker: family, evidence: own === family || listing.seller === family ? "own" : "family" };
  const hint = listing.makerHint ? canonicalSeller(listing.makerHint) : null;
  if (own && (hint === null || hint === own)) return { maker: own, evidence: "own" };
  if (hint && isMaker(hint)) return { maker: hint, evidence: "family" };
  return null;
}
