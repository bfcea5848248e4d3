import type { ModelNameGrammar } from "../shared/model-cell.js";

/**
 * The model names OpenAI's pricing page writes (its API ids, lower case) and the id each means: the
 * name itself (issue 46 §2, T406). Reviewed data, one rule per family, each with a cell of a recorded
 * copy it reads (`model-names.test.ts` reads that copy). A name no rule accepts — a display name, a
 * date note, another maker's model — is an unmatched row, never a model.
 */
const same = (m: RegExpExecArray) => m[0];

export const OPENAI_MODEL_NAMES: ModelNameGrammar = {
  maker: "openai",
  rules: [
    {
      // gpt-5.4-mini, gpt-4o-2024-05-13, gpt-3.5-turbo-16k-0613, gpt-4-1106-vision-preview
      pattern: /^gpt-\d+(?:\.\d+)?o?(?:-[a-z0-9]+)*$/,
      id: same,
      example: { source: "official-openai", date: "2026-06-01", cell: "gpt-5.4-mini", id: "gpt-5.4-mini" },
    },
    {
      // o1, o3-pro, o4-mini, o3-deep-research
      pattern: /^o\d(?:-[a-z]+)*$/,
      id: same,
      example: { source: "official-openai", date: "2026-06-01", cell: "o4-mini", id: "o4-mini" },
    },
    {
      // the GPT-3 base models: babbage-002, davinci-002
      pattern: /^(?:babbage|davinci)-\d{3}$/,
      id: same,
      example: { source: "official-openai", date: "2026-06-01", cell: "davinci-002", id: "davinci-002" },
    },
  ],
};
