// The condensed page-shape table for docs/spec-coverage.md, from the JSON a run wrote
// (run.mjs --coverage-json): one row per (layout with its options, value encoding), the rep/def
// layer combinations folded into a count, with pages per writer and file version and the
// logical types Lance 12 used.
//   node summarize_coverage.mjs COVERAGE.json... [--families] > TABLE.md
// With --families, numbers in encodings are folded ("flat(N)", "inline_bitpacking(N)") except
// the bit widths of flat values, for a shorter table.
import fs from "node:fs";
import { foldNumbers as fold, mergeCoverageJson } from "./coverage.mjs";

const inputs = process.argv.slice(2).filter((a) => !a.startsWith("--"));
const { pages, levels, multiPageColumns } = mergeCoverageJson(inputs.map((f) => JSON.parse(fs.readFileSync(f, "utf8"))));
const families = process.argv.includes("--families");
const cols = ["lance 2.1", "lance 2.2", "ours 2.1", "ours 2.2", "failed 2.1", "failed 2.2"];
const groups = new Map();
for (const r of pages) {
  const encoding = families ? fold(r.encoding) : r.encoding;
  const key = `${r.layout}\t${encoding}`;
  let g = groups.get(key);
  if (!g) groups.set(key, g = { layout: r.layout, encoding, counts: {}, layers: new Set(), types: {} });
  for (const [c, n] of Object.entries(r.counts)) g.counts[c] = (g.counts[c] || 0) + n;
  if ((r.counts["lance 2.1"] || 0) + (r.counts["lance 2.2"] || 0) > 0) g.layers.add(r.layers);
  for (const [t, n] of Object.entries(r.types)) g.types[t] = (g.types[t] || 0) + n;
}
const esc = (s) => s.replace(/\|/g, "\\|");
const out = [
  `| layout | value encoding | layer sets (Lance) | ${cols.join(" | ")} | logical types (Lance 12 pages) |`,
  `|---|---|--:|${cols.map(() => "--:").join("|")}|---|`,
];
for (const g of [...groups.values()].sort((a, b) => (a.layout + a.encoding).localeCompare(b.layout + b.encoding))) {
  const types = Object.entries(g.types).filter(([, n]) => n > 0).sort((a, b) => b[1] - a[1])
    .map(([t, n]) => `${t} ${n}`).join(", ") || "(ours only)";
  out.push(`| ${g.layout} | \`${esc(g.encoding)}\` | ${g.layers.size} | ${cols.map((c) => g.counts[c] || 0).join(" | ")} | ${esc(types)} |`);
}
out.push("", `Columns stored as several pages in one file: ${Object.entries(multiPageColumns).map(([k, n]) => `${k} ${n}`).join(", ")}.`, "");
out.push(`| levels | ${cols.join(" | ")} |`, `|---|${cols.map(() => "--:").join("|")}|`);
for (const [k, counts] of Object.entries(levels).sort()) {
  out.push(`| ${k.replace("\t", ": ")} | ${cols.map((c) => counts[c] || 0).join(" | ")} |`);
}
console.log(out.join("\n"));
