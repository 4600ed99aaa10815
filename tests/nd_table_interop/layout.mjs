// The schema ("layout") of an nd table as lance-nd's encoder builds it, mirrored for the
// LanceDB side, and the schema changes between writes (docs/FORMAT.md 2.7 and 3.5):
// - a write's own columns: variables in order of first appearance, then __global_attrs__;
//   attribute keys in order of first appearance;
// - merging into a table keeps the table's columns and keys in order and appends new ones.
// A layout is a list of columns { name, global, type, keys: [[key, type], ...], created }, where
// `created` lists the keys the column had when it was added to the table.
import {
  arrow, encodeRows, globalAttrsColumn, kGlobalAttrsColumn, ndColumn, typeFromName,
} from "../../interop/nd_arrow.mjs";

const { Field, Struct, Schema, RecordBatch, Table, makeData } = arrow;

function addKeys(keys, attrs) {
  for (const [k, a] of Object.entries(attrs ?? {})) {
    if (!keys.some(([name]) => name === k)) keys.push([k, a.type]);
  }
}

/** The columns EncodeRows gives `rows`. */
export function layoutOfRows(rows) {
  const vars = new Map();
  const globals = [];
  for (const r of rows) {
    for (const [name, v] of Object.entries(r.variables)) {
      if (!vars.has(name)) vars.set(name, { name, global: false, type: v.type, keys: [] });
      addKeys(vars.get(name).keys, v.attrs);
    }
    addKeys(globals, r.global_attrs);
  }
  const out = [...vars.values()];
  if (globals.length) out.push({ name: kGlobalAttrsColumn, global: true, type: null, keys: globals });
  return out;
}

/** `table` extended by `incoming` (new keys and new columns appended), and what was added. */
export function mergeLayout(table, incoming) {
  const out = table.map((c) => ({ ...c, keys: [...c.keys] }));
  const added = [];  // { column, keys: [[k, t]] | null (a whole column) }
  for (const c of incoming) {
    const have = out.find((t) => t.name === c.name);
    if (!have) {
      out.push({ ...c, keys: [...c.keys], created: c.keys.map(([k]) => k) });
      added.push({ column: out[out.length - 1], keys: null });
      continue;
    }
    const fresh = c.keys.filter(([k]) => !have.keys.some(([h]) => h === k));
    if (fresh.length) {
      added.push({ column: have, keys: fresh, hadAttrs: have.keys.length > 0 });
      have.keys.push(...fresh);
    }
  }
  return { layout: out, added };
}

function keyFields(keys) {
  return keys.map(([k, t]) => new Field(k, typeFromName(t), true));
}

/** The Arrow field of a layout column (with the extension metadata). */
export function columnField(c) {
  if (c.global) return globalAttrsColumn([], c.keys).field;
  return ndColumn(c.name, [], { type: c.type, keys: c.keys }).field;
}

/** The fields LanceDB's addColumns takes for one addition of mergeLayout. */
export function additionField(a) {
  if (a.keys === null) return columnField(a.column);
  if (a.column.global) return new Field(a.column.name, new Struct(keyFields(a.keys)), true);
  const attrs = new Field("attrs", new Struct(keyFields(a.keys)), true);
  return new Field(a.column.name, new Struct([attrs]), true);
}

/** An Arrow table of `rows` in exactly `layout` (lance-nd's EncodeRowsAs). */
export function encodeAs(rows, layout, metadata) {
  const cols = layout.map((c) => (c.global ? globalAttrsColumn(rows, c.keys)
    : ndColumn(c.name, rows, { type: c.type, keys: c.keys })));
  const schema = new Schema(cols.map((c) => c.field), metadata);
  const data = makeData({
    type: new Struct(schema.fields), length: rows.length, nullCount: 0,
    children: cols.map((c) => c.data),
  });
  return new Table([new RecordBatch(schema, data)]);
}

/**
 * The writes of a case for file version `version`: per commit its rows, the layout after it and
 * the additions before it. Version 2.1 cannot add struct children, so there every column is
 * added with all the keys it will ever have (its rows leave them null until used).
 */
export function writePlan(c, version) {
  const full = new Map(layoutOfRows(c.rows).map((col) => [col.name, col]));
  let layout = [];
  let start = 0;
  return c.commits.map((n) => {
    const rows = c.rows.slice(start, start + n);
    start += n;
    let incoming = layoutOfRows(rows);
    if (version === "2.1") incoming = incoming.map((col) => ({ ...col, keys: full.get(col.name).keys }));
    const merged = mergeLayout(layout, incoming);
    layout = merged.layout;
    return { rows, layout, added: merged.added };
  });
}

export { encodeRows };
