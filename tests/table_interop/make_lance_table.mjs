// Make a small Lance 12 table with LanceDB: create (v1), append (v2), delete (v3), add a nested
// column (v4). Usage: node make_lance_table.mjs <db dir>  -> table <db dir>/t.lance
import { arrow, lancedb, storageOptions } from "../../interop/lance_oracle.mjs";

const dbDir = process.argv[2];
const { Field, Int64, Float32, Utf8, Struct, List, Schema } = arrow;
const schema = new Schema([
  new Field("id", new Int64(), false),
  new Field("s", new Struct([new Field("x", new Float32(), true),
    new Field("tags", new List(new Field("item", new Utf8(), true)), true)]), true),
]);
function rows(from, n) {
  return Array.from({ length: n }, (_, i) => ({
    id: BigInt(from + i),
    s: { x: (from + i) * 0.5, tags: [`t${from + i}`, "k"] },
  }));
}
const db = await lancedb.connect(dbDir);
const opts = { mode: "create", schema, storageOptions };
const t = await db.createTable("t", rows(0, 10), opts);
await t.add(rows(10, 5));
await t.delete("id = 3 OR id = 12");
await t.addColumns([new Field("extra", new Struct([new Field("note", new Utf8(), true)]), true)]);
console.log(JSON.stringify({ version: await t.version(), rows: await t.countRows() }));
