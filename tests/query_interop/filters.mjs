// Random filters on random tables: LanceDB 0.39 (Lance 12) and lance-nd's query layer
// (query_filter_tool) must select the same rows.
//
//   node filters.mjs --tool PATH --work DIR [--seeds 1-12] [--filters 150]
//
// Each seed writes one table (ints, floats with NaN/±0/inf, strings, a bool, a struct, a list,
// a timestamp; nulls everywhere) as an Arrow IPC file and as a LanceDB table with a row-number
// column `rid`, then runs the filters on both. Filters LanceDB refuses (it converts literals to
// the column's type and refuses lossy ones) are counted, not compared. Exit 1 on a difference.
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

const kStrings = ["", "a", "A", "ab", "b_c", "K", "é", "a%", "zz"];
const kFloats = [NaN, 0, -0, 1.5, -2.5, Infinity, -Infinity, 3, 1e300];

function randomTable(rng, n) {
  const maybe = (f) => (rng.chance(0.2) ? null : f());
  const cols = {
    rid: Array.from({ length: n }, (_, i) => i),
    i32: Array.from({ length: n }, () => maybe(() => rng.int(-5, 5))),
    i64: Array.from({ length: n }, () => maybe(() => BigInt(rng.int(-5, 5)))),
    f64: Array.from({ length: n }, () => maybe(() => (rng.chance(0.5) ? rng.pick(kFloats) : rng.int(-6, 6) / 2))),
    s: Array.from({ length: n }, () => maybe(() => rng.pick(kStrings))),
    flag: Array.from({ length: n }, () => maybe(() => rng.chance(0.5))),
    st: Array.from({ length: n }, () => maybe(() => ({ x: rng.chance(0.2) ? null : rng.int(-3, 3), name: rng.chance(0.2) ? null : rng.pick(kStrings) }))),
    lv: Array.from({ length: n }, () => maybe(() => Array.from({ length: rng.int(0, 3) }, () => (rng.chance(0.15) ? null : rng.int(-4, 4) / 2)))),
    ts: Array.from({ length: n }, () => maybe(() => new Date(Date.UTC(2020, rng.int(0, 11), rng.int(1, 28))))),
  };
  const F = (name, type) => new arrow.Field(name, type, true);
  const types = {
    rid: new arrow.Int32(), i32: new arrow.Int32(), i64: new arrow.Int64(), f64: new arrow.Float64(),
    s: new arrow.Utf8(), flag: new arrow.Bool(),
    st: new arrow.Struct([F("x", new arrow.Int32()), F("name", new arrow.Utf8())]),
    lv: new arrow.List(F("item", new arrow.Float64())), ts: new arrow.TimestampMillisecond(),
  };
  const vectors = {};
  for (const k of Object.keys(cols)) vectors[k] = arrow.vectorFromArray(cols[k], types[k]);
  return new arrow.Table(vectors);
}

