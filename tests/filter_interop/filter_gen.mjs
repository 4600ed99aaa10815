// Seeded random filters in Lance SQL over a mixed table (mixed_table.mjs). Each filter is
// { sql, tags }: `tags` name the features it uses (known.mjs classifies by them).
//
// The catalog lists what a filter can name: flat columns, list columns, an nd variable's
// `values` / `dim_names` / `dim_sizes` lists and `attrs.<key>`, `__global_attrs__.<key>`, the
// stats columns' `min` / `max`, whole variables. Literals are values taken from the table, so
// that comparisons select some rows and not others.
import { kFlatTypes } from "./mixed_table.mjs";

/** A name as Lance SQL writes it: bare when it is a plain identifier, else in backticks. */
export function ident(name) {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? name : `\`${name}\``;
}

function leaf(path, type, get, extra = {}) {
  return { sql: path.map(ident).join("."), path, type, get, ...extra };
}

/** What a filter over table `t` can name (see the header). */
export function catalog(t) {
  const { rows, globalKeys } = t;
  const out = [];
  for (const [n, t] of kFlatTypes) out.push(leaf([n], t, (r) => r.flat[n]));
  for (const v of t.variables) {
    const arr = (r) => r.nd.variables[v.name] ?? null;
    out.push(leaf([v.name], "struct", arr, { variable: true }));
    out.push(leaf([v.name, "values"], `list<${v.type}>`, (r) => arr(r)?.values ?? null, { values: true }));
    out.push(leaf([v.name, "dim_names"], "list<utf8>", (r) => arr(r)?.dim_names ?? null));
    out.push(leaf([v.name, "dim_sizes"], "list<uint32>", (r) => arr(r)?.dim_sizes ?? null));
    if (v.keys.length) out.push(leaf([v.name, "attrs"], "struct", (r) => arr(r)?.attrs ?? null));
    for (const [k, t] of v.keys) {
      out.push(leaf([v.name, "attrs", k], t, (r) => arr(r)?.attrs?.[k]?.value ?? null, { attr: true }));
    }
    if (v.stats) {
      for (const m of ["min", "max"]) {
        out.push(leaf([`__stats__:${v.name}`, m], v.type, (r) => statsPart(arr(r), m), { stats: true }));
      }
    }
  }
  const g = (r) => r.nd.global_attrs;
  out.push(leaf(["__global_attrs__"], "struct", g));
  for (const [k, t] of globalKeys) {
    out.push(leaf(["__global_attrs__", k], t, (r) => g(r)?.[k]?.value ?? null, { global: true, key: k }));
  }
  for (const l of out) {
    l.samples = rows.map(l.get).filter((x) => x !== null && x !== undefined);
    if (l.type.startsWith("list<")) l.items = l.samples.flat().filter((x) => x !== null);
  }
  return out;
}

function statsPart(arr, m) {
  if (!arr || arr.values.length === 0) return null;
  const counted = arr.values.filter((x) => x !== null && x !== "NaN");
  if (counted.length === 0) return null;
  const num = (x) => (x === "Infinity" ? Infinity : x === "-Infinity" ? -Infinity : x);
  const sorted = [...counted].sort((a, b) => num(a) - num(b));
  return m === "min" ? sorted[0] : sorted.at(-1);
}

// ---------------------------------------------------------------- literals

const kKinds = {
  bool: "bool", utf8: "str", large_utf8: "str", float32: "float", float64: "float",
  date32: "date", date64: "date",
};
/** "int", "uint", "float", "str", "bool", "ts", "date", "list", "struct". */
export function kindOf(type) {
  if (kKinds[type]) return kKinds[type];
  if (type.startsWith("list<")) return "list";
  if (type.startsWith("timestamp")) return "ts";
  if (type.startsWith("uint")) return "uint";
  if (type.startsWith("int")) return "int";
  return type;
}
const isNumeric = (type) => ["int", "uint", "float"].includes(kindOf(type));

function pad(n, w = 2) { return String(n).padStart(w, "0"); }

function dateText(days) {
  const d = new Date(Number(days) * 86400000);
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
}

