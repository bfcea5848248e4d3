import { MISTRAL_MODEL_FILES } from "../../src/sources/official-mistral/index.js";
import { makerPagePayloads } from "../fake-page.js";
import type { FakePayloads } from "../fake-upstream.js";

const perFile = makerPagePayloads(
  (line) => /^\s*\{\s*type:\s*'(range|flat)',\s*price:/.test(line),
  (text) => text.slice(0, text.indexOf("price:") + 8),
);

/**
 * The fake upstream's Mistral model files (test material, `test/fake-upstream.ts`): served whole;
 * a price row is a meter line (`{ type: 'range', price: 0.4, denominator: '/M Tokens' }`); a file is
 * cut inside its first meter. A row drop empties whole files (by their place in the live file list):
 * a file has two or three meters, so keeping one in ten of each file's would keep half the prices.
 */
export const fakePayloads: FakePayloads = {
  ...perFile,
  dropRows: (name, text, keep) =>
    keep(MISTRAL_MODEL_FILES.indexOf(name.replace(/\.ts$/, ""))) ? text : perFile.empty(name, text),
};
