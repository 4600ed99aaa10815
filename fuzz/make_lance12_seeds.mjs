// Make LanceDB (Lance 12) write small nd tables whose files seed the fuzz corpora (see
// fuzz/README.md). Every row of an nd column has the same dim_names, and a plain list<utf8>
// column holds the same value in every row: Lance 12 writes a constant page with a
// variable-width value for those. Each table goes through create, add, delete (a few rows:
// an Arrow deletion file; most of a fragment: a Roaring one), addColumns and optimize, so its
// folder also holds manifests, transactions and deletion files.
//   node make_lance12_seeds.mjs OUT_DIR   -> OUT_DIR/<table>_v21.lance, <table>_v22.lance
import path from "node:path";
import { pathToFileURL } from "node:url";

const interopDir = process.env.LANCE_ND_INTEROP_DIR ||
  path.resolve(path.dirname(new URL(import.meta.url).pathname), "../interop");
const { arrow, lancedb } = await import(pathToFileURL(path.join(interopDir, "lance_oracle.mjs")).href);

const outDir = process.argv[2];
if (!outDir) {
  console.error("usage: node make_lance12_seeds.mjs OUT_DIR");
  process.exit(2);
}
const F = (name, type, nullable = true, metadata = null) =>
  new arrow.Field(name, type, nullable, metadata ? new Map(Object.entries(metadata)) : undefined);
const List = (type) => new arrow.List(F("item", type));
const range = (n, f) => Array.from({ length: n }, (_, i) => f(i));

// An nd column {values, dim_names, dim_sizes, attrs}: every row is a lat x lon grid.
function ndField(name, valueType) {
  return F(name, new arrow.Struct([
    F("values", List(valueType)),
    F("dim_names", List(new arrow.Utf8())),
    F("dim_sizes", List(new arrow.Uint32())),
    F("attrs", new arrow.Struct([F("units", new arrow.Utf8())])),
  ]), true, { "nd:kind": "variable" });
}
const schema = new arrow.Schema([
  F("id", new arrow.Int32(), false),
  ndField("temperature", new arrow.Float32()),
  ndField("label", new arrow.Utf8()),
  F("tags", List(new arrow.Utf8())),
  F("kind", new arrow.Utf8()),
]);
function rows(from, n) {
  return range(n, (k) => {
    const i = from + k;
    return {
      id: i,
      temperature: { values: range(6, (j) => 270 + ((i + j) % 40)), dim_names: ["lat", "lon"],
                     dim_sizes: [2, 3], attrs: { units: "K" } },
      label: { values: range(2, (j) => `p${(i + j) % 5}`), dim_names: ["station"],
               dim_sizes: [2], attrs: { units: null } },
      tags: ["same", "tags"],
      kind: "const",
    };
  });
}

const db = await lancedb.connect(outDir);
for (const version of ["2.1", "2.2"]) {
  const name = `nd_const_v${version.replace(".", "")}`;
  const t = await db.createTable(name, rows(0, 300), {
    mode: "overwrite", schema, storageOptions: { new_table_data_storage_version: version },
  });
  await t.add(rows(300, 40));
  await t.delete("id = 5 OR id = 17 OR id = 301");
  await t.delete("id >= 20 AND id < 290");
  await t.addColumns([{ name: "id2", valueSql: "id * 2" }]);
  await t.optimize();
  console.log(JSON.stringify({ table: name, version: await t.version(), rows: await t.countRows() }));
}