/** TIMESTAMP text of a timestamp value (a decimal string in the type's unit). */
function timestampText(type, v) {
  const unit = /\[(s|ms|us|ns)/.exec(type)[1];
  const per = { s: 1n, ms: 1000n, us: 1000000n, ns: 1000000000n }[unit];
  const x = BigInt(v);
  let secs = x / per;
  let frac = x % per;
  if (frac < 0n) { frac += per; secs -= 1n; }
  const d = new Date(Number(secs) * 1000);
  const base = `${dateText(Math.floor(Number(secs) / 86400))} ${pad(d.getUTCHours())}:` +
    `${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  if (frac === 0n) return base;
  return `${base}.${frac.toString().padStart(String(per).length - 1, "0")}`;
}

/** A Lance SQL literal of value `v` of `type` (nd JSON form), and tags it adds. */
export function literal(type, v, rng) {
  const kind = kindOf(type);
  if (kind === "str") return `'${String(v).replace(/'/g, "''")}'`;
  if (kind === "bool") return String(v);
  if (kind === "float") {
    if (typeof v === "string") return `CAST('${v === "Infinity" ? "inf" : v === "-Infinity" ? "-inf" : "NaN"}' AS DOUBLE)`;
    const text = String(v);
    return /^-?\d+$/.test(text) && rng.chance(0.5) ? `${text}.0` : text;
  }
  if (kind === "ts") return `TIMESTAMP '${timestampText(type, v)}'`;
  if (kind === "date") {
    const days = type === "date64" ? Number(BigInt(v) / 86400000n) : v;
    return `DATE '${dateText(days)}'`;
  }
  return String(v);
}

// ---------------------------------------------------------------- predicates

const kCompare = ["=", "<>", "<", "<=", ">", ">="];
const scalars = (cat) => cat.filter((l) => !["list", "struct"].includes(kindOf(l.type)));

function sampleOf(rng, l) {
  return l.samples.length ? rng.pick(l.samples) : null;
}

function compare(rng, cat) {
  const l = rng.pick(scalars(cat));
  const v = sampleOf(rng, l);
  const op = kindOf(l.type) === "bool" ? rng.pick(["=", "<>"]) : rng.pick(kCompare);
  if (v === null) return { sql: `${l.sql} ${op} NULL`, tags: ["null_literal", kindOf(l.type)] };
  const tags = ["compare", kindOf(l.type), l.type];
  if (typeof v === "string" && /NaN|Infinity/.test(v)) tags.push("nan_inf_literal");
  return { sql: `${l.sql} ${op} ${literal(l.type, v, rng)}`, tags };
}

function mixedNumeric(rng, cat) {
  const nums = scalars(cat).filter((l) => isNumeric(l.type));
  const a = rng.pick(nums);
  const op = rng.pick(kCompare);
  if (rng.chance(0.5)) {
    const b = rng.pick(nums.filter((x) => x.type !== a.type));
    return { sql: `${a.sql} ${op} ${b.sql}`, tags: ["mixed_numeric", "column_column", a.type, b.type] };
  }
  // A float column against an integer literal; an integer column against a fractional one,
  // which Lance 12 refuses (alt: the column cast to DOUBLE first).
  if (kindOf(a.type) === "float") {
    return { sql: `${a.sql} ${op} ${rng.int(-10, 10)}`, tags: ["mixed_numeric", a.type] };
  }
  const lit = `${rng.int(-10, 10)}.5`;
  return {
    sql: `${a.sql} ${op} ${lit}`, alt: `CAST(${a.sql} AS DOUBLE) ${op} ${lit}`,
    tags: ["mixed_numeric", "fraction_vs_integer", a.type],
  };
}

