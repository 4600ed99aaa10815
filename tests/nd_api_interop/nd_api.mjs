// lance-nd's facade against Lance 12 (LanceDB 0.39), on the random nd tables of
// ../nd_table_interop/gen.mjs:
//
//   node nd_api.mjs --tool PATH/nd_api_tool --work DIR --seeds 1,2,3 [--plant 1] [--keep 1]
//
// u2l: the facade writes the case with stats on (Table::Write, Table::Append, NdWriter; later
//   commits evolve the schema). LanceDB reads every row, the fields (types, extension
//   metadata), lance_nd:format and every stats column's values (computed here from the rows),
//   and runs filters on global attributes, attributes and stats; lance-nd's Scanner::Filter
//   must return the same rows (nd_api_tool check). Scanner::Prune of value filters must return
//   the rows LanceDB selects with PruneFilter's SQL, and never drop a row that matches.
// l2u: LanceDB writes the case (createTable, addColumns for new variables and keys, add), and
//   Table::Open + Scanner must return every row, and the rows of LanceDB's filters.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import "../nd_table_interop/arrow_bool_fix.mjs";
import { makeCase, makeRng } from "../nd_table_interop/gen.mjs";
import { additionField, columnField, encodeAs, writePlan } from "../nd_table_interop/layout.mjs";
import { filterCandidates, randomFilters } from "../nd_table_interop/filters.mjs";
import {
  arrow, describeTable, kExtensionMetadata, kExtensionName, kGlobalExtension, lancedb, stableJson,
} from "../../interop/nd_arrow.mjs";
import { freshDir, parseArgs } from "../../interop/lance_oracle.mjs";
import { expectedStats, isStatsType } from "./stats.mjs";

const opt = parseArgs(["tool", "work", "seeds"]);
const work = path.resolve(opt.work);
fs.mkdirSync(work, { recursive: true });
const kMeta = new Map([["lance_nd:format", "1"]]);
const kStats = "__stats__:";
const totals = { tables: 0, rows: 0, statsValues: 0, filters: 0, prunes: 0, evolvedFilters: 0, lateGlobalKeys: 0 };
const failures = [];

function tool(args) {
  try {
    return execFileSync(opt.tool, args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], maxBuffer: 1 << 28 });
  } catch (e) {
    throw new Error(`nd_api_tool ${args[0]} failed:\n${String(e.stderr).slice(0, 4000)}`);
  }
}

/** Every row of a LanceDB table as nd JSON (stats columns left out), and its row ids. */
async function lanceRows(tbl) {
  const all = await tbl.query().withRowId().toArrow();
  if (all.numRows === 0) return { rows: [], ids: [], table: all };
  const names = all.schema.fields.map((f) => f.name).filter((n) => n !== "_rowid" && !n.startsWith(kStats));
  const { rows } = describeTable(all.select(names), { strictNullRows: false });
  return { rows, ids: Array.from(all.getChild("_rowid").toArray(), String), table: all };
}

/** The rows LanceDB selects with `sql` (row ids only: see nd_table_interop's README). */
async function lanceSelect(tbl, sql, all) {
  const t = await tbl.query().where(sql).select([]).withRowId().toArrow();
  const index = new Map(all.ids.map((id, i) => [id, i]));
  const picked = t.numRows === 0 ? [] : Array.from(t.getChild("_rowid").toArray(), (v) => index.get(String(v)));
  return picked.sort((a, b) => a - b);
}

/** A stats column read by LanceDB as nd JSON {min, max} per row (null: a null struct). */
function statsRead(table, name) {
  const col = table.getChild(name);
  const field = new arrow.Field("__global_attrs__", col.type, true,
    new Map([[kExtensionName, kGlobalExtension], [kExtensionMetadata, '{"version":1}']]));
  const schema = new arrow.Schema([field]);
  const t = new arrow.Table(col.data.map((d) => new arrow.RecordBatch(schema, arrow.makeData({
    type: new arrow.Struct([field]), length: d.length, nullCount: 0, children: [d],
  }))));
  // A null struct (no such variable) reads as null; a valid one with null min and max as {}.
  return describeTable(t).rows.map((r, i) => (col.isValid(i) ? r.global_attrs ?? {} : null));
}

