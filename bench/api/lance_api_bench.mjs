// Lance 12's side of bench/api/api_bench.mjs: LanceDB 0.39 (Rust engine plus its N-API/JS
// Arrow hand-over) on the same rows and tables. Prints one JSON object.
//
//   node lance_api_bench.mjs ingest IN.arrow DB
//       one timed createTable (file format 2.2) of the encoded rows of IN.arrow (loaded first).
//   node lance_api_bench.mjs filter TABLE REPS FILTER
//       per rep (after one warm-up): openTable on a fresh connection + query().where(FILTER)
//       .toArrow(), and the same without the filter (full scan).
//   node lance_api_bench.mjs scan TABLE REPS
//       per rep (after one warm-up): openTable + query().toArrow().
import { createRequire } from "node:module";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.resolve(here, "../../interop/package.json"));
const arrow = require("apache-arrow");
const lancedb = require("@lancedb/lancedb");

const seconds = (t0) => Number(process.hrtime.bigint() - t0) / 1e9;

async function open(table) {
  const db = await lancedb.connect(path.dirname(table));
  return db.openTable(path.basename(table).replace(/\.lance$/, ""));
}

/** `reps` timings of `run` (returning an Arrow table) after one warm-up, and its row count. */
async function series(reps, run) {
  const warm = await run();
  const out = [];
  for (let r = 0; r < reps; ++r) {
    const t0 = process.hrtime.bigint();
    await run();
    out.push(seconds(t0));
  }
  return { s: out, rows: warm.numRows };
}

const [cmd, ...args] = process.argv.slice(2);
if (cmd === "ingest") {
  const [ipc, dbDir] = args;
  const input = arrow.tableFromIPC(fs.readFileSync(ipc));
  fs.rmSync(dbDir, { recursive: true, force: true });
  const db = await lancedb.connect(dbDir);
  const t0 = process.hrtime.bigint();
  const tbl = await db.createTable("ingest", input, {
    mode: "overwrite", storageOptions: { new_table_data_storage_version: "2.2" },
  });
  const s = seconds(t0);
  console.log(JSON.stringify({ ingest_s: s, rows: await tbl.countRows() }));
} else if (cmd === "filter") {
  const [table, reps, filter] = args;
  const full = await series(Number(reps), async () => (await open(table)).query().toArrow());
  const where = await series(Number(reps), async () => (await open(table)).query().where(filter).toArrow());
  console.log(JSON.stringify({ full_s: full.s, full_rows: full.rows, filter_s: where.s, filter_rows: where.rows }));
} else if (cmd === "scan") {
  const [table, reps] = args;
  const scan = await series(Number(reps), async () => (await open(table)).query().toArrow());
  console.log(JSON.stringify({ scan_s: scan.s, scan_rows: scan.rows }));
} else {
  throw new Error("usage: lance_api_bench.mjs ingest IN.arrow DB | filter TABLE REPS FILTER | scan TABLE REPS");
}
