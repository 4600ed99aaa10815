// PruneFilter against LanceDB 0.39: on random tables shaped like lance-nd tables (variables as
// structs with a `values` list, `__stats__:<variable>` Struct{min, max} computed here, global
// attributes), random value filters are pruned by lance-nd (query_filter_tool --prune). LanceDB
// must accept the pruned SQL and select the same rows as lance-nd, and those rows must include
// every row with a matching value.
//
//   node prune.mjs --tool PATH --work DIR [--seeds 1-12] [--filters 150]
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";

const require = createRequire(new URL("../../interop/package.json", import.meta.url));
const arrow = require("apache-arrow");
const lancedb = require("@lancedb/lancedb");

function args() {
  const out = { seeds: "1-12", filters: "150" };
  for (let i = 2; i < process.argv.length; i += 2) out[process.argv[i].replace(/^--/, "")] = process.argv[i + 1];
  const [a, b] = out.seeds.split("-").map(Number);
  out.seedList = Array.from({ length: (b ?? a) - a + 1 }, (_, k) => a + k);
  out.filters = Number(out.filters);
  return out;
}

class Rng {  // xorshift32, seeded
  constructor(seed) { this.s = (seed * 2654435761) >>> 0 || 1; }
  next() { let x = this.s; x ^= x << 13; x >>>= 0; x ^= x >>> 17; x ^= x << 5; this.s = x >>> 0; return this.s / 4294967296; }
  below(n) { return Math.floor(this.next() * n); }
  chance(p) { return this.next() < p; }
  pick(a) { return a[this.below(a.length)]; }
  int(lo, hi) { return lo + this.below(hi - lo + 1); }
}

// One variable's rows: null (absent) or a list of values (null, NaN or numbers).
function randomValues(rng, n, ints) {
  return Array.from({ length: n }, () => {
    if (rng.chance(0.2)) return null;
    return Array.from({ length: rng.int(0, 4) }, () => {
      if (rng.chance(0.15)) return null;
      if (!ints && rng.chance(0.1)) return NaN;
      return ints ? rng.int(-4, 4) : rng.int(-8, 8) / 2;
    });
  });
}

// Stats as the format defines them: null when absent, min/max over values neither null nor NaN.
function stats(rows) {
  return rows.map((values) => {
    if (values === null) return null;
    const counted = values.filter((x) => x !== null && !Number.isNaN(x));
    return counted.length === 0 ? { min: null, max: null } : { min: Math.min(...counted), max: Math.max(...counted) };
  });
}

function randomTable(rng, n) {
  const F = (name, type) => new arrow.Field(name, type, true);
  const v = randomValues(rng, n, false);
  const w = randomValues(rng, n, true);
  const varType = (t) => new arrow.Struct([F("values", new arrow.List(F("item", t)))]);
  const statsType = (t) => new arrow.Struct([F("min", t), F("max", t)]);
  const vec = (rows, t) => arrow.vectorFromArray(rows.map((x) => (x === null ? null : { values: x })), varType(t));
  const table = new arrow.Table({
    rid: arrow.vectorFromArray(Array.from({ length: n }, (_, i) => i), new arrow.Int32()),
    v: vec(v, new arrow.Float64()),
    w: vec(w, new arrow.Int32()),
    __global_attrs__: arrow.vectorFromArray(Array.from({ length: n }, () => (rng.chance(0.2) ? null : { id: rng.pick(["a", "b"]) })),
      new arrow.Struct([F("id", new arrow.Utf8())])),
    "__stats__:v": arrow.vectorFromArray(stats(v), statsType(new arrow.Float64())),
    "__stats__:w": arrow.vectorFromArray(stats(w), statsType(new arrow.Int32())),
  });
  return { table, values: { v, w } };
}

