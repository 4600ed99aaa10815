// Seeded random tables for the differential tests: a schema of random (possibly nested) columns,
// each with a random value "flavour" (random, bit-packable, low cardinality, runs, constant,
// all-null, long strings, ...), and rows for it. The same seed always gives the same table.
//
//   import { generateCase } from "./generate.mjs";
//   const c = generateCase(42);  // { seed, schema, columns, batches, plan }
import { arrow } from "../../interop/lance_oracle.mjs";

// ------------------------------------------------------------------ random numbers
// mulberry32: small, fast, and the same on every platform.
export function makeRng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const rng = {
    next,
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    chance: (p) => next() < p,
    pick: (arr) => arr[Math.floor(next() * arr.length)],
    weighted: (pairs) => {  // [[weight, value], ...]
      let total = 0;
      for (const [w] of pairs) total += w;
      let r = next() * total;
      for (const [w, v] of pairs) { if ((r -= w) < 0) return v; }
      return pairs[pairs.length - 1][1];
    },
  };
  return rng;
}

const range = (n, f) => Array.from({ length: n }, (_, i) => f(i));

// ------------------------------------------------------------------ leaf types
// Each leaf: the Arrow type, a random value, whether it is text/bytes (long values possible),
// and a small-range value (bit-packable).
const LETTERS = "abcdefghijklmnopqrstuvwxyz0123456789 _-";
const randText = (rng, len) => range(len, () => LETTERS[rng.int(0, LETTERS.length - 1)]).join("");
const randBytes = (rng, len) => Uint8Array.from(range(len, () => rng.int(0, 255)));
const randBig = (rng, bits, signed) => {
  let v = 0n;
  for (let i = 0; i < bits; i += 16) v = (v << 16n) | BigInt(rng.int(0, 0xffff));
  v &= (1n << BigInt(bits)) - 1n;
  return signed ? BigInt.asIntN(bits, v) : v;
};
const randF16 = (rng) => rng.pick([0, -0, 1.5, -2.25, 65504, 0.0001, rng.int(-2048, 2048) / 8]);
const randF64 = (rng) => rng.weighted([[8, (rng.next() - 0.5) * 10 ** rng.int(-5, 12)],
  [1, rng.pick([0, -0, Infinity, -Infinity, NaN, Number.MIN_VALUE, Number.MAX_VALUE])]]);
const DAY = 86400000;

const intLeaf = (name, bits, signed) => ({
  name,
  type: () => new arrow[`${signed ? "Int" : "Uint"}${bits}`](),
  random: (rng) => (bits === 64 ? randBig(rng, 64, signed) : Number(randBig(rng, bits, signed))),
  small: (rng, i) => (bits === 64 ? BigInt(i % 37 + rng.int(0, 5)) : (i % 37) + rng.int(0, 5)),
  sortable: true,
});

