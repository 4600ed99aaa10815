// Shared helpers for the lance-nd interop scripts: load the oracle, build nd-encoded Arrow
// columns from a plain description, describe an nd-encoded Arrow table as plain JSON, and read
// and write Arrow IPC.
//
// The plain description ("nd JSON") is the contract between these scripts and the C++ checker
// (tests/nd_ipc_interop/nd_ipc_tool.cc); interop/README.md documents it.
import fs from "node:fs";
import path from "node:path";
import { arrow, lancedb, storageOptions } from "./lance_oracle.mjs";

export { arrow, lancedb };

const {
  Bool, Field, Float32, Float64, Int8, Int16, Int32, Int64, Uint8, Uint16, Uint32, Uint64, List,
  Struct, Utf8, Schema, Timestamp, TimeUnit, RecordBatch, Table, Type, makeData, DateDay,
  DateMillisecond, Duration, LargeUtf8, Binary,
} = arrow;

export const kNdExtension = "nd_arrow.array";
export const kGlobalExtension = "nd_arrow.global_attributes";
export const kExtensionName = "ARROW:extension:name";
export const kExtensionMetadata = "ARROW:extension:metadata";
export const kGlobalAttrsColumn = "__global_attrs__";

// ---------------------------------------------------------------- type names <-> Arrow types

const kUnitNames = ["s", "ms", "us", "ns"];

/** "float32", "timestamp[ns]", "timestamp[ns, tz=UTC]", "list<int32>", ... -> Arrow JS type. */
export function typeFromName(name) {
  const list = /^list<(.*)>$/.exec(name);
  if (list) return new List(new Field("item", typeFromName(list[1]), true));
  const ts = /^timestamp\[(s|ms|us|ns)(?:, tz=(.*))?\]$/.exec(name);
  if (ts) return new Timestamp(kUnitNames.indexOf(ts[1]), ts[2] ?? null);
  const duration = /^duration\[(s|ms|us|ns)\]$/.exec(name);
  if (duration) return new Duration(kUnitNames.indexOf(duration[1]));
  const simple = {
    bool: Bool, int8: Int8, int16: Int16, int32: Int32, int64: Int64, uint8: Uint8,
    uint16: Uint16, uint32: Uint32, uint64: Uint64, float32: Float32, float64: Float64,
    utf8: Utf8, large_utf8: LargeUtf8, binary: Binary, date32: DateDay, date64: DateMillisecond,
  }[name];
  if (!simple) throw new Error(`unsupported type name '${name}'`);
  return new simple();
}

/** The inverse of typeFromName; throws on a type the contract does not cover. */
export function typeName(type) {
  switch (type.typeId) {
    case Type.Bool: return "bool";
    case Type.Int: return `${type.isSigned ? "int" : "uint"}${type.bitWidth}`;
    case Type.Float:
      if (type.precision === 1) return "float32";
      if (type.precision === 2) return "float64";
      break;
    case Type.Utf8: return "utf8";
    case Type.LargeUtf8: return "large_utf8";
    case Type.Binary: return "binary";
    case Type.Date: return type.unit === 0 ? "date32" : "date64";
    case Type.Duration: return `duration[${kUnitNames[type.unit]}]`;
    case Type.Timestamp:
      return `timestamp[${kUnitNames[type.unit]}${type.timezone ? `, tz=${type.timezone}` : ""}]`;
    case Type.List: return `list<${typeName(type.children[0].type)}>`;
    default: break;
  }
  throw new Error(`unsupported Arrow type ${type}`);
}

// JSON value encoding: 64-bit integers, timestamps, date64 and durations as decimal strings
// (exact), floats as numbers except "NaN", "Infinity", "-Infinity"; bool as true/false; utf8
// as strings; binary as lowercase hex; date32 as days; null.
function is64(type) {
  return (type.typeId === Type.Int && type.bitWidth === 64) || type.typeId === Type.Timestamp ||
    type.typeId === Type.Duration || (type.typeId === Type.Date && type.unit === 1);
}

