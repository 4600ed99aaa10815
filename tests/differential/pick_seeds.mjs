// Chooses the ctest seeds: a small set of seeds whose Lance 12 tables together hit every
// (layout with its options, encoding family), every rep/def layer and every logical type a soak
// run saw (greedy set cover, preferring seeds with fewer rows), after the seeds that must stay
// as regression cases.
//   node pick_seeds.mjs SOAK_COVERAGE.json[,MORE.json...] [REQUIRED_SEED,...]
import fs from "node:fs";
import { foldNumbers, mergeCoverageJson } from "./coverage.mjs";
import { generateCase } from "./generate.mjs";

// A seed's cost for ctest: its rows (cheap seeds are preferred at equal coverage).
const costs = new Map();
function cost(seed) {
  if (!costs.has(seed)) {
    const p = generateCase(seed).plan;
    costs.set(seed, 1 + (p.batches.reduce((a, b) => a + b, 0) + p.afterEvolve) / 3000);
  }
  return costs.get(seed);
}

const [file, required = ""] = process.argv.slice(2);
const raw = mergeCoverageJson(file.split(",").map((f) => JSON.parse(fs.readFileSync(f, "utf8")))).bySeed;
// "layout\tencoding\tlayers\ttype" -> the coarser keys to cover.
const bySeed = Object.fromEntries(Object.entries(raw).map(([seed, keys]) => [seed, [...new Set(
  keys.flatMap((k) => {
    const [layout, encoding, layers, type] = k.split("\t");
    return [`${layout}\t${foldNumbers(encoding)}`, `type ${type}`,
      ...layers.split(", ").map((l) => `layer ${l}`)];
  }))]]));
const left = new Set(Object.values(bySeed).flat());
const chosen = required.split(",").filter((s) => s).map(Number);
for (const s of chosen) for (const k of bySeed[s] || []) left.delete(k);
while (left.size > 0) {
  let best = null;
  let gain = 0;  // keys newly covered per unit of cost
  for (const [seed, keys] of Object.entries(bySeed)) {
    const g = keys.filter((k) => left.has(k)).length / cost(Number(seed));
    if (g > gain) { best = seed; gain = g; }
  }
  chosen.push(Number(best));
  for (const k of bySeed[best]) left.delete(k);
}
console.log(chosen.join("\n"));