export const LEAVES = [
  { name: "bool", type: () => new arrow.Bool(), random: (rng) => rng.chance(0.5), small: (rng) => rng.chance(0.9) },
  intLeaf("int8", 8, true), intLeaf("int16", 16, true), intLeaf("int32", 32, true), intLeaf("int64", 64, true),
  intLeaf("uint8", 8, false), intLeaf("uint16", 16, false), intLeaf("uint32", 32, false), intLeaf("uint64", 64, false),
  { name: "float16", type: () => new arrow.Float16(), random: randF16, small: (rng) => rng.int(0, 15) / 4 },
  { name: "float32", type: () => new arrow.Float32(), random: (rng) => Math.fround(randF64(rng)), small: (rng) => rng.int(0, 100) / 4 },
  { name: "float64", type: () => new arrow.Float64(), random: randF64, small: (rng) => rng.int(0, 100) / 8 },
  { name: "utf8", type: () => new arrow.Utf8(), random: (rng) => randText(rng, rng.int(0, 24)), small: (rng) => randText(rng, rng.int(0, 3)), text: true },
  { name: "large_utf8", type: () => new arrow.LargeUtf8(), random: (rng) => randText(rng, rng.int(0, 24)), small: (rng) => randText(rng, 1), text: true },
  { name: "binary", type: () => new arrow.Binary(), random: (rng) => randBytes(rng, rng.int(0, 20)), small: (rng) => randBytes(rng, rng.int(0, 2)), bytes: true },
  { name: "large_binary", type: () => new arrow.LargeBinary(), random: (rng) => randBytes(rng, rng.int(0, 20)), small: (rng) => randBytes(rng, 1), bytes: true },
  { name: "fixed_size_binary", type: () => new arrow.FixedSizeBinary(5), random: (rng) => randBytes(rng, 5), small: (rng) => Uint8Array.from([rng.int(0, 3), 0, 0, 0, 1]) },
  { name: "date32", type: () => new arrow.DateDay(), random: (rng) => new Date(rng.int(-20000, 40000) * DAY), small: (rng, i) => new Date((18000 + (i % 30)) * DAY) },
  { name: "date64", type: () => new arrow.DateMillisecond(), random: (rng) => new Date(rng.int(-2e9, 2e9) * 1000 + rng.int(0, 999)), small: (rng, i) => new Date(1.7e12 + (i % 50)) },
  { name: "timestamp_s", type: () => new arrow.TimestampSecond(), random: (rng) => rng.int(-2e9, 4e9) * 1000, small: (rng, i) => 1.6e12 + (i % 60) * 1000 },
  { name: "timestamp_ms_utc", type: () => new arrow.TimestampMillisecond("UTC"), random: (rng) => rng.int(-2e9, 4e9) * 1000 + rng.int(0, 999), small: (rng, i) => 1.6e12 + i % 60 },
  { name: "timestamp_us", type: () => new arrow.TimestampMicrosecond(), random: (rng) => rng.int(0, 4e9) * 1000 + rng.int(0, 999), small: (rng, i) => 1.6e12 + i % 60 },
  { name: "timestamp_ns_tz", type: () => new arrow.TimestampNanosecond("America/New_York"), random: (rng) => rng.int(0, 4e9) * 1000 + rng.int(0, 999), small: (rng, i) => 1.6e12 + i % 60 },
  { name: "duration_s", type: () => new arrow.DurationSecond(), random: (rng) => randBig(rng, 40, true), small: (rng, i) => BigInt(i % 17) },
  { name: "duration_ns", type: () => new arrow.DurationNanosecond(), random: (rng) => randBig(rng, 64, true), small: (rng, i) => BigInt(i % 17) },
];
// Text and bytes leaves are drawn twice as often (they have the most layouts and encodings).
const LEAF_PICKS = [...LEAVES, ...LEAVES.filter((l) => l.text || l.bytes)];
const leafByName = Object.fromEntries(LEAVES.map((l) => [l.name, l]));
// Items of fixed-size lists: fixed-width leaves. Not bool: lance-nd reads and writes no
// fixed_size_list of bool (NotImplemented on both sides).
const FIXED_WIDTH = LEAVES.filter((l) => !l.text && !l.bytes && !["fixed_size_binary", "bool"].includes(l.name)).map((l) => l.name);

// ------------------------------------------------------------------ column specs
// A spec is a tree: {kind: "leaf"|"struct"|"list"|"fsl", nullable, ...}. Leaf specs carry a
// flavour deciding their values; list specs carry the probabilities of null and empty lists.
const FLAVOURS = [
  [6, "random"], [2, "small"], [2, "lowcard"], [2, "runs"], [1, "sorted"], [1, "constant"],
  [1, "allnull"], [2, "long"],
];

// Lance's per-field encoding options (field metadata), for about one leaf in four: general
// compression (zstd, lz4, none, with levels), byte stream split, RLE threshold, and forced
// structural encoding. Both writers honour them.
function encodingOptions(rng, leaf) {
  if (!rng.chance(0.25)) return undefined;
  const m = {};
  const compression = rng.pick([null, "zstd", "lz4", "none"]);
  if (compression) m["lance-encoding:compression"] = compression;
  if (compression === "zstd" && rng.chance(0.5)) m["lance-encoding:compression-level"] = String(rng.int(1, 9));
  if (leaf.name.startsWith("float") && rng.chance(0.5)) m["lance-encoding:bss"] = rng.pick(["on", "auto", "off"]);
  if (rng.chance(0.3)) m["lance-encoding:rle-threshold"] = rng.pick(["0.1", "0.5", "0.9"]);
  if (rng.chance(0.3)) m["lance-encoding:structural-encoding"] = rng.pick(["miniblock", "fullzip"]);
  return Object.keys(m).length ? m : undefined;
}