// Filters and what they mean per row in SQL's three-valued logic (true, false, null): a value
// part is true when some counted value satisfies it, else false; an attribute test on a null
// attribute is null.
function filterGenerator(rng) {
  const holds = { "=": (a, b) => a === b, "<": (a, b) => a < b, "<=": (a, b) => a <= b, ">": (a, b) => a > b, ">=": (a, b) => a >= b };
  const flip = { "=": "=", "<": ">", "<=": ">=", ">": "<", ">=": "<=" };
  const any = (vals, pred) => vals !== null && vals.some((x) => x !== null && !Number.isNaN(x) && pred(x));
  const leaf = () => {
    const name = rng.pick(["v", "w"]);
    const lit = () => (name === "w" ? rng.int(-4, 4) : rng.int(-8, 8) / 2);
    const text = (x) => (name === "v" && Number.isInteger(x) ? x.toFixed(1) : String(x));
    switch (rng.below(5)) {
      case 0: {
        const op = rng.pick(Object.keys(holds));
        const x = lit();
        if (rng.chance(0.5)) return { sql: `${name}.values ${op} ${text(x)}`, test: (r) => any(r[name], (y) => holds[op](y, x)) };
        return { sql: `${text(x)} ${flip[op]} ${name}.values`, test: (r) => any(r[name], (y) => holds[op](y, x)) };
      }
      case 1: {
        const lo = lit(), hi = lit();
        return { sql: `${name}.values BETWEEN ${text(lo)} AND ${text(hi)}`, test: (r) => any(r[name], (y) => y >= lo && y <= hi) };
      }
      case 2: {
        const xs = [lit(), lit()];
        return { sql: `${name}.values IN (${xs.map(text).join(", ")})`, test: (r) => any(r[name], (y) => xs.includes(y)) };
      }
      case 3: {
        const x = lit();
        return { sql: `array_has(${name}.values, ${text(x)})`, test: (r) => any(r[name], (y) => y === x) };
      }
      default: {
        const id = rng.pick(["a", "b"]);
        return { sql: `__global_attrs__.id = '${id}'`, test: (r) => (r.id === null ? null : r.id === id) };
      }
    }
  };
  const cond = (depth) => {
    if (depth <= 0 || rng.chance(0.3)) return leaf();
    const a = cond(depth - 1);
    const not = (x) => (x === null ? null : !x);
    const and = (x, y) => (x === false || y === false ? false : x === null || y === null ? null : true);
    const or = (x, y) => (x === true || y === true ? true : x === null || y === null ? null : false);
    if (rng.chance(0.15)) return { sql: `NOT (${a.sql})`, test: (r) => not(a.test(r)) };
    const b = cond(depth - 1);
    if (rng.chance(0.5)) return { sql: `(${a.sql}) AND (${b.sql})`, test: (r) => and(a.test(r), b.test(r)) };
    return { sql: `(${a.sql}) OR (${b.sql})`, test: (r) => or(a.test(r), b.test(r)) };
  };
  return () => cond(rng.below(4));
}

async function main() {
  const a = args();
  fs.mkdirSync(a.work, { recursive: true });
  let compared = 0, keepAll = 0, refused = 0, problems = 0, kept = 0, total = 0;
  for (const seed of a.seedList) {
    const rng = new Rng(seed);
    const n = rng.int(1, 60);
    const { table, values } = randomTable(rng, n);
    const ids = table.getChild("__global_attrs__").toArray().map((g) => (g === null ? null : g.id));
    const rows = Array.from({ length: n }, (_, i) => ({ v: values.v[i], w: values.w[i], id: ids[i] }));
    const ipc = path.join(a.work, `prune${seed}.arrow`);
    fs.writeFileSync(ipc, arrow.tableToIPC(table, "file"));
    const db = await lancedb.connect(path.join(a.work, `prunedb${seed}`));
    const lance = await db.createTable("t", table, { mode: "overwrite" });
    const gen = filterGenerator(rng);
    const filters = Array.from({ length: a.filters }, gen);
    const filterFile = path.join(a.work, `prune${seed}.filters`);
    fs.writeFileSync(filterFile, filters.map((f) => f.sql).join("\n") + "\n");
    const ours = execFileSync(a.tool, ["--prune", ipc, filterFile], { encoding: "utf8" }).trim().split("\n").map((l) => JSON.parse(l));
    for (let i = 0; i < filters.length; i++) {
      const exact = rows.map((r, k) => (filters[i].test(r) === true ? k : -1)).filter((k) => k >= 0);
      if (ours[i].error !== undefined) {
        problems++;
        console.log(`seed ${seed}: ${filters[i].sql}\n  lance-nd error: ${ours[i].error}`);
        continue;
      }
      total += n;
      if (ours[i].sql === null) {
        keepAll++;
        kept += n;
        continue;
      }
      let theirs;
      try {
        theirs = (await lance.query().where(ours[i].sql).select(["rid"]).toArray()).map((r) => r.rid).sort((x, y) => x - y);
      } catch (e) {
        refused++;
        problems++;
        console.log(`seed ${seed}: LanceDB refuses ${ours[i].sql}: ${String(e.message).split("\n")[0].slice(0, 200)}`);
        continue;
      }
      compared++;
      kept += ours[i].rows.length;
      const missing = exact.filter((k) => !ours[i].rows.includes(k));
      if (JSON.stringify(theirs) !== JSON.stringify(ours[i].rows) || missing.length > 0) {
        problems++;
        console.log(`seed ${seed}: ${filters[i].sql}\n  pruned: ${ours[i].sql}\n  LanceDB: ${JSON.stringify(theirs)}\n  lance-nd: ${JSON.stringify(ours[i].rows)}\n  matching rows not kept: ${JSON.stringify(missing)}`);
      }
    }
  }
  console.log(`${compared} pruned filters run by LanceDB, ${keepAll} keep every row, ${refused} refused; ${kept} of ${total} rows kept; ${problems} problems`);
  if (problems > 0 || compared === 0 || kept === total) process.exit(1);
}

await main();
