// nd record batches built by the oracle side, for lance-nd's decoder:
//   node nd_js_batches.mjs OUT_DIR DB_DIR
// For each case below: encode its rows as nd_arrow.array columns with apache-arrow (no lance-nd
// code involved), write them into a LanceDB table (Lance file format 2.2), read the table back
// with toArrow(), check that Lance returned the same rows, and write
//   OUT_DIR/<case>.arrow  the table read back, as Arrow IPC (file or stream, per case)
//   OUT_DIR/<case>.json   { "rows": [...] }: the values the C++ side must decode (nd JSON)
import fs from "node:fs";
import path from "node:path";
import {
  describeTable, encodeRows, expectFormat22, stableJson, writeIpc, writeLance,
} from "./nd_arrow.mjs";

const K = (value) => ({ type: "utf8", value });

// Each row is one nd record batch: variables by name (absent = not in the row) and global
// attributes (null = none). Values are in C order; see interop/README.md for the encoding.
const cases = [
  {
    name: "js_mixed",
    format: "file",
    rows: [
      {
        variables: {
          temp: {
            type: "float32", dim_names: ["y", "x"], dim_sizes: [2, 3],
            values: [271.5, null, 273.25, -0.5, "NaN", 0.0078125],
            attrs: { units: K("K"), valid_range: { type: "list<float64>", value: [200, 330.5] } },
          },
          time: {
            type: "timestamp[ns]", dim_names: ["t"], dim_sizes: [2],
            values: ["1700000000123456789", "-5"],
          },
          label: { type: "utf8", dim_names: [], dim_sizes: [], values: ["hello"] },
          flags: {
            type: "bool", dim_names: ["x"], dim_sizes: [3], values: [true, null, false],
            attrs: { flag_meanings: { type: "list<utf8>", value: ["ok", "bad"] } },
          },
        },
        global_attrs: { title: K("row zero"), id: { type: "int32", value: 7 } },
      },
      {
        variables: {
          pressure: {
            type: "float64", dim_names: ["station"], dim_sizes: [3],
            values: [1013.25, "Infinity", "-Infinity"], attrs: { units: K("hPa") },
          },
          big: {
            type: "int64", dim_names: [], dim_sizes: [],
            values: ["-9223372036854775808"], attrs: { scale: { type: "int64", value: "9007199254740993" } },
          },
          level: {
            type: "int16", dim_names: ["z"], dim_sizes: [4], values: [-32768, 0, null, 32767],
          },
        },
        global_attrs: { title: K("row one") },
      },
      {
        variables: {
          count: {
            type: "int32", dim_names: ["a", "b", "c"], dim_sizes: [2, 2, 2],
            values: [1, 2, 3, 4, null, 6, 7, -2147483648],
            attrs: { units: K("1"), valid_range: { type: "list<float64>", value: [0, 10] } },
          },
          code: { type: "uint16", dim_names: ["a"], dim_sizes: [2], values: [65535, 0] },
          label: { type: "utf8", dim_names: ["b"], dim_sizes: [2], values: ["ünï €", null] },
          empty: { type: "float64", dim_names: ["e"], dim_sizes: [0], values: [] },
        },
        global_attrs: null,
      },
      {
        variables: {
          temp: {
            type: "float32", dim_names: [], dim_sizes: [], values: [-1.5],
            attrs: { units: K("degC") },
          },
          big: { type: "int64", dim_names: ["n"], dim_sizes: [2], values: ["1", null] },
        },
        global_attrs: { id: { type: "int32", value: -1 }, tags: { type: "list<int32>", value: [1, 2] } },
      },
    ],
  },
  {
    // No attributes anywhere (no attrs child, no __global_attrs__ column), IPC stream.
    name: "js_plain",
    format: "stream",
    rows: [
      {
        variables: {
          v: { type: "float64", dim_names: ["x", "y"], dim_sizes: [1, 2], values: [0.25, -0.125] },
          w: { type: "uint16", dim_names: ["x"], dim_sizes: [1], values: [42] },
        },
        global_attrs: null,
      },
      { variables: { w: { type: "uint16", dim_names: [], dim_sizes: [], values: [null] } }, global_attrs: null },
    ],
  },
];

const [outDir, dbDir] = process.argv.slice(2);
if (!outDir || !dbDir) {
  console.error("usage: node nd_js_batches.mjs OUT_DIR DB_DIR");
  process.exit(2);
}
fs.mkdirSync(outDir, { recursive: true });
let failed = false;
for (const c of cases) {
  const table = await writeLance(dbDir, c.name, encodeRows(c.rows));
  expectFormat22(dbDir, c.name);
  const back = await table.toArrow();
  // Lance 12 returns the list children of null nd rows as null empty lists (see README).
  const got = describeTable(back, { strictNullRows: false }).rows;
  for (let i = 0; i < Math.max(got.length, c.rows.length); ++i) {
    const want = stableJson(c.rows[i] ?? null);
    const have = stableJson(got[i] ?? null);
    if (want !== have) {
      console.error(`nd_js_batches: ${c.name} row ${i}: wrote ${want}\nread back ${have}`);
      failed = true;
    }
  }
  writeIpc(path.join(outDir, `${c.name}.arrow`), back, c.format);
  fs.writeFileSync(path.join(outDir, `${c.name}.json`), stableJson({ rows: c.rows }) + "\n");
  console.log(`nd_js_batches: ${c.name}: ${c.rows.length} rows through Lance 2.2 ` +
    `(${c.format} IPC, ${back.schema.fields.length} columns)`);
}
process.exit(failed ? 1 : 0);