function leafSpec(rng, depth, leafName) {
  const leaf = leafByName[leafName ?? rng.pick(LEAF_PICKS).name];
  let flavour = rng.weighted(FLAVOURS);
  if (flavour === "long" && !(leaf.text || leaf.bytes)) flavour = "random";
  if (flavour === "sorted" && !leaf.sortable) flavour = "small";
  const nullable = rng.chance(0.8);
  const nullRate = !nullable ? 0 : rng.weighted([[3, 0], [3, 0.1], [2, 0.5], [1, 0.95]]);
  return { kind: "leaf", leaf: leaf.name, flavour, nullable, nullRate, cardinality: rng.int(1, 12),
           run: rng.int(2, 400), depth, metadata: encodingOptions(rng, leaf) };
}

function specAt(rng, depth) {
  if (depth >= 3) return leafSpec(rng, depth);
  const kind = rng.weighted([[10, "leaf"], [3, "struct"], [3, "list"], [2, "fsl"]]);
  const nullable = rng.chance(0.7);
  const nullRate = nullable ? rng.weighted([[2, 0], [2, 0.1], [1, 0.5]]) : 0;
  if (kind === "leaf") return leafSpec(rng, depth);
  if (kind === "struct") {
    const children = range(rng.int(1, 3), (i) => ({ name: `f${i}`, spec: specAt(rng, depth + 1) }));
    return { kind, nullable, nullRate, children };
  }
  if (kind === "fsl") {
    // Lance refuses NaN in fixed-size lists of floats (it takes them for vectors).
    const item = { ...leafSpec(rng, depth + 1, rng.pick(FIXED_WIDTH)), finite: true };
    const metadata = item.metadata;  // a fixed-size list's options sit on the list's field
    delete item.metadata;
    return { kind, nullable, nullRate, size: rng.pick([1, 2, 3, 4, 8, 16]), item, metadata };
  }
  return { kind, nullable, nullRate, item: withoutForcedFullZip(specAt(rng, depth + 1)),
           maxLen: rng.pick([0, 1, 3, 6, 20]), emptyRate: rng.weighted([[2, 0], [2, 0.1], [1, 0.5]]) };
}

// A column of megabytes: text of 1-2 KB per row (full-zip pages) or lists of up to 60 numbers
// (several mini-block pages).
function bulkSpec(rng, kind) {
  if (kind === "long_text") {
    return { ...leafSpec(rng, 1, rng.pick(["utf8", "large_binary"])), flavour: "huge", nullable: true, nullRate: 0.05 };
  }
  const item = { ...leafSpec(rng, 1, rng.pick(["int64", "float64", "int32"])), flavour: "random", nullRate: 0 };
  return { kind: "list", nullable: true, nullRate: 0.02, item, maxLen: 60, emptyRate: 0.02 };
}

// Lance 12 misreads full-zip pages of a list below a nullable struct (it shifts the values, in
// its own files too), so our writer uses mini-block there unless full-zip is forced: leaves
// inside lists are never forced.
function withoutForcedFullZip(spec) {
  if (spec.metadata?.["lance-encoding:structural-encoding"] === "fullzip") {
    spec.metadata = { ...spec.metadata };
    delete spec.metadata["lance-encoding:structural-encoding"];
    if (Object.keys(spec.metadata).length === 0) delete spec.metadata;
  }
  if (spec.kind === "struct") spec.children.forEach((c) => withoutForcedFullZip(c.spec));
  if (spec.kind === "list" || spec.kind === "fsl") withoutForcedFullZip(spec.item);
  return spec;
}

// Column-level shape: most columns are random; some are constant (every row the same value,
// including nested ones such as list<utf8>) or entirely null.
function columnSpec(rng, index) {
  const spec = specAt(rng, 0);
  const whole = rng.weighted([[14, "rows"], [3, "constant"], [1, "allnull"]]);
  if (whole === "allnull") spec.nullable = true;
  return { name: `c${index}`, spec, whole };
}

