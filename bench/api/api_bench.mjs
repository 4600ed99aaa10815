#!/usr/bin/env node
// The facade benchmarks, lance-nd against Lance 12 (LanceDB 0.39) in one run, side by side
// (bench/api/README.md):
//
//   node bench/api/api_bench.mjs [--build build/release] [--rows 100000] [--grid-rows 2000]
//                                [--reps 3] [--work BUILD/api_bench_work]
//
// 1. lance_nd_api_bench_tool gen: the rows (encoded, as Arrow IPC for LanceDB), the filter
//    table with and without stats and the grid table, all written by lance-nd, untimed.
// 2. Ingest: one untimed warm-up per engine, then --reps single-process runs alternating which
//    engine goes first: NdWriter with stats vs createTable of the same encoded rows.
// 3. Filter and prune on the filter table, grid scan: each engine in its own process, one
//    warm-up then --reps timed scans (table opened each time); LanceDB reads lance-nd's tables.
// Row counts are checked; the load average is printed with each section.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../..");
const opt = { build: "build/release", rows: "100000", "grid-rows": "2000", reps: "3", work: "" };
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i += 2) opt[argv[i].replace(/^--/, "")] = argv[i + 1];
opt.work ||= path.resolve(root, opt.build, "api_bench_work");
const tool = path.resolve(root, opt.build, "bench/api/lance_nd_api_bench_tool");
if (!fs.existsSync(tool)) throw new Error(`${tool} not found: cmake --preset release && cmake --build build/release --target lance_nd_api_bench_tool`);
const rows = Number(opt.rows);
const gridRows = Number(opt["grid-rows"]);
const reps = Number(opt.reps);
const kFilter = "__global_attrs__.group = 42";
const kPrune = "sst.values > 99.5";
const load = () => fs.readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");

const json = (out) => JSON.parse(out.trim().split("\n").pop());
const ours = (...a) => json(execFileSync(tool, a.map(String), { encoding: "utf8", maxBuffer: 1 << 26 }));
const lance = (...a) => json(execFileSync(process.execPath, [path.join(here, "lance_api_bench.mjs"), ...a.map(String)],
  { encoding: "utf8", maxBuffer: 1 << 26 }));
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };
const best = (xs) => Math.min(...xs);
const ms = (xs) => `${(median(xs) * 1e3).toFixed(1)} ms (${(best(xs) * 1e3).toFixed(1)})`;

fs.mkdirSync(opt.work, { recursive: true });
const problems = [];
const expect = (what, got, want) => { if (got !== want) problems.push(`${what}: ${got} rows, expected ${want}`); };
const lines = [];
const started = new Date().toISOString();
const loads = { start: load() };

const faultCost = ours("fault-cost");
ours("gen", opt.work, rows, gridRows);
loads.gen = load();

// Ingest.
const ipc = path.join(opt.work, "filter_rows.arrow");
const lanceDb = path.join(opt.work, "lance_ingest");
ours("ingest", opt.work, rows); ours("ingest-encoded", opt.work); lance("ingest", ipc, lanceDb);  // warm-up
const ingest = { ours: [], encoded: [], lance: [] };
for (let r = 0; r < reps; ++r) {
  const runs = [() => ingest.ours.push(ours("ingest", opt.work, rows)),
    () => ingest.encoded.push(ours("ingest-encoded", opt.work)),
    () => ingest.lance.push(lance("ingest", ipc, lanceDb))];
  if (r % 2) runs.reverse();
  runs.forEach((f) => f());
}
for (const x of [...ingest.ours, ...ingest.encoded, ...ingest.lance]) expect("ingest", x.rows, rows);
loads.ingest = load();

// Filter, prune, full scan.
const f = ours("filter", opt.work, reps, kFilter, kPrune);
const lf = lance("filter", path.join(opt.work, "filter.lance"), reps, kFilter);
expect("lance-nd filter", f.filter_rows, rows / 100);
expect("Lance filter", lf.filter_rows, rows / 100);
expect("lance-nd filter count", f.filter_count_rows, rows / 100);
expect("lance-nd full scan", f.full_rows, rows);
expect("Lance full scan", lf.full_rows, rows);
expect("prune without stats", f.prune_nostats_rows, rows);
if (!(f.prune_stats_rows < rows / 20)) problems.push(`prune with stats kept ${f.prune_stats_rows} rows`);
loads.filter = load();

// Grid scan.
const g = ours("grid", opt.work, reps);
const lg = lance("scan", path.join(opt.work, "grid.lance"), reps);
expect("lance-nd grid scan", g.scan_rows, gridRows);
expect("lance-nd grid stream", g.stream_rows, gridRows);
expect("Lance grid scan", lg.scan_rows, gridRows);
loads.grid = load();

