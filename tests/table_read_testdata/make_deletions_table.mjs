// Make a small Lance 12 table whose deletion files take both forms, then add a key to an
// existing struct and append rows that carry it.
// Usage: node make_deletions_table.mjs <db dir>  -> table <db dir>/d.lance
//   v1 create ids 0..5199 (one fragment), v2 append ids 5200..5209,
//   v3 delete id < 5010 OR id IN (5201, 5203): 5010 rows of fragment 0 (-> .bin bitmap) and
//      2 rows of fragment 1 (-> .arrow), v4 add key s.b (utf8), v5 append ids 6000..6002 with b.
// Rows: id int32 not null, s struct<a int32 = id * 2> (+ b = "b<id>" for the last append).
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(here, "../../interop/package.json"));
const arrow = require("apache-arrow");
const lancedb = require("@lancedb/lancedb");

const { Field, Int32, Utf8, Struct, Schema } = arrow;
const dbDir = process.argv[2];
const schema = new Schema([
  new Field("id", new Int32(), false),
  new Field("s", new Struct([new Field("a", new Int32(), true)]), true),
]);
const rows = (from, n) => Array.from({ length: n }, (_, i) => ({ id: from + i, s: { a: (from + i) * 2 } }));
const db = await lancedb.connect(dbDir);
const t = await db.createTable("d", rows(0, 5200),
  { mode: "create", schema, storageOptions: { new_table_data_storage_version: "2.2" } });
await t.add(rows(5200, 10));
await t.delete("id < 5010 OR id = 5201 OR id = 5203");
await t.addColumns([new Field("s", new Struct([new Field("b", new Utf8(), true)]), true)]);
const schema2 = new Schema([
  new Field("id", new Int32(), false),
  new Field("s", new Struct([new Field("a", new Int32(), true), new Field("b", new Utf8(), true)]), true),
]);
const more = Array.from({ length: 3 }, (_, i) => ({ id: 6000 + i, s: { a: (6000 + i) * 2, b: `b${6000 + i}` } }));
await t.add(arrow.tableFromJSON ? more : more, { schema: schema2 });
console.log(JSON.stringify({ version: await t.version(), rows: await t.countRows() }));
