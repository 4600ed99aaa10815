// The test tables of the table interop scripts: schemas and deterministic rows.
import { arrow } from "./common.mjs";

const { Field, Int64, Int32, Float64, Utf8, Struct, List, Schema } = arrow;

// v1 schema: id int64 not null, name utf8, s struct<x float64, tags list<utf8>>.
export const baseSchema = new Schema([
  new Field("id", new Int64(), false),
  new Field("name", new Utf8(), true),
  new Field("s", new Struct([
    new Field("x", new Float64(), true),
    new Field("tags", new List(new Field("item", new Utf8(), true)), true),
  ]), true),
]);

// After evolution: s gains `note` (a new struct child) and the table gains `extra` (top level).
export const evolvedSchema = new Schema([
  baseSchema.fields[0],
  baseSchema.fields[1],
  new Field("s", new Struct([
    ...baseSchema.fields[2].type.children,
    new Field("note", new Utf8(), true),
  ]), true),
  new Field("extra", new Int32(), true),
]);

// Only the new parts, as Lance's addColumns wants them.
export const nestedAddition = new Field("s", new Struct([new Field("note", new Utf8(), true)]), true);
export const topAddition = new Field("extra", new Int32(), true);

// Rows for any of the schemas above (or the table's current schema): keys by field name.
export function rowsFor(schema, from, n) {
  const top = new Set(schema.fields.map((f) => f.name));
  const sField = schema.fields.find((f) => f.name === "s");
  const sKeys = new Set(sField ? sField.type.children.map((c) => c.name) : []);
  return Array.from({ length: n }, (_, k) => {
    const i = from + k;
    const row = { id: BigInt(i) };
    if (top.has("name")) row.name = i % 4 === 1 ? null : `name-${i}`;
    if (top.has("s")) {
      if (i % 7 === 5) {
        row.s = null;
      } else {
        const s = {};
        if (sKeys.has("x")) s.x = i % 5 === 2 ? null : i * 0.25;
        if (sKeys.has("tags")) s.tags = i % 3 === 0 ? [] : [`t${i}`, "k"];
        if (sKeys.has("note")) s.note = `note-${i}`;
        row.s = s;
      }
    }
    if (top.has("extra")) row.extra = i * 10;
    return row;
  });
}
