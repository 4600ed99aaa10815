// Writes lance12_constant_strings.lance: a 2.2 data file in which Lance 12 (LanceDB 0.39) stores
// every list<utf8> column as a constant page whose value is a string in a buffer of its own.
//   node make_constant_strings.mjs OUT_DB   (then copy OUT_DB/c22.lance/data/*.lance here)
import path from "node:path";
import { pathToFileURL } from "node:url";

const here = path.dirname(new URL(import.meta.url).pathname);
const oracle = path.resolve(here, "../../../../interop/lance_oracle.mjs");
const { arrow, lancedb } = await import(pathToFileURL(oracle).href);

const db = await lancedb.connect(process.argv[2]);
const F = (n, t, nullable = true) => new arrow.Field(n, t, nullable);
const ListOfUtf8 = new arrow.List(F("item", new arrow.Utf8(), true));
const schema = new arrow.Schema([
  F("dims", ListOfUtf8),
  F("nullable_dims", ListOfUtf8),
  F("emptyable_dims", ListOfUtf8),
  F("var", new arrow.Struct([F("dim_names", ListOfUtf8), F("units", new arrow.Utf8())])),
]);
const rows = [];
for (let i = 0; i < 6; i++) {
  rows.push({
    dims: ["time"],
    nullable_dims: i === 2 ? null : ["lat"],
    emptyable_dims: i === 4 ? [] : ["lon", "lon"],
    var: { dim_names: ["x"], units: "degrees_north" },
  });
}
await db.createTable("c22", rows, {
  schema, mode: "overwrite", storageOptions: { new_table_data_storage_version: "2.2" },
});
