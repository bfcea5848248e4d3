import type { ModelNameGrammar } from "../shared/model-cell.js";

/**
 * The model names Moonshot's pricing page writes, and the model id each means (issue 48, T509):
 * reviewed data, one rule per family, each with a cell of the recorded copy it reads
 * (`model-cell.test.ts` reads that copy). The page writes the API ids themselves; a badge the
 * converter glued to the name (`kimi-k2-turbo-preview推荐`, "recommended") is dropped. A name no
 * rule accepts (another family, an unknown badge) is an unmatched row, never a model.
 */

/** Badges the page glues to a model name. */
const BADGE = "(?:推荐)?";

export const MOONSHOT_MODEL_NAMES: ModelNameGrammar = {
  // MAKER_MARKS' key: a kimi or moonshot name is this page's, never "another maker's model".
  maker: "moonshot",
  rules: [
    {
      // `kimi-k2-0905-preview`, `kimi-k2-thinking-turbo`, `kimi-k2-turbo-preview推荐`.
      pattern: new RegExp(`^(kimi-k2(?:-[a-z0-9]+)*)${BADGE}$`),
      id: (m) => m[1] as string,
      example: {
        source: "official-moonshot",
        date: "2026-01-01",
        cell: "kimi-k2-turbo-preview推荐",
        id: "kimi-k2-turbo-preview",
      },
    },
    {
      pattern: new RegExp(`^(kimi-latest)${BADGE}$`),
      id: (m) => m[1] as string,
      example: { source: "official-moonshot", date: "2026-01-01", cell: "kimi-latest", id: "kimi-latest" },
    },
    {
      // `moonshot-v1-8k`, `moonshot-v1-128k-vision-preview`: the context length is part of the id.
      pattern: new RegExp(`^(moonshot-v1-\\d+k(?:-vision-preview)?)${BADGE}$`),
      id: (m) => m[1] as string,
      example: {
        source: "official-moonshot",
        date: "2026-01-01",
        cell: "moonshot-v1-32k-vision-preview",
        id: "moonshot-v1-32k-vision-preview",
      },
    },
  ],
};