// ------------------------------------------------------------------ Arrow types of specs
export function arrowType(spec) {
  switch (spec.kind) {
    case "leaf": return leafByName[spec.leaf].type();
    case "struct":
      return new arrow.Struct(spec.children.map((c) => fieldOf(c.name, c.spec)));
    case "fsl":
      return new arrow.FixedSizeList(spec.size, new arrow.Field("item", arrowType(spec.item), spec.item.nullable));  // metadata belongs to the list
    default:
      return new arrow.List(fieldOf("item", spec.item));
  }
}

// The Arrow field of a spec, with its Lance encoding options as field metadata.
export function fieldOf(name, spec) {
  const meta = spec.metadata ? new Map(Object.entries(spec.metadata)) : undefined;
  return new arrow.Field(name, arrowType(spec), spec.nullable, meta);
}

// ------------------------------------------------------------------ values of specs
// `state` keeps per-leaf memory (the dictionary of a low-cardinality leaf, the current run).
function leafValue(spec, rng, i, state) {
  const v = anyLeafValue(spec, rng, i, state);
  return spec.finite && typeof v === "number" && !Number.isFinite(v) ? 0.5 : v;
}

function anyLeafValue(spec, rng, i, state) {
  const leaf = leafByName[spec.leaf];
  if (spec.nullRate > 0 && rng.chance(spec.nullRate)) return null;
  switch (spec.flavour) {
    case "allnull": return spec.nullable ? null : leaf.small(rng, i);
    case "small": return leaf.small(rng, i);
    case "sorted": return leaf.small(rng, 0) === null ? null : sortedValue(leaf, i);
    case "constant":
      if (!("constant" in state)) state.constant = leaf.random(rng);
      return state.constant;
    case "lowcard":
      state.dict ??= range(spec.cardinality, () => leaf.random(rng));
      return rng.pick(state.dict);
    case "runs":
      if (!("run" in state) || i % spec.run === 0) state.run = leaf.random(rng);
      return state.run;
    case "huge":
      return leaf.text ? randText(rng, rng.int(1000, 2000)) : randBytes(rng, rng.int(1000, 2000));
    case "long":
      if (!rng.chance(0.6)) return leaf.random(rng);
      return leaf.text ? randText(rng, rng.int(256, 3000)) : randBytes(rng, rng.int(256, 3000));
    default: return leaf.random(rng);
  }
}

function sortedValue(leaf, i) {
  return leaf.name.endsWith("64") ? BigInt(i * 3) : (i * 3) % (leaf.name.endsWith("8") ? 100 : 30000);
}

function specValue(spec, rng, i, state) {
  if (spec.kind === "leaf") return leafValue(spec, rng, i, state);
  if (spec.nullable && spec.nullRate > 0 && rng.chance(spec.nullRate)) return null;
  if (spec.kind === "struct") {
    state.children ??= spec.children.map(() => ({}));
    return Object.fromEntries(spec.children.map((c, k) => [c.name, specValue(c.spec, rng, i, state.children[k])]));
  }
  state.item ??= {};
  if (spec.kind === "fsl") return range(spec.size, () => specValue(spec.item, rng, i, state.item));
  if (rng.chance(spec.emptyRate)) return [];
  return range(rng.int(spec.maxLen === 0 ? 0 : 1, spec.maxLen), () => specValue(spec.item, rng, i, state.item));
}

// Values of one column for rows [from, from + n): `state` persists across batches, so a constant
// column stays constant over the whole table.
export function columnValues(col, rng, from, n, state) {
  if (col.whole === "allnull") return range(n, () => null);
  if (col.whole === "constant") {
    if (!("value" in state)) {
      do { state.value = specValue(col.spec, rng, 0, {}); } while (state.value === null && col.spec.nullable && !rng.chance(0.1));
    }
    return range(n, () => state.value);
  }
  return range(n, (k) => specValue(col.spec, rng, from + k, state));
}

// ------------------------------------------------------------------ whole cases
export const ID = "id";

function rowCount(rng) {
  return rng.weighted([[2, 1], [4, rng.int(2, 40)], [5, rng.int(41, 1500)], [2, rng.int(1501, 12000)]]);
}