function fail(label, message) {
  failures.push(label);
  console.error(`MISMATCH ${label}: ${message}`);
}

/** LanceDB's view of the facade's table: rows, fields, format marker, stats. */
async function checkLanceReads(tbl, c, layout, label) {
  const all = await lanceRows(tbl);
  const diff = stableJson(all.rows) !== stableJson(c.rows);
  if (diff) throw new Error(`${label}: LanceDB reads other rows than were written`);
  totals.rows += c.rows.length;
  const schema = await tbl.schema();
  if (schema.metadata.get("lance_nd:format") !== "1") throw new Error(`${label}: no lance_nd:format "1"`);
  const text = (f) => `${f.name}: ${f.type} ${stableJson(Object.fromEntries(f.metadata))}`;
  // Types and metadata exactly; the order within one write is the writer's (a new table's
  // columns come from merging its rows' schemas), so fields are compared by name, and the order
  // is checked across writes: a later write's new columns follow the columns already there.
  const ndFields = schema.fields.filter((f) => !f.name.startsWith(kStats));
  const want = layout.map(columnField).map(text).sort();
  const got = ndFields.map(text).sort();
  if (stableJson(got) !== stableJson(want)) {
    throw new Error(`${label}: fields differ\n expected:\n${want.join("\n")}\n read:\n${got.join("\n")}`);
  }
  const plan = writePlan(c, "2.2");
  const position = (name) => ndFields.findIndex((f) => f.name === name);
  plan.forEach((step, k) => {
    if (k === 0) return;
    const old = Math.max(...plan[k - 1].layout.map((col) => position(col.name)));
    for (const a of step.added.filter((x) => x.keys === null)) {
      if (position(a.column.name) < old) throw new Error(`${label}: column ${a.column.name} of write ${k + 1} comes before older columns`);
    }
  });
  for (const col of layout.filter((x) => !x.global)) {
    const name = kStats + col.name;
    const field = schema.fields.find((f) => f.name === name);
    if (!field) {
      if (isStatsType(col.type)) throw new Error(`${label}: no stats column for ${col.name} (${col.type})`);
      continue;
    }
    const got = statsRead(all.table, name);
    if (col.type.startsWith("list<")) continue;  // list-valued variables: no rule to check
    const wantStats = c.rows.map((r) => expectedStats(r.variables[col.name], col.type));
    got.forEach((g, i) => {
      if (stableJson(g) !== stableJson(wantStats[i])) {
        throw new Error(`${label}: ${name} row ${i}: read ${stableJson(g)}, expected ${stableJson(wantStats[i])}`);
      }
    });
    totals.statsValues += got.length;
  }
  return all;
}

/** Filters on stats columns, literals taken from the stats values. */
function statsFilters(rng, c, layout, n) {
  const out = [];
  const cols = layout.filter((x) => !x.global && isStatsType(x.type) && /int|float/.test(x.type) && !/64/.test(x.type));
  for (let k = 0; k < n && cols.length; ++k) {
    const col = rng.pick(cols);
    const vals = c.rows.map((r) => expectedStats(r.variables[col.name], col.type)?.max?.value)
      .filter((v) => typeof v === "number" && Number.isFinite(v));
    if (!vals.length) continue;
    const op = rng.pick([">", "<=", "="]);
    out.push(`\`${kStats}${col.name}\`.${rng.pick(["min", "max"])} ${op} ${rng.pick(vals)}`);
  }
  return out;
}

