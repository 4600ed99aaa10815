// Make LanceDB (Lance 12) write dictionary-typed and decimal columns in file formats 2.1 and 2.2,
// and dump the values each column must read as, for lance-nd's real-files test.
//   node make_dict_decimal.mjs OUT_DIR
//   node make_dict_decimal.mjs --check OUT_DIR
// Writes OUT_DIR/dict_decimal_2_1.lance, OUT_DIR/dict_decimal_2_2.lance (LanceDB tables) and
// OUT_DIR/dict_decimal.json: {"num_rows": N, "columns": {"<name>": [value per row, ...]}} with
// null for nulls, strings for dictionary strings and for decimals (their exact decimal text, as
// "-12.34"), numbers for the rest. Columns "time_ms" (time32) and "packed_xy" (a packed struct)
// are of types lance-nd does not read: they test that such a column is refused alone.
// With --check, LanceDB reads the tables lance-nd wrote back (OUT_DIR/ours/ours_2_1.lance and
// ours_2_2.lance: every column but time_ms and packed_xy, dictionaries decoded) and compares every value, and
// runs a filter on a decimal column.
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";

const interopDir = process.env.LANCE_ND_INTEROP_DIR ||
  path.resolve(path.dirname(new URL(import.meta.url).pathname), "../../interop");
const require = createRequire(path.join(interopDir, "lance_oracle.mjs"));
const arrow = require("apache-arrow");
const lancedb = require("@lancedb/lancedb");
const oracle = await import(pathToFileURL(path.join(interopDir, "lance_oracle.mjs")).href);

const check = process.argv[2] === "--check";
const outDir = process.argv[check ? 3 : 2];
if (!outDir) {
  console.error("usage: node make_dict_decimal.mjs [--check] OUT_DIR");
  process.exit(2);
}
if (check) {
  await checkOurs();
  process.exit(0);
}
fs.mkdirSync(outDir, { recursive: true });

const { rand, randInt } = oracle.seededRandom(4242);
const N = 1000;
const rows = Array.from({ length: N }, (_, i) => i);

// ---- decimals: BigInt unscaled values -> little-endian two's complement words, and text
function decimalWords(values, bits) {
  const words = new Uint32Array(values.length * (bits / 32));
  const mod = 1n << BigInt(bits);
  values.forEach((v, i) => {
    let u = v === null ? 0n : (v < 0n ? mod + v : v);
    for (let w = 0; w < bits / 32; w++) {
      words[i * (bits / 32) + w] = Number(u & 0xffffffffn);
      u >>= 32n;
    }
  });
  return words;
}
function decimalText(v, scale) {
  if (v === null) return null;
  const neg = v < 0n;
  let digits = (neg ? -v : v).toString();
  if (scale > 0) {
    digits = digits.padStart(scale + 1, "0");
    digits = digits.slice(0, digits.length - scale) + "." + digits.slice(digits.length - scale);
  } else if (scale < 0) {
    digits += "0".repeat(-scale);
  }
  return (neg ? "-" : "") + digits;
}
function randomBig(digits) {
  let s = "";
  const n = randInt(1, digits);
  for (let k = 0; k < n; k++) s += String(randInt(0, 9));
  const v = BigInt(s);
  return rand() < 0.5 ? -v : v;
}
function validity(values) {
  const bitmap = new Uint8Array(Math.ceil(values.length / 8));
  let nulls = 0;
  values.forEach((v, i) => {
    if (v === null) nulls++; else bitmap[i >> 3] |= 1 << (i & 7);
  });
  return { bitmap, nulls };
}
function decimalColumn(name, precision, scale, bits, nullEvery) {
  const values = rows.map((i) => (nullEvery && i % nullEvery === 3 ? null : randomBig(precision)));
  if (values.length > 2) values[1] = 0n;
  const type = new arrow.Decimal(scale, precision, bits);
  const { bitmap, nulls } = validity(values);
  const data = arrow.makeData({ type, length: N, nullCount: nulls, nullBitmap: nulls ? bitmap : null,
                                data: decimalWords(values, bits) });
  return { field: new arrow.Field(name, type, true), data,
           expected: values.map((v) => decimalText(v, scale)) };
}

