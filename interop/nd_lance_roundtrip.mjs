// Pass nd-encoded Arrow IPC through Lance 12 and back:
//   node nd_lance_roundtrip.mjs IN.arrow OUT.arrow DB_DIR [--format file|stream] [--report R.json]
// Reads IN (IPC file or stream) with apache-arrow, writes it into a new LanceDB table (Lance file
// format 2.2), reads the table back with toArrow() and writes that as IPC to OUT. Then compares
// what came back with what went in (nd rows, field types, nullability and metadata) and exits 1
// with the differences if they are not identical. OUT is written either way, so the C++ checker
// can still look at it.
import path from "node:path";
import fs from "node:fs";
import {
  describeTable, expectFormat22, readIpc, stableJson, writeIpc, writeLance,
} from "./nd_arrow.mjs";

function usage() {
  console.error("usage: node nd_lance_roundtrip.mjs IN.arrow OUT.arrow DB_DIR " +
    "[--format file|stream] [--report REPORT.json]");
  process.exit(2);
}

const args = process.argv.slice(2);
const opts = { format: "file", report: null };
const positional = [];
for (let i = 0; i < args.length; ++i) {
  if (args[i] === "--format") opts.format = args[++i];
  else if (args[i] === "--report") opts.report = args[++i];
  else positional.push(args[i]);
}
if (positional.length !== 3 || !["file", "stream"].includes(opts.format)) usage();
const [inPath, outPath, dbDir] = positional;

const input = readIpc(inPath);
const before = describeTable(input);
const name = path.basename(inPath).replace(/\.[^.]*$/, "").replace(/[^A-Za-z0-9_]/g, "_");
const table = await writeLance(dbDir, name, input);
expectFormat22(dbDir, name);
const back = await table.toArrow();
writeIpc(outPath, back, opts.format);

// Compare field by field (so a dropped metadata key is named), then the decoded rows.
const problems = [];
const fieldsAfter = back.schema.fields.map((f) => f.name);
const fieldsBefore = input.schema.fields.map((f) => f.name);
if (stableJson(fieldsAfter) !== stableJson(fieldsBefore)) {
  problems.push(`columns: wrote ${stableJson(fieldsBefore)}, read back ${stableJson(fieldsAfter)}`);
}
let after = null;
try {
  // Lance 12 returns the list children of null nd rows as null empty lists: accepted, reported.
  after = describeTable(back, { strictNullRows: false });
} catch (e) {
  problems.push(`cannot decode the table read back as nd columns: ${e.message}`);
}
if (after) {
  before.fields.forEach((f) => {
    const g = after.fields.find((x) => x.name === f.name);
    if (g && stableJson(f) !== stableJson(g)) {
      problems.push(`field '${f.name}': wrote ${stableJson(f)}\nread back ${stableJson(g)}`);
    }
  });
  const metaBefore = stableJson(before.schema_metadata);
  const metaAfter = stableJson(after.schema_metadata);
  if (metaBefore !== metaAfter) {
    problems.push(`schema metadata: wrote ${metaBefore}, read back ${metaAfter}`);
  }
  before.rows.forEach((r, i) => {
    const s = stableJson(r);
    const t = stableJson(after.rows[i] ?? null);
    if (s !== t) problems.push(`row ${i}: wrote ${s}\nread back ${t}`);
  });
  if (after.rows.length !== before.rows.length) {
    problems.push(`wrote ${before.rows.length} rows, read back ${after.rows.length}`);
  }
}

const report = {
  input: inPath,
  rows: before.rows.length,
  field_metadata_kept: after !== null &&
    before.fields.every((f) => stableJson(f.metadata) ===
      stableJson(after.fields.find((x) => x.name === f.name)?.metadata)),
  schema_metadata_kept: after !== null &&
    stableJson(before.schema_metadata) === stableJson(after.schema_metadata),
  null_rows_children_read_back_as_null_lists: after?.null_row_null_children ?? null,
  identical: problems.length === 0,
  problems,
};
if (opts.report) fs.writeFileSync(opts.report, stableJson(report) + "\n");
if (problems.length) {
  console.error(`nd_lance_roundtrip: ${inPath}: Lance changed the data:\n${problems.join("\n")}`);
  process.exit(1);
}
console.log(`nd_lance_roundtrip: ${inPath}: ${before.rows.length} rows, ` +
  `${before.fields.length} columns identical after Lance 2.2 (field metadata kept)`);
