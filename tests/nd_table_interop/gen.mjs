// Seeded generator of random nd tables (nd JSON rows, interop/README.md) and the schema layout
// that lance-nd's encoder gives them, mirrored here so that LanceDB writes the same schema.
//
//   node gen.mjs SEED            prints the generated case as JSON
//
// A case is { seed, rows, commits, page_bytes, max_rows_per_file, delete, filters }:
// `rows` are nd record batches, `commits` the number of rows of each write (the first creates
// the table, the others append; later rows bring new variables, attribute keys and global keys).
import { fileURLToPath } from "node:url";

// ---------------------------------------------------------------- PRNG (mulberry32)

export function makeRng(seed) {
  let s = (Number(seed) * 2654435761 + 0x9e3779b9) >>> 0;
  const next = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const rng = {
    next,
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),  // inclusive
    chance: (p) => next() < p,
    pick: (list) => list[Math.floor(next() * list.length)],
    shuffle: (list) => {
      const a = [...list];
      for (let i = a.length - 1; i > 0; --i) {
        const j = Math.floor(next() * (i + 1));
        [a[i], a[j]] = [a[j], a[i]];
      }
      return a;
    },
    bigint: (bits, signed) => {
      let v = 0n;
      for (let i = 0; i < bits; i += 16) v = (v << 16n) | BigInt(rng.int(0, 0xffff));
      v &= (1n << BigInt(bits)) - 1n;
      return signed && v >= 1n << BigInt(bits - 1) ? v - (1n << BigInt(bits)) : v;
    },
  };
  return rng;
}

// ---------------------------------------------------------------- values

export const kValueTypes = [
  "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32",
  "float64", "utf8", "timestamp[s]", "timestamp[ms]", "timestamp[us]", "timestamp[ns]",
  "timestamp[ns, tz=UTC]", "date32", "date64", "duration[s]", "duration[ms]", "duration[us]",
  "duration[ns]", "large_utf8", "binary",
];
const kListItemTypes = ["float64", "int16", "utf8", "int64", "bool", "float32", "uint8", "date32",
  "binary"];
const kWords = ["", "a", "K", "m/s", "degC", "hello world", "ünïcödé", "日本", "x'y", "tab\there",
  "line\nbreak", "emoji 🙂", "%_like"];

function intRange(type) {
  const m = /^(u?)int(\d+)$/.exec(type);
  const bits = Number(m[2]);
  return m[1] ? [0, 2 ** bits - 1] : [-(2 ** (bits - 1)), 2 ** (bits - 1) - 1];
}

function randomString(rng, long = true) {
  if (rng.chance(0.3)) return rng.pick(kWords);
  if (long && rng.chance(0.03)) return "L".repeat(rng.int(100, 5000)) + rng.int(0, 9);
  const chars = "abcxyz_-KM0123 ";
  let s = "";
  for (let i = rng.int(0, 8); i > 0; --i) s += chars[rng.int(0, chars.length - 1)];
  return s;
}

/** One non-null random value of `type` as nd JSON (64-bit ints and timestamps as strings). */
export function randomValue(rng, type, style = "any") {
  if (type === "bool") return rng.chance(0.5);
  if (type === "utf8" || type === "large_utf8") return randomString(rng, style !== "short");
  if (type === "binary") {
    const n = rng.chance(0.02) && style !== "short" ? rng.int(100, 3000) : rng.int(0, 8);
    return Array.from({ length: n }, () => rng.int(0, 255).toString(16).padStart(2, "0")).join("");
  }
  if (type === "date32") return rng.int(-1e6, 1e6);
  if (type === "date64") return String(BigInt(rng.int(-1e6, 1e6)) * 86400000n);
  if (type.startsWith("timestamp") || type.startsWith("duration")) {
    return String(rng.chance(0.2) ? rng.bigint(64, true) : BigInt(rng.int(-2e9, 2e9)) * 1000n);
  }
  if (type === "int64" || type === "uint64") {
    const signed = type === "int64";
    if (style === "small" || rng.chance(0.6)) return String(rng.int(signed ? -1000 : 0, 1000));
    return String(rng.bigint(64, signed));
  }
  if (type.startsWith("int") || type.startsWith("uint")) {
    const [lo, hi] = intRange(type);
    if (style === "small" || rng.chance(0.7)) return rng.int(Math.max(lo, -20), Math.min(hi, 20));
    return rng.int(lo, hi);
  }
  // floats
  if (style !== "small" && rng.chance(0.05)) return rng.pick(["NaN", "Infinity", "-Infinity"]);
  let v = rng.chance(0.5) ? rng.int(-50, 50) / 4 : (rng.next() - 0.5) * 10 ** rng.int(-5, 30);
  if (Object.is(v, -0)) v = 0;  // JSON cannot hold -0
  return type === "float32" ? Math.fround(v) : v;
}