function jsonToNative(type, v) {
  if (v === null) return null;
  if (is64(type)) return BigInt(v);
  if (type.typeId === Type.Binary) return Uint8Array.from(v.match(/../g) ?? [], (h) => parseInt(h, 16));
  if (type.typeId === Type.Float) {
    if (v === "NaN") return NaN;
    if (v === "Infinity") return Infinity;
    if (v === "-Infinity") return -Infinity;
  }
  return v;
}

function nativeToJson(type, v) {
  if (v === null) return null;
  if (typeof v === "bigint") return v.toString();
  if (v instanceof Uint8Array) return Buffer.from(v).toString("hex");
  if (type.typeId === Type.Float && !Number.isFinite(v)) {
    return Number.isNaN(v) ? "NaN" : v > 0 ? "Infinity" : "-Infinity";
  }
  return v;
}

// ---------------------------------------------------------------- building Arrow data

function validity(flags) {
  const nullCount = flags.filter((ok) => !ok).length;
  if (nullCount === 0) return { nullCount: 0, nullBitmap: undefined };
  const nullBitmap = new Uint8Array(((flags.length + 63) >> 6) << 3);
  flags.forEach((ok, i) => { if (ok) nullBitmap[i >> 3] |= 1 << (i & 7); });
  return { nullCount, nullBitmap };
}

/** Arrow Data of a flat (non-nested) type from native JS values (null = null slot). */
function leafData(type, values) {
  const { nullCount, nullBitmap } = validity(values.map((v) => v !== null));
  const length = values.length;
  if ([Type.Utf8, Type.LargeUtf8, Type.Binary].includes(type.typeId)) {
    const enc = new TextEncoder();
    const parts = values.map((v) => (v instanceof Uint8Array ? v : enc.encode(v ?? "")));
    const ends = [0];
    parts.forEach((p) => ends.push(ends[ends.length - 1] + p.length));
    const valueOffsets = type.typeId === Type.LargeUtf8
      ? BigInt64Array.from(ends, BigInt) : Int32Array.from(ends);
    const data = new Uint8Array(ends[length]);
    parts.forEach((p, i) => data.set(p, ends[i]));
    return makeData({ type, length, nullCount, nullBitmap, valueOffsets, data });
  }
  if (type.typeId === Type.Bool) {
    const data = new Uint8Array(((length + 63) >> 6) << 3);
    values.forEach((v, i) => { if (v) data[i >> 3] |= 1 << (i & 7); });
    return makeData({ type, length, nullCount, nullBitmap, data });
  }
  const data = new type.ArrayType(length);
  values.forEach((v, i) => { if (v !== null) data[i] = v; });
  return makeData({ type, length, nullCount, nullBitmap, data });
}

/** Arrow Data of `type` (flat, or list of flat) from native JS values. */
function columnData(type, values) {
  if (type.typeId !== Type.List) return leafData(type, values);
  const itemType = type.children[0].type;
  const flat = [];
  const valueOffsets = new Int32Array(values.length + 1);
  values.forEach((v, i) => {
    if (v !== null) flat.push(...v);
    valueOffsets[i + 1] = flat.length;
  });
  const { nullCount, nullBitmap } = validity(values.map((v) => v !== null));
  return makeData({
    type, length: values.length, nullCount, nullBitmap, valueOffsets,
    child: columnData(itemType, flat),
  });
}

function extensionMetadata(name) {
  return new Map([[kExtensionName, name], [kExtensionMetadata, '{"version":1}']]);
}

/** The union of attribute keys over `attrsPerRow` (first appearance order) with their types. */
function attrUnion(attrsPerRow, where) {
  const keys = new Map();
  for (const attrs of attrsPerRow) {
    for (const [k, a] of Object.entries(attrs ?? {})) {
      if (keys.has(k) && keys.get(k) !== a.type) {
        throw new Error(`${where}: attribute '${k}' has types ${keys.get(k)} and ${a.type}`);
      }
      keys.set(k, a.type);
    }
  }
  return keys;
}

