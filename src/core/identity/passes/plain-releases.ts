import { isOpenWeightsFamily } from "../maker.js";
import { SIZE_TOKEN } from "../spelling-rules.js";
import { attach, found } from "./place.js";
import type { IdentityState } from "./state.js";

/**
 * Pass 3b (T280, T183): a host's plain spelling of a family whose maker published the weights, or of
 * a maker that sells nothing itself, founds the model even without the maker's organisation in it
 * (issue 25 §6): Fireworks' `qwen2p5-coder-14b-instruct`, `starcoder2-15b`. Never a third party's
 * fine-tune of it (`Llama-3.3-70B-Anthrobomination` has a word no release of Llama has). The
 * listing stays in `unplaced`; later passes skip what is placed.
 */
export function foundPlainReleases(state: IdentityState): void {
  for (const item of state.unplaced)
    if (
      item.evidence === "family" &&
      (isOpenWeightsFamily(item.maker, item.spelling.key) || !state.ownMakers.has(item.maker)) &&
      isPlainRelease(item.spelling.key)
    )
      state.placements.set(item, attach(state, item) ?? found(state, item));
}

/**
 * True when a spelling names a size or a `v` version and every word of it is a family's name, a size, a version or a
 * word makers use for their own releases (`qwen2-5-coder-14b-instruct`, `starcoder2-15b`,
 * `deepseek-coder-v2-lite-base`); a third party's fine-tune adds a word of its own
 * (`llama-3-3-70b-anthrobomination`), a host's preview or default tag names no release.
 */
export function isPlainRelease(key: string): boolean {
  const tokens = key.split("-");
  // (a release names its size or its version: Ollama's bare `codellama` is a default tag)
  return (
    tokens.some((t) => SIZE_TOKEN.test(t) || /^v\d+$/.test(t)) &&
    tokens.every((t) => SIZE_TOKEN.test(t) || /^v?\d+$/.test(t) || RELEASE_WORDS.has(t.replace(/\d+$/, "")))
  );
}

/** Family names and the words makers use for their own open-weights releases (T183). */
const RELEASE_WORDS: ReadonlySet<string> = new Set(
  (
    "llama codellama qwen qwq qvq deepseek starcoder gemma codegemma mistral mixtral phi falcon glm kimi minimax " +
    "dbrx kat yi internvl nemotron granite olmo " +
    "instruct chat base it hf python vision guard embed embedding reranker audio omni lite distill moe " +
    "coder code math vl dev mini small medium large nano long"
  ).split(" "),
);