function arithmetic(rng, cat) {
  const nums = scalars(cat).filter((l) => isNumeric(l.type));
  const a = rng.pick(nums);
  const aop = rng.pick(["+", "-", "*", "/", "%"]);
  let b;
  let integer = kindOf(a.type) !== "float";
  const tags = ["arithmetic", `op${aop}`, a.type];
  let bAlt;
  if (rng.chance(0.4)) {
    const other = rng.pick(nums);
    b = other.sql;
    tags.push("column_column", other.type);
    integer &&= kindOf(other.type) !== "float";
    // Integer division by a zero column is an error in Lance 12 (alt: NULLIF, a null).
    if (integer && ["/", "%"].includes(aop)) bAlt = `NULLIF(${b}, 0)`;
  } else {
    b = rng.chance(0.5) ? String(rng.int(1, 7)) : `${rng.int(1, 7)}.5`;
    integer &&= !b.includes(".");
    if (rng.chance(0.2)) b = `-${b}`;
  }
  const rhs = rng.chance(0.5) ? String(rng.int(-10, 10)) : `${rng.int(-20, 20) / 4}`;
  const cmp = rng.pick(kCompare);
  // 64-bit integers with an unsigned 64-bit or a float operand (see known.mjs, kPending).
  const types = [a.type, ...tags.filter((x) => /^(u?int|float)/.test(x))];
  if (types.includes("uint64") || (types.includes("int64") && (!integer || b.includes(".")))) {
    tags.push("wide_integer_arithmetic");
  }
  const sql = `(${a.sql} ${aop} ${b}) ${cmp} ${rhs}`;
  // An integer result against a fractional literal: Lance 12 refuses (alt: the result as DOUBLE).
  const fraction = integer && rhs.includes(".");
  if (fraction) tags.push("fraction_vs_integer");
  if (bAlt) tags.push("integer_division_by_column");
  if (!fraction && !bAlt) return { sql, tags };
  const lhs = `${a.sql} ${aop} ${bAlt ?? b}`;
  return { sql, alt: fraction ? `CAST((${lhs}) AS DOUBLE) ${cmp} ${rhs}` : `(${lhs}) ${cmp} ${rhs}`, tags };
}

function inList(rng, cat) {
  const l = rng.pick(scalars(cat).filter((x) => kindOf(x.type) !== "bool"));
  const n = rng.int(1, 4);
  const items = Array.from({ length: n }, () => sampleOf(rng, l)).filter((x) => x !== null);
  if (items.length === 0) return compare(rng, cat);
  const not = rng.chance(0.3) ? "NOT " : "";
  const tags = ["in", kindOf(l.type), l.type];
  if (not) tags.push("not_in");
  return { sql: `${l.sql} ${not}IN (${items.map((x) => literal(l.type, x, rng)).join(", ")})`, tags };
}

function numericValue(type, v) {
  if (kindOf(type) === "ts" || type === "date64" || type === "int64" || type === "uint64") return Number(BigInt(v));
  if (v === "NaN") return NaN;
  if (v === "Infinity") return Infinity;
  if (v === "-Infinity") return -Infinity;
  return Number(v);
}

function between(rng, cat) {
  const l = rng.pick(scalars(cat).filter((x) => !["bool"].includes(kindOf(x.type))));
  let lo = sampleOf(rng, l);
  let hi = sampleOf(rng, l);
  if (lo === null || hi === null) return compare(rng, cat);
  const ordered = kindOf(l.type) === "str" ? lo <= hi : numericValue(l.type, lo) <= numericValue(l.type, hi);
  if (!ordered && rng.chance(0.8)) [lo, hi] = [hi, lo];
  const not = rng.chance(0.3) ? "NOT " : "";
  return {
    sql: `${l.sql} ${not}BETWEEN ${literal(l.type, lo, rng)} AND ${literal(l.type, hi, rng)}`,
    tags: ["between", kindOf(l.type), l.type, ...(not ? ["not_between"] : [])],
  };
}

function isNull(rng, cat) {
  const l = rng.pick(cat);
  const not = rng.chance(0.5) ? " NOT" : "";
  const tags = ["is_null", kindOf(l.type)];
  if (l.variable) tags.push("whole_variable");
  return { sql: `${l.sql} IS${not} NULL`, tags };
}