/** A Struct of nullable attribute children; a row with `null` attrs gets a null struct slot. */
function attrsData(keys, attrsPerRow, nullRows) {
  const fields = [...keys].map(([key, t]) => new Field(key, typeFromName(t), true));
  const children = fields.map((f) => columnData(
    f.type, attrsPerRow.map((a) => (a && hasOwn(a, f.name) ? attrToNative(f.type, a[f.name].value)
      : null))));
  const { nullCount, nullBitmap } = validity(nullRows.map((isNull) => !isNull));
  const type = new Struct(fields);
  return makeData({ type, length: attrsPerRow.length, nullCount, nullBitmap, children });
}

function hasOwn(obj, key) { return Object.prototype.hasOwnProperty.call(obj, key); }

function attrToNative(type, v) {
  if (type.typeId === Type.List) {
    return v === null ? null : v.map((x) => jsonToNative(type.children[0].type, x));
  }
  return jsonToNative(type, v);
}

/**
 * One nd_arrow.array column over `rows` (nd JSON rows). A row without the variable is a null
 * struct slot whose list children are valid empty lists (the lance-nd storage rule). `spec`
 * ({type, keys: [[key, type], ...]}), when given, fixes the value type and the attribute keys
 * and their order (a table's schema), so that no row needs to hold the variable or a key.
 */
export function ndColumn(name, rows, spec = null) {
  const arrays = rows.map((r) => r.variables[name] ?? null);
  const present = arrays.filter((a) => a !== null);
  const valueTypeName = spec ? spec.type : present[0].type;
  for (const a of present) {
    if (a.type !== valueTypeName) {
      throw new Error(`variable '${name}' has value types ${valueTypeName} and ${a.type}`);
    }
  }
  const valueType = typeFromName(valueTypeName);
  const valuesType = new List(new Field("item", valueType, true));
  const namesType = new List(new Field("item", new Utf8(), false));
  const sizesType = new List(new Field("item", new Uint32(), false));
  const children = [
    columnData(valuesType,
      arrays.map((a) => (a ? a.values.map((v) => jsonToNative(valueType, v)) : []))),
    columnData(namesType, arrays.map((a) => (a ? a.dim_names : []))),
    columnData(sizesType, arrays.map((a) => (a ? a.dim_sizes : []))),
  ];
  const fields = [
    new Field("values", valuesType, false),
    new Field("dim_names", namesType, false),
    new Field("dim_sizes", sizesType, false),
  ];
  const keys = spec ? new Map(spec.keys)
    : attrUnion(arrays.map((a) => a?.attrs), `variable '${name}'`);
  if (keys.size > 0) {
    const attrs = attrsData(keys, arrays.map((a) => a?.attrs ?? null),
      arrays.map((a) => a === null));
    children.push(attrs);
    fields.push(new Field("attrs", attrs.type, true));
  }
  const { nullCount, nullBitmap } = validity(arrays.map((a) => a !== null));
  const type = new Struct(fields);
  const data = makeData({ type, length: rows.length, nullCount, nullBitmap, children });
  return { field: new Field(name, type, true, extensionMetadata(kNdExtension)), data };
}

/**
 * The __global_attrs__ column, or null when no row has global attributes. `keys` ([[key,
 * type], ...]), when given, fixes the keys and their order.
 */
export function globalAttrsColumn(rows, keys = null) {
  const perRow = rows.map((r) => r.global_attrs ?? null);
  keys = keys ? new Map(keys) : attrUnion(perRow, kGlobalAttrsColumn);
  if (keys.size === 0) return null;
  const data = attrsData(keys, perRow, perRow.map((g) => g === null));
  return {
    field: new Field(kGlobalAttrsColumn, data.type, true, extensionMetadata(kGlobalExtension)),
    data,
  };
}

