// Make LanceDB (Lance 12) write a matrix of tables in file formats 2.1 and 2.2, and dump the
// values each column must decode to, for lance-nd's reader interop test.
//   node make_tables.mjs OUT_DIR
// Writes OUT_DIR/db/<table>.lance (LanceDB tables) and OUT_DIR/expected/<table>.json:
//   {"num_rows": N, "columns": {"<name>": [value per row, ...]}}
// JSON values: null for nulls; booleans; numbers for 8..32-bit integers, floats and date32;
// decimal strings for 64-bit integers, timestamps and durations; strings for utf8; lowercase hex
// for binary; arrays for lists; objects for structs.
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const interopDir = process.env.LANCE_ND_INTEROP_DIR ||
  path.resolve(path.dirname(new URL(import.meta.url).pathname), "../../interop");
const oracle = await import(pathToFileURL(path.join(interopDir, "lance_oracle.mjs")).href);
const { arrow, lancedb } = oracle;

const outDir = process.argv[2];
if (!outDir) {
  console.error("usage: node make_tables.mjs OUT_DIR");
  process.exit(2);
}
fs.mkdirSync(path.join(outDir, "expected"), { recursive: true });

// ------------------------------------------------------------------ deterministic data
let { rand, randInt } = oracle.seededRandom(12345);
const pick = (arr) => arr[randInt(0, arr.length - 1)];
const range = (n, f) => Array.from({ length: n }, (_, i) => f(i));
const randString = (len) => range(len, () => String.fromCharCode(97 + randInt(0, 25))).join("");

const F = (name, type, nullable = true, metadata = null) =>
  new arrow.Field(name, type, nullable, metadata ? new Map(Object.entries(metadata)) : undefined);
const item = (type, nullable = true) => F("item", type, nullable);
const List = (type, nullable = true) => new arrow.List(item(type, nullable));
const Struct = (fields) => new arrow.Struct(fields);

// ------------------------------------------------------------------ dumping Arrow data
const hex = (bytes) => Buffer.from(bytes).toString("hex");
const utf8 = new TextDecoder();

function isValid(data, i) {
  if (!data.nullBitmap || data.nullBitmap.length === 0 || data.nullCount === 0) return true;
  const pos = data.offset + i;
  return (data.nullBitmap[pos >> 3] & (1 << (pos & 7))) !== 0;
}

function dump(data, i) {
  if (!isValid(data, i)) return null;
  const t = data.type;
  const pos = data.offset + i;
  switch (t.typeId) {
    case arrow.Type.Null: return null;
    case arrow.Type.Bool: return (data.values[pos >> 3] & (1 << (pos & 7))) !== 0;
    case arrow.Type.Int:
      return t.bitWidth === 64 ? String(data.values[pos]) : Number(data.values[pos]);
    case arrow.Type.Float:
      if (t.precision === arrow.Precision.HALF) return arrow.util.uint16ToFloat64(data.values[pos]);
      return Number(data.values[pos]);
    case arrow.Type.Date:
      return Number(data.values[pos]);
    case arrow.Type.Timestamp:
    case arrow.Type.Duration:
      return String(data.values[pos]);
    case arrow.Type.Utf8:
    case arrow.Type.LargeUtf8: {
      const o = data.valueOffsets;
      return utf8.decode(data.values.subarray(Number(o[pos]), Number(o[pos + 1])));
    }
    case arrow.Type.Binary:
    case arrow.Type.LargeBinary: {
      const o = data.valueOffsets;
      return hex(data.values.subarray(Number(o[pos]), Number(o[pos + 1])));
    }
    case arrow.Type.FixedSizeBinary:
      return hex(data.values.subarray(pos * t.byteWidth, (pos + 1) * t.byteWidth));
    case arrow.Type.List:
    case arrow.Type.LargeList: {
      const o = data.valueOffsets;
      const child = data.children[0];
      return range(Number(o[pos + 1]) - Number(o[pos]), (k) => dump(child, Number(o[pos]) + k));
    }
    case arrow.Type.FixedSizeList: {
      const child = data.children[0];
      return range(t.listSize, (k) => dump(child, pos * t.listSize + k));
    }
    case arrow.Type.Struct: {
      const out = {};
      t.children.forEach((f, k) => { out[f.name] = dump(data.children[k], pos); });
      return out;
    }
    default:
      throw new Error(`cannot dump type ${t}`);
  }
}

// ------------------------------------------------------------------ building tables
function vec(values, type) {
  const v = arrow.vectorFromArray(values, type);
  if (v.data.length !== 1) throw new Error("expected one chunk");
  return v.data[0];
}

