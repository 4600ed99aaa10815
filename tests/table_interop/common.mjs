// Shared helpers of the table interop scripts: argument parsing, building Arrow tables the
// oracle accepts, running the C++ tool, reading both sides' rows and comparing them.
import { createRequire } from "node:module";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(here, "../../interop/package.json"));
export const arrow = require("apache-arrow");
export const lancedb = require("@lancedb/lancedb");
export const storageOptions = { new_table_data_storage_version: "2.2" };

export function parseArgs() {
  const out = {};
  const a = process.argv.slice(2);
  for (let i = 0; i < a.length; i += 2) out[a[i].replace(/^--/, "")] = a[i + 1];
  for (const k of ["tool", "work"]) {
    if (!out[k]) throw new Error(`missing --${k}`);
  }
  return out;
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
// extra column) in a copy of `rows` and require that each is reported. Returns the count.
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

export class Unavailable extends Error {}

// Run the C++ tool; exit code 3 = the operation's API is not in this build.
export function tool(toolPath, args) {
  try {
    return execFileSync(toolPath, args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();
  } catch (e) {
    if (e.status === 3) throw new Unavailable(`${args[0]}: ${String(e.stderr).trim()}`);
    throw new Error(`tool ${args.join(" ")} failed (exit ${e.status}):\n${e.stderr}${e.stdout}`);
  }
}

// Our rows of one version (or tag) of a table, through `dump`.
export function ourTable(toolPath, tableDir, work, { version, tag, rowaddr } = {}) {
  const out = path.join(work, `dump_${process.pid}_${Math.random().toString(36).slice(2)}.arrow`);
  const args = ["dump", tableDir, out];
  if (version !== undefined) args.push("--version", String(version));
  if (tag !== undefined) args.push("--tag", tag);
  if (rowaddr) args.push("--rowaddr");
  tool(toolPath, args);
  const t = arrow.tableFromIPC(fs.readFileSync(out));
  fs.rmSync(out);
  return t;
}

export function ourVersions(toolPath, tableDir) {
  return tool(toolPath, ["versions", tableDir]).split("\n").filter((s) => s).map(Number);
}

// LanceDB's rows of one version (number or tag name) of an open table.
export async function lanceTable(tbl, version) {
  await tbl.checkout(version);
  const t = await tbl.query().toArrow();
  await tbl.checkoutLatest();
  return t;
}

export function writeIpc(file, table) {
  fs.writeFileSync(file, arrow.tableToIPC(table, "file"));
  return file;
}

export function freshDir(dir) {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}