/** An Arrow Table (one record batch) encoding nd JSON `rows`, like lance-nd's EncodeRows. */
export function encodeRows(rows, schemaMetadata = new Map()) {
  const names = [];
  for (const r of rows) for (const n of Object.keys(r.variables)) if (!names.includes(n)) names.push(n);
  const columns = names.map((n) => ndColumn(n, rows));
  const globals = globalAttrsColumn(rows);
  if (globals) columns.push(globals);
  const schema = new Schema(columns.map((c) => c.field), schemaMetadata);
  const data = makeData({
    type: new Struct(schema.fields), length: rows.length, nullCount: 0,
    children: columns.map((c) => c.data),
  });
  return new Table([new RecordBatch(schema, data)]);
}

// ---------------------------------------------------------------- describing Arrow data

function isValid(data, i) {
  if (!data.nullBitmap || data.nullBitmap.length === 0 || data.nullCount === 0) return true;
  const pos = data.offset + i;
  return (data.nullBitmap[pos >> 3] & (1 << (pos & 7))) !== 0;
}

/** The native value of slot i of a flat or list Data (null for a null slot). */
function valueAt(data, i) {
  if (!isValid(data, i)) return null;
  const type = data.type;
  const pos = data.offset + i;
  switch (type.typeId) {
    case Type.Bool: return (data.values[pos >> 3] & (1 << (pos & 7))) !== 0;
    case Type.Utf8:
    case Type.LargeUtf8: {
      const b = Number(data.valueOffsets[pos]);
      const e = Number(data.valueOffsets[pos + 1]);
      return new TextDecoder().decode(data.values.subarray(b, e));
    }
    case Type.Binary:
      return data.values.slice(data.valueOffsets[pos], data.valueOffsets[pos + 1]);
    case Type.List: return listAt(data, i);
    case Type.Int: case Type.Float: case Type.Timestamp: case Type.Date: case Type.Duration:
      return data.values[pos];
    default: throw new Error(`unsupported Arrow type ${type}`);
  }
}

function listAt(data, i) {
  const pos = data.offset + i;
  const child = data.children[0];
  const out = [];
  for (let j = data.valueOffsets[pos]; j < data.valueOffsets[pos + 1]; ++j) {
    out.push(valueAt(child, j));
  }
  return out;
}

function valueToJson(type, v) {
  if (v === null) return null;
  if (type.typeId === Type.List) return v.map((x) => valueToJson(type.children[0].type, x));
  return nativeToJson(type, v);
}

function describeAttrs(data, i) {
  const out = {};
  data.type.children.forEach((f, c) => {
    const v = valueAt(data.children[c], i);
    if (v !== null) out[f.name] = { type: typeName(f.type), value: valueToJson(f.type, v) };
  });
  return out;
}

/**
 * nd JSON of an nd-encoded Arrow table: { rows: [{ variables: {...}, global_attrs }] } plus
 * `fields`: per column its name, nullability, Arrow type text and metadata, and
 * `null_row_null_children`: how many list children of null nd rows were null rather than valid
 * empty lists (an error unless `strictNullRows` is false). A null nd row is an absent variable;
 * a row whose attrs struct is null or whose keys are all null has no attrs key.
 */
export function describeTable(table, { strictNullRows = true } = {}) {
  let nullChildren = 0;
  const rows = [];
  for (const batch of table.batches) {
    for (let i = 0; i < batch.numRows; ++i) rows.push({ variables: {}, global_attrs: null });
  }
  let base = 0;
  for (const batch of table.batches) {
    batch.schema.fields.forEach((field, c) => {
      const data = batch.data.children[c];
      const ext = field.metadata.get(kExtensionName);
      for (let i = 0; i < batch.numRows; ++i) {
        if (!isValid(data, i)) {
          if (ext === kNdExtension) {
            nullChildren += checkNullRowChildren(field, data, i, strictNullRows);
          }
          continue;
        }
        if (ext === kGlobalExtension) {
          const g = describeAttrs(data, i);
          rows[base + i].global_attrs = Object.keys(g).length ? g : null;
          continue;
        }
        if (ext !== kNdExtension) throw new Error(`column '${field.name}' is not an nd column`);
        const names = field.type.children.map((f) => f.name);
        const child = (n) => data.children[names.indexOf(n)];
        const values = child("values");
        const itemType = values.type.children[0].type;
        const desc = {
          type: typeName(itemType),
          dim_names: listAt(child("dim_names"), i),
          dim_sizes: listAt(child("dim_sizes"), i),
          values: listAt(values, i).map((v) => valueToJson(itemType, v)),
        };
        if (names.includes("attrs") && isValid(child("attrs"), i)) {
          const attrs = describeAttrs(child("attrs"), i);
          if (Object.keys(attrs).length) desc.attrs = attrs;
        }
        rows[base + i].variables[field.name] = desc;
      }
    });
    base += batch.numRows;
  }
  const schema = table.schema;
  return {
    fields: schema.fields.map(describeField),
    schema_metadata: Object.fromEntries([...schema.metadata].sort()),
    rows,
    null_row_null_children: nullChildren,
  };
}

