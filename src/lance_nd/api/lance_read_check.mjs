// Used by lance_read_test.cc: Lance 12 (LanceDB 0.39) opens a lance-nd table at every version and
// reads its latest version whole. Prints {"versions": {v: rows}, "columns": [...],
// "non_null": {column: count}, "stats": {column: "n|e|v per row"}} where, per stats row, n is a
// null struct, e a struct with null min and max, v a struct with values.
// Usage: node lance_read_check.mjs <db dir> <table name>
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(here, "../../../interop/package.json"));
const lancedb = require("@lancedb/lancedb");

const [dbDir, name] = process.argv.slice(2);
const db = await lancedb.connect(dbDir);
const t = await db.openTable(name);
const latest = await t.version();
const versions = {};
for (let v = 1; v <= latest; ++v) {
  await t.checkout(v);
  versions[v] = await t.countRows();
}
await t.checkoutLatest();
const table = await t.query().toArrow();
const columns = table.schema.fields.map((f) => f.name);
const nonNull = {};
const stats = {};
for (const f of table.schema.fields) {
  const col = table.getChild(f.name);
  let n = 0;
  let s = "";
  for (let i = 0; i < table.numRows; ++i) {
    const v = col.get(i);
    if (v !== null) ++n;
    if (f.name.startsWith("__stats__:")) {
      s += v === null ? "n" : v.min === null && v.max === null ? "e" : "v";
    }
  }
  nonNull[f.name] = n;
  if (f.name.startsWith("__stats__:")) stats[f.name] = s;
}
console.log(JSON.stringify({ versions, columns, non_null: nonNull, stats }));
