// Make LanceDB 0.39 (Lance 12) write a small table with a tag, for lance-nd's tag tests.
//   node make_tagged_table.mjs OUT_DIR
// Writes OUT_DIR/tagged.lance: v1 create (3 rows), v2 append (2 rows), v3 delete "id = 1";
// tag "v-one" -> version 1, tag "x" -> version 2.
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";

const interopDir = process.env.LANCE_ND_INTEROP_DIR ||
  path.resolve(path.dirname(new URL(import.meta.url).pathname), "../../interop");
const require = createRequire(path.join(interopDir, "package.json"));
const arrow = require("apache-arrow");
const lancedb = require("@lancedb/lancedb");

const outDir = process.argv[2];
if (!outDir) {
  console.error("usage: node make_tagged_table.mjs OUT_DIR");
  process.exit(2);
}
fs.mkdirSync(outDir, { recursive: true });
const db = await lancedb.connect(outDir);
const rows = (ids) => ids.map((id) => ({ id, name: `n${id}` }));
const table = await db.createTable("tagged", rows([0, 1, 2]), {
  mode: "overwrite",
  storageOptions: { new_table_data_storage_version: "2.2" },
});
await table.add(rows([3, 4]));
await table.delete("id = 1");
const tags = await table.tags();
await tags.create("v-one", 1);
await tags.create("x", 2);
const list = await tags.list();
console.log(JSON.stringify(list));
const versions = await table.listVersions();
console.log(JSON.stringify(versions));
