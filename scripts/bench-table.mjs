#!/usr/bin/env node
// Compare lance-nd's table commits with Lance 12 (LanceDB 0.39 in Node) on the same data, in one
// run: commit latency of one small append, open time of a table with many versions, append
// throughput. See bench/table/README.md.
//
//   node scripts/bench-table.mjs [--build build/h-tbench] [--work BUILD/table_bench_work]
//        [--commits 100] [--versions 1000] [--open-reps 20] [--small-rows 10]
//        [--big-rows 400000] [--appends 5] [--reps 2] [--render WORK/results.json]
//
// 1. lance_nd_table_bench_tool gen writes small.arrow (--small-rows) and big.arrow
//    (--big-rows of id int64, x float64, y float32, name utf8) once; both engines ingest
//    exactly those bytes (loaded before timing).
// 2. commit latency: create a table from small, then --commits timed appends of small.
// 3. open: each engine builds a table with --versions versions (create + appends of small; the
//    build time is reported too), then EACH engine opens BOTH tables --open-reps times
//    (lance-nd: Dataset::Open + CountRows; Lance: openTable + countRows on a fresh connection).
//    The row counts and versions both engines report must agree.
// 4. append throughput: create from small, --appends timed appends of big; MB/s = big.arrow
//    bytes / time per append. The final row counts must agree.
// Each measurement runs --reps times per engine in separate processes, alternating which
// engine goes first; figures are medians over all samples (best in brackets).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const opt = { build: "build/h-tbench", work: "", commits: "100",
              versions: "1000", "open-reps": "20", "small-rows": "10", "big-rows": "400000",
              appends: "5", reps: "2" };
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i += 2) opt[argv[i].replace(/^--/, "")] = argv[i + 1];
// The data and both engines' tables go to the build tree unless --work says otherwise.
opt.work ||= path.resolve(root, opt.build, "table_bench_work");
const tool = path.resolve(root, opt.build, "bench/table/lance_nd_table_bench_tool");
if (!fs.existsSync(tool)) {
  throw new Error(`${tool} not found; configure a Release build with ` +
                  `-DLANCE_ND_BUILD_BENCHMARKS=ON and build lance_nd_table_bench_tool`);
}
const lanceScript = path.join(root, "bench/table/lance_table_bench.mjs");
const loadavg = () => fs.readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
const reps = Number(opt.reps);
const w = (...p) => path.join(opt.work, ...p);

function run(engine, args) {
  const [cmd, cmdArgs] = engine === "lance-nd" ? [tool, args]
                                               : [process.execPath, [lanceScript, ...args]];
  const out = execFileSync(cmd, cmdArgs, { encoding: "utf8", maxBuffer: 64 << 20 });
  return JSON.parse(out.trim().split("\n").pop());
}
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1;
                         return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };
const min = (xs) => Math.min(...xs);
const engines = ["lance-nd", "lance"];
const order = (r) => (r % 2 === 0 ? engines : [...engines].reverse());
const problems = [];

let saved = null;  // --render results.json: print a saved run again
if (opt.render) saved = JSON.parse(fs.readFileSync(opt.render, "utf8"));
if (!saved) {
fs.rmSync(opt.work, { recursive: true, force: true });
fs.mkdirSync(opt.work, { recursive: true });
}
const loadBefore = saved ? saved.loadBefore : loadavg();
const started = saved ? saved.started : new Date().toISOString();
if (!saved) run("lance-nd", ["gen", opt.work, opt["small-rows"], opt["big-rows"]]);
const small = w("small.arrow"), big = w("big.arrow");
const bigBytes = saved ? saved.bigBytes : fs.statSync(big).size;

// Commit latency.
const commitMs = saved ? saved.commitMs : { "lance-nd": [], lance: [] };
for (let r = 0; !saved && r < reps; ++r) {
  for (const e of order(r)) {
    commitMs[e].push(...run(e, ["commit", small, w(`commit-${e}.lance`), opt.commits]).ms);
  }
}

