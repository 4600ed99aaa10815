// Stable row ids (feature flag 2) against Lance 12 (LanceDB 0.39). LanceDB creates a table with
// stable row ids; a copy is made. Then each step is done by lance-nd on the original and by
// LanceDB on the copy: append, delete, append, compact, delete, an append of ours planned
// before a LanceDB append and committed after it (rebased), a last append, an overwrite, a new
// column.
// Part 2: lance-nd creates a table with stable row ids, LanceDB appends and deletes on it, we
// compact. Part 3: 4000 rows, deletes that make compaction write bitmap and holes segments.
// After every step:
//  - both tables have the same versions, next_row_id and flags;
//  - LanceDB reads every version of our table with `_rowid` exactly as it reads the same
//    version of its copy (ids and row ids, in scan order);
//  - lance-nd reads `_rowid` of every version of both tables exactly as LanceDB does (so we read
//    what LanceDB wrote, and what we wrote, the same way it does);
//  - every fragment stores the same row-id segments and created_at / last_updated_at versions,
//    encoded to the same bytes.
//
//   node rowids_interop.mjs --tool PATH/rowids_tool --work DIR
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import {
  arrow, freshDir, lancedb, makeTable, parseArgs, storageOptions, writeIpc,
} from "../../interop/lance_oracle.mjs";

const opt = parseArgs(["tool", "work"]);
const work = freshDir(path.resolve(opt.work));
const { Field, Int32, Schema } = arrow;
const schema = new Schema([new Field("id", new Int32(), false), new Field("v", new Int32(), true)]);
const rows = (from, n) => Array.from({ length: n }, (_, i) => ({ id: from + i, v: (from + i) * 3 }));
const data = (from, n) => makeTable(schema, rows(from, n));
let files = 0;
const ipc = (from, n) => writeIpc(path.join(work, `in_${files++}.arrow`), data(from, n));