// List-valued variables (each element a list), rarer than the flat types.
const kListValueTypes = ["list<int16>", "list<utf8>", "list<float64>", "list<bool>", "list<int64>"];

function randomValueType(rng) {
  return rng.chance(0.08) ? rng.pick(kListValueTypes) : rng.pick(kValueTypes);
}

function randomAttrType(rng) {
  if (rng.chance(0.2)) return `list<${rng.pick(kListItemTypes)}>`;
  return rng.pick(kValueTypes);
}

function randomAttrValue(rng, type) {
  const list = /^list<(.*)>$/.exec(type);
  if (!list) return randomValue(rng, type);
  const n = rng.int(0, 4);
  // No long strings in list attributes: Lance 12 cannot read back a struct<struct<list<utf8>>>
  // it wrote when the list column mixes a null top-level row, an empty list, a null item and a
  // string of about a kilobyte (README.md, "Lance 12 limits").
  return Array.from({ length: n }, () => (rng.chance(0.1) ? null : randomValue(rng, list[1], "short")));
}

// ---------------------------------------------------------------- table plan

const kDimNames = ["time", "lat", "lon", "lev", "x", "y", "station", "band", "ens", "nv"];
const kVarWords = ["temp", "pres", "mask", "name", "flag", "u", "v", "q", "obs", "cnt"];

/** An attribute key: some hold dots, spaces and other characters netCDF and xarray allow. */
function keyName(rng, prefix) {
  const sep = rng.chance(0.4) ? rng.pick([".", " ", "-", "+", ".x."]) : "_";
  return `${prefix}${sep}${rng.pick(kVarWords)}`;
}

/** A key spec: a name, a type, the first row that may hold it, how often rows hold it. */
function keySpec(rng, name, nRows, type = randomAttrType(rng)) {
  return {
    name, type,
    from: rng.chance(0.6) ? 0 : rng.int(0, nRows - 1),
    p: rng.pick([1, 1, 0.9, 0.5, 0.1]),
    constant: rng.chance(0.4) ? randomAttrValue(rng, type) : undefined,
  };
}

function planTable(rng) {
  const huge = rng.chance(0.02);  // many pages: large arrays in few rows
  const nRows = huge ? rng.int(10, 30)
    : rng.chance(0.15) ? rng.int(100, 1500) : rng.chance(0.1) ? 1 : rng.int(2, 40);
  const big = nRows > 60;
  const rank = rng.int(0, 4);
  const dims = rng.shuffle(kDimNames).slice(0, huge ? 2 : rank).map((name) => ({
    name, size: huge ? rng.int(50, 150) : rng.chance(0.05) ? 0 : rng.int(1, big ? 3 : 6),
  }));
  const gridVaries = !huge && rng.chance(0.4);  // sizes change from row to row
  const nVars = huge ? rng.int(1, 2) : rng.int(1, 6);
  const vars = [];
  for (let i = 0; i < nVars; ++i) {
    const name = `v${i}_${rng.pick(kVarWords)}`;
    const sub = rng.shuffle(dims).slice(0, rng.int(0, dims.length));
    const nKeys = rng.chance(0.4) ? 0 : rng.int(1, 4);
    vars.push({
      name,
      type: randomValueType(rng),
      dims: rng.chance(0.8) ? sub : null,  // null: a random subset in every row
      ones: sub.map(() => rng.chance(0.2)),  // broadcast along this axis (size 1)
      from: i === 0 || rng.chance(0.6) ? 0 : rng.int(0, nRows - 1),
      p: rng.pick([1, 1, 0.95, 0.7, 0.3]),
      nulls: rng.pick([0, 0, 0.1, 0.5, 1]),
      constValue: rng.chance(0.1),  // one value in every element of a row
      sameEveryRow: rng.chance(0.15),  // the same values in every row of a given size
      cache: new Map(),
      keys: Array.from({ length: nKeys }, (_, k) => keySpec(rng, keyName(rng, `a${k}`), nRows)),
    });
  }
  const globals = rng.chance(0.15) ? [] : [
    { ...keySpec(rng, "g_seq", nRows, "int32"), from: 0, p: rng.pick([1, 0.9]), constant: undefined },
    ...Array.from({ length: rng.int(0, 4) }, (_, k) => keySpec(rng, keyName(rng, `g${k}`), nRows)),
  ];
  return { nRows, dims, gridVaries, vars, globals, pNoGlobals: rng.pick([0, 0, 0.1, 0.5]) };
}

