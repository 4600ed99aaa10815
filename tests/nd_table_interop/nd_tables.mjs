// Random nd tables against Lance 12 (LanceDB 0.39), both directions, every value:
//
//   node nd_tables.mjs --tool PATH/nd_table_tool --work DIR (--seeds 1,2,3 | --from A --to B)
//                      [--versions 2.1,2.2] [--directions l2u,u2l] [--plant 1] [--keep 1]
//
// l2u (Lance -> lance-nd): LanceDB writes the generated rows (gen.mjs) with createTable, then
//   addColumns + add per later write (new variables, attribute keys, global keys), a delete
//   and an optimize; lance-nd scans the table and decodes every row after the adds, the delete
//   and the optimize, and each row must equal the generated one.
// u2l (lance-nd -> Lance): lance-nd writes the same rows (nd_table_tool write, evolving the
//   schema); LanceDB reads every row and the fields' extension metadata back, and runs
//   filters on global and variable attributes whose row sets are computed here; lance-nd
//   deletes the rows of a random filter (LanceDB reads the rest) and compacts the table
//   (LanceDB reads it and runs filters on every key); LanceDB optimizes and lance-nd reads.
// A mismatch prints the seed, the file version, the direction and the command that repeats
// it; the run goes on with the next table and exits 1 at the end.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import "./arrow_bool_fix.mjs";
import { describeTable, lancedb, stableJson, dataFileVersions } from "../../interop/nd_arrow.mjs";
import { freshDir, parseArgs } from "../../interop/lance_oracle.mjs";
import { makeCase, makeRng } from "./gen.mjs";
import {
  additionField, columnField, encodeAs, layoutOfRows, mergeLayout, writePlan,
} from "./layout.mjs";
import { filterCandidates, randomFilters, rowsMatching } from "./filters.mjs";

const opt = parseArgs(["tool", "work"]);
const work = path.resolve(opt.work);
fs.mkdirSync(work, { recursive: true });
const here = path.dirname(fileURLToPath(import.meta.url));
const kMeta = new Map([["lance_nd:format", "1"]]);
const stats = { tables: 0, rows: 0, values: 0, filters: 0, checks: 0 };

function seedList() {
  if (opt.seeds) return opt.seeds.split(",").map(Number);
  const out = [];
  for (let s = Number(opt.from); s <= Number(opt.to); ++s) out.push(s);
  return out;
}

/** How many values a comparison of `rows` covered: array elements, dims and attributes. */
function countValues(rows) {
  let n = 0;
  for (const r of rows) {
    for (const v of Object.values(r.variables)) {
      n += v.values.length + 2 * v.dim_names.length + Object.keys(v.attrs ?? {}).length;
    }
    n += Object.keys(r.global_attrs ?? {}).length;
  }
  return n;
}

function counted(rows) {
  stats.rows += rows.length;
  stats.values += countValues(rows);
  ++stats.checks;
}

/** lance-nd decodes the table at `dir`; its rows must equal `rows`. */
function ourCheck(dir, rows, label, batchRows = 65536) {
  const expected = path.join(work, `expected_${process.pid}.json`);
  fs.writeFileSync(expected, JSON.stringify({ rows }));
  try {
    execFileSync(opt.tool, ["check", dir, expected, String(batchRows)],
      { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], maxBuffer: 1 << 28 });
  } catch (e) {
    throw new Error(`${label}: lance-nd check failed:\n${String(e.stderr).slice(0, 4000)}`);
  }
  counted(rows);
}

function expectVersion(db, version, label) {
  const found = dataFileVersions(db, "t");
  if (found.length === 0 || found.some((v) => v !== version)) {
    throw new Error(`${label}: expected Lance ${version} data files, found [${found}]`);
  }
}

/** The first row of `got` (nd JSON) that differs from `want`, as a message, or null. */
export function firstRowDifference(want, got, label) {
  if (want.length !== got.length) return `${label}: ${got.length} rows read, ${want.length} expected`;
  for (let i = 0; i < want.length; ++i) {
    const w = stableJson(want[i]);
    const g = stableJson(got[i]);
    if (w !== g) {
      return `${label}: row ${i} differs\n  expected ${w.replace(/\s+/g, " ").slice(0, 1500)}\n` +
        `  read     ${g.replace(/\s+/g, " ").slice(0, 1500)}`;
    }
  }
  return null;
}