// Tables with many versions, each engine opening both.
const build = saved ? saved.build : {};
for (const e of saved ? [] : engines) {
  build[e] = run(e, ["versions", small, w(`versions-${e}.lance`), opt.versions]).total_ms;
}
const openMs = saved ? saved.openMs : {};
const seen = {};
for (let r = 0; !saved && r < reps; ++r) {
  for (const e of order(r)) {
    for (const t of engines) {
      const res = run(e, ["open", w(`versions-${t}.lance`), opt["open-reps"]]);
      (openMs[`${e} opens ${t}'s`] ??= []).push(...res.ms);
      const key = `${res.version}/${res.rows}`;
      if (seen[t] && seen[t] !== key) problems.push(`open of ${t}'s table: ${key} vs ${seen[t]}`);
      seen[t] = key;
      if (res.version !== Number(opt.versions)) {
        problems.push(`${e} opened ${t}'s table at version ${res.version}, expected ${opt.versions}`);
      }
    }
  }
}

// Append throughput.
const appendMs = saved ? saved.appendMs : { "lance-nd": [], lance: [] };
const appendRows = {};
for (let r = 0; !saved && r < reps; ++r) {
  for (const e of order(r)) {
    const res = run(e, ["append", small, big, w(`append-${e}.lance`), opt.appends]);
    appendMs[e].push(...res.ms);
    appendRows[e] = res.rows;
  }
}
if (!saved && appendRows["lance-nd"] !== appendRows.lance) {
  problems.push(`append row counts differ: ${JSON.stringify(appendRows)}`);
}
const loadAfter = saved ? saved.loadAfter : loadavg();
if (!saved) fs.writeFileSync(w("results.json"), JSON.stringify({ started, loadBefore, loadAfter, commitMs,
                                                     build, openMs, appendMs, bigBytes, opt }));

const f = (x, d = 2) => x.toFixed(d);
console.log(`\nTable benchmark, ${started}, load ${loadBefore} before, ${loadAfter} after`);
console.log(`data: small ${opt["small-rows"]} rows; big ${opt["big-rows"]} rows = ` +
            `${f(bigBytes / 1e6, 1)} MB Arrow IPC; reps ${reps}\n`);
console.log("| measurement | lance-nd median (best) | Lance 12 median (best) | ratio Lance/lance-nd |");
console.log("|---|---|---|---|");
const row = (name, a, b, unit, higherBetter = false) => {
  const ratio = higherBetter ? median(a) / median(b) : median(b) / median(a);
  const best = higherBetter ? (xs) => Math.max(...xs) : min;
  console.log(`| ${name} | ${f(median(a))} ${unit} (${f(best(a))}) | ` +
              `${f(median(b))} ${unit} (${f(best(b))}) | ${f(ratio)}x |`);
};
row(`commit latency, append ${opt["small-rows"]} rows (${commitMs["lance-nd"].length} samples)`,
    commitMs["lance-nd"], commitMs.lance, "ms");
console.log(`| build ${opt.versions} versions (total) | ${f(build["lance-nd"] / 1000)} s | ` +
            `${f(build.lance / 1000)} s | ${f(build.lance / build["lance-nd"])}x |`);
for (const t of engines) {
  row(`open ${opt.versions}-version table written by ${t}`, openMs[`lance-nd opens ${t}'s`],
      openMs[`lance opens ${t}'s`], "ms");
}
const mbps = (xs) => xs.map((m) => bigBytes / 1e6 / (m / 1000));
row(`append throughput, ${opt["big-rows"]} rows per commit`, mbps(appendMs["lance-nd"]),
    mbps(appendMs.lance), "MB/s", true);
console.log("\n(ratio > 1: lance-nd is faster)");
if (problems.length) {
  console.log("\nPROBLEMS:\n" + problems.join("\n"));
  process.exit(1);
}
