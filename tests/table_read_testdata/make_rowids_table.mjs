// Make a small Lance 12 table with stable row ids and record what LanceDB reads at each version.
// Usage: node make_rowids_table.mjs <db dir> <expected.json>  -> table <db dir>/r.lance
//   v1 create ids 0..99, v2 append 100..159, v3 append 160..199, v4 delete id % 7 = 0,
//   v5 update id 50 (row moves to a new fragment, keeps its row id), then optimize (compaction
//   rewrites fragments, row ids kept: sequences with holes) and a last delete.
// expected.json: [{version, ids: [...], rowids: [...]}] in LanceDB scan order.
import { createRequire } from "node:module";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(here, "../../interop/package.json"));
const arrow = require("apache-arrow");
const lancedb = require("@lancedb/lancedb");

const { Field, Int32, Schema } = arrow;
const [dbDir, expectedPath] = process.argv.slice(2);
const schema = new Schema([new Field("id", new Int32(), false), new Field("v", new Int32(), true)]);
const rows = (from, n) => Array.from({ length: n }, (_, i) => ({ id: from + i, v: (from + i) * 3 }));
const db = await lancedb.connect(dbDir);
const t = await db.createTable("r", rows(0, 100), {
  mode: "create", schema,
  storageOptions: { new_table_data_storage_version: "2.2", new_table_enable_stable_row_ids: "true" },
});
await t.add(rows(100, 60));
await t.add(rows(160, 40));
await t.delete("id % 7 = 0");
await t.update({ where: "id = 50", values: { v: "-1" } });
await t.optimize({ cleanupOlderThan: undefined });
await t.delete("id >= 180 AND id < 185");
const last = await t.version();
const out = [];
for (let v = 1; v <= last; ++v) {
  await t.checkout(v);
  const res = await t.query().withRowId(true).toArray();
  out.push({ version: v, ids: res.map((r) => r.id), rowids: res.map((r) => Number(r._rowid)) });
}
fs.writeFileSync(expectedPath, JSON.stringify(out) + "\n");
console.log(JSON.stringify({ version: last, rows: out[out.length - 1].ids.length }));