function tool(args) {
  try {
    return execFileSync(opt.tool, args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();
  } catch (e) {
    throw new Error(`rowids_tool ${args.join(" ")} failed (exit ${e.status}):\n${e.stderr}${e.stdout}`);
  }
}

const oursDb = path.join(work, "ours");
const lanceDb = path.join(work, "lance");
const ours = path.join(oursDb, "t.lance");
const theirs = path.join(lanceDb, "t.lance");
const oursDefault = ours;
const theirsDefault = theirs;

// LanceDB creates the table (stable row ids, 2 fragments), then the copy.
{
  const db = await lancedb.connect(oursDb);
  const t = await db.createTable("t", data(0, 100), {
    mode: "create", schema,
    storageOptions: { ...storageOptions, new_table_enable_stable_row_ids: "true" },
  });
  await t.add(data(100, 50));
}
fs.cpSync(oursDb, lanceDb, { recursive: true });
const lanceTbl = await (await lancedb.connect(lanceDb)).openTable("t");

async function lanceRead(dir, version) {
  const t = await (await lancedb.connect(path.dirname(dir))).openTable("t");
  await t.checkout(version);
  const res = await t.query().withRowId(true).toArray();
  return { ids: res.map((r) => Number(r.id)), rowids: res.map((r) => Number(r._rowid)) };
}

async function versionsOf(dir) {
  const t = await (await lancedb.connect(path.dirname(dir))).openTable("t");
  return (await t.listVersions()).map((v) => v.version);
}

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
function firstDiff(what, a, b) {
  for (let i = 0; i < Math.max(a.ids.length, b.ids.length); ++i) {
    if (a.ids[i] !== b.ids[i] || a.rowids[i] !== b.rowids[i]) {
      return `${what}: row ${i}: (id ${a.ids[i]}, _rowid ${a.rowids[i]}) vs (id ${b.ids[i]}, _rowid ${b.rowids[i]}); ${a.ids.length} vs ${b.ids.length} rows`;
    }
  }
  return `${what}: differ`;
}

let comparisons = 0;
async function check(step, ours = oursDefault, theirs = theirsDefault) {
  const vo = await versionsOf(ours);
  const vt = await versionsOf(theirs);
  if (!same(vo, vt)) throw new Error(`${step}: versions differ: lance-nd's table ${vo}, Lance's ${vt}`);
  for (const v of vo) {
    const lo = await lanceRead(ours, v);  // LanceDB reading our table
    const lt = await lanceRead(theirs, v);  // LanceDB reading its own
    if (!same(lo, lt)) throw new Error(`${step}, version ${v}: ` + firstDiff("LanceDB reading ours vs its copy", lt, lo));
    const ro = JSON.parse(tool(["dump", ours, String(v)]));
    const rt = JSON.parse(tool(["dump", theirs, String(v)]));
    if (!same({ ids: ro.ids, rowids: ro.rowids }, lo)) {
      throw new Error(`${step}, version ${v}: ` + firstDiff("LanceDB vs lance-nd reading our table", lo, ro));
    }
    if (!same({ ids: rt.ids, rowids: rt.rowids }, lt)) {
      throw new Error(`${step}, version ${v}: ` + firstDiff("LanceDB vs lance-nd reading Lance's table", lt, rt));
    }
    if (ro.next_row_id !== rt.next_row_id || ro.flags !== rt.flags) {
      throw new Error(`${step}, version ${v}: next_row_id / reader flags: ours ${ro.next_row_id} / ${ro.flags}, Lance's ${rt.next_row_id} / ${rt.flags}`);
    }
    if ((ro.flags & 2) === 0) throw new Error(`${step}, version ${v}: flag 2 (stable row ids) missing`);
    // The stored metadata: fragment ids and sizes, row-id segments (Lance's segment boundaries),
    // the created_at / last_updated_at version runs, and their encoded bytes (segment forms).
    if (!same(ro.fragments, rt.fragments)) {
      for (let i = 0; i < Math.max(ro.fragments.length, rt.fragments.length); ++i) {
        if (!same(ro.fragments[i], rt.fragments[i])) {
          const show = (f) => JSON.stringify(f).slice(0, 2000);
          throw new Error(`${step}, version ${v}: fragment ${i} differs:\n  Lance's: ${show(rt.fragments[i])}\n  ours:    ${show(ro.fragments[i])}`);
        }
      }
    }
    comparisons += 4;
  }
  const last = JSON.parse(tool(["dump", ours, String(vo[vo.length - 1])]));
  console.log(`${step}: ${vo.length} versions equal; latest ${last.ids.length} rows, next_row_id ${last.next_row_id}`);
  return last;
}

// The comparison can fail: a planted difference in the row ids is caught.
{
  const lt = await lanceRead(theirs, 2);
  const planted = { ids: lt.ids, rowids: lt.rowids.map((r, i) => (i === 7 ? r + 1 : r)) };
  if (same(lt, planted)) throw new Error("the planted row-id difference was not detected");
}
await check("created by LanceDB");

const idsWhere = (last, pred) => last.ids.filter(pred).map(String);
let last;

tool(["append", ours, ipc(150, 30)]);
await lanceTbl.add(data(150, 30));
last = await check("append 30");

tool(["delete-ids", ours, ...idsWhere(last, (id) => id % 5 === 0)]);
await lanceTbl.delete("id % 5 = 0");
last = await check("delete id % 5 = 0");

tool(["append", ours, ipc(180, 10)]);
await lanceTbl.add(data(180, 10));
last = await check("append 10");

tool(["compact", ours]);
await lanceTbl.optimize();
last = await check("compact");
// After compaction row ids are not positions any more (deleted ids stay unused).
if (same(last.rowids, last.rowids.map((_, i) => i))) throw new Error("compaction renumbered row ids");

tool(["delete-ids", ours, ...idsWhere(last, (id) => id >= 170 && id < 175)]);
await lanceTbl.delete("id >= 170 AND id < 175");
last = await check("delete 170..174");

// Race: our append is planned, LanceDB appends to our table, then ours commits (rebased: its
// rows get ids after LanceDB's). On the copy LanceDB does the two appends in that order.
const plan = path.join(work, "append.plan");
tool(["plan-append", ours, ipc(200, 5), plan]);
await (await (await lancedb.connect(oursDb)).openTable("t")).add(data(210, 7));
tool(["commit-plan", ours, plan]);
await lanceTbl.add(data(210, 7));
await lanceTbl.add(data(200, 5));
last = await check("rebased append");

tool(["append", ours, ipc(300, 3)]);
await lanceTbl.add(data(300, 3));
last = await check("append after the race");

// An overwrite keeps counting row ids (the table keeps flag 2).
tool(["overwrite", ours, ipc(400, 6)]);
await lanceTbl.add(data(400, 6), { mode: "overwrite" });
last = await check("overwrite");

// A new (all-null) column: a Merge that keeps every fragment and its row ids.
tool(["add-column", ours, "extra"]);
await lanceTbl.addColumns([new Field("extra", new Int32(), true)]);
last = await check("add column");

// Part 2: lance-nd creates a table with stable row ids (LanceDB creates the same on the side);
// LanceDB then appends to both, lance-nd compacts ours and LanceDB its own.
{
  const oursDb2 = path.join(work, "ours2");
  const lanceDb2 = path.join(work, "lance2");
  const ours2 = path.join(oursDb2, "t.lance");
  const theirs2 = path.join(lanceDb2, "t.lance");
  fs.mkdirSync(oursDb2, { recursive: true });
  tool(["create", ours2, ipc(0, 40)]);
  const t2 = await (await lancedb.connect(lanceDb2)).createTable("t", data(0, 40), {
    mode: "create", schema,
    storageOptions: { ...storageOptions, new_table_enable_stable_row_ids: "true" },
  });
  await check("created by lance-nd", ours2, theirs2);
  await (await (await lancedb.connect(oursDb2)).openTable("t")).add(data(40, 20));
  await t2.add(data(40, 20));
  await check("LanceDB appends to lance-nd's table", ours2, theirs2);
  await (await (await lancedb.connect(oursDb2)).openTable("t")).delete("id < 10");
  await t2.delete("id < 10");
  tool(["compact", ours2]);
  await t2.optimize();
  await check("LanceDB deletes, lance-nd compacts", ours2, theirs2);
}

// Part 3: larger fragments, so that compaction writes the other segment forms: every other row
// deleted (a bitmap), then more deletes, few of them in the contiguous ids (holes); lance-nd
// compacts one table, LanceDB the
// other, and both must store the same segments (byte for byte).
{
  const oursDb3 = path.join(work, "ours3");
  const lanceDb3 = path.join(work, "lance3");
  const ours3 = path.join(oursDb3, "t.lance");
  const theirs3 = path.join(lanceDb3, "t.lance");
  const db = await lancedb.connect(oursDb3);
  const t = await db.createTable("t", data(0, 3000), {
    mode: "create", schema,
    storageOptions: { ...storageOptions, new_table_enable_stable_row_ids: "true" },
  });
  await t.add(data(3000, 1000));
  fs.cpSync(oursDb3, lanceDb3, { recursive: true });
  const t3 = await (await lancedb.connect(lanceDb3)).openTable("t");
  let l3 = await check("large table by LanceDB", ours3, theirs3);
  tool(["delete-ids", ours3, ...idsWhere(l3, (id) => id < 2000 && id % 2 === 0)]);
  await t3.delete("id < 2000 AND id % 2 = 0");
  tool(["compact", ours3]);
  await t3.optimize();
  l3 = await check("every other row deleted, compacted", ours3, theirs3);
  tool(["delete-ids", ours3, ...idsWhere(l3, (id) => (id < 2000 && id % 3 === 1) || id % 97 === 0)]);
  await t3.delete("(id < 2000 AND id % 3 = 1) OR id % 97 = 0");
  tool(["compact", ours3]);
  await t3.optimize();
  await check("sparse deletes, compacted", ours3, theirs3);
}

console.log(`OK: ${comparisons} comparisons`);
