// A small Lance 2.2 file with large byte-stream-split chunks, for the file_page_read fuzz
// corpus: node fuzz/make_large_chunk_seed.mjs --tool lance_file_write_tool --out FILE
// (tests/file_write_interop builds the tool).
import { execFileSync } from "node:child_process";
import path from "node:path";
import { arrow, freshDir, parseArgs, writeIpc } from "../interop/lance_oracle.mjs";

const opt = parseArgs(["tool", "out"]);
const work = path.join(path.dirname(path.resolve(opt.out)), "large_chunk_seed_work");
freshDir(work);
const n = 20000;
const md = new Map([["lance-encoding:compression", "zstd"], ["lance-encoding:bss", "on"]]);
const field = new arrow.Field("x", new arrow.Float32(), true, md);
const values = Array.from({ length: n }, (_, i) => (i % 97 === 5 ? null : Math.fround(Math.floor(i / 64) * 0.5)));
const vec = arrow.vectorFromArray(values, new arrow.Float32());
const schema = new arrow.Schema([field]);
const t = new arrow.Table(schema, new arrow.Table({ x: vec }).batches.map((b) => new arrow.RecordBatch(schema, b.data)));
const ipc = writeIpc(path.join(work, "in.arrow"), t);
execFileSync(opt.tool, [ipc, path.resolve(opt.out), "2.2"], { stdio: "inherit" });