/**
 * lance-nd storage rule: a null nd row still holds valid empty lists in its list children.
 * Lance 12 returns those children as null (empty) lists although the fields are not nullable,
 * so `strict` = false accepts null empty lists. Returns how many null lists were seen.
 */
function checkNullRowChildren(field, data, i, strict) {
  let nulls = 0;
  field.type.children.forEach((f, c) => {
    const child = data.children[c];
    if (f.type.typeId !== Type.List) return;
    const pos = child.offset + i;
    const valid = isValid(child, i);
    if (!valid) ++nulls;
    if ((strict && !valid) || child.valueOffsets[pos + 1] !== child.valueOffsets[pos]) {
      throw new Error(`column '${field.name}' row ${i} is null but its child '${f.name}' ` +
        `is not a valid empty list (${valid ? "non-empty" : "null"}); null nd rows must hold ` +
        "valid empty lists");
    }
  });
  return nulls;
}

function describeField(f) {
  const out = {
    name: f.name, nullable: f.nullable, type: String(f.type),
    metadata: Object.fromEntries([...f.metadata].sort()),
  };
  if (f.type.children?.length) out.children = f.type.children.map(describeField);
  return out;
}

// ---------------------------------------------------------------- IPC and JSON files

export function readIpc(path) {
  return arrow.tableFromIPC(fs.readFileSync(path));
}

/** Write `table` as an Arrow IPC file ("file") or stream ("stream"). */
export function writeIpc(path, table, format = "file") {
  fs.writeFileSync(path, arrow.tableToIPC(table, format));
}

/** JSON with sorted object keys, so equal descriptions give equal text. */
export function stableJson(value) {
  const sort = (v) => {
    if (Array.isArray(v)) return v.map(sort);
    if (v && typeof v === "object") {
      return Object.fromEntries(Object.keys(v).sort().map((key) => [key, sort(v[key])]));
    }
    return v;
  };
  return JSON.stringify(sort(value), null, 1);
}

/** Create (overwrite) table `name` in the LanceDB database at `dir`, Lance file format 2.2. */
export async function writeLance(dir, name, table) {
  const db = await lancedb.connect(dir);
  return db.createTable(name, table, {
    mode: "overwrite",
    storageOptions,
  });
}

/**
 * The Lance file versions ("2.2", ...) of the data files of table `name` in database `dir`,
 * read from each file's footer (major and minor u16 little endian, then the magic "LANC").
 */
export function dataFileVersions(dir, name) {
  const dataDir = path.join(dir, `${name}.lance`, "data");
  return fs.readdirSync(dataDir).filter((f) => f.endsWith(".lance")).map((f) => {
    const buf = fs.readFileSync(path.join(dataDir, f));
    const tail = buf.subarray(buf.length - 8);
    if (tail.toString("latin1", 4) !== "LANC") throw new Error(`${f}: no Lance magic`);
    return `${tail.readUInt16LE(0)}.${tail.readUInt16LE(2)}`;
  });
}

/** Throw unless every data file of table `name` is Lance file format 2.2. */
export function expectFormat22(dir, name) {
  const versions = dataFileVersions(dir, name);
  if (versions.length === 0 || versions.some((v) => v !== "2.2")) {
    throw new Error(`table '${name}': expected Lance 2.2 data files, found [${versions}]`);
  }
}
