// The two directions of the differential test, for one generated case and one Lance file
// version. Each returns {values, filters, pages}: values compared, filters checked, and the
// page descriptions (from differential_tool pages) of the data files that were read.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { arrow, lancedb } from "../../interop/lance_oracle.mjs";
import { buildTable as makeTable } from "./build.mjs";
import { dumpRows, schemaText } from "./arrow_dump.mjs";
import { expectSameRows, expectSameSchema } from "./compare.mjs";
import { makeFilters } from "./filters.mjs";
import { arrowType } from "./generate.mjs";

// Lance 12 failed to read a table it wrote itself: no oracle for this case (not a lance-nd
// failure; Lance misreads e.g. its full-zip lists below nullable structs).
export class LanceSelfRead extends Error {}

export function runTool(tool, args) {
  try {
    return execFileSync(tool, args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], maxBuffer: 1 << 28 });
  } catch (e) {
    throw new Error(`differential_tool ${args.join(" ")} failed (exit ${e.status}):\n${e.stderr}`);
  }
}

// lance-nd's reading of the latest version of the table at `dir`: {schema, rows}.
function ourReading(tool, dir, work) {
  const out = path.join(work, "dump.arrow");
  runTool(tool, ["dump", dir, out]);
  const t = arrow.tableFromIPC(fs.readFileSync(out));
  return { schema: schemaText(t.schema), rows: dumpRows(t) };
}

function pagesOf(tool, dir) {
  return runTool(tool, ["pages", dir]).split("\n").filter((l) => l).map((l) => JSON.parse(l));
}

// ------------------------------------------------------------------ Lance 12 writes, we read
async function evolve(tbl, c) {
  const e = c.evolved;
  if (e.sql) await tbl.addColumns([{ name: e.name, valueSql: e.sql }]);
  else await tbl.addColumns([new arrow.Field(e.name, arrowType(e.spec), true)]);
  if (c.extraRows.length > 0) await tbl.add(makeTable(await tbl.schema(), c.extraRows));
}

export async function lanceWritesWeRead(c, version, tool, work) {
  const db = await lancedb.connect(path.join(work, "db"));
  const dir = path.join(work, "db", "t.lance");
  const tbl = await db.createTable("t", makeTable(c.schema, c.batches[0]),
    { mode: "create", storageOptions: { new_table_data_storage_version: version } });
  for (const b of c.batches.slice(1)) await tbl.add(makeTable(c.schema, b));
  if (c.evolved) await evolve(tbl, c);
  if (c.plan.delete) await tbl.delete(c.plan.delete);
  const result = { values: 0, filters: 0, pages: new Map() };
  const check = async (step) => {
    let theirs;
    try {
      theirs = await tbl.query().toArrow();
    } catch (e) {
      throw new LanceSelfRead(`Lance 12 cannot read its own ${version} table after ${step}: ${String(e.message).split("\n")[0]}`);
    }
    const ours = ourReading(tool, dir, work);
    const label = `Lance ${version} -> lance-nd, after ${step}`;
    // With every row deleted LanceDB returns no batches and an empty schema: take the table's.
    const schema = theirs.numRows === 0 && theirs.schema.fields.length === 0 ? await tbl.schema() : theirs.schema;
    expectSameSchema(schemaText(schema), ours.schema, label);
    result.values += expectSameRows(dumpRows(theirs), ours.rows, label);
    for (const p of pagesOf(tool, dir)) result.pages.set(`${p.file}#${p.column}#${p.rows}#${result.pages.size}`, p);
  };
  await check(c.plan.delete ? "delete" : "writes");
  if (c.plan.optimize) {
    await tbl.optimize();
    await check("optimize");
  }
  tbl.close();
  result.pages = [...result.pages.values()];
  return result;
}

// ------------------------------------------------------------------ we write, Lance 12 reads
export async function weWriteLanceReads(c, version, tool, work) {
  const dir = path.join(work, "ours", "t.lance");
  const batches = c.batches;
  const first = batches.length > 1 ? batches.slice(0, -1) : batches;
  const write = (mode, rowSets, name) => {
    const file = path.join(work, `${name}.arrow`);
    const table = new arrow.Table(rowSets.map((rows) => makeTable(c.schema, rows).batches[0]));
    fs.writeFileSync(file, arrow.tableToIPC(table, "file"));
    const args = ["write", mode, dir, file, version];
    if (c.plan.ourPageBytes) args.push(String(c.plan.ourPageBytes));
    runTool(tool, args);
    return dumpRows(table);
  };
  const expected = write("create", first, "create");
  if (batches.length > 1) expected.push(...write("append", [batches.at(-1)], "append"));
  const label = `lance-nd ${version} -> Lance`;
  const wantSchema = schemaText(c.schema, /*stored=*/true);
  const ours = ourReading(tool, dir, work);
  expectSameSchema(wantSchema, ours.schema, `${label} (our own reading)`);
  let values = expectSameRows(expected, ours.rows, `${label} (our own reading)`);

  const db = await lancedb.connect(path.join(work, "ours"));
  const tbl = await db.openTable("t");
  const theirs = await tbl.query().toArrow();
  expectSameSchema(wantSchema, schemaText(theirs.schema), label);
  values += expectSameRows(expected, dumpRows(theirs), label);
  const filters = makeFilters(c, expected, c.plan.filters);
  for (const f of filters) {
    const got = dumpRows(await tbl.query().where(f.sql).toArrow());
    values += expectSameRows(expected.filter(f.keep), got, `${label}, where ${f.sql}`);
  }
  tbl.close();
  return { values, filters: filters.length, pages: pagesOf(tool, dir) };
}