function makeTable(columns) {  // columns: [{field, values}]
  const datas = columns.map((c) => vec(c.values, c.field.type));
  const fields = columns.map((c) => c.field);
  const schema = new arrow.Schema(fields);
  const length = datas[0].length;
  const data = arrow.makeData({ type: new arrow.Struct(fields), length, nullCount: 0, children: datas });
  const table = new arrow.Table([new arrow.RecordBatch(schema, data)]);
  const expected = {};
  fields.forEach((f, k) => { expected[f.name] = range(length, (i) => dump(datas[k], i)); });
  return { table, expected: { num_rows: length, columns: expected } };
}

const nullEvery = (n, k, f) => range(n, (i) => (i % k === k - 1 ? null : f(i)));

// ------------------------------------------------------------------ the matrix
const cases = {};

cases.primitives = () => {
  const n = 300;
  const day = 86400000;
  return [
    { field: F("b", new arrow.Bool()), values: nullEvery(n, 7, (i) => i % 3 === 0) },
    { field: F("b_nonnull", new arrow.Bool(), false), values: range(n, (i) => i % 5 < 2) },
    { field: F("i8", new arrow.Int8()), values: nullEvery(n, 7, (i) => (i % 200) - 100) },
    { field: F("i16", new arrow.Int16()), values: nullEvery(n, 7, () => randInt(-300, 300)) },
    { field: F("i32", new arrow.Int32()), values: nullEvery(n, 7, () => randInt(-5000, 5000)) },
    { field: F("i32_nonnull", new arrow.Int32(), false), values: range(n, (i) => i * 3) },
    { field: F("i64", new arrow.Int64()), values: nullEvery(n, 7, (i) => BigInt(i) * 1000000007n - 5n) },
    { field: F("u8", new arrow.Uint8()), values: nullEvery(n, 7, (i) => i % 256) },
    { field: F("u16", new arrow.Uint16()), values: nullEvery(n, 7, (i) => (i * 37) % 65536) },
    { field: F("u32", new arrow.Uint32()), values: nullEvery(n, 7, (i) => i * 100003) },
    { field: F("u64", new arrow.Uint64()), values: nullEvery(n, 7, (i) => BigInt(i) * 3n) },
    { field: F("f16", new arrow.Float16()), values: nullEvery(n, 7, (i) => i / 4) },
    { field: F("f32", new arrow.Float32()), values: nullEvery(n, 7, () => Math.fround(rand() * 100 - 50)) },
    { field: F("f64", new arrow.Float64()), values: nullEvery(n, 7, () => rand() * 1e6) },
    { field: F("date32", new arrow.DateDay()), values: nullEvery(n, 7, (i) => new Date((18000 + i) * day)) },
    { field: F("ts_ns_utc", new arrow.TimestampNanosecond("UTC")), values: nullEvery(n, 7, (i) => 1700000000000 + i * 1000) },
    { field: F("ts_us", new arrow.TimestampMicrosecond()), values: nullEvery(n, 7, (i) => 1600000000000 + i) },
    { field: F("ts_ms", new arrow.TimestampMillisecond()), values: nullEvery(n, 7, (i) => 1500000000000 + i) },
    { field: F("ts_s", new arrow.TimestampSecond("Europe/Paris")), values: nullEvery(n, 7, (i) => 1400000000000 + i * 1000) },
    { field: F("s", new arrow.Utf8()), values: nullEvery(n, 7, (i) => `s${i}_${randString(randInt(0, 12))}`) },
    { field: F("s_nonnull", new arrow.Utf8(), false), values: range(n, (i) => (i % 4 === 0 ? "" : `x${i}`)) },
    { field: F("ls", new arrow.LargeUtf8()), values: nullEvery(n, 7, (i) => `large${i}`) },
    { field: F("bin", new arrow.Binary()), values: nullEvery(n, 7, (i) => Uint8Array.from(range(i % 9, (k) => (k * 31 + i) % 256))) },
    { field: F("lbin", new arrow.LargeBinary()), values: nullEvery(n, 7, (i) => Uint8Array.from(range(i % 5, (k) => k + i))) },
    { field: F("fsb", new arrow.FixedSizeBinary(4)), values: nullEvery(n, 7, (i) => Uint8Array.from([i % 256, 1, 2, 3])) },
  ];
};

cases.fixed_size_lists = () => {
  const n = 200;
  return [
    { field: F("v4", new arrow.FixedSizeList(4, item(new arrow.Float32()))), values: nullEvery(n, 9, (i) => range(4, (k) => i + k / 2)) },
    { field: F("v4_items_null", new arrow.FixedSizeList(4, item(new arrow.Int32()))), values: range(n, (i) => range(4, (k) => ((i + k) % 5 === 0 ? null : i * 4 + k))) },
    { field: F("v128", new arrow.FixedSizeList(128, item(new arrow.Float32()))), values: nullEvery(n, 11, (i) => range(128, (k) => Math.fround(Math.sin(i + k)))) },
    { field: F("v3_i16", new arrow.FixedSizeList(3, item(new arrow.Int16())), false), values: range(n, (i) => [i, -i, i % 7]) },
  ];
};