/** Value filters for pruning: `<v>.values > x` and BETWEEN, on numeric variables. */
function valueFilters(rng, c, layout, n) {
  const cols = layout.filter((x) => !x.global && /^(u?int(8|16|32)|float(32|64))$/.test(x.type));
  const out = [];
  for (let k = 0; k < n && cols.length; ++k) {
    const col = rng.pick(cols);
    const vals = c.rows.flatMap((r) => r.variables[col.name]?.values ?? []).filter((v) => typeof v === "number");
    if (!vals.length) continue;
    const x = rng.pick(vals);
    const y = rng.pick(vals);
    const exact = rng.chance(0.5)
      ? { sql: `${col.name}.values > ${x}`, test: (v) => v > x }
      : { sql: `${col.name}.values BETWEEN ${Math.min(x, y)} AND ${Math.max(x, y)}`, test: (v) => v >= Math.min(x, y) && v <= Math.max(x, y) };
    out.push({ ...exact, col: col.name });
  }
  return out;
}

async function usToLance(c, plant) {
  const label = `seed ${c.seed} u2l`;
  const dbDir = freshDir(path.join(work, "u2l"));
  const tableDir = path.join(dbDir, "t.lance");
  const caseFile = path.join(work, "case.json");
  fs.writeFileSync(caseFile, JSON.stringify(c));
  tool(["write", tableDir, caseFile]);
  ++totals.tables;
  const layout = writePlan(c, "2.2").at(-1).layout;
  const tbl = await (await lancedb.connect(dbDir)).openTable("t");
  const all = await checkLanceReads(tbl, c, layout, label);
  const rng = makeRng(c.filter_seed + 5);
  const checks = [];
  const sqls = [
    ...randomFilters(rng, c.rows, filterCandidates(layout, true), 8).map((f) => f.sql),
    ...statsFilters(rng, c, layout, 4),
  ];
  for (const sql of sqls) {
    const picked = await lanceSelect(tbl, sql, all);
    checks.push({ filter: sql, rows: picked.map((i) => c.rows[i]) });
  }
  for (const f of valueFilters(rng, c, layout, 4)) {
    const pruned = tool(["prune-sql", tableDir, f.sql]).trim();
    // Every such variable has a stats column and both forms have a stats test: "keep every
    // row" would make the comparison below vacuous.
    if (!pruned) throw new Error(`${label}: PruneFilter keeps every row for ${f.sql}`);
    const picked = pruned ? await lanceSelect(tbl, pruned, all) : c.rows.map((_, i) => i);
    const missed = c.rows.findIndex((r, i) => (r.variables[f.col]?.values ?? []).some((v) => typeof v === "number" && f.test(v)) && !picked.includes(i));
    if (missed >= 0) throw new Error(`${label}: prune ${f.sql} (as ${pruned}) drops row ${missed}, which matches`);
    checks.push({ prune: f.sql, rows: picked.map((i) => c.rows[i]) });
    ++totals.prunes;
  }
  if (plant) plantedCheck(tableDir, checks);
  const checksFile = path.join(work, "checks.json");
  fs.writeFileSync(checksFile, JSON.stringify({ checks }));
  tool(["check", tableDir, checksFile]);
  totals.filters += checks.length;
  await evolvedKeyFilters(tbl, tableDir, c, layout, rng);
}

/**
 * Filters on every key, also of structs that gained children (which Lance 12 can filter on
 * only after compaction): LanceDB compacts the facade's table (optimize) and gives the rows;
 * lance-nd must return them from the version before compaction, and from the compacted one.
 */
async function evolvedKeyFilters(tbl, tableDir, c, layout, rng) {
  const before = await tbl.version();
  const filters = randomFilters(rng, c.rows, filterCandidates(layout, false), 6);
  if (filters.length === 0) return;
  await tbl.optimize();
  const all = await lanceRows(tbl);
  if (stableJson(all.rows) !== stableJson(c.rows)) throw new Error(`seed ${c.seed} u2l: rows changed by optimize`);
  const checks = [];
  for (const f of filters) {
    const picked = await lanceSelect(tbl, f.sql, all);
    checks.push({ filter: f.sql, rows: picked.map((i) => c.rows[i]) });
  }
  const checksFile = path.join(work, "checks.json");
  fs.writeFileSync(checksFile, JSON.stringify({ checks }));
  tool(["check", tableDir, checksFile, String(before)]);
  tool(["check", tableDir, checksFile]);
  totals.filters += 2 * checks.length;
  totals.evolvedFilters += checks.length;
}