const gridBytes = gridRows * 90 * 180 * 4;
const s = (x) => x.map((v) => v.ingest_s);
const ratio = (a, b) => median(a) / median(b);
const row = (what, o, l, r, target) => lines.push(`| ${what} | ${o} | ${l} | ${r.toFixed(2)}x | ${target ?? ""} | ${target ? (r >= Number(target.replace(/[^0-9.]/g, "")) ? "yes" : "no") : ""} |`);
lines.push(`lance-nd facade vs Lance 12 (LanceDB 0.39): ${rows} rows (sst 1x4x4 float32, globals id/group/source), ` +
  `grid ${gridRows} x 1x90x180 float32 (${(gridBytes / 1e6).toFixed(1)} MB); medians of ${reps} runs (best in brackets)`);
lines.push(`started ${started}; load average: start ${loads.start}, after gen ${loads.gen}, ingest ${loads.ingest}, filter ${loads.filter}, grid ${loads.grid}`);
lines.push(`fresh memory on this machine: ${faultCost.small_pages_ms_per_mb.toFixed(3)} ms/MB with 4 KiB pages, ${faultCost.huge_pages_ms_per_mb.toFixed(3)} ms/MB with huge pages; ` +
  `page faults of the encoded ingest: ${median(ingest.encoded.map((v) => v.minor_faults))} (median)`);
lines.push("");
lines.push("| measurement | lance-nd | Lance 12 | ratio | target | met |");
lines.push("|---|---|---|---|---|---|");
row(`exact filter \`${kFilter}\` (${f.filter_rows} rows) vs Lance where()`, ms(f.filter_s), ms(lf.filter_s), ratio(lf.filter_s, f.filter_s), "≥3x");
row("exact filter: selection only (CountRows) vs ReadAll", `${ms(f.filter_count_s)} vs ${ms(f.filter_s)}`, "", ratio(f.filter_s, f.filter_count_s));
row("exact filter vs lance-nd full scan", `${ms(f.filter_s)} vs ${ms(f.full_s)}`, "", ratio(f.full_s, f.filter_s), "≥10x");
row(`full scan (${rows} rows)`, ms(f.full_s), ms(lf.full_s), ratio(lf.full_s, f.full_s));
row(`prune \`${kPrune}\`: stats (${f.prune_stats_rows} rows) vs no stats (${f.prune_nostats_rows} rows)`,
  `${ms(f.prune_stats_s)} vs ${ms(f.prune_nostats_s)}`, "", ratio(f.prune_nostats_s, f.prune_stats_s));
row(`ingest ${rows} encoded rows: NdWriter::WriteEncoded (stats on) vs createTable of the same batch`, ms(s(ingest.encoded)), ms(s(ingest.lance)), ratio(s(ingest.lance), s(ingest.encoded)), "≥3x");
row(`ingest ${rows} rows: NdWriter::Write of nd record batches (stats on) vs createTable`, ms(s(ingest.ours)), ms(s(ingest.lance)), ratio(s(ingest.lance), s(ingest.ours)));
const gbs = (xs) => gridBytes / 1e9 / median(xs);
row("grid scan to nd record batches, ReadAll (Lance: toArrow)", `${gbs(g.scan_s).toFixed(2)} GB/s, ${ms(g.scan_s)}`, `${gbs(lg.scan_s).toFixed(2)} GB/s, ${ms(lg.scan_s)}`, ratio(lg.scan_s, g.scan_s));
row("grid scan to nd record batches, streamed (Next, rows dropped)", `${gbs(g.stream_s).toFixed(2)} GB/s, ${ms(g.stream_s)}`, `${gbs(lg.scan_s).toFixed(2)} GB/s, ${ms(lg.scan_s)}`, ratio(lg.scan_s, g.stream_s));
for (const [what, xs] of [["ReadAll", g.scan_s], ["streamed", g.stream_s]]) {
  lines.push(`| grid scan absolute, ${what} | ${gbs(xs).toFixed(2)} GB/s (best ${(gridBytes / 1e9 / best(xs)).toFixed(2)}) | | | ≥1 GB/s | ${gbs(xs) >= 1 ? "yes" : "no"} |`);
}
lines.push("");
lines.push(problems.length ? `ROW COUNT PROBLEMS:\n  ${problems.join("\n  ")}` : "row counts: as expected for both engines");
console.log(lines.join("\n"));
fs.writeFileSync(path.join(opt.work, "results.json"), JSON.stringify({ started, loads, faultCost, opt, ingest, f, lf, g, lg, problems }, null, 1));
process.exitCode = problems.length ? 1 : 0;
