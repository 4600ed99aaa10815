// Comparing dumped rows (arrow_dump.mjs) of two readers, with a self-check that a planted
// difference is caught.
import { countValues } from "./arrow_dump.mjs";

export class Mismatch extends Error {}

const byId = (rows) => [...rows].sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : BigInt(a.id) > BigInt(b.id) ? 1 : 0));

// The first difference between two row lists (compared in id order), or null.
export function firstDifference(expected, actual) {
  if (expected.length !== actual.length) return `${actual.length} rows, expected ${expected.length}`;
  const e = byId(expected);
  const a = byId(actual);
  for (let i = 0; i < e.length; ++i) {
    const keys = new Set([...Object.keys(e[i]), ...Object.keys(a[i])]);
    for (const k of keys) {
      const x = JSON.stringify(e[i][k]);
      const y = JSON.stringify(a[i][k]);
      if (x !== y) {
        return `row id ${e[i].id} column '${k}' differs\n  expected ${String(x).slice(0, 300)}\n  actual   ${String(y).slice(0, 300)}`;
      }
    }
  }
  return null;
}

// Throws a Mismatch naming `label` when the rows differ; returns the number of values compared.
export function expectSameRows(expected, actual, label) {
  const problem = firstDifference(expected, actual);
  if (problem) throw new Mismatch(`${label}: ${problem}`);
  let n = 0;
  for (const r of expected) n += countValues(r);
  return n;
}

export function expectSameSchema(expected, actual, label) {
  if (expected !== actual) throw new Mismatch(`${label}: schemas differ\n  expected ${expected}\n  actual   ${actual}`);
}

// Changes the last leaf value of a row (deep), for the planted-difference check.
function plantIn(v) {
  if (Array.isArray(v) && v.length > 0) { v[v.length - 1] = plantIn(v[v.length - 1]); return v; }
  if (v !== null && typeof v === "object" && Object.keys(v).length > 0) {
    const k = Object.keys(v).at(-1);
    v[k] = plantIn(v[k]);
    return v;
  }
  return v === "planted" ? "other" : "planted";
}

// The comparison must be able to fail: a changed deep value, a dropped row and an extra column
// in a copy of `rows` must each be reported. Returns how many were caught (throws otherwise).
export function checkPlantedDifferences(rows) {
  if (rows.length === 0) return 0;
  const copy = () => JSON.parse(JSON.stringify(rows));
  const changed = copy();
  const last = Object.keys(changed[0]).at(-1);
  changed[0][last] = plantIn(changed[0][last]);
  const dropped = copy().slice(1);
  const extra = copy();
  extra[0].planted_column = 1;
  for (const [what, bad] of [["changed value", changed], ["dropped row", dropped], ["extra column", extra]]) {
    if (firstDifference(rows, bad) === null) throw new Error(`comparison missed a planted ${what}`);
  }
  return 3;
}
