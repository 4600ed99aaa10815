// Plant a difference in an Arrow IPC file, to check that lance-nd's interop checker catches it:
//   node nd_ipc_edit.mjs IN OUT drop-metadata FIELD KEY
// Writes IN to OUT (same IPC format: file or stream) with metadata KEY removed from top-level
// field FIELD. Exits 1 if FIELD or KEY is not there.
import fs from "node:fs";
import { arrow, readIpc } from "./nd_arrow.mjs";

const [inPath, outPath, op, fieldName, key] = process.argv.slice(2);
if (op !== "drop-metadata" || !fieldName || !key) {
  console.error("usage: node nd_ipc_edit.mjs IN OUT drop-metadata FIELD KEY");
  process.exit(2);
}
const table = readIpc(inPath);
const field = table.schema.fields.find((f) => f.name === fieldName);
if (!field || !field.metadata.has(key)) {
  console.error(`nd_ipc_edit: ${inPath} has no field '${fieldName}' with metadata '${key}'`);
  process.exit(1);
}
const fields = table.schema.fields.map((f) => {
  if (f !== field) return f;
  const metadata = new Map(f.metadata);
  metadata.delete(key);
  return new arrow.Field(f.name, f.type, f.nullable, metadata);
});
const schema = new arrow.Schema(fields, table.schema.metadata);
const batches = table.batches.map((b) => new arrow.RecordBatch(schema, b.data));
const isFile = fs.readFileSync(inPath).subarray(0, 6).toString("latin1") === "ARROW1";
fs.writeFileSync(outPath, arrow.tableToIPC(new arrow.Table(schema, batches), isFile ? "file" : "stream"));