/** Rows (nd JSON) kept after deleting those matching `filter`. */
function afterDelete(rows, filter) {
  const gone = new Set(rowsMatching(rows, filter));
  return rows.filter((_, i) => !gone.has(i));
}

async function lanceToUs(c, version) {
  const label = `seed ${c.seed} ${version} l2u`;
  const dbDir = freshDir(path.join(work, "l2u"));
  const tableDir = path.join(dbDir, "t.lance");
  const db = await lancedb.connect(dbDir);
  const plan = writePlan(c, version);
  const tbl = await db.createTable("t", encodeAs(plan[0].rows, plan[0].layout, kMeta),
    { mode: "create", storageOptions: { new_table_data_storage_version: version } });
  ++stats.tables;
  for (const step of plan.slice(1)) {
    if (step.added.length) await tbl.addColumns(step.added.map(additionField));
    await tbl.add(encodeAs(step.rows, step.layout, kMeta));
  }
  expectVersion(dbDir, version, label);
  ourCheck(tableDir, c.rows, `${label} after ${plan.length} writes`, makeRng(c.seed).int(1, 300));
  const layout = plan[plan.length - 1].layout;
  const filters = randomFilters(makeRng(c.filter_seed), c.rows, filterCandidates(layout, true), 1);
  let rows = c.rows;
  if (filters.length) {
    await tbl.delete(filters[0].sql);
    rows = afterDelete(rows, filters[0]);
    ourCheck(tableDir, rows, `${label} after delete where ${filters[0].sql}`);
  }
  await tbl.optimize();
  ourCheck(tableDir, rows, `${label} after optimize`, 7);

  // lance-nd appends to Lance's table: rows with a new variable (and in 2.2 a new global key).
  const extra = extraRows(c, version);
  const extraFile = path.join(work, `extra_${process.pid}.json`);
  fs.writeFileSync(extraFile, JSON.stringify({ rows: extra }));
  runTool(["append", tableDir, extraFile], label);
  const evolved = mergeLayout(plan.at(-1).layout, layoutOfRows(extra)).layout;
  const all = [...rows, ...extra];
  const what = `${label} after lance-nd appended`;
  await lanceReads(await db.openTable("t"), all, evolved, what);
  ourCheck(tableDir, all, what);
}

/** The first write's rows again, each with a new variable and, in 2.2, a new global key. */
function extraRows(c, version) {
  const sorted = (o) => Object.fromEntries(Object.keys(o).sort().map((k) => [k, o[k]]));
  return c.rows.slice(0, c.commits[0]).map((r, i) => {
    const row = JSON.parse(JSON.stringify(r));
    row.variables = sorted({ ...row.variables, w_extra: { type: "float32", dim_names: [], dim_sizes: [], values: [i] } });
    if (version !== "2.1") row.global_attrs = sorted({ ...row.global_attrs, g_extra: { type: "int32", value: i } });
    return row;
  });
}

/** LanceDB reads the table; rows, fields and schema metadata must be as generated. */
async function lanceReads(tbl, rows, layout, label) {
  const all = await tbl.query().withRowId().toArrow();
  const names = all.schema.fields.map((f) => f.name).filter((n) => n !== "_rowid");
  const desc = all.numRows === 0 ? { rows: [] } : describeTable(all.select(names), { strictNullRows: false });
  const problem = firstRowDifference(rows, desc.rows, label);
  if (problem) throw new Error(problem);
  counted(rows);
  const want = layout.map(columnField);
  const schema = await tbl.schema();  // a query without rows returns no fields
  const got = schema.fields;
  const text = (fields) => fields.map((f) => `${f.name}: ${f.type} ${stableJson(Object.fromEntries(f.metadata))}`).join("\n");
  if (text(want) !== text(got)) {
    throw new Error(`${label}: fields differ\n expected:\n${text(want)}\n read:\n${text(got)}`);
  }
  if (schema.metadata.get("lance_nd:format") !== "1") throw new Error(`${label}: no lance_nd:format`);
  if (all.numRows === 0) return [];
  return Array.from(all.getChild("_rowid").toArray(), (v) => String(v));
}

