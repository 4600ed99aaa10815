// Arrow tables from generated rows, built level by level. apache-arrow's vectorFromArray leaves
// out the child values of null fixed-size lists (the child is then shorter than length x size,
// which Lance rightly refuses), so nested types are assembled here and only leaves use it.
import { arrow } from "../../interop/lance_oracle.mjs";

function validity(values) {
  const bits = new Uint8Array(Math.ceil(values.length / 8));
  let nulls = 0;
  values.forEach((v, i) => {
    if (v === null || v === undefined) ++nulls;
    else bits[i >> 3] |= 1 << (i & 7);
  });
  return { bits, nulls };
}

// A non-null value of `type`, for the slots of a non-nullable child under a null parent (Lance
// refuses nulls there that its parent does not explain).
function placeholder(type) {
  const T = arrow.Type;
  switch (type.typeId) {
    case T.Int: return type.bitWidth === 64 ? 0n : 0;
    case T.Duration: return 0n;
    case T.Float: case T.Timestamp: return 0;
    case T.Bool: return false;
    case T.Utf8: case T.LargeUtf8: return "";
    case T.Binary: case T.LargeBinary: return new Uint8Array(0);
    case T.FixedSizeBinary: return new Uint8Array(type.byteWidth);
    case T.Date: return new Date(0);
    case T.List: return [];
    case T.FixedSizeList: return Array(type.listSize).fill(slot(type.children[0], null));
    case T.Struct: return Object.fromEntries(type.children.map((f) => [f.name, slot(f, null)]));
    default: return null;
  }
}
const slot = (field, v) => (v === null || v === undefined ? (field.nullable ? null : placeholder(field.type)) : v);

export function buildData(type, values) {
  const T = arrow.Type;
  if (![T.Struct, T.List, T.FixedSizeList].includes(type.typeId)) {
    // apache-arrow writes an all-null bool array with an empty value bitmap, which Arrow
    // readers refuse: such an array gets one false value first.
    if (type.typeId === T.Bool && values.length > 0 && values.every((x) => x == null)) values = [false, ...values.slice(1)];
    const v = arrow.vectorFromArray(values, type);
    if (v.data.length !== 1) throw new Error(`expected one chunk for ${type}`);
    return v.data[0];
  }
  const { bits, nulls } = validity(values);
  const base = { type, length: values.length, nullCount: nulls, nullBitmap: nulls ? bits : new Uint8Array(0) };
  if (type.typeId === T.Struct) {
    const children = type.children.map((f) => buildData(f.type, values.map((v) => slot(f, v == null ? null : v[f.name]))));
    return arrow.makeData({ ...base, children });
  }
  const itemType = type.children[0].type;
  if (type.typeId === T.FixedSizeList) {
    const items = values.flatMap((v) => (v == null ? Array(type.listSize).fill(slot(type.children[0], null)) : v));
    return arrow.makeData({ ...base, child: buildData(itemType, items) });
  }
  const offsets = new Int32Array(values.length + 1);
  values.forEach((v, i) => { offsets[i + 1] = offsets[i] + (v == null ? 0 : v.length); });
  const items = values.flatMap((v) => (v == null ? [] : v));
  return arrow.makeData({ ...base, valueOffsets: offsets, child: buildData(itemType, items) });
}

// A table with exactly `schema` holding `rows` (objects keyed by field name).
export function buildTable(schema, rows) {
  const children = schema.fields.map((f) => buildData(f.type, rows.map((r) => (r[f.name] === undefined ? null : r[f.name]))));
  const data = arrow.makeData({ type: new arrow.Struct(schema.fields), length: rows.length, nullCount: 0, children });
  return new arrow.Table([new arrow.RecordBatch(schema, data)]);
}