cases.lists = () => {
  const n = 250;
  const listOf = (i, f) => (i % 11 === 3 ? null : i % 13 === 5 ? [] : range(randInt(1, 6), f));
  return [
    { field: F("li32", List(new arrow.Int32())), values: range(n, (i) => listOf(i, (k) => (k === 2 && i % 2 ? null : i * 10 + k))) },
    { field: F("li32_nonnull", List(new arrow.Int32(), false), false), values: range(n, (i) => range(1 + (i % 4), (k) => k - i)) },
    { field: F("lf64", List(new arrow.Float64())), values: range(n, (i) => listOf(i, () => rand())) },
    { field: F("lstr", List(new arrow.Utf8())), values: range(n, (i) => listOf(i, (k) => (k === 1 && i % 3 === 0 ? null : `w${i}.${k}`))) },
    { field: F("ll", List(List(new arrow.Int32()))), values: range(n, (i) => listOf(i, (k) => (k === 1 && i % 4 === 0 ? null : k === 2 ? [] : range(k + 1, (m) => m + i)))) },
    {
      field: F("lstruct", List(Struct([F("a", new arrow.Int32()), F("b", new arrow.Utf8())]))),
      values: range(n, (i) => listOf(i, (k) => (k === 1 && i % 5 === 0 ? null : { a: i + k, b: k % 2 ? null : `b${k}` }))),
    },
  ];
};

// nd-shaped struct {values: list<T>, dim_names: list<utf8>, dim_sizes: list<uint32>} (+ attrs)
function ndColumn(name, valueType, rows, gen, options = {}) {
  const fields = [
    F("values", List(valueType), true, options.valuesMetadata),
    F("dim_names", List(new arrow.Utf8())),
    F("dim_sizes", List(new arrow.Uint32())),
    F("attrs", Struct([F("units", new arrow.Utf8())])),
  ];
  const values = rows.map((r, i) => {
    if (r === null) return null;
    const dims = r;
    const total = dims.reduce((a, b) => a * b, 1);
    return {
      values: range(total, (k) => gen(i, k)),
      dim_names: dims.map((_, d) => ["time", "lat", "lon", "depth"][d]),
      dim_sizes: dims,
      attrs: i % 5 === 2 ? null : { units: i % 3 === 0 ? null : pick(["K", "m/s", "Pa"]) },
    };
  });
  return { field: F(name, Struct(fields), true, { "nd:kind": "variable" }), values };
}

cases.nd_small = () => {
  const n = 200;
  const rows = range(n, (i) => (i % 7 === 6 ? null : i % 3 === 0 ? [randInt(1, 12)] : [randInt(1, 3), randInt(1, 4)]));
  const t0 = 1700000000000;
  return [
    ndColumn("t_f32", new arrow.Float32(), rows, () => Math.fround(273 + rand() * 40)),
    ndColumn("t_f64", new arrow.Float64(), rows, () => rand() * 1000),
    ndColumn("t_i16", new arrow.Int16(), rows, () => randInt(-300, 300)),
    ndColumn("t_i32", new arrow.Int32(), rows, () => randInt(-5000, 5000)),
    ndColumn("t_str", new arrow.Utf8(), rows, (i, k) => `v${(i * 7 + k) % 1000}`),
    ndColumn("t_ts", new arrow.TimestampMicrosecond("UTC"), rows, (i, k) => t0 + i * 1000 + k),
  ];
};

cases.nd_large = () => {
  const rows = range(8, (i) => (i === 3 ? null : [100, 1000]));
  return [
    ndColumn("big_f32", new arrow.Float32(), rows, (i, k) => Math.fround(273 + ((i * 7 + k) % 4000) / 100)),
    ndColumn("big_f64", new arrow.Float64(), rows, (i, k) => Math.sin(i + k / 1000)),
    ndColumn("big_i32", new arrow.Int32(), rows, () => randInt(-5000, 5000)),
  ];
};

cases.long_values = () => {
  const n = 60;
  return [
    { field: F("long_s", new arrow.Utf8()), values: nullEvery(n, 7, (i) => randString(256 + (i % 50) * 7)) },
    { field: F("mixed_s", new arrow.Utf8()), values: range(n, (i) => (i === 17 ? randString(300) : randString(20))) },
    { field: F("long_bin", new arrow.LargeBinary()), values: nullEvery(n, 5, (i) => Uint8Array.from(range(300 + i, (k) => (k * i) % 256))) },
    {
      field: F("nested_long", Struct([F("names", List(new arrow.Utf8()))])),
      values: range(n, (i) => (i % 6 === 1 ? null : { names: i % 4 === 0 ? [] : range(1 + (i % 3), () => randString(300)) })),
    },
    { field: F("huge_s", new arrow.Utf8()), values: range(n, (i) => (i % 20 === 0 ? randString(40000) : randString(300))) },
  ];
};