async function runFilters(tbl, rowIds, rows, filters, label) {
  const index = new Map(rowIds.map((id, i) => [id, i]));
  for (const f of filters) {
    // Only the row ids: until compaction, Lance 12 fails filtered scans that project a struct
    // which gained a child after it was written (README.md, "Lance 12 limits").
    const t = await tbl.query().where(f.sql).select([]).withRowId().toArrow();
    const ids = t.numRows === 0 ? [] : t.getChild("_rowid").toArray();  // no columns when empty
    const got = Array.from(ids, (v) => index.get(String(v))).sort((a, b) => a - b);
    const want = rowsMatching(rows, f);
    if (JSON.stringify(got) !== JSON.stringify(want)) {
      throw new Error(`${label}: where ${f.sql}: rows [${got}] selected, [${want}] expected`);
    }
    ++stats.filters;
  }
}

function runTool(args, label) {
  try {
    return execFileSync(opt.tool, args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  } catch (e) {
    throw new Error(`${label}: lance-nd ${args[0]} failed:\n${String(e.stderr).slice(0, 4000)}`);
  }
}

async function usToLance(c, version) {
  const label = `seed ${c.seed} ${version} u2l`;
  const dbDir = freshDir(path.join(work, "u2l"));
  const tableDir = path.join(dbDir, "t.lance");
  const caseFile = path.join(work, `case_${process.pid}.json`);
  fs.writeFileSync(caseFile, JSON.stringify(c));
  runTool(["write", tableDir, caseFile, version], label);
  ++stats.tables;
  expectVersion(dbDir, version, label);
  const plan = writePlan(c, version);
  const layout = plan[plan.length - 1].layout;
  const db = await lancedb.connect(dbDir);
  let tbl = await db.openTable("t");
  const ids = await lanceReads(tbl, c.rows, layout, label);
  const rng = makeRng(c.filter_seed + 1);
  await runFilters(tbl, ids, c.rows, randomFilters(rng, c.rows, filterCandidates(layout, true), 6), label);

  // lance-nd deletes the rows of a random filter, then compacts; Lance reads each result.
  let rows = c.rows;
  const [del] = randomFilters(rng, rows, filterCandidates(layout, false), 1);
  if (del) {
    const gone = rowsMatching(rows, del);
    if (gone.length) runTool(["delete", tableDir, ...gone.map(String)], label);
    rows = afterDelete(rows, del);
    tbl = await db.openTable("t");
    await lanceReads(tbl, rows, layout, `${label} after lance-nd deleted where ${del.sql}`);
  }
  const out = runTool(["compact", tableDir], label);
  // Filters may use every key only when every fragment was rewritten (a fragment without
  // deletions may stay as it was, as in Lance).
  const [, added, total] = /(\d+) added, (\d+) fragments/.exec(out).map(Number);
  tbl = await db.openTable("t");
  const what = `${label} after lance-nd compacted`;
  const compacted = await lanceReads(tbl, rows, layout, what);
  const candidates = filterCandidates(layout, added !== total);
  await runFilters(tbl, compacted, rows, randomFilters(rng, rows, candidates, 6), what);
  await tbl.optimize();
  ourCheck(tableDir, rows, `${label} after Lance optimize (lance-nd reads)`);

  // Lance appends the first write's rows again to lance-nd's table.
  const again = c.rows.slice(0, c.commits[0]);
  await tbl.add(encodeAs(again, layout, kMeta));
  ourCheck(tableDir, [...rows, ...again], `${label} after Lance appended (lance-nd reads)`);
}

/** The checks must be able to fail: plant differences and require that each is reported. */
async function plantedChecks(c) {
  const plantedRows = JSON.parse(JSON.stringify(c.rows));
  const victim = plantedRows.find((r) => Object.values(r.variables).some((v) => v.values.length));
  const v = Object.values(victim.variables).find((x) => x.values.length);
  v.values[0] = v.values[0] === null ? randomLike(v.type) : null;
  if (!firstRowDifference(c.rows, plantedRows, "planted")) throw new Error("JS comparison missed a planted value");
  const tableDir = path.join(freshDir(path.join(work, "planted")), "t.lance");
  const caseFile = path.join(work, `case_${process.pid}.json`);
  fs.writeFileSync(caseFile, JSON.stringify(c));
  runTool(["write", tableDir, caseFile, "2.1"], "planted");
  ourCheck(tableDir, c.rows, "planted (unchanged rows)");
  let caught = false;
  try { ourCheck(tableDir, plantedRows, "planted"); } catch (e) { caught = /values/.test(e.message); }
  if (!caught) throw new Error("lance-nd check missed a planted value");
  // A filter whose expected rows are the complement of the right ones must be reported.
  const layout = writePlan(c, "2.1").at(-1).layout;
  const [f] = randomFilters(makeRng(c.filter_seed), c.rows, filterCandidates(layout, true), 1);
  if (f) {
    const tbl = await (await lancedb.connect(path.dirname(tableDir))).openTable("t");
    const ids = await lanceReads(tbl, c.rows, layout, "planted");
    const wrong = { sql: f.sql, test: (row) => !f.test(row) };
    caught = false;
    try { await runFilters(tbl, ids, c.rows, [wrong], "planted"); } catch (e) { caught = /selected/.test(e.message); }
    if (!caught) throw new Error("filter check missed a planted row set");
  }
  console.log(`planted differences caught (JS rows, lance-nd check${f ? ", filter rows" : ""})`);
}

function randomLike(type) {
  if (type === "bool") return true;
  if (type === "utf8") return "planted";
  if (/64|timestamp/.test(type)) return "7";
  return 7;
}

const started = Date.now();
const failures = [];
function totals() {
  const secs = ((Date.now() - started) / 1000).toFixed(1);
  return `${stats.tables} tables, ${stats.checks} full-table comparisons, ${stats.rows} rows, ` +
    `${stats.values} values, ${stats.filters} filters checked in ${secs} s; ` +
    `${failures.length} mismatches (${failures.filter((f) => f.constant).length} of them on ` +
    "constant pages of variable-width values)";
}
// A reader misreading Lance 12's constant pages of variable-width values takes the value buffer
// for levels or the levels for the value; such mismatches are counted apart.
const kConstantPage = /constant value buffer|not a whole number of u16 levels/;
const directions = (opt.directions ?? "l2u,u2l").split(",");
const versions = (opt.versions ?? "2.1,2.2").split(",");
let plantDone = !opt.plant;
let done = 0;
for (const seed of seedList()) {
  if (++done % 50 === 0) console.log(`progress: seed ${seed}: ${totals()}`);
  const c = makeCase(seed);
  if (!plantDone) { await plantedChecks(c); plantDone = true; }
  for (const version of versions) {
    for (const dir of directions) {
      try {
        await (dir === "l2u" ? lanceToUs(c, version) : usToLance(c, version));
      } catch (e) {
        const repro = `node ${path.relative(process.cwd(), path.join(here, "nd_tables.mjs"))} ` +
          `--tool ${opt.tool} --work ${work} --seeds ${seed} --versions ${version} --directions ${dir}`;
        console.error(`MISMATCH seed ${seed} version ${version} ${dir}: ${e.message}\n  reproduce: ${repro}`);
        failures.push({ seed, version, dir, constant: kConstantPage.test(e.message) });
      }
    }
  }
}
if (!opt.keep) fs.rmSync(work, { recursive: true, force: true });
console.log(`nd tables: ${totals()}`);
if (failures.length) {
  console.log(`mismatching seeds: ${failures.map((f) => `${f.seed}/${f.version}/${f.dir}`).join(" ")}`);
  process.exit(1);
}
