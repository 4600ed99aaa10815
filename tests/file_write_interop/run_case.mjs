// Writer interop: lance-nd writes a Lance file, Lance 12 (LanceDB 0.39) reads it.
//
//   node run_case.mjs --case NAME --version 2.1|2.2 --tool PATH --work DIR
//
// 1. build the case's table with apache-arrow, write it as Arrow IPC;
// 2. create a LanceDB table with the same data and file version;
// 3. run the C++ tool: IPC in, Lance data file out (lance-nd's FileWriter);
// 4. put that file in place of the table's data file and patch the manifest's file size;
// 5. read the table with Lance 12 (full scan and takeOffsets) and compare with the input.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import {
  arrow, firstDifference, freshDir, lancedb, parseArgs, rowsOf, writeIpc,
} from "../../interop/lance_oracle.mjs";
import { patchManifestFileSize } from "../../interop/patch_manifest.mjs";
import { makeCases } from "./cases.mjs";

const opt = parseArgs(["case", "version", "tool", "work"]);
const cases = makeCases(arrow);
if (!cases[opt.case]) throw new Error(`unknown case '${opt.case}'`);
const input = cases[opt.case]();
const work = freshDir(path.resolve(opt.work, `${opt.case}_${opt.version}`));

const ipcPath = writeIpc(path.join(work, "input.arrow"), input);

const dbDir = path.join(work, "db");
const db = await lancedb.connect(dbDir);
await db.createTable(opt.case, input, {
  mode: "overwrite",
  storageOptions: { new_table_data_storage_version: opt.version },
});

const ours = path.join(work, "ours.lance");
const toolArgs = [ipcPath, ours, opt.version];
if (input.writerOptions) toolArgs.push(String(input.writerOptions.pageBytes), String(input.writerOptions.batchRows));
execFileSync(opt.tool, toolArgs, { stdio: "inherit" });

const tableDir = path.join(dbDir, `${opt.case}.lance`);
const dataFiles = fs.readdirSync(path.join(tableDir, "data")).filter((f) => f.endsWith(".lance"));
if (dataFiles.length !== 1) throw new Error(`expected one data file, found ${dataFiles}`);
const target = path.join(tableDir, "data", dataFiles[0]);
const theirs = fs.readFileSync(target);
const tail = theirs.subarray(theirs.length - 8);
const lanceVersion = `${tail.readUInt16LE(0)}.${tail.readUInt16LE(2)}`;
if (lanceVersion !== opt.version) throw new Error(`Lance wrote ${lanceVersion}, expected ${opt.version}`);
fs.copyFileSync(target, path.join(work, "lance_written.lance"));
fs.copyFileSync(ours, target);
const manifests = fs.readdirSync(path.join(tableDir, "_versions")).filter((f) => f.endsWith(".manifest"));
if (manifests.length !== 1) throw new Error(`expected one manifest, found ${manifests}`);
patchManifestFileSize(path.join(tableDir, "_versions", manifests[0]), fs.statSync(ours).size);

const db2 = await lancedb.connect(dbDir);
const tbl = await db2.openTable(opt.case);
const expected = rowsOf(input, []);
const scanned = rowsOf(await tbl.query().toArrow(), []);
let problem = firstDifference(expected, scanned, "full scan");
if (!problem) {
  const n = input.numRows;
  const offsets = [...new Set([0, 1, 2, 3, Math.floor(n / 2), n - 2, n - 1, 1023, 1024, 1025, 4095, 4096, 11, 30, 31,
    8191, 8192, 16383, 16384, 16385, 32767, 32768, 65535, 65536]
    .filter((x) => x >= 0 && x < n))].sort((x, y) => x - y);  // Lance returns them in row order
  const taken = rowsOf(await tbl.takeOffsets(offsets).toArrow(), []);
  problem = firstDifference(offsets.map((i) => expected[i]), taken, `takeOffsets ${JSON.stringify(offsets)}`);
}
if (problem) {
  console.error(`FAIL ${opt.case} ${opt.version}: ${problem}`);
  process.exit(1);
}
console.log(`OK ${opt.case} ${opt.version}: ${input.numRows} rows, ${input.schema.fields.length} columns; ` +
  `ours ${fs.statSync(ours).size} bytes, Lance's ${theirs.length} bytes`);