function makeAttrs(rng, specs, row) {
  const out = {};
  for (const s of specs) {
    if (row < s.from || !rng.chance(s.p)) continue;
    out[s.name] = { type: s.type, value: s.constant !== undefined ? s.constant : randomAttrValue(rng, s.type) };
  }
  return out;
}

function makeVariable(rng, v, grid) {
  let dims = v.dims;
  let ones = v.ones;
  if (dims === null) {
    dims = rng.shuffle(grid).slice(0, rng.int(0, grid.length));
    ones = dims.map(() => rng.chance(0.2));
  }
  const dimNames = dims.map((d) => d.name);
  const dimSizes = dims.map((d, i) => (ones[i] ? 1 : grid.find((g) => g.name === d.name).size));
  const n = dimSizes.reduce((a, b) => a * b, 1);
  let values = v.sameEveryRow ? v.cache.get(n) : undefined;
  if (values === undefined) {
    const constant = randomAttrValue(rng, v.type);
    values = Array.from({ length: n }, () => {
      if (v.nulls > 0 && rng.chance(v.nulls)) return null;
      return v.constValue ? constant : randomAttrValue(rng, v.type);
    });
    if (v.sameEveryRow) v.cache.set(n, values);
  }
  return { type: v.type, dim_names: dimNames, dim_sizes: dimSizes, values };
}

function makeRow(rng, plan, r) {
  const grid = plan.dims.map((d) => ({
    name: d.name, size: plan.gridVaries && d.size > 0 ? rng.int(1, plan.nRows > 60 ? 3 : 6) : d.size,
  }));
  const variables = {};
  for (const v of plan.vars) {
    const first = r === 0 && v === plan.vars[0];  // the first write never is empty
    if (r < v.from || (!rng.chance(v.p) && !first)) continue;
    const arr = makeVariable(rng, v, grid);
    const attrs = makeAttrs(rng, v.keys, r);
    if (Object.keys(attrs).length) arr.attrs = attrs;
    variables[v.name] = arr;
  }
  let globals = null;
  if (plan.globals.length && !rng.chance(plan.pNoGlobals)) {
    const g = makeAttrs(rng, plan.globals, r);
    if (g.g_seq) g.g_seq.value = r;
    if (Object.keys(g).length) globals = g;
  }
  return { variables, global_attrs: globals };
}

function splitCommits(rng, n) {
  const k = Math.min(n, rng.int(1, 4));
  const cuts = new Set();
  while (cuts.size < k - 1) cuts.add(rng.int(1, n - 1));
  const sorted = [0, ...[...cuts].sort((a, b) => a - b), n];
  return sorted.slice(1).map((c, i) => c - sorted[i]);
}

/** `obj` with its keys in sorted order (the order in which the C++ side's JSON reader lists them). */
function sortedKeys(obj) {
  if (obj === null) return null;
  return Object.fromEntries(Object.keys(obj).sort().map((k) => [k, obj[k]]));
}

function sortRow(row) {
  for (const v of Object.values(row.variables)) if (v.attrs) v.attrs = sortedKeys(v.attrs);
  return { variables: sortedKeys(row.variables), global_attrs: sortedKeys(row.global_attrs) };
}

/** The generated case of `seed` (see the header). */
export function makeCase(seed) {
  const rng = makeRng(seed);
  const plan = planTable(rng);
  const rows = Array.from({ length: plan.nRows }, (_, r) => sortRow(makeRow(rng, plan, r)));
  return {
    seed: Number(seed),
    rows,
    commits: splitCommits(rng, plan.nRows),
    page_bytes: rng.pick([0, 0, 4096, 65536]),  // 0: the writer's default
    max_rows_per_file: rng.pick([0, 0, 0, 7, 50]),  // 0: the writer's default
    filter_seed: rng.int(0, 2 ** 31),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.stdout.write(`${JSON.stringify(makeCase(process.argv[2] ?? 1), null, 1)}\n`);
}
