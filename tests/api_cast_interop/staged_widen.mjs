// Staged writes and widening, read by Lance 12 (LanceDB 0.39):
//
//   node staged_widen.mjs --tool PATH/api_cast_tool --work DIR --seeds 1,2,3
//
// stage: for each seed, the random nd table case of tests/nd_table_interop/gen.mjs is staged
//   by several stagers and committed (api_cast_tool stage); LanceDB reads every row and must
//   find the generated rows, in order. The staged data files were written with stage-local
//   field ids that the commit remapped in the manifest only, so this checks that Lance reads
//   columns through DataFile.fields as lance-nd wrote them.
// stage-append: LanceDB creates the table with the case's first commit; lance-nd stages the
//   later commits (one stager each) and commits them as one version on Lance's table; LanceDB
//   reads every row.
// widen: api_cast_tool widen writes a table with stats (data files 2.1 and 2.2), deletes a row and widens `v` from int32
//   to float64 (new data files under new field ids, old files keeping the other columns);
//   LanceDB must read `v` and `__stats__:v` as float64 with the values written, and `w` as it
//   was.
// widen-existing: LanceDB writes the case's rows (2.1 and 2.2); lance-nd widens every variable
//   of a widenable type (int8, int16, uint8, uint16, float32); LanceDB reads the new types and
//   the same values.
// mixed-order: three stagers whose attribute and global keys come in different orders commit
//   together; LanceDB reads each row's keys from files whose struct children are ordered
//   unlike the table's.
// Each problem is printed with its seed; the exit status is 1 when there was one.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import "../nd_table_interop/arrow_bool_fix.mjs";
import { describeTable, encodeRows, lancedb, stableJson } from "../../interop/nd_arrow.mjs";
import { freshDir, parseArgs } from "../../interop/lance_oracle.mjs";
import { makeCase } from "../nd_table_interop/gen.mjs";

const opt = parseArgs(["tool", "work", "seeds"]);
const work = path.resolve(opt.work);
let problems = 0;
let checked = 0;
let widenedVariables = 0;

