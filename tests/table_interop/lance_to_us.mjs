// Table interop, Lance 12 -> lance-nd: LanceDB builds a table step by step (create, add,
// addColumns with a new struct child and a new top-level column, add with the new fields,
// delete, optimize, tags.create, checkout + restore). After EACH step, lance-nd's reading of
// every version (and every tag) must equal LanceDB's reading of it, row for row.
//
//   node lance_to_us.mjs --tool PATH/table_interop_tool --work DIR
import fs from "node:fs";
import path from "node:path";
import {
  compareEveryVersion, freshDir, lancedb, makeTable, parseArgs, storageOptions, tool, Unavailable,
  writeIpc,
} from "./common.mjs";
import { baseSchema, evolvedSchema, nestedAddition, rowsFor, topAddition } from "./rows.mjs";

const opt = parseArgs(["tool", "work"]);
const work = freshDir(path.resolve(opt.work));
const db = await lancedb.connect(path.join(work, "db"));
const tableDir = path.join(work, "db", "t.lance");
let tbl = null;
let comparisons = 0;

async function compareAll(step) {
  const r = await compareEveryVersion(tbl, opt.tool, tableDir, work, step);
  comparisons += r.comparisons;
  console.log(`OK ${step}: ${r.versions} versions, ${r.tags} tags equal`);
}

// Field ids: our EvolveSchema on a copy of version 2 (one Merge adding s.note and extra) must
// give the ids Lance 12 gave with its two addColumns calls (version 4).
let copyOfV2 = null;
function checkEvolvedIds() {
  const ipc = writeIpc(path.join(work, "evolved_schema.arrow"), makeTable(evolvedSchema, []));
  tool(opt.tool, ["evolve", copyOfV2, ipc]);
  const ours = tool(opt.tool, ["fields", copyOfV2]);
  const theirs = tool(opt.tool, ["fields", tableDir, "4"]);
  if (ours !== theirs) throw new Error(`evolved field ids differ:\n Lance 12:\n${theirs}\n lance-nd:\n${ours}`);
  const planted = ours.replace(/^(note) (\d+)/m, (_, n, id) => `${n} ${Number(id) + 1}`);
  if (planted === theirs) throw new Error("field-id comparison missed a planted difference");
  console.log(`OK evolved field ids equal Lance 12's:\n${ours}`);
}

const steps = [
  ["create", async () => {
    tbl = await db.createTable("t", makeTable(baseSchema, rowsFor(baseSchema, 0, 10)),
      { mode: "create", storageOptions });
  }],
  ["add", async () => {
    await tbl.add(makeTable(baseSchema, rowsFor(baseSchema, 10, 5)));
    copyOfV2 = path.join(work, "copy_v2", "t.lance");
    fs.cpSync(tableDir, copyOfV2, { recursive: true });
  }],
  ["addColumns new struct child", () => tbl.addColumns([nestedAddition])],
  ["addColumns new top-level column", () => tbl.addColumns([topAddition])],
  ["add with the new fields", () => tbl.add(makeTable(evolvedSchema, rowsFor(evolvedSchema, 15, 6)))],
  ["evolved field ids", async () => checkEvolvedIds()],
  ["delete", () => tbl.delete("id = 3 OR id = 12 OR id = 16")],
  ["optimize (compaction)", () => tbl.optimize()],
  ["tags create", async () => { await (await tbl.tags()).create("two", 2); }],
  ["checkout + restore", async () => { await tbl.checkout(3); await tbl.restore(); }],
];

let unavailable = null;
for (const [name, run] of steps) {
  await run();
  try {
    await compareAll(name);
  } catch (e) {
    if (!(e instanceof Unavailable)) throw e;
    unavailable = e.message;
    break;
  }
}
if (unavailable) {
  console.error(`FAIL: lance-nd cannot run every step yet: ${unavailable}`);
  process.exit(1);
}
console.log(`OK lance_to_us: ${steps.length} steps, ${comparisons} version/tag comparisons`);
