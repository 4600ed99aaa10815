// Chooses the ctest seeds: a small set of seeds whose Lance 12 tables together hit every page
// shape (layout, value encoding, layers) and every logical type a soak run saw (greedy set
// cover), after the seeds that must stay as regression cases.
//   node pick_seeds.mjs SOAK_COVERAGE.json [REQUIRED_SEED,...]
import fs from "node:fs";

const [file, required = ""] = process.argv.slice(2);
const raw = JSON.parse(fs.readFileSync(file, "utf8")).bySeed;
// "layout\tencoding\tlayers\ttype" -> the shape without its type, and the type on its own.
const bySeed = Object.fromEntries(Object.entries(raw).map(([seed, keys]) => [seed, [...new Set(
  keys.flatMap((k) => { const p = k.split("\t"); return [p.slice(0, 3).join("\t"), `type ${p[3]}`]; }))]]));
const left = new Set(Object.values(bySeed).flat());
const chosen = required.split(",").filter((s) => s).map(Number);
for (const s of chosen) for (const k of bySeed[s] || []) left.delete(k);
while (left.size > 0) {
  let best = null;
  let gain = 0;
  for (const [seed, keys] of Object.entries(bySeed)) {
    const g = keys.filter((k) => left.has(k)).length;
    if (g > gain) { best = seed; gain = g; }
  }
  chosen.push(Number(best));
  for (const k of bySeed[best]) left.delete(k);
}
console.log(chosen.join("\n"));
