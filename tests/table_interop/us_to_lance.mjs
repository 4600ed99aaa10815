// Table interop, lance-nd -> Lance 12: lance-nd builds a table step by step (create, append,
// evolve with a new top-level field and a new struct child, append with them, delete, compact,
// restore, tag, an append streamed through one TableWriter in many writes). After EACH step, on a copy of the table, LanceDB opens it, reads every version
// and tag (equal to lance-nd's reading, row for row), filters with `where`, then appends,
// deletes and compacts (optimize) on top of it; lance-nd reads the result back and every version
// must again equal LanceDB's reading.
//
//   node us_to_lance.mjs --tool PATH/table_interop_tool --work DIR
import fs from "node:fs";
import path from "node:path";
import {
  compareEveryVersion, firstDifference, freshDir, lancedb, makeTable, ourTable, parseArgs, rowsOf,
  tool, Unavailable, writeIpc,
} from "./common.mjs";
import { baseSchema, evolvedSchema, rowsFor } from "./rows.mjs";

const opt = parseArgs(["tool", "work"]);
const work = freshDir(path.resolve(opt.work));
const tableDir = path.join(work, "ours", "t.lance");
fs.mkdirSync(path.dirname(tableDir), { recursive: true });
let comparisons = 0;

// Every version and tag of the table at `dir`: LanceDB's reading == ours (ours the reference).
async function compareVersions(tbl, dir, step) {
  const r = await compareEveryVersion(tbl, opt.tool, dir, work, step, "ours");
  comparisons += r.comparisons;
  return r.versions;
}

async function checkWithLance(step) {
  const copyDb = freshDir(path.join(work, `check_${step.replace(/[^a-z0-9]+/gi, "_")}`));
  fs.cpSync(tableDir, path.join(copyDb, "t.lance"), { recursive: true });
  const dir = path.join(copyDb, "t.lance");
  const db = await lancedb.connect(copyDb);
  const tbl = await db.openTable("t");
  const n = await compareVersions(tbl, dir, step);

  // A filter on our table, against our rows filtered here.
  const latest = rowsOf(ourTable(opt.tool, dir, work));
  const wanted = latest.filter((r) => { const id = Number(r.id.slice(0, -1)); return id >= 5 && id < 17; });
  const filtered = rowsOf(await tbl.query().where("id >= 5 AND id < 17").toArrow());
  const problem = firstDifference(wanted, filtered, `${step}: where id >= 5 AND id < 17`);
  if (problem) throw new Error(problem);
  if (await tbl.countRows() !== latest.length) throw new Error(`${step}: countRows differs`);

  // Lance writes on top of our table; we read every version back.
  const schema = await tbl.schema();
  await tbl.add(makeTable(schema, rowsFor(schema, 100, 4)));
  await tbl.delete("id = 101");
  await tbl.optimize();
  const m = await compareVersions(tbl, dir, `${step} + Lance add/delete/optimize`);
  console.log(`OK ${step}: Lance read ${n} versions; after its add/delete/optimize ${m} versions equal`);
}

function rowAddresses(ids) {
  const t = ourTable(opt.tool, tableDir, work, { rowaddr: true });
  const idCol = t.getChild("id");
  const addrCol = t.getChild("_rowaddr");
  const out = [];
  for (let i = 0; i < t.numRows; ++i) {
    if (ids.includes(Number(idCol.get(i)))) out.push(String(addrCol.get(i)));
  }
  if (out.length !== ids.length) throw new Error(`row addresses of ids ${ids}: found ${out.length}`);
  return out;
}

const ipc = (name, schema, rows) => writeIpc(path.join(work, `${name}.arrow`), makeTable(schema, rows));
const steps = [
  ["create", () => tool(opt.tool, ["create", tableDir, ipc("create", baseSchema, rowsFor(baseSchema, 0, 10))])],
  ["append", () => tool(opt.tool, ["append", tableDir, ipc("append", baseSchema, rowsFor(baseSchema, 10, 5))])],
  ["evolve", () => tool(opt.tool, ["evolve", tableDir, ipc("evolve", evolvedSchema, [])])],
  ["append with the new fields", () => tool(opt.tool, ["append", tableDir, ipc("append2", evolvedSchema, rowsFor(evolvedSchema, 15, 6))])],
  ["delete", () => tool(opt.tool, ["delete", tableDir, ...rowAddresses([3, 12, 16])])],
  ["compact", () => tool(opt.tool, ["compact", tableDir])],
  ["restore", () => tool(opt.tool, ["restore", tableDir, "3"])],
  ["tag", () => tool(opt.tool, ["tag", tableDir, "two", "2"])],
  // One TableWriter: 13 rows in 7 writes of at most 2 rows, data files cut every 3 rows.
  ["streamed append", () => tool(opt.tool, ["stream", "append", tableDir, ipc("stream", evolvedSchema, rowsFor(evolvedSchema, 30, 13)), "2", "3"])],
];

const unavailable = [];
for (const [name, run] of steps) {
  try {
    console.log(`${name}: ${run()}`);
  } catch (e) {
    if (!(e instanceof Unavailable)) throw e;
    unavailable.push(e.message);  // skip the step, run the others
    continue;
  }
  await checkWithLance(name);
}
if (unavailable.length > 0) {
  console.error(`FAIL: lance-nd cannot run every step yet:\n  ${unavailable.join("\n  ")}`);
  process.exit(1);
}
console.log(`OK us_to_lance: ${steps.length} steps, ${comparisons} version/tag comparisons`);