// The plan of a case: how many rows each batch has, which Lance operations build the table,
// and the options of both writers.
function makePlan(rng, columns) {
  const batches = [rowCount(rng)];
  const adds = rng.weighted([[3, 0], [3, 1], [1, 2]]);
  for (let i = 0; i < adds; ++i) batches.push(rowCount(rng));
  const evolve = rng.weighted([[3, "none"], [2, "field"], [2, "sql"]]);
  const afterEvolve = evolve === "none" ? 0 : rng.chance(0.6) ? rowCount(rng) : 0;
  const total = batches.reduce((a, b) => a + b, 0) + afterEvolve;
  const del = rng.weighted([[2, null], [2, `id % ${rng.int(2, 9)} = ${rng.int(0, 1)}`],
    [1, `id < ${rng.int(0, total)}`], [1, `id >= ${rng.int(0, total)} AND id < ${rng.int(0, total)}`]]);
  return {
    batches, evolve, afterEvolve, delete: del, optimize: rng.chance(0.4),
    // Lance 12 cuts 2.1+ pages only by its write buffer (megabytes per column; its page-size
    // variable applies to 2.0 only), so a "bulk" column of several MiB gives Lance's pages.
    bulk: rng.weighted([[18, null], [1, "long_text"], [1, "long_lists"]]),
    ourPageBytes: rng.weighted([[3, null], [1, rng.pick([2048, 65536, 1 << 20])]]),
    filters: rng.int(2, 6),
    numColumns: columns.length,
  };
}

// The column addColumns adds: a nullable column of any spec (Lance stores no data for the old
// rows), or one Lance computes from SQL (Lance writes data files for the old rows).
const SQL_COLUMNS = [
  ["id * 2 - 7", "int64"], ["CAST(id AS STRING)", "utf8"], ["id % 3 = 0", "bool"],
  ["CAST(id AS DOUBLE) / 4", "float64"], ["CAST(id % 5 AS INT)", "int32"],
];
function evolvedColumn(rng, mode) {
  if (mode === "none") return null;
  if (mode === "field") {
    const col = columnSpec(rng, 0);
    col.spec.nullable = true;
    return { ...col, name: "e0" };
  }
  const [sql, leaf] = rng.pick(SQL_COLUMNS);
  return { name: "e0", sql, whole: "rows", spec: { ...leafSpec(rng, 0, leaf), flavour: "random", nullRate: 0 } };
}

export function generateCase(seed) {
  const rng = makeRng(seed * 2654435761 + 1);
  const columns = range(rng.int(1, 7), (i) => columnSpec(rng, i));
  const plan = makePlan(rng, columns);
  if (plan.bulk) {
    plan.batches[0] = Math.max(plan.batches[0], plan.bulk === "long_text" ? 3000 : 9000);
    columns.push({ name: `c${columns.length}`, whole: "rows", spec: bulkSpec(rng, plan.bulk) });
  }
  const fields = [new arrow.Field(ID, new arrow.Int64(), false),
    ...columns.map((c) => fieldOf(c.name, c.spec))];
  const schema = new arrow.Schema(fields);
  const states = columns.map(() => ({}));
  let next = 0;
  const batchRows = (n) => {
    const rows = range(n, (k) => ({ [ID]: BigInt(next + k) }));
    columns.forEach((c, ci) => {
      const vals = columnValues(c, rng, next, n, states[ci]);
      rows.forEach((r, k) => { r[c.name] = vals[k]; });
    });
    next += n;
    return rows;
  };
  const batches = plan.batches.map(batchRows);
  const evolved = evolvedColumn(rng, plan.evolve);
  const extraRows = plan.afterEvolve > 0 ? batchRows(plan.afterEvolve) : [];
  if (evolved) {
    const vals = columnValues(evolved, rng, 0, extraRows.length, {});
    extraRows.forEach((r, k) => { r[evolved.name] = vals[k]; });
  }
  return { seed, schema, columns, batches, evolved, extraRows, plan };
}

// A one-line description of a case (for logs and the soak's failure report).
export function describeCase(c) {
  const cols = c.schema.fields.slice(1).map((f, i) => `${f.name}:${f.type}${c.columns[i].whole !== "rows" ? `(${c.columns[i].whole})` : ""}`);
  const p = c.plan;
  return `seed ${c.seed}: rows ${p.batches.join("+")}${p.afterEvolve ? `+${p.afterEvolve}` : ""}, evolve ${p.evolve}, ` +
    `delete ${p.delete ?? "none"}, optimize ${p.optimize}; ${cols.join(", ")}`;
}
