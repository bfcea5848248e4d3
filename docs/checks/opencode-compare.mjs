// Compares `opencode models --verbose` with Tariff's /api/v1/models answers (docs/checks/opencode.sh, T351).
// Usage: node opencode-compare.mjs <label> <opencode output> <tariff model json>…
// Each Tariff answer's direct text prices in USD per 1M tokens (standard tier; every prompt bracket)
// must be OpenCode's `cost` of the same provider/model: input, output, cache read and write (0 where
// Tariff has none, as OpenCode shows a price models.dev's file leaves out), and each bracket as
// OpenCode's `tiers` entry of that context size. Exits 1 on any mismatch.
import { readFileSync } from "node:fs";

const [label, listing, ...answers] = process.argv.slice(2);
const listed = new Map();
for (const m of readFileSync(listing, "utf8").matchAll(/^(\S+\/\S+)\n(\{[\s\S]*?\n\})$/gm))
  listed.set(m[1], JSON.parse(m[2]));
const perProvider = new Map();
for (const key of listed.keys()) perProvider.set(key.split("/")[0], (perProvider.get(key.split("/")[0]) ?? 0) + 1);
console.log(`     ${label}: OpenCode lists ${[...perProvider].map(([p, n]) => `${n} ${p}`).join(", ")} models`);
let failed = false;
for (const file of answers) {
  const model = JSON.parse(readFileSync(file, "utf8")).data;
  const cost = listed.get(model.id)?.cost;
  if (!cost) {
    console.log(`FAIL ${label}: ${model.id} is not in OpenCode's listing (${listed.size} models listed)`);
    failed = true;
    continue;
  }
  const prices = model.prices.filter(
    (p) =>
      p.modality === "text" &&
      p.tier === "standard" &&
      p.displayUnit === "USD per 1M tokens" &&
      Object.keys(p.qualifiers).length === 0,
  );
  const brackets = [...new Set(prices.map((p) => p.contextMin))].sort((a, b) => a - b);
  if (brackets.length === 0) {
    console.log(`FAIL ${label}: Tariff has no direct text price of ${model.id} to compare`);
    failed = true;
  }
  for (const min of brackets) {
    const at = min === 0 ? cost : cost.tiers?.find((t) => t.tier?.type === "context" && t.tier.size === min);
    const tariff = (direction, cache) =>
      prices.find((p) => p.contextMin === min && p.direction === direction && p.cache === cache);
    for (const [name, shown, price] of [
      ["input", at?.input, tariff("input", "none")],
      ["output", at?.output, tariff("output", "none")],
      ["cache read", at?.cache?.read, tariff("input", "read")],
      ["cache write", at?.cache?.write, tariff("input", "write")],
    ]) {
      const expected = price?.amount ?? 0;
      const ok = shown === expected;
      failed ||= !ok;
      const where = min === 0 ? "" : ` above ${min.toLocaleString("en")} tokens`;
      const evidence = price ? `${price.confidence}` : "no price";
      console.log(
        `${ok ? "ok  " : "FAIL"} ${label}: ${model.id} ${name}${where}: OpenCode ${shown}, Tariff ${expected} (${evidence})`,
      );
    }
  }
}
process.exit(failed ? 1 : 0);