/** A check with a row left out must fail. */
function plantedCheck(tableDir, checks) {
  const k = checks.findIndex((x) => x.rows.length > 0);
  if (k < 0) return;
  const file = path.join(work, "planted.json");
  fs.writeFileSync(file, JSON.stringify({ checks: [{ ...checks[k], rows: checks[k].rows.slice(1) }] }));
  let caught = false;
  try { tool(["check", tableDir, file]); } catch { caught = true; }
  if (!caught) throw new Error("planted: a scan with a row left out was not reported");
  console.log("planted difference caught (a row left out of a filtered scan)");
}

async function lanceToUs(c) {
  const label = `seed ${c.seed} l2u`;
  const dbDir = freshDir(path.join(work, "l2u"));
  const tableDir = path.join(dbDir, "t.lance");
  const db = await lancedb.connect(dbDir);
  const plan = writePlan(c, "2.2");
  const tbl = await db.createTable("t", encodeAs(plan[0].rows, plan[0].layout, kMeta),
    { mode: "create", storageOptions: { new_table_data_storage_version: "2.2" } });
  for (const step of plan.slice(1)) {
    if (step.added.length) await tbl.addColumns(step.added.map(additionField));
    totals.lateGlobalKeys += step.added.filter((a) => a.column.global && a.keys).length;
    await tbl.add(encodeAs(step.rows, step.layout, kMeta));
  }
  ++totals.tables;
  const all = await lanceRows(tbl);
  const layout = plan.at(-1).layout;
  const rng = makeRng(c.filter_seed + 9);
  const checks = [{ rows: c.rows }];
  for (const f of randomFilters(rng, c.rows, filterCandidates(layout, true), 8)) {
    const picked = await lanceSelect(tbl, f.sql, all);
    checks.push({ filter: f.sql, rows: picked.map((i) => c.rows[i]) });
  }
  const checksFile = path.join(work, "checks.json");
  fs.writeFileSync(checksFile, JSON.stringify({ checks }));
  tool(["check", tableDir, checksFile]);
  totals.rows += c.rows.length;
  totals.filters += checks.length - 1;
  if (label && stableJson(all.rows) !== stableJson(c.rows)) throw new Error(`${label}: LanceDB misread its own table`);
}

const seeds = opt.seeds.split(",").map(Number);
const started = Date.now();
for (const [k, seed] of seeds.entries()) {
  const c = makeCase(seed);
  for (const [dir, run] of [["u2l", () => usToLance(c, opt.plant && k === 0)], ["l2u", () => lanceToUs(c)]]) {
    try {
      await run();
    } catch (e) {
      fail(`seed ${seed} ${dir}`, e.message);
    }
  }
}
if (!opt.keep) fs.rmSync(work, { recursive: true, force: true });
console.log(`nd api interop: ${totals.tables} tables, ${totals.rows} rows, ${totals.statsValues} stats ` +
  `values, ${totals.filters} filtered scans (${totals.evolvedFilters} filters on evolved structs, ` +
  `before and after Lance compacted), ${totals.prunes} pruned scans; ${totals.lateGlobalKeys} ` +
  `global keys added by LanceDB's addColumns; ${failures.length} mismatches; ` +
  `${((Date.now() - started) / 1000).toFixed(1)} s`);
if (totals.lateGlobalKeys === 0) console.error("no seed added a global key with addColumns");
if (failures.length || totals.lateGlobalKeys === 0) process.exit(1);
