// LanceDB (Lance 12) side of the Python interop test:
//   node lancedb_nd.mjs read TABLE OUT.json [FILTER]  every row of TABLE as nd JSON, and the
//                                                      row count LanceDB gives for FILTER
//   node lancedb_nd.mjs write TABLE IN.json           create TABLE from nd JSON rows
// nd JSON is the description of interop/README.md (interop/nd_arrow.mjs).
import fs from "node:fs";
import { describeTable, encodeRows, lancedb, writeLance } from "../../interop/nd_arrow.mjs";
import { splitTablePath } from "../../interop/lance_oracle.mjs";

const [command, tablePath, file, filter] = process.argv.slice(2);
const { db, name } = splitTablePath(tablePath);

if (command === "read") {
  const table = await (await lancedb.connect(db)).openTable(name);
  const all = await table.query().toArrow();
  const names = all.schema.fields.map((f) => f.name).filter((n) => !n.startsWith("__stats__"));
  const { rows } = describeTable(all.select(names), { strictNullRows: false });
  const filtered = filter ? await table.countRows(filter) : null;
  fs.writeFileSync(file, JSON.stringify({ rows, filtered }));
} else if (command === "write") {
  const rows = JSON.parse(fs.readFileSync(file, "utf8"));
  await writeLance(db, name, encodeRows(rows, new Map([["lance_nd:format", "1"]])));
} else {
  console.error("usage: node lancedb_nd.mjs read|write TABLE FILE [FILTER]");
  process.exit(2);
}
