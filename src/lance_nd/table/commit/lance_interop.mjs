// Used by lance_interop_test.cc: Lance 12 (LanceDB 0.39) opens a table lance-nd wrote, reads it
// and, with "add", appends rows to it; with "delete", deletes the row with id 1. Prints {"rows": before, "version": v, "after": rows}.
// Usage: node lance_interop.mjs <db dir> <table name> count|add|delete
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(here, "../../../../interop/package.json"));
const lancedb = require("@lancedb/lancedb");

const [dbDir, name, mode] = process.argv.slice(2);
const db = await lancedb.connect(dbDir);
const t = await db.openTable(name);
const rows = await t.countRows();
const ids = (await t.query().select(["id"]).toArray()).map((r) => Number(r.id));
if (mode === "add") {
  await t.add([
    { id: 500n, s: { x: 1.5, tags: ["a"] } },
    { id: 501n, s: null },
  ]);
}
if (mode === "delete") await t.delete("id = 1");
const after = await t.countRows();
console.log(JSON.stringify({ rows, version: await t.version(), after,
                             idsum: ids.reduce((a, b) => a + b, 0) }));
