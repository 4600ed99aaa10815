// Seeded mixed tables for the filter differential: flat columns of every scalar type, list
// columns, nd variables (nd_arrow.array, one with a dot in its name), __global_attrs__ and
// per-row min/max stats columns, with nulls at every level. Values come from the random nd
// table generator (../nd_table_interop/gen.mjs) in ranges narrow enough that filter literals
// taken from the data select something.
//
// A table is { columns, rows, keys }: `columns` lists the catalog (name, kind, type), `rows`
// holds per row { rid, flat: {name: value}, nd: nd JSON row }, values in nd JSON form.
import { makeRng, randomValue } from "../nd_table_interop/gen.mjs";
import { arrow, globalAttrsColumn, ndColumn } from "../../interop/nd_arrow.mjs";

const { Field, Schema, Struct, RecordBatch, Table, makeData } = arrow;

export const kFlatTypes = [
  ["b", "bool"], ["i8", "int8"], ["i16", "int16"], ["i32", "int32"], ["i64", "int64"],
  ["u8", "uint8"], ["u16", "uint16"], ["u32", "uint32"], ["u64", "uint64"], ["f32", "float32"],
  ["f64", "float64"], ["s", "utf8"], ["ls", "large_utf8"], ["ts_s", "timestamp[s]"],
  ["ts_ms", "timestamp[ms]"], ["ts_us", "timestamp[us]"], ["ts_ns", "timestamp[ns]"],
  ["tsz", "timestamp[us, tz=UTC]"], ["d32", "date32"], ["d64", "date64"],
  ["li", "list<int32>"], ["lf", "list<float64>"], ["lstr", "list<utf8>"],
];

// nd variables: value type, attribute keys. `a.b` has a dot in its name (variablesOf).
const kVariables = [
  { name: "temp", type: "float32", stats: true,
    keys: [["units", "utf8"], ["scale", "float64"], ["level", "int32"], ["valid", "list<float64>"],
      ["when", "timestamp[ms]"]] },
  { name: "a.b", type: "int16", stats: true, keys: [["k", "utf8"], ["n", "int64"]] },
  { name: "flag", type: "bool", stats: false, keys: [] },
];

export const kGlobalKeys = [
  ["id", "utf8"], ["n", "int64"], ["seq", "int32"], ["t", "timestamp[ms]"], ["day", "date32"],
  ["ok", "bool"], ["x", "float64"],
];

const kStrings = ["a", "b", "ab", "abc", "K", "degC", "m/s", "x_y", "50%", "it's", "ünï", "", "A"];
const kDims = ["time", "lat", "lon"];

