// Lance 12's side of scripts/bench-table.mjs (LanceDB 0.39; see bench/table/README.md). Same
// subcommands and JSON as lance_nd_table_bench_tool; TABLE is "<db dir>/<name>.lance".
//   node lance_table_bench.mjs commit SMALL.arrow TABLE N     createTable, then N timed add()
//   node lance_table_bench.mjs versions SMALL.arrow TABLE N   createTable + N-1 add()
//   node lance_table_bench.mjs open TABLE REPS                timed openTable + countRows
//   node lance_table_bench.mjs append SMALL.arrow BIG.arrow TABLE K   createTable, K timed add()
// The IPC input is loaded before timing; only the LanceDB calls are timed.
import { createRequire } from "node:module";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.resolve(here, "../../interop/package.json"));
const arrow = require("apache-arrow");
const lancedb = require("@lancedb/lancedb");

const load = (p) => arrow.tableFromIPC(fs.readFileSync(p));
const split = (t) => ({ db: path.dirname(path.resolve(t)),
  name: path.basename(t).replace(/\.lance$/, "") });
const ms = (t0) => Number(process.hrtime.bigint() - t0) / 1e6;
const now = () => process.hrtime.bigint();
const opts = { mode: "overwrite", storageOptions: { new_table_data_storage_version: "2.2" } };

async function appends(table, first, each, n, times) {
  const { db: dir, name } = split(table);
  fs.rmSync(path.resolve(table), { recursive: true, force: true });
  const db = await lancedb.connect(dir);
  const tbl = await db.createTable(name, first, opts);
  for (let i = 0; i < n; ++i) {
    const t0 = now();
    await tbl.add(each);
    if (times) times.push(ms(t0));
  }
  return tbl;
}

const [cmd, ...a] = process.argv.slice(2);
if (cmd === "commit" || cmd === "versions") {
  const small = load(a[0]);
  const n = Number(a[2]);
  const times = [];
  const t0 = now();
  await appends(a[1], small, small, cmd === "commit" ? n : n - 1, times);
  console.log(JSON.stringify({ op: cmd, total_ms: ms(t0), ms: cmd === "commit" ? times : [] }));
} else if (cmd === "open") {
  const { db: dir, name } = split(a[0]);
  const times = [];
  let version = 0, rows = 0;
  for (let i = 0; i < Number(a[1]); ++i) {
    const db = await lancedb.connect(dir);  // fresh connection: no dataset cache
    const t0 = now();
    const tbl = await db.openTable(name);
    rows = await tbl.countRows();
    times.push(ms(t0));
    version = await tbl.version();
    tbl.close();
  }
  console.log(JSON.stringify({ op: "open", version, rows, ms: times }));
} else if (cmd === "append") {
  const small = load(a[0]);
  const big = load(a[1]);
  const times = [];
  const tbl = await appends(a[2], small, big, Number(a[3]), times);
  console.log(JSON.stringify({ op: "append", rows: await tbl.countRows(), ms: times }));
} else {
  console.error("usage: see the header of lance_table_bench.mjs");
  process.exit(2);
}