function tool(args) {
  return execFileSync(opt.tool, args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

function report(label, message) {
  ++problems;
  console.log(`MISMATCH ${label}: ${message}`);
}

async function open(dbDir) {
  return (await lancedb.connect(dbDir)).openTable("t");
}

async function checkStaged(seed) {
  const label = `seed ${seed} stage`;
  const c = makeCase(seed);
  const dbDir = freshDir(path.join(work, `stage_${seed}`));
  const caseFile = path.join(dbDir, "case.json");
  fs.writeFileSync(caseFile, JSON.stringify(c));
  tool(["stage", path.join(dbDir, "t.lance"), caseFile]);
  const tbl = await open(dbDir);
  const want = c.commits.length > 1 ? 2 : 1;
  if ((await tbl.version()) !== want) report(label, `version ${await tbl.version()}, want ${want}`);
  const all = await tbl.query().toArrow();
  const got = describeTable(all, { strictNullRows: false }).rows;
  if (got.length !== c.rows.length) return report(label, `${got.length} rows, want ${c.rows.length}`);
  for (let i = 0; i < got.length; ++i) {
    const w = stableJson(c.rows[i]);
    const g = stableJson(got[i]);
    if (w !== g) return report(label, `row ${i}\n  want ${w.slice(0, 800)}\n  read ${g.slice(0, 800)}`);
  }
  checked += got.length;
}

function numbers(list) {
  return list === null ? null : Array.from(list, (x) => (x === null ? null : Number(x)));
}

async function checkWiden(seed) {
  for (const version of ["2.1", "2.2"]) await checkWidenIn(seed, version);
}

async function checkWidenIn(seed, version) {
  const label = `seed ${seed} widen ${version}`;
  const dbDir = freshDir(path.join(work, `widen_${seed}_${version}`));
  const expected = JSON.parse(tool(["widen", path.join(dbDir, "t.lance"), String(seed), version]));
  const tbl = await open(dbDir);
  const data = await tbl.query().select(["v", "w"]).toArrow();
  const rows = describeTable(data, { strictNullRows: false }).rows;
  if (rows.length !== expected.rows.length) {
    return report(label, `${rows.length} rows, want ${expected.rows.length}`);
  }
  for (let i = 0; i < rows.length; ++i) {
    const v = rows[i].variables.v;
    if (v && v.type !== "float64") return report(label, `row ${i}: v is ${v.type}`);
    const got = { v: v ? numbers(v.values) : null, w: numbers(rows[i].variables.w.values) };
    if (stableJson(got) !== stableJson(expected.rows[i])) {
      return report(label, `row ${i}: read ${stableJson(got)}, want ${stableJson(expected.rows[i])}`);
    }
  }
  const stats = await tbl.query().select(["`__stats__:v`"]).toArrow();
  const column = stats.getChildAt(0);
  for (const child of column.type.children) {
    if (String(child.type) !== "Float64") return report(label, `stats ${child.name} is ${child.type}`);
  }
  for (let i = 0; i < stats.numRows; ++i) {
    const s = column.get(i);
    const got = s === null ? null : { min: s.min, max: s.max };
    if (stableJson(got) !== stableJson(expected.stats[i])) {
      return report(label, `stats row ${i}: read ${stableJson(got)}, want ${stableJson(expected.stats[i])}`);
    }
  }
  checked += rows.length;
}

// LanceDB creates the table with the case's first commit; lance-nd stages every later commit
// (one stager each, new variables and keys included) and commits them as one version on
// Lance's table; LanceDB reads every row.
async function checkStageOnLanceTable(seed) {
  const label = `seed ${seed} stage-append`;
  const c = makeCase(seed);
  const dbDir = freshDir(path.join(work, `stage_append_${seed}`));
  const db = await lancedb.connect(dbDir);
  const first = c.rows.slice(0, c.commits[0]);
  await db.createTable("t", encodeRows(first, new Map([["lance_nd:format", "1"]])),
    { mode: "create", storageOptions: { new_table_data_storage_version: "2.2" } });
  // Later commits, or the first commit's rows again when there is only one.
  const parts = c.commits.length > 1 ? c.commits.slice(1) : [c.commits[0]];
  const more = c.commits.length > 1 ? c.rows.slice(c.commits[0]) : first;
  const rowsFile = path.join(dbDir, "rows.json");
  fs.writeFileSync(rowsFile, JSON.stringify({ rows: more, parts }));
  tool(["stage-append", path.join(dbDir, "t.lance"), rowsFile]);
  const tbl = await db.openTable("t");
  if ((await tbl.version()) !== 2) report(label, `version ${await tbl.version()}, want 2`);
  const want = [...first, ...more];
  const got = describeTable(await tbl.query().toArrow(), { strictNullRows: false }).rows;
  if (got.length !== want.length) return report(label, `${got.length} rows, want ${want.length}`);
  for (let i = 0; i < got.length; ++i) {
    const w = stableJson(want[i]);
    const g = stableJson(got[i]);
    if (w !== g) return report(label, `row ${i}\n  want ${w.slice(0, 800)}\n  read ${g.slice(0, 800)}`);
  }
  checked += got.length;
}

// Widenings whose nd JSON values read the same in both types.
const kWidenTo = { int8: "int16", int16: "int32", uint8: "uint16", uint16: "uint32", float32: "float64" };

// LanceDB writes the case's rows; lance-nd widens each variable of a widenable type; LanceDB
// must read the rows with the new type and the same values (data files written by Lance, with
// Lance's own field lists, next to lance-nd's).
async function checkWidenLanceTable(seed) {
  for (const version of ["2.1", "2.2"]) {
    const label = `seed ${seed} widen-existing ${version}`;
    const c = makeCase(seed);
    const dbDir = freshDir(path.join(work, `lance_widen_${seed}_${version}`));
    const db = await lancedb.connect(dbDir);
    await db.createTable("t", encodeRows(c.rows, new Map([["lance_nd:format", "1"]])),
      { mode: "create", storageOptions: { new_table_data_storage_version: version } });
    const want = JSON.parse(JSON.stringify(c.rows));
    const types = {};
    for (const r of c.rows) for (const [n, v] of Object.entries(r.variables)) types[n] = v.type;
    const widened = Object.entries(types).filter(([, t]) => kWidenTo[t]);
    for (const [name, type] of widened) {
      tool(["widen-existing", path.join(dbDir, "t.lance"), name, kWidenTo[type]]);
      for (const r of want) if (r.variables[name]) r.variables[name].type = kWidenTo[type];
    }
    const tbl = await db.openTable("t");
    const got = describeTable(await tbl.query().toArrow(), { strictNullRows: false }).rows;
    if (got.length !== want.length) return report(label, `${got.length} rows, want ${want.length}`);
    for (let i = 0; i < got.length; ++i) {
      const w = stableJson(want[i]);
      const g = stableJson(got[i]);
      if (w !== g) return report(label, `row ${i}\n  want ${w.slice(0, 800)}\n  read ${g.slice(0, 800)}`);
    }
    checked += got.length;
    widenedVariables += widened.length;
  }
}

// Staged files whose struct children come in another order than the table's (and lack some):
// Lance reads children by field id.
async function checkMixedOrder() {
  const label = "mixed-order";
  const dbDir = freshDir(path.join(work, "mixed_order"));
  tool(["mixed-order", path.join(dbDir, "t.lance")]);
  const rows = describeTable(await (await open(dbDir)).query().toArrow(), { strictNullRows: false }).rows;
  const keys = [["b", "a"], ["a", "b"], ["c", "a"]];
  if (rows.length !== 3) return report(label, `${rows.length} rows, want 3`);
  rows.forEach((row, i) => {
    const x = i + 1;
    const attrs = Object.fromEntries(keys[i].map((k) => [k, { type: "utf8", value: `val_${k}` }]));
    const globals = Object.fromEntries(keys[i].map((k) => [`g${k}`, { type: "float64", value: x }]));
    const v = row.variables.v;
    const got = stableJson({ attrs: v.attrs, values: v.values, globals: row.global_attrs });
    const want = stableJson({ attrs, values: [x, x + 1], globals });
    if (got !== want) report(label, `row ${i}: read ${got}, want ${want}`);
  });
  checked += rows.length;
}

try {
  await checkMixedOrder();
} catch (e) {
  report("mixed-order", String(e.stderr ?? e.stack ?? e).slice(0, 3000));
}
for (const seed of opt.seeds.split(",").map(Number)) {
  for (const check of [checkStaged, checkStageOnLanceTable, checkWiden, checkWidenLanceTable]) {
    try {
      await check(seed);
    } catch (e) {
      report(`seed ${seed} ${check.name}`, String(e.stderr ?? e.stack ?? e).slice(0, 3000));
    }
  }
}
console.log(`${checked} rows checked, ${widenedVariables} variables of Lance-written tables ` +
  `widened, ${problems} problems`);
process.exit(problems ? 1 : 0);
