// Lance 12's side of scripts/bench-compare.mjs: one timed run of LanceDB 0.39 (Lance 12, Rust
// engine plus N-API/JS Arrow overhead) on the same Arrow IPC data lance-nd ingests.
//
//   node lance_bench.mjs --ipc IN.arrow --db DIR --rows ROWS.txt --version 2.2
//
// Timed: createTable (the write), query().toArrow() (full scan), takeOffsets(rows).toArrow().
// Loading the IPC and computing checksums are not timed. Prints one JSON object.
import { createRequire } from "node:module";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.resolve(here, "../interop/package.json"));
const arrow = require("apache-arrow");
const lancedb = require("@lancedb/lancedb");

const opt = {};
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i += 2) opt[argv[i].replace(/^--/, "")] = argv[i + 1];
for (const k of ["ipc", "db", "rows", "version"]) {
  if (!opt[k]) throw new Error(`missing --${k}`);
}

// Sum (double, row order) of the float values of nd column `name`: same checksum as lance-nd's.
function sumNdValues(table, name) {
  let sum = 0;
  const col = table.getChild(name);
  for (const s of col.data) {
    const idx = s.type.children.findIndex((f) => f.name === "values");
    const l = s.children[idx];
    const items = l.children[0];
    const begin = l.valueOffsets[l.offset];
    const end = l.valueOffsets[l.offset + l.length];
    const v = items.values;
    for (let i = begin; i < end; ++i) sum += v[items.offset + i];
  }
  return sum;
}

function duBytes(dir) {
  let total = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) total += duBytes(p);
    else if (e.name.endsWith(".lance")) total += fs.statSync(p).size;
  }
  return total;
}

const input = arrow.tableFromIPC(fs.readFileSync(opt.ipc));
const name = input.schema.fields[0].name;
const rows = fs.readFileSync(opt.rows, "utf8").split(/\s+/).filter(Boolean).map(Number);
const inputSum = sumNdValues(input, name);

fs.rmSync(opt.db, { recursive: true, force: true });
const db = await lancedb.connect(opt.db);

let t0 = process.hrtime.bigint();
const tbl = await db.createTable("bench", input, {
  mode: "overwrite",
  storageOptions: { new_table_data_storage_version: opt.version },
});
const writeS = Number(process.hrtime.bigint() - t0) / 1e9;

t0 = process.hrtime.bigint();
const all = await tbl.query().toArrow();
const scanS = Number(process.hrtime.bigint() - t0) / 1e9;

t0 = process.hrtime.bigint();
const taken = await tbl.takeOffsets(rows).toArrow();
const takeS = Number(process.hrtime.bigint() - t0) / 1e9;

console.log(JSON.stringify({
  engine: "lance12",
  write_s: writeS, scan_s: scanS, take_s: takeS,
  rows: await tbl.countRows(), scan_rows: all.numRows, take_rows: taken.numRows,
  file_bytes: duBytes(path.join(opt.db, "bench.lance", "data")),
  input_sum: inputSum, scan_sum: sumNdValues(all, name), take_sum: sumNdValues(taken, name),
}));