function filterGenerator(rng) {
  const int = () => String(rng.int(-4, 4));
  const float = () => rng.pick(["1.5", "-2.5", "0.0", "-0.0", "3.0", "1e300", "0.5"]);
  const str = () => `'${rng.pick(kStrings).replace(/'/g, "''")}'`;
  const op = () => rng.pick(["=", "<>", "<", "<=", ">", ">=", "!=", "=="]);
  const leaf = () => {
    switch (rng.below(20)) {
      case 16: return `${rng.pick(["i32", "st.x"])} ${op()} ${rng.pick(["i64", "f64", "st.x", "i32"])}`;
      case 17: return `${rng.pick(["s", "st.name"])} ${rng.chance(0.3) ? "NOT " : ""}IN (${str()}, ${str()})`;
      case 18: return `${rng.pick(["CAST(i32 AS STRING)", "CAST(st.x AS BIGINT)", "abs(i32)", "CAST(flag AS INT)"])} ${op()} ${rng.chance(0.5) ? int() : `'${rng.int(-3, 3)}'`}`;
      case 19: return `ts ${op()} DATE '2020-${String(rng.int(1, 12)).padStart(2, "0")}-01'`;
      case 0: return `i32 ${op()} ${int()}`;
      case 1: return `i64 ${op()} ${int()}`;
      case 2: return `f64 ${op()} ${float()}`;
      case 3: return `s ${op()} ${str()}`;
      case 4: return `s ${rng.chance(0.5) ? "NOT " : ""}${rng.pick(["LIKE", "ILIKE"])} '${rng.pick(["a%", "%", "_", "%c", "A%", "b\\_c", "%é"])}'`;
      case 5: return `${rng.pick(["i32", "f64", "s", "flag", "st", "st.x", "lv", "ts"])} IS ${rng.chance(0.5) ? "NOT " : ""}NULL`;
      case 6: return `st.x ${op()} ${int()}`;
      case 7: return `st.name ${op()} ${str()}`;
      case 8: return `i32 ${rng.chance(0.3) ? "NOT " : ""}IN (${int()}, ${rng.chance(0.3) ? "NULL" : int()})`;
      case 9: return `i64 ${rng.chance(0.3) ? "NOT " : ""}BETWEEN ${int()} AND ${int()}`;
      case 10: return `array_has(lv, ${rng.int(-4, 4) / 2})`;
      case 11: return `array_length(lv) ${op()} ${rng.int(0, 3)}`;
      case 12: return `${rng.pick(["i32 + 1", "i32 * 2", "-i32", "i64 % 3", "i64 - i32"])} ${op()} ${int()}`;
      case 13: return `${rng.pick(["f64 / 2", "f64 * -1", "f64 + i32", "f64 - f64"])} ${op()} ${float()}`;
      case 14: return `flag ${rng.pick(["= true", "= false", "IS TRUE", "IS NOT FALSE", "<> true"])}`;
      default: return `ts ${op()} TIMESTAMP '2020-${String(rng.int(1, 12)).padStart(2, "0")}-15 00:00:00'`;
    }
  };
  const cond = (depth) => {
    if (depth <= 0 || rng.chance(0.3)) return leaf();
    switch (rng.below(3)) {
      case 0: return `(${cond(depth - 1)}) AND (${cond(depth - 1)})`;
      case 1: return `(${cond(depth - 1)}) OR (${cond(depth - 1)})`;
      default: return `NOT (${cond(depth - 1)})`;
    }
  };
  return () => cond(rng.below(4));
}

async function main() {
  const a = args();
  fs.mkdirSync(a.work, { recursive: true });
  let compared = 0, refused = 0, differences = 0;
  for (const seed of a.seedList) {
    const rng = new Rng(seed);
    const table = randomTable(rng, rng.int(1, 60));
    const ipc = path.join(a.work, `seed${seed}.arrow`);
    fs.writeFileSync(ipc, arrow.tableToIPC(table, "file"));
    const db = await lancedb.connect(path.join(a.work, `db${seed}`));
    const lance = await db.createTable("t", table, { mode: "overwrite" });
    const gen = filterGenerator(rng);
    const filters = Array.from({ length: a.filters }, gen);
    const filterFile = path.join(a.work, `seed${seed}.filters`);
    fs.writeFileSync(filterFile, filters.join("\n") + "\n");
    const ours = execFileSync(a.tool, [ipc, filterFile], { encoding: "utf8" }).trim().split("\n").map((l) => JSON.parse(l));
    for (let i = 0; i < filters.length; i++) {
      let theirs;
      try {
        const rows = await lance.query().where(filters[i]).select(["rid"]).toArray();
        theirs = rows.map((r) => r.rid).sort((x, y) => x - y);
      } catch (e) {
        refused++;
        continue;
      }
      compared++;
      if (ours[i].error !== undefined || JSON.stringify(ours[i].rows) !== JSON.stringify(theirs)) {
        differences++;
        console.log(`seed ${seed}: ${filters[i]}\n  LanceDB: ${JSON.stringify(theirs)}\n  lance-nd: ${JSON.stringify(ours[i])}`);
      }
    }
  }
  console.log(`${compared} filters compared, ${refused} refused by LanceDB, ${differences} differences`);
  if (differences > 0 || compared < refused) process.exit(1);
}

await main();
