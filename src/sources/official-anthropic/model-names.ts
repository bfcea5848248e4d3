import type { ModelNameGrammar } from "../shared/model-cell.js";

/**
 * The model names Anthropic's pricing page writes, and the model id each means (issue 46 §2, T406):
 * reviewed data, one rule per spelling, each with a cell of a recorded copy it reads
 * (`model-names.test.ts` reads that copy). A name no rule accepts is an unmatched row, never a model.
 */
export const ANTHROPIC_MODEL_NAMES: ModelNameGrammar = {
  maker: "anthropic",
  rules: [
    {
      // `Claude Opus 4.1` → `claude-opus-4-1`; `Claude Haiku 3` → `claude-haiku-3` (family, then version).
      pattern: /^Claude (Opus|Sonnet|Haiku) (\d+)(?:\.(\d+))?$/,
      id: (m) => `claude-${(m[1] as string).toLowerCase()}-${m[2]}${m[3] ? `-${m[3]}` : ""}`,
      example: { source: "official-anthropic", date: "2026-05-01", cell: "Claude Opus 4.7", id: "claude-opus-4-7" },
    },
  ],
};
