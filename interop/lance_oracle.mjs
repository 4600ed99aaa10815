// The Lance 12 oracle as the interop test scripts use it: apache-arrow and LanceDB loaded from
// interop/node_modules, plus what the scripts share — command-line flags, Arrow tables with an
// exact schema, IPC files, scratch folders, and rows in a plain form that two readers' results
// can be compared in (with a check that the comparison can fail).
//
//   import { arrow, lancedb, rowsOf, firstDifference } from "../../interop/lance_oracle.mjs";
import { createRequire } from "node:module";
import fs from "node:fs";
import path from "node:path";

// LanceDB only accepts Arrow objects built from the CommonJS copy of apache-arrow it loads
// itself; an ESM `import` would give a second copy whose classes it rejects.
const require = createRequire(import.meta.url);
export const arrow = require("apache-arrow");
export const lancedb = require("@lancedb/lancedb");

// New tables are written in Lance file format 2.2, as lance-nd writes them.
export const storageOptions = { new_table_data_storage_version: "2.2" };

// `--name value` pairs of the command line; throws when one of `required` is missing.
export function parseArgs(required = []) {
  const out = {};
  const a = process.argv.slice(2);
  for (let i = 0; i < a.length; i += 2) out[a[i].replace(/^--/, "")] = a[i + 1];
  for (const k of required) {
    if (!out[k]) throw new Error(`missing --${k}`);
  }
  return out;
}

// "<db dir>/<name>.lance" -> the LanceDB database folder and the table name.
export function splitTablePath(table) {
  const abs = path.resolve(table);
  return { db: path.dirname(abs), name: path.basename(abs).replace(/\.lance$/, "") };
}

// An empty folder (removed first if it exists).
export function freshDir(dir) {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

// An Arrow table with exactly `schema` (no dictionaries: vectorFromArray per field).
export function makeTable(schema, rows) {
  const children = schema.fields.map((f) =>
    arrow.vectorFromArray(rows.map((r) => (r[f.name] === undefined ? null : r[f.name])), f.type).data[0]);
  const data = arrow.makeData({
    type: new arrow.Struct(schema.fields), length: rows.length, nullCount: 0, children,
  });
  return new arrow.Table([new arrow.RecordBatch(schema, data)]);
}

export function writeIpc(file, table) {
  fs.writeFileSync(file, arrow.tableToIPC(table, "file"));
  return file;
}

// Plain, comparable form of an Arrow value.
export function norm(v) {
  if (v === null || v === undefined) return null;
  if (typeof v === "bigint") return `${v}n`;
  if (typeof v === "number") return Number.isNaN(v) ? "NaN" : v;
  if (typeof v === "boolean" || typeof v === "string") return v;
  if (v instanceof Date) return v.getTime();
  if (v instanceof Uint8Array) return Buffer.from(v).toString("hex");
  if (ArrayBuffer.isView(v)) return Array.from(v, norm);
  if (Array.isArray(v)) return v.map(norm);
  if (typeof v.toArray === "function" && v.type) return Array.from(v, norm);  // Vector
  if (typeof v.toJSON === "function") {
    const o = v.toJSON();
    return Object.fromEntries(Object.entries(o).map(([k, x]) => [k, norm(x)]));
  }
  if (typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, norm(x)]));
  return String(v);
}

// The rows of an Arrow table as plain objects (columns named in `drop` left out).
export function rowsOf(table, drop = ["_rowaddr"]) {
  const names = table.schema.fields.map((f) => f.name).filter((n) => !drop.includes(n));
  const cols = names.map((n) => table.getChild(n));
  const out = [];
  for (let i = 0; i < table.numRows; ++i) {
    const row = {};
    names.forEach((n, c) => { row[n] = norm(cols[c].get(i)); });
    out.push(row);
  }
  return out;
}

// Field names and types (nested) of an Arrow schema, for comparing schemas across readers.
export function schemaText(schema) {
  return schema.fields.filter((f) => f.name !== "_rowaddr").map((f) => `${f.name}: ${f.type}`).join(", ");
}

// The first difference between two lists of plain rows (any column either side has), or null.
export function firstDifference(expected, actual, label) {
  if (expected.length !== actual.length) {
    return `${label}: ${actual.length} rows, expected ${expected.length}`;
  }
  for (let i = 0; i < expected.length; ++i) {
    const keys = new Set([...Object.keys(expected[i]), ...Object.keys(actual[i])]);
    for (const k of keys) {
      const e = JSON.stringify(expected[i][k]);
      const a = JSON.stringify(actual[i][k]);
      if (e !== a) {
        return `${label}: row ${i} column '${k}' differs\n  expected ${String(e).slice(0, 400)}\n  actual   ${String(a).slice(0, 400)}`;
      }
    }
  }
  return null;
}

// The comparison must be able to fail: plant one difference (a changed cell, a dropped row, an
// extra column) in a copy of `rows` and require that each is reported. Runs once per process
// (on the first non-empty rows); returns how many planted differences were caught.
let planted = false;
export function checkPlantedDifferences(rows, label) {
  if (planted || rows.length === 0) return 0;
  planted = true;
  const copy = () => JSON.parse(JSON.stringify(rows));
  const changed = copy();
  const key = Object.keys(changed[0])[0];
  changed[0][key] = changed[0][key] === "planted" ? "other" : "planted";
  const dropped = copy().slice(1);
  const extra = copy();
  extra[extra.length - 1].planted_column = 1;
  for (const [what, bad] of [["changed cell", changed], ["dropped row", dropped], ["extra column", extra]]) {
    if (firstDifference(rows, bad, label) === null) {
      throw new Error(`comparison missed a planted difference (${what}) in ${label}`);
    }
  }
  console.log(`planted differences caught (${label})`);
  return 3;
}

// A seeded xorshift32 generator of numbers in [0, 1), and integers in [lo, hi] drawn from it:
// the same seed gives the same sequence on every run.
export function seededRandom(seed) {
  let state = seed >>> 0;
  const rand = () => {
    state ^= state << 13; state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5; state >>>= 0;
    return state / 4294967296;
  };
  return { rand, randInt: (lo, hi) => lo + Math.floor(rand() * (hi - lo + 1)) };
}