/** A random non-null value of `type` (nd JSON form) drawn so that values repeat across rows. */
export function tableValue(rng, type) {
  const list = /^list<(.*)>$/.exec(type);
  if (list) {
    return Array.from({ length: rng.int(0, 4) }, () => (rng.chance(0.1) ? null : tableValue(rng, list[1])));
  }
  if (type === "utf8" || type === "large_utf8") {
    return rng.chance(0.7) ? rng.pick(kStrings) : randomValue(rng, type, "short");
  }
  if (type.startsWith("timestamp")) {
    // Whole seconds mostly (so that second-precision literals hit), within 1906..2033.
    const unit = /\[(s|ms|us|ns)/.exec(type)[1];
    const secs = BigInt(rng.pick([0, 86400, 1e9, -1e9, 1.6e9]) + rng.int(-5, 5) * 3600);
    const per = { s: 1n, ms: 1000n, us: 1000000n, ns: 1000000000n }[unit];
    const frac = unit !== "s" && rng.chance(0.3) ? BigInt(rng.int(0, Number(per) - 1)) : 0n;
    return String(secs * per + frac);
  }
  if (type === "date32") return rng.pick([0, 1, -1, 10957, 18000, -3650]) + rng.int(0, 3);
  if (type === "date64") return String(BigInt(rng.pick([0, 1, -1, 10957, 18000]) + rng.int(0, 3)) * 86400000n);
  if (type === "float32" || type === "float64") {
    if (rng.chance(0.06)) return rng.pick(["NaN", "Infinity", "-Infinity"]);
    if (rng.chance(0.1)) return randomValue(rng, type);
    return rng.int(-20, 20) / 2;
  }
  if (type === "int64" || type === "uint64") {
    const v = rng.chance(0.05) ? (type === "int64" ? "-9223372036854775808" : "18446744073709551615")
      : randomValue(rng, type, "small");
    return type === "uint64" && v.startsWith("-") ? v.slice(1) : v;
  }
  if (type.includes("int")) {
    if (rng.chance(0.05)) return randomValue(rng, type);  // the type's extremes now and then
    return randomValue(rng, type, "small");
  }
  return randomValue(rng, type, "small");
}

function maybe(rng, p, make) { return rng.chance(p) ? make() : null; }

function ndArray(rng, v, pNullValue) {
  const dims = rng.shuffle(kDims).slice(0, rng.int(0, 2));
  const sizes = dims.map(() => rng.int(rng.chance(0.1) ? 0 : 1, 3));
  const n = sizes.reduce((a, b) => a * b, 1);
  const values = Array.from({ length: n }, () => (rng.chance(pNullValue) ? null : tableValue(rng, v.type)));
  const attrs = {};
  for (const [k, t] of v.keys) if (rng.chance(0.7)) attrs[k] = { type: t, value: tableValue(rng, t) };
  const out = { type: v.type, dim_names: dims, dim_sizes: sizes, values };
  if (Object.keys(attrs).length) out.attrs = attrs;
  return out;
}

/** Per-row min/max over the counted values (not null, not NaN); null when the row lacks v. */
export function statsOf(arr, type) {
  if (!arr) return null;
  const num = (x) => (x === "Infinity" ? Infinity : x === "-Infinity" ? -Infinity : x);
  const counted = arr.values.filter((x) => x !== null && x !== "NaN");
  if (type === "bool" || counted.length === 0) return { min: null, max: null };
  const sorted = [...counted].sort((a, b) => num(a) - num(b));
  return { min: sorted[0], max: sorted.at(-1) };
}

/** The variables of a table; `dotted`: the second one is named `a.b`, else `a_b`. */
export function variablesOf(dotted) {
  return kVariables.map((v) => (v.name === "a.b" && !dotted ? { ...v, name: "a_b" } : v));
}

/** The generated mixed table of `seed` (`dotted`: see variablesOf). */
export function makeMixedTable(seed, nRows, dotted) {
  const variables = variablesOf(dotted);
  const rng = makeRng(seed * 7919 + 17);
  const pNull = Object.fromEntries(kFlatTypes.map(([n]) => [n, rng.pick([0, 0.1, 0.3, 0.9])]));
  const pVar = Object.fromEntries(variables.map((v) => [v.name, rng.pick([0.6, 0.9, 1])]));
  const rows = [];
  for (let r = 0; r < nRows; ++r) {
    const flat = {};
    for (const [n, t] of kFlatTypes) flat[n] = maybe(rng, 1 - pNull[n], () => tableValue(rng, t));
    const arrays = {};
    for (const v of variables) {
      if (rng.chance(pVar[v.name])) arrays[v.name] = ndArray(rng, v, rng.pick([0, 0.2]));
    }
    let globals = null;
    if (!rng.chance(0.1)) {
      globals = {};
      for (const [k, t] of kGlobalKeys) {
        if (k === "seq") globals[k] = { type: t, value: r };
        else if (rng.chance(0.8)) globals[k] = { type: t, value: tableValue(rng, t) };
      }
    }
    rows.push({ rid: r, flat, nd: { variables: arrays, global_attrs: globals } });
  }
  return { seed, rows, variables, globalKeys: kGlobalKeys };
}

/** A column of nullable struct children built from per-row {key: value} (null: a null row). */
function structOf(perRow, keys) {
  const rows = perRow.map((o) => ({
    global_attrs: o === null ? null
      : Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null).map(([k, v]) => [k, { type: keys.find(([n]) => n === k)[1], value: v }])),
  }));
  return globalAttrsColumn(rows, keys).data;
}

/** The Arrow table of `rows` of table `t`, with t.globalKeys (which may grow later). */
export function arrowTable(t, rows = t.rows) {
  const { variables, globalKeys } = t;
  const fields = [new Field("rid", new arrow.Int32(), false)];
  const rid = arrow.vectorFromArray(rows.map((r) => r.rid), new arrow.Int32()).data[0];
  const children = [rid];
  const flat = structOf(rows.map((r) => r.flat), kFlatTypes);
  flat.type.children.forEach((f, i) => { fields.push(f); children.push(flat.children[i]); });
  const ndRows = rows.map((r) => r.nd);
  for (const v of variables) {
    const c = ndColumn(v.name, ndRows, { type: v.type, keys: v.keys });
    fields.push(c.field);
    children.push(c.data);
  }
  const g = globalAttrsColumn(ndRows, globalKeys);
  fields.push(g.field);
  children.push(g.data);
  for (const v of variables.filter((x) => x.stats)) {
    const s = structOf(ndRows.map((r) => statsOf(r.variables[v.name], v.type)),
      [["min", v.type], ["max", v.type]]);
    fields.push(new Field(`__stats__:${v.name}`, s.type, true));
    children.push(s);
  }
  const schema = new Schema(fields, new Map([["lance_nd:format", "1"]]));
  const data = makeData({ type: new Struct(fields), length: rows.length, nullCount: 0, children });
  return new Table([new RecordBatch(schema, data)]);
}
