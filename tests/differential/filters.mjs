// Random `where` filters over a generated table, each with the predicate that computes its
// expected result from the dumped rows (arrow_dump.mjs values), so the script knows which rows
// Lance must return without asking Lance.
//
// Paths are top-level columns or struct children (not inside lists). Floats and times are only
// tested for IS [NOT] NULL: their SQL literals and NaN ordering are not what this checks.
import { makeRng } from "./generate.mjs";

const INT = /^(int|uint)(8|16|32|64)$/;
const TEXT = new Set(["utf8", "large_utf8"]);

// Leaf paths reachable without crossing a list: [{sql, get, spec}].
function leafPaths(columns) {
  const out = [];
  const walk = (spec, sql, get) => {
    if (spec.kind === "leaf") out.push({ sql, get, spec });
    if (spec.kind !== "struct") return;
    for (const c of spec.children) {
      walk(c.spec, `${sql}.${c.name}`, (row) => { const s = get(row); return s === null ? null : s[c.name]; });
    }
  };
  for (const col of columns) walk(col.spec, col.name, (row) => row[col.name]);
  return out;
}

const asBig = (v) => BigInt(v);
const present = (rows, get) => rows.map(get).filter((v) => v !== null);

function comparison(rng, p, rows) {
  const values = present(rows, p.get);
  if (values.length === 0) return null;
  const v = rng.pick(values);
  if (INT.test(p.spec.leaf)) {
    if (p.spec.leaf === "uint64" && asBig(v) >= 1n << 63n) return null;
    const op = rng.pick([">", "<=", "="]);
    const cmp = (x) => (op === ">" ? asBig(x) > asBig(v) : op === "<=" ? asBig(x) <= asBig(v) : asBig(x) === asBig(v));
    return { sql: `${p.sql} ${op} ${v}`, keep: (r) => { const x = p.get(r); return x !== null && cmp(x); } };
  }
  if (TEXT.has(p.spec.leaf)) {
    if (/['\\]/.test(v)) return null;
    return { sql: `${p.sql} = '${v}'`, keep: (r) => p.get(r) === v };
  }
  if (p.spec.leaf === "bool") {
    return { sql: `${p.sql} = ${v}`, keep: (r) => p.get(r) === v };
  }
  return null;
}

function nullCheck(rng, p) {
  const not = rng.chance(0.5);
  return { sql: `${p.sql} IS ${not ? "NOT " : ""}NULL`, keep: (r) => (p.get(r) === null) !== not };
}

// `count` filters for a case (seeded by the case's seed), always starting with an id range.
export function makeFilters(c, rows, count) {
  const rng = makeRng(c.seed * 7919 + 3);
  const n = rows.length;
  const lo = rng.int(0, Math.max(n, 1));
  const hi = rng.int(lo, lo + 50);
  const filters = [{ sql: `id >= ${lo} AND id < ${hi}`, keep: (r) => BigInt(r.id) >= lo && BigInt(r.id) < hi }];
  const paths = leafPaths(c.columns);
  for (let tries = 0; filters.length < count && paths.length > 0 && tries < 4 * count; ++tries) {
    const p = rng.pick(paths);
    const f = rng.chance(0.3) ? nullCheck(rng, p) : comparison(rng, p, rows);
    if (!f) continue;
    if (filters.length > 1 && rng.chance(0.3)) {  // AND with the previous one
      const prev = filters[filters.length - 1];
      filters.push({ sql: `(${prev.sql}) AND (${f.sql})`, keep: (r) => prev.keep(r) && f.keep(r) });
    } else {
      filters.push(f);
    }
  }
  return filters;
}