function likePattern(rng, s) {
  const chars = [...s];
  switch (rng.int(0, 4)) {
    case 0: return `${chars.slice(0, rng.int(0, chars.length)).join("")}%`;
    case 1: return `%${chars.slice(rng.int(0, chars.length)).join("")}`;
    case 2: return chars.map((c) => (rng.chance(0.3) ? "_" : c)).join("");
    case 3: return `%${chars.slice(1, Math.max(1, chars.length - 1)).join("")}%`;
    default: return s;
  }
}

function like(rng, cat) {
  const l = rng.pick(scalars(cat).filter((x) => kindOf(x.type) === "str"));
  const v = sampleOf(rng, l) ?? "a";
  const not = rng.chance(0.3) ? "NOT " : "";
  return {
    sql: `${l.sql} ${not}LIKE ${literal("utf8", likePattern(rng, v), rng)}`,
    tags: ["like", l.type, ...(not ? ["not_like"] : [])],
  };
}

function cast(rng, cat) {
  const l = rng.pick(scalars(cat).filter((x) => ["int", "uint", "float", "date", "str"].includes(kindOf(x.type))));
  const v = sampleOf(rng, l);
  const kind = kindOf(l.type);
  const op = rng.pick(kCompare);
  const tags = ["cast", l.type];
  if (kind === "str") {
    return { sql: `CAST(${l.sql} AS STRING) ${op} ${literal("utf8", v ?? "a", rng)}`, tags: [...tags, "to_string"] };
  }
  if (kind === "date") {
    const lit = v === null ? "TIMESTAMP '1970-01-01 00:00:00'" : `TIMESTAMP '${timestampText("timestamp[ms]", l.type === "date64" ? v : String(BigInt(v) * 86400000n))}'`;
    return { sql: `CAST(${l.sql} AS TIMESTAMP) ${op} ${lit}`, tags: [...tags, "date_to_timestamp"] };
  }
  const to = rng.pick(["DOUBLE", "FLOAT", "BIGINT", "INT", "STRING", "VARCHAR"]);
  tags.push(`to_${to.toLowerCase()}`);
  if (kind === "float" && ["STRING", "VARCHAR"].includes(to)) tags.push("float_to_string");
  if (["BIGINT", "INT"].includes(to) && kind !== "float") tags.push("integer_cast_narrowing");
  if (to === "STRING" || to === "VARCHAR") {
    // Lance 12 knows STRING, not VARCHAR (alt: STRING).
    const text = v === null ? "1" : typeof v === "string" ? v : String(v);
    const sql = (name) => `CAST(${l.sql} AS ${name}) = '${text}'`;
    return to === "STRING" ? { sql: sql(to), tags } : { sql: sql(to), alt: sql("STRING"), tags };
  }
  let lit = v === null || typeof v === "string" ? String(rng.int(-5, 5)) : String(v);
  if (["BIGINT", "INT"].includes(to) && lit.includes(".")) lit = String(Math.round(Number(lit)));
  const sql = `CAST(${l.sql} AS ${to}) ${op} ${lit}`;
  if (kind !== "float" && !(kind === "uint" && to === "INT") && !(l.type === "uint64" && to === "BIGINT")) {
    return { sql, tags };
  }
  // NaN, infinities and values out of range fail the cast in Lance 12 (alt: TRY_CAST, a null).
  tags.push("lossy_cast");
  return { sql, alt: `TRY_CAST(${l.sql} AS ${to}) ${op} ${lit}`, tags };
}

