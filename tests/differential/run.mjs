// Differential test against Lance 12 (LanceDB 0.39): for every seed, a generated table is
//   1. written by LanceDB (createTable, add, addColumns, delete, optimize) in Lance file versions
//      2.1 and 2.2 and read by lance-nd: every value equal to LanceDB's reading;
//   2. written by lance-nd (2.1 and 2.2) and read back by LanceDB: every value equal to the
//      generated data, and generated filters return the rows the script computes itself.
// The page shapes of every data file read are counted into a coverage table.
//
//   node run.mjs --tool PATH/differential_tool --work DIR
//                (--seeds 1,2,3 | --seeds-file FILE | --from N --count M)
//                [--coverage OUT.md] [--coverage-json OUT.json] [--versions 2.1,2.2]
//                (the JSON also lists the page shapes Lance 12 wrote per seed: pick_seeds.mjs)
//                [--directions lance,ours] [--quiet] [--keep yes (keep passing tables)]
// Exit code 1 when any seed failed; each failure names its seed and the command that repeats it.
import fs from "node:fs";
import path from "node:path";
import { freshDir, parseArgs } from "../../interop/lance_oracle.mjs";
import { checkPlantedDifferences } from "./compare.mjs";
import { Coverage } from "./coverage.mjs";
import { describeCase, generateCase } from "./generate.mjs";
import { LanceSelfRead, lanceWritesWeRead, runTool, weWriteLanceReads } from "./sides.mjs";

const opt = parseArgs(["tool", "work"]);
const work = path.resolve(opt.work);
const versions = (opt.versions || "2.1,2.2").split(",");
const directions = (opt.directions || "lance,ours").split(",");

function seedList() {
  if (opt.seeds) return opt.seeds.split(",").map(Number);
  if (opt["seeds-file"]) {
    return fs.readFileSync(opt["seeds-file"], "utf8").split("\n")
      .map((l) => l.replace(/#.*/, "").trim()).filter((l) => l).map(Number);
  }
  const from = Number(opt.from || 1);
  return Array.from({ length: Number(opt.count || 10) }, (_, i) => from + i);
}

// The page descriptions of a table lance-nd could not read, when its files can be described.
function pagesIfReadable(dir) {
  try {
    return runTool(opt.tool, ["pages", dir]).split("\n").filter((l) => l).map((l) => JSON.parse(l));
  } catch {
    return [];
  }
}

// The comparison must be able to fail (checked once, on generated rows).
const planted = checkPlantedDifferences(generateCase(1).batches[0].map((r) => JSON.parse(JSON.stringify(r, (k, v) => (typeof v === "bigint" ? String(v) : v)))));
console.log(`planted differences caught: ${planted}`);

const coverage = new Coverage();
const shapesBySeed = {};  // seed -> page shapes Lance 12 wrote (for choosing the ctest seeds)
const totals = { tables: 0, values: 0, filters: 0, failures: [], skipped: [] };
const runs = [["lance", lanceWritesWeRead], ["ours", weWriteLanceReads]].filter(([d]) => directions.includes(d));
const started = Date.now();
// The coverage files and the summary line (also written every 50 seeds, so a soak that is
// stopped early still leaves its figures).
function writeReports(seeds) {
  const seconds = ((Date.now() - started) / 1000).toFixed(0);
  if (opt.coverage) fs.writeFileSync(opt.coverage, coverage.toMarkdown());
  if (opt["coverage-json"]) {
    const bySeed = Object.fromEntries(Object.entries(shapesBySeed).map(([k, v]) => [k, [...v]]));
    fs.writeFileSync(opt["coverage-json"], JSON.stringify({ ...coverage.toJSON(), bySeed }, null, 1));
  }
  console.log(`${seeds ? `... after ${seeds} seeds: ` : "differential: "}${totals.tables} tables, ` +
    `${totals.values} values compared, ${totals.filters} filters, ${totals.failures.length} failures, ` +
    `${totals.skipped.length} tables Lance 12 could not read itself, ${seconds} s`);
}

let done = 0;
for (const seed of seedList()) {
  if (++done % 50 === 0) writeReports(done);
  const c = generateCase(seed);
  if (!opt.quiet) console.log(describeCase(c).slice(0, 400));
  for (const version of versions) {
    for (const [direction, run] of runs) {
      const dir = freshDir(path.join(work, `s${seed}_${direction}_${version}`));
      try {
        const r = await run(c, version, opt.tool, dir);
        const keys = coverage.add(direction, version, r.pages);
        if (direction === "lance") for (const k of keys) (shapesBySeed[seed] ??= new Set()).add(k);
        totals.tables += 1;
        totals.values += r.values;
        totals.filters += r.filters;
        if (!opt.keep) fs.rmSync(dir, { recursive: true, force: true });
      } catch (e) {
        if (e instanceof LanceSelfRead) {
          console.log(`SKIP seed ${seed}: ${e.message}`);
          totals.skipped.push(seed);
          fs.rmSync(dir, { recursive: true, force: true });
          continue;
        }
        const how = `node tests/differential/run.mjs --tool ${opt.tool} --work "$(mktemp -d)" --seeds ${seed} --versions ${version} --directions ${direction}`;
        console.log(`FAIL seed ${seed}, ${direction === "lance" ? "Lance writes, lance-nd reads" : "lance-nd writes, Lance reads"}, file version ${version}:\n  ${String(e.message).split("\n").join("\n  ")}\n  repeat: ${how}\n  table kept in ${dir}`);
        const lines = String(e.message).split("\n");
        const message = lines.find((l) => /^\s*error:/.test(l)) ?? lines[0];
        totals.failures.push({ seed, version, direction, message: message.trim() });
        const failedColumn = (String(e.message).match(/column \d+ \('([^']+)'\)/) || [])[1];
        if (direction === "lance" && failedColumn) {
          const pages = pagesIfReadable(path.join(dir, "db", "t.lance")).filter((p) => p.column === failedColumn);
          coverage.add("failed", version, pages);
        }
      }
    }
  }
}
writeReports();
if (totals.failures.length > 0) {
  // Failures grouped by the kind of message (numbers and file names left out).
  const kinds = new Map();
  for (const f of totals.failures) {
    const kind = `${f.direction} ${f.version}: ${f.message.replace(/'[^']*'/g, "'…'").replace(/\d+/g, "N").slice(0, 160)}`;
    if (!kinds.has(kind)) kinds.set(kind, []);
    kinds.get(kind).push(f.seed);
  }
  for (const [kind, seeds] of kinds) console.log(`  ${seeds.length} x ${kind}\n    seeds ${seeds.join(",")}`);
  const seeds = [...new Set(totals.failures.map((f) => f.seed))];
  console.log(`failing seeds: ${seeds.join(",")}`);
  process.exit(1);
}