// ---- dictionaries: arrow JS builds the dictionary from the values
function dictColumn(name, valueType, indexType, values) {
  const type = new arrow.Dictionary(valueType, indexType);
  const vec = arrow.vectorFromArray(values, type);
  return { field: new arrow.Field(name, type, true), data: vec.data[0], expected: values };
}
const words = ["alpha", "beta", "gamma", "delta", "", "epsilon-with-a-longer-value"];
const columns = [
  { field: new arrow.Field("id", new arrow.Int32(), false),
    data: arrow.vectorFromArray(rows, new arrow.Int32()).data[0], expected: rows },
  dictColumn("dict_utf8_int8", new arrow.Utf8(), new arrow.Int8(),
             rows.map((i) => (i % 7 === 5 ? null : words[randInt(0, words.length - 1)]))),
  dictColumn("dict_utf8_uint16", new arrow.Utf8(), new arrow.Uint16(),
             rows.map((i) => `key-${randInt(0, 299)}`)),
  dictColumn("dict_int32_int32", new arrow.Int32(), new arrow.Int32(),
             rows.map((i) => (i % 11 === 0 ? null : randInt(-3, 3) * 1000003))),
  decimalColumn("dec_10_2", 10, 2, 128, 9),
  decimalColumn("dec_38_0", 38, 0, 128, 0),
  decimalColumn("dec_20_neg3", 20, -3, 128, 13),
  decimalColumn("dec256_60_20", 60, 20, 256, 17),
  // A type lance-nd does not read (time of day): its column must be refused alone.
  { field: new arrow.Field("time_ms", new arrow.TimeMillisecond(), true),
    data: arrow.vectorFromArray(rows.map((i) => i * 1000), new arrow.TimeMillisecond()).data[0],
    expected: rows.map((i) => i * 1000) },
  // A packed struct (one column holding both children), which lance-nd does not read either.
  (() => {
    const type = new arrow.Struct([new arrow.Field("x", new arrow.Int32(), true),
                                   new arrow.Field("y", new arrow.Float32(), true)]);
    const values = rows.map((i) => ({ x: i, y: i / 4 }));
    return { field: new arrow.Field("packed_xy", type, true,
                                    new Map([["lance-encoding:packed", "true"]])),
             data: arrow.vectorFromArray(values, type).data[0], expected: values };
  })(),
];

const schema = new arrow.Schema(columns.map((c) => c.field));
const batch = new arrow.RecordBatch(schema, arrow.makeData({
  type: new arrow.Struct(schema.fields), length: N, nullCount: 0,
  children: columns.map((c) => c.data),
}));
const table = new arrow.Table([batch]);
const db = await lancedb.connect(path.resolve(outDir));
for (const version of ["2.1", "2.2"]) {
  const name = `dict_decimal_${version.replace(".", "_")}`;
  await db.createTable(name, table, {
    mode: "overwrite",
    storageOptions: { new_table_data_storage_version: version },
  });
}
const expected = { num_rows: N, columns: {} };
for (const c of columns) expected.columns[c.field.name] = c.expected;
fs.writeFileSync(path.join(outDir, "dict_decimal.json"), JSON.stringify(expected) + "\n");

// ---- --check: LanceDB reads what lance-nd wrote
function plain(type, v) {
  if (v === null || v === undefined) return null;
  if (arrow.DataType.isDecimal(type)) {
    const words = Array.from(v);  // little-endian 32-bit words, two's complement
    let u = 0n;
    for (let w = words.length - 1; w >= 0; w--) u = (u << 32n) | BigInt(words[w] >>> 0);
    const bits = BigInt(words.length * 32);
    if (u >> (bits - 1n)) u -= 1n << bits;
    return decimalText(u, type.scale);
  }
  return v;
}

async function checkOurs() {
  const expected = JSON.parse(fs.readFileSync(path.join(outDir, "dict_decimal.json"), "utf8"));
  const db = await lancedb.connect(path.join(path.resolve(outDir), "ours"));
  let failures = 0;
  for (const name of ["ours_2_1", "ours_2_2"]) {
    const t = await db.openTable(name);
    const got = await t.query().toArrow();
    if (got.numRows !== expected.num_rows) throw new Error(`${name}: ${got.numRows} rows`);
    let values = 0;
    for (const f of got.schema.fields) {
      const want = expected.columns[f.name];
      if (!want) throw new Error(`${name}: unexpected column ${f.name}`);
      const col = got.getChild(f.name);
      for (let i = 0; i < got.numRows; i++) {
        const v = plain(f.type, col.get(i));
        values++;
        if (v !== want[i] && failures++ < 10) {
          console.error(`${name} ${f.name} row ${i}: LanceDB read ${v}, expected ${want[i]}`);
        }
      }
    }
    const dec = expected.columns.dec_10_2;
    const filters = {
      "dec_10_2 IS NULL": dec.filter((v) => v === null).length,
      "dec_10_2 > 0": dec.filter((v) => v !== null && !v.startsWith("-") && /[1-9]/.test(v)).length,
      "dict_utf8_int8 = 'beta'": expected.columns.dict_utf8_int8.filter((v) => v === "beta").length,
    };
    for (const [where, count] of Object.entries(filters)) {
      const n = (await t.query().where(where).toArrow()).numRows;
      if (n !== count) {
        failures++;
        console.error(`${name}: filter ${where} gave ${n} rows, expected ${count}`);
      }
    }
    console.log(`${name}: LanceDB read ${values} values of ${got.schema.fields.length} columns`);
  }
  if (failures > 0) {
    console.error(`${failures} mismatches`);
    process.exit(1);
  }
}