function temporal(rng, cat) {
  const l = rng.pick(scalars(cat).filter((x) => ["ts", "date"].includes(kindOf(x.type))));
  const v = sampleOf(rng, l);
  if (v === null) return isNull(rng, cat);
  const tags = ["temporal", l.type];
  if (rng.chance(0.25) && kindOf(l.type) === "ts") {
    // A DATE literal against a timestamp column.
    const days = Number(BigInt(v) / { s: 86400n, ms: 86400000n, us: 86400000000n, ns: 86400000000000n }[/\[(s|ms|us|ns)/.exec(l.type)[1]]);
    return { sql: `${l.sql} ${rng.pick(kCompare)} DATE '${dateText(days)}'`, tags: [...tags, "date_vs_timestamp"] };
  }
  return { sql: `${l.sql} ${rng.pick(kCompare)} ${literal(l.type, v, rng)}`, tags };
}

function listFunction(rng, cat) {
  const l = rng.pick(cat.filter((x) => kindOf(x.type) === "list"));
  const item = /^list<(.*)>$/.exec(l.type)[1];
  const tags = ["list", l.type, ...(l.values ? ["values"] : [])];
  if (rng.chance(0.5)) {
    return {
      sql: `array_length(${l.sql}) ${rng.pick(kCompare)} ${rng.int(0, 4)}`,
      tags: [...tags, "array_length"],
    };
  }
  const v = l.items.length ? rng.pick(l.items) : null;
  const lit = v === null ? "1" : literal(item, v, rng);
  tags.push("array_has", `item_${kindOf(item)}`);
  if (typeof v === "string" && /NaN|Infinity/.test(v)) tags.push("nan_inf_literal");
  return { sql: `array_has(${l.sql}, ${lit})`, tags };
}

function boolColumn(rng, cat) {
  const l = rng.pick(scalars(cat).filter((x) => kindOf(x.type) === "bool"));
  const form = rng.int(0, 3);
  const sql = [l.sql, `NOT ${l.sql}`, `${l.sql} IS TRUE`, `${l.sql} IS NOT FALSE`][form];
  return { sql, tags: ["bool_column", ...(form >= 2 ? ["is_bool"] : [])] };
}

function statsTest(rng, cat) {
  const l = rng.pick(cat.filter((x) => x.stats));
  const v = sampleOf(rng, l);
  if (v === null) return { sql: `${l.sql} IS NULL`, tags: ["stats", "is_null"] };
  return { sql: `${l.sql} ${rng.pick(kCompare)} ${literal(l.type, v, rng)}`, tags: ["stats", "compare", l.type] };
}

const kAtoms = [
  [compare, 6], [mixedNumeric, 3], [arithmetic, 3], [inList, 2], [between, 2], [isNull, 2],
  [like, 2], [cast, 2], [temporal, 2], [listFunction, 3], [boolColumn, 1], [statsTest, 2],
];

function atom(rng, cat) {
  const total = kAtoms.reduce((s, [, w]) => s + w, 0);
  let x = rng.next() * total;
  for (const [f, w] of kAtoms) {
    if ((x -= w) < 0) return f(rng, cat);
  }
  return compare(rng, cat);
}

/** A random predicate: an atom or AND / OR / NOT of predicates, `depth` levels at most. */
export function predicate(rng, cat, depth = 2) {
  if (depth === 0 || rng.chance(0.55)) return atom(rng, cat);
  const a = predicate(rng, cat, depth - 1);
  const alt = (p) => p.alt ?? p.sql;
  if (rng.chance(0.2)) {
    return { sql: `NOT (${a.sql})`, alt: a.alt && `NOT (${a.alt})`, tags: [...a.tags, "not"] };
  }
  const b = predicate(rng, cat, depth - 1);
  const op = rng.pick(["AND", "OR"]);
  return {
    sql: `(${a.sql}) ${op} (${b.sql})`,
    alt: (a.alt || b.alt) && `(${alt(a)}) ${op} (${alt(b)})`,
    tags: [...a.tags, ...b.tags, op.toLowerCase()],
  };
}

/** `n` random filters; each names at least one leaf `mustUse` accepts when it is given. */
export function randomFilters(rng, cat, n, mustUse = null) {
  const out = [];
  while (out.length < n) {
    const f = predicate(rng, cat);
    if (mustUse && !cat.some((l) => mustUse(l) && f.sql.includes(l.sql))) continue;
    // Lance 12 reads -9223372036854775808 as a float (alt: an integer expression).
    const minAlt = (t) => t.replace(/-9223372036854775808(?!\d)/g, "(-9223372036854775807 - 1)");
    const alt = minAlt(f.alt ?? f.sql);
    if (f.sql.includes("-9223372036854775808")) f.tags.push("int64_min_literal");
    out.push({ sql: f.sql, ...(alt !== f.sql ? { alt } : {}), tags: [...new Set(f.tags)] });
  }
  return out;
}
