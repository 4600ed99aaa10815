// Filters on nd tables (`__global_attrs__.<key>`, `<variable>.attrs.<key>`) in Lance SQL, and
// the rows they select, computed from the generated nd JSON rows (SQL's three-valued logic:
// a comparison with a missing key selects nothing).

const kOrdered = new Set(["int8", "int16", "int32", "uint8", "uint16", "uint32", "int64"]);

/**
 * The attribute keys of `layout` a filter may use: all of them, or (`unevolvedOnly`) only those
 * of columns whose keys never changed since the column was added. Until the table is compacted,
 * Lance 12 fails to read a struct that gained a child after rows were written, when a filter
 * needs it ("projection supplied fewer column indices than its fields require"), on tables it
 * wrote itself too.
 */
export function filterCandidates(layout, unevolvedOnly) {
  const out = [];
  for (const c of layout) {
    if (unevolvedOnly && c.keys.length !== c.created.length) continue;
    for (const [key, type] of c.keys) {
      const get = c.global
        ? (row) => row.global_attrs?.[key]?.value
        : (row) => row.variables[c.name]?.attrs?.[key]?.value;
      // Keys may hold dots and spaces: quoted in backticks, as both engines read them.
      const sql = c.global ? `${c.name}.\`${key}\`` : `${c.name}.attrs.\`${key}\``;
      out.push({ sql, type, get });
    }
  }
  return out;
}

function literal(type, v) {
  if (type === "utf8") return `'${v.replace(/'/g, "''")}'`;
  return String(v);
}

function compare(type, a, b) {  // -1, 0, 1
  if (type === "int64") {
    const x = BigInt(a);
    const y = BigInt(b);
    return x < y ? -1 : x > y ? 1 : 0;
  }
  return a < b ? -1 : a > b ? 1 : 0;
}

const kTests = {
  "=": (c) => c === 0, "<>": (c) => c !== 0, ">": (c) => c > 0, "<=": (c) => c <= 0,
};

/** One filter: an SQL predicate and the test that selects a row. */
function randomFilter(rng, rows, cand) {
  const present = rows.map(cand.get).filter((v) => v !== undefined);
  const nullTest = rng.chance(0.5) ? "IS NULL" : "IS NOT NULL";
  const pickNull = () => ({
    sql: `${cand.sql} ${nullTest}`,
    test: (row) => (cand.get(row) === undefined) === (nullTest === "IS NULL"),
  });
  if (present.length === 0 || rng.chance(0.2)) return pickNull();
  const lit = rng.pick(present);
  if (cand.type === "bool") {
    return { sql: `${cand.sql} = ${lit}`, test: (row) => cand.get(row) === lit };
  }
  const ordered = kOrdered.has(cand.type);
  if (!ordered && cand.type !== "utf8") return pickNull();
  if (cand.type === "int64" && (BigInt(lit) > 2n ** 53n || BigInt(lit) < -(2n ** 53n))) return pickNull();
  const op = rng.pick(ordered ? ["=", "<>", ">", "<="] : ["=", "<>"]);
  return {
    sql: `${cand.sql} ${op} ${literal(cand.type, lit)}`,
    test: (row) => {
      const v = cand.get(row);
      return v !== undefined && kTests[op](compare(cand.type, v, lit));
    },
  };
}

/** Up to `n` random filters over `candidates`. */
export function randomFilters(rng, rows, candidates, n) {
  if (candidates.length === 0) return [];
  return Array.from({ length: n }, () => randomFilter(rng, rows, rng.pick(candidates)));
}

/** The indexes of the rows `filter` selects, ascending. */
export function rowsMatching(rows, filter) {
  const out = [];
  rows.forEach((r, i) => { if (filter.test(r)) out.push(i); });
  return out;
}