cases.compression = () => {
  const n = 5000;
  return [
    { field: F("z_f32", new arrow.Float32(), true, { "lance-encoding:compression": "zstd" }), values: nullEvery(n, 9, (i) => Math.fround(Math.sin(i / 10))) },
    { field: F("lz_i64", new arrow.Int64(), true, { "lance-encoding:compression": "lz4" }), values: range(n, (i) => BigInt(Math.floor(i / 3))) },
    { field: F("z_str", new arrow.Utf8(), true, { "lance-encoding:compression": "zstd" }), values: range(n, (i) => `row ${i} ${randString(10)}`) },
    { field: F("bss_f64", new arrow.Float64(), true, { "lance-encoding:compression": "zstd", "lance-encoding:bss": "on" }), values: range(n, (i) => 1000 + Math.cos(i / 7)) },
    { field: F("rle_i32", new arrow.Int32(), true, { "lance-encoding:rle-threshold": "0.9" }), values: range(n, (i) => Math.floor(i / 100)) },
    { field: F("runs_u8", new arrow.Uint8()), values: range(n, (i) => Math.floor(i / 500)) },
    { field: F("bitpack_u64", new arrow.Uint64()), values: range(n, (i) => BigInt(i % 1000)) },
    ndColumn("nd_zstd", new arrow.Float32(), range(n, (i) => (i % 9 === 4 ? null : [2, 3])), (i, k) => Math.fround(i + k / 8), { valuesMetadata: { "lance-encoding:compression": "zstd" } }),
  ];
};

cases.dictionary = () => {
  const n = 1000;
  return [
    { field: F("units", new arrow.Utf8()), values: nullEvery(n, 10, () => pick(["K", "m/s", "Pa", "kg m-2"])) },
    { field: F("names", List(new arrow.Utf8())), values: range(n, (i) => range(1 + (i % 40), (k) => (k % 2 ? "lat" : "lon"))) },
    { field: F("sorted_i64", new arrow.Int64()), values: range(n, (i) => BigInt(Math.floor(i / 10)) * 1000003n) },
    { field: F("cats_u32", new arrow.Uint32()), values: range(n, () => pick([7, 70000, 7000000])) },
  ];
};

cases.nulls_and_constants = () => {
  const n = 300;
  return [
    { field: F("null_i32", new arrow.Int32()), values: range(n, () => null) },
    { field: F("null_str", new arrow.Utf8()), values: range(n, () => null) },
    { field: F("null_list", List(new arrow.Float32())), values: range(n, () => null) },
    { field: F("empty_lists", List(new arrow.Int32())), values: range(n, (i) => (i % 2 ? [] : null)) },
    { field: F("null_struct", Struct([F("x", new arrow.Int32()), F("y", List(new arrow.Utf8()))])), values: range(n, () => null) },
    { field: F("const_i32", new arrow.Int32()), values: range(n, () => 7) },
    { field: F("const_f64", new arrow.Float64()), values: range(n, () => 1.5) },
    { field: F("const_str", new arrow.Utf8()), values: range(n, () => "same") },
    { field: F("const_list", List(new arrow.Int32())), values: range(n, () => [1, 2]) },
  ];
};

cases.fsst = () => {
  const n = 2000;
  const words = ["temperature", "salinity", "pressure", "latitude", "longitude", "depth", "time"];
  const sentence = (len) => { let s = ""; while (s.length < len) s += pick(words) + " "; return s.slice(0, len); };
  return [
    { field: F("short_text", new arrow.Utf8()), values: nullEvery(n, 13, (i) => sentence(20 + (i % 30))) },
    { field: F("long_text", new arrow.Utf8()), values: nullEvery(n, 17, (i) => sentence(260 + (i % 40))) },
  ];
};

// ------------------------------------------------------------------ write everything
const db = await lancedb.connect(path.join(outDir, "db"));
const only = process.env.LANCE_ND_INTEROP_ONLY;
let count = 0;
for (const [caseName, build] of Object.entries(cases)) {
  if (only && !only.split(",").includes(caseName)) continue;
  for (const version of ["2.1", "2.2"]) {
    ({ rand, randInt } = oracle.seededRandom(12345 + caseName.length));  // same data for both versions
    const { table, expected } = makeTable(build());
    const name = `${caseName}_v${version.replace(".", "")}`;
    await db.createTable(name, table, {
      mode: "overwrite",
      storageOptions: { new_table_data_storage_version: version },
    });
    expected.version = version;
    fs.writeFileSync(path.join(outDir, "expected", `${name}.json`), JSON.stringify(expected));
    ++count;
  }
}
console.log(`wrote ${count} tables to ${outDir}`);
