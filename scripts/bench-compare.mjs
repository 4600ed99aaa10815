#!/usr/bin/env node
// Compare lance-nd's Lance file writer/reader with Lance 12 (LanceDB 0.39 in Node) on the same
// data, in one run: write MB/s, full-scan MB/s, take of 200 random rows. See bench/README.md.
//
//   node scripts/bench-compare.mjs [--build build/h-bench] [--rows 2000] [--reps 3]
//                                  [--work BUILD/bench_work] [--threads 2] [--version 2.2]
//
// 1. lance_nd_bench_tool gen writes the nd grids (plain and zstd) once as Arrow IPC files,
//    plus the 200 take rows; both engines ingest exactly those bytes.
// 2. Per variant: one untimed warm-up per engine, then --reps runs alternating the order
//    (lance-nd first on even runs, Lance 12 first on odd ones); each run is one process.
// 3. Checksums (double sums of the values) must agree across engines and with the input.
// 4. Prints medians (and min) in MB/s of raw float32 values, ratios lance-nd / Lance 12.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const opt = { build: "build/h-bench", rows: "2000", reps: "3", work: "",
              threads: "2", version: "2.2" };
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i += 2) opt[argv[i].replace(/^--/, "")] = argv[i + 1];
// The data and both engines' tables go to the build tree unless --work says otherwise.
opt.work ||= path.resolve(root, opt.build, "bench_work");
const tool = path.resolve(root, opt.build, "bench/lance_nd_bench_tool");
if (!fs.existsSync(tool)) {
  throw new Error(`${tool} not found; build it: cmake --preset release (or your own build dir ` +
                  `with -DLANCE_ND_BUILD_BENCHMARKS=ON) and pass --build DIR`);
}
const rows = Number(opt.rows);
const reps = Number(opt.reps);
const cellBytes = 90 * 180 * 4;
const uptime = () => fs.readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");

fs.mkdirSync(opt.work, { recursive: true });
const loadBefore = uptime();
const started = new Date().toISOString();
execFileSync(tool, ["gen", opt.work, String(rows)], { stdio: "inherit" });
const rowsFile = path.join(opt.work, "take_rows.txt");

function runOurs(ipc) {
  const out = execFileSync(tool, ["run", ipc, path.join(opt.work, "ours.lance"), rowsFile,
                                  opt.threads], { encoding: "utf8" });
  return JSON.parse(out.trim().split("\n").pop());
}
function runLance(ipc) {
  const out = execFileSync(process.execPath,
                           [path.join(root, "bench/lance_bench.mjs"), "--ipc", ipc,
                            "--db", path.join(opt.work, "lancedb"), "--rows", rowsFile,
                            "--version", opt.version], { encoding: "utf8" });
  return JSON.parse(out.trim().split("\n").pop());
}

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1;
                         return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };
const close = (a, b) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));

const results = {};
const problems = [];
for (const variant of ["plain", "zstd"]) {
  const ipc = path.join(opt.work, variant === "zstd" ? "grids_zstd.arrow" : "grids.arrow");
  runOurs(ipc); runLance(ipc);  // warm-up (page cache, code), not counted
  const ours = []; const lance = [];
  for (let r = 0; r < reps; ++r) {
    if (r % 2 === 0) { ours.push(runOurs(ipc)); lance.push(runLance(ipc)); }
    else { lance.push(runLance(ipc)); ours.push(runOurs(ipc)); }
  }
  for (const x of [...ours, ...lance]) {
    if (x.scan_rows !== rows || x.take_rows !== 200) {
      problems.push(`${variant} ${x.engine}: ${x.scan_rows} scanned / ${x.take_rows} taken rows, expected ${rows} / 200`);
    }
    if (!close(x.scan_sum, ours[0].input_sum)) problems.push(`${variant} ${x.engine}: scan checksum ${x.scan_sum} != input ${ours[0].input_sum}`);
    if (!close(x.take_sum, ours[0].take_sum)) problems.push(`${variant} ${x.engine}: take checksum ${x.take_sum} != lance-nd ${ours[0].take_sum}`);
  }
  results[variant] = { ours, lance };
}
const loadAfter = uptime();

const bytes = { write: rows * cellBytes, scan: rows * cellBytes, take: 200 * cellBytes };
const targets = { write: 4, scan: 3, take: 3 };
const lines = [];
lines.push(`lance-nd vs Lance 12 (LanceDB 0.39), file version ${opt.version}, ${rows} rows of 1x90x180 float32 ` +
           `(${(bytes.scan / 1e6).toFixed(1)} MB), ${reps} alternating runs + 1 warm-up, lance-nd threads ${opt.threads}`);
lines.push(`started ${started}; load average before ${loadBefore}, after ${loadAfter}`);
lines.push("");
lines.push("| variant | op | lance-nd MB/s (median, best) | Lance 12 MB/s (median, best) | ratio (median) | target | met |");
lines.push("|---|---|---|---|---|---|---|");
for (const variant of Object.keys(results)) {
  const { ours, lance } = results[variant];
  for (const op of ["write", "scan", "take"]) {
    const mbs = (xs) => xs.map((x) => bytes[op] / 1e6 / x[`${op}_s`]);
    const o = mbs(ours); const l = mbs(lance);
    const ratio = median(o) / median(l);
    lines.push(`| ${variant} | ${op} | ${median(o).toFixed(0)} (${Math.max(...o).toFixed(0)}) | ` +
               `${median(l).toFixed(0)} (${Math.max(...l).toFixed(0)}) | ${ratio.toFixed(2)}x | ` +
               `≥${targets[op]}x | ${ratio >= targets[op] ? "yes" : "no"} |`);
  }
  lines.push(`| ${variant} | file size | ${(ours[0].file_bytes / 1e6).toFixed(1)} MB | ` +
             `${(lance[0].file_bytes / 1e6).toFixed(1)} MB | | | |`);
}
lines.push("");
lines.push(problems.length ? `CHECKSUM/ROW PROBLEMS:\n  ${problems.join("\n  ")}` :
                             "checksums: scan and take sums agree across engines and with the input");
console.log(lines.join("\n"));
fs.writeFileSync(path.join(opt.work, "results.json"),
                 JSON.stringify({ started, loadBefore, loadAfter, opt, results, problems }, null, 1));
process.exitCode = problems.length ? 1 : 0;
