// Exact, JSON-comparable values of Arrow tables, read from the raw buffers (not through
// apache-arrow's getters, which turn 64-bit times into lossy numbers):
//   null; booleans; numbers for 8..32-bit integers and date32; decimal strings for 64-bit
//   integers, date64, timestamps and durations; floats as numbers except "NaN", "Infinity",
//   "-Infinity" and "-0"; text as strings; bytes as lowercase hex; lists as arrays; structs as
//   objects.
import { arrow } from "../../interop/lance_oracle.mjs";

const utf8 = new TextDecoder();
const hex = (bytes) => Buffer.from(bytes).toString("hex");

function isValid(data, i) {
  if (data.type.typeId === arrow.Type.Null) return false;
  if (!data.nullBitmap || data.nullBitmap.length === 0 || data.nullCount === 0) return true;
  const pos = data.offset + i;
  return (data.nullBitmap[pos >> 3] & (1 << (pos & 7))) !== 0;
}

function float(v) {
  if (Number.isNaN(v)) return "NaN";
  if (Object.is(v, -0)) return "-0";
  if (!Number.isFinite(v)) return v > 0 ? "Infinity" : "-Infinity";
  return v;
}

// 64-bit values are BigInt64Array entries in apache-arrow 18; older layouts used int32 pairs.
function wide(values, pos) {
  if (values instanceof BigInt64Array || values instanceof BigUint64Array) return String(values[pos]);
  const lo = BigInt(values[2 * pos] >>> 0);
  return String(BigInt.asIntN(64, (BigInt(values[2 * pos + 1]) << 32n) | lo));
}

function bytesAt(data, pos) {
  const o = data.valueOffsets;
  return data.values.subarray(Number(o[pos]), Number(o[pos + 1]));
}

export function dumpValue(data, i) {
  if (!isValid(data, i)) return null;
  const t = data.type;
  const pos = data.offset + i;
  switch (t.typeId) {
    case arrow.Type.Bool: return (data.values[pos >> 3] & (1 << (pos & 7))) !== 0;
    case arrow.Type.Int: return t.bitWidth === 64 ? wide(data.values, pos) : Number(data.values[pos]);
    case arrow.Type.Float:
      if (t.precision === arrow.Precision.HALF) return float(arrow.util.uint16ToFloat64(data.values[pos]));
      return float(Number(data.values[pos]));
    case arrow.Type.Date:
      return t.unit === arrow.DateUnit.DAY ? Number(data.values[pos]) : wide(data.values, pos);
    case arrow.Type.Timestamp:
    case arrow.Type.Duration: return wide(data.values, pos);
    case arrow.Type.Utf8:
    case arrow.Type.LargeUtf8: return utf8.decode(bytesAt(data, pos));
    case arrow.Type.Binary:
    case arrow.Type.LargeBinary: return hex(bytesAt(data, pos));
    case arrow.Type.FixedSizeBinary:
      return hex(data.values.subarray(pos * t.byteWidth, (pos + 1) * t.byteWidth));
    case arrow.Type.List:
    case arrow.Type.LargeList: {
      const o = data.valueOffsets;
      const b = Number(o[pos]);
      return Array.from({ length: Number(o[pos + 1]) - b }, (_, k) => dumpValue(data.children[0], b + k));
    }
    case arrow.Type.FixedSizeList:
      return Array.from({ length: t.listSize }, (_, k) => dumpValue(data.children[0], pos * t.listSize + k));
    case arrow.Type.Struct:
      return Object.fromEntries(t.children.map((f, k) => [f.name, dumpValue(data.children[k], pos)]));
    default:
      throw new Error(`cannot dump type ${t}`);
  }
}

// Rows of a table as objects {column: value}, batch after batch; columns in `drop` left out.
export function dumpRows(table, drop = ["_rowaddr", "_rowid"]) {
  const rows = [];
  for (const batch of table.batches) {
    const names = batch.schema.fields.map((f) => f.name);
    const keep = names.map((n, k) => [n, k]).filter(([n]) => !drop.includes(n));
    for (let i = 0; i < batch.numRows; ++i) {
      const row = {};
      for (const [n, k] of keep) row[n] = dumpValue(batch.data.children[k], i);
      rows.push(row);
    }
  }
  return rows;
}

// Field names, types and nullability (nested) of a schema. With `stored`, as a Lance schema
// keeps it: fixed-size list items are always nullable there.
export function schemaText(schema, stored = false) {
  const field = (f, parent) => {
    const nullable = f.nullable || (stored && parent?.typeId === arrow.Type.FixedSizeList);
    return `${f.name}${nullable ? "" : "!"}: ${typeText(f.type)}`;
  };
  const typeText = (t) => (t.children && t.children.length
    ? `${String(t).replace(/<.*$/s, "")}<${t.children.map((c) => field(c, t)).join(", ")}>`
    : String(t));
  return schema.fields.filter((f) => !f.name.startsWith("_row")).map((f) => field(f)).join(", ");
}

// The number of leaf values in rows (for the soak's figures).
export function countValues(v) {
  if (v === null || typeof v !== "object") return 1;
  let n = 0;
  for (const x of Object.values(v)) n += countValues(x);
  return Math.max(n, 1);
}
