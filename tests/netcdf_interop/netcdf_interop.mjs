// LanceDB filters a table made by `lance-nd import` (see README.md):
//
//   node netcdf_interop.mjs --cli PATH/lance-nd --work DIR --data /usr/share/ferret-vis/data
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { freshDir, lancedb, parseArgs, splitTablePath } from "../../interop/lance_oracle.mjs";

const opt = parseArgs(["cli", "work", "data"]);
const coads = path.join(opt.data, "coads_climatology.cdf");
const etopo = path.join(opt.data, "etopo60.cdf");
if (!fs.existsSync(coads) || !fs.existsSync(etopo)) {
  console.log(`SKIP: ${coads} or ${etopo} missing (Debian package ferret-datasets)`);
  process.exit(77);
}
const failures = [];
function check(ok, what) {
  if (!ok) {
    failures.push(what);
    console.log("FAIL:", what);
  }
}

// Dimension names and sizes, in order, from `ncdump -h`.
function ncdumpDims(file) {
  let out;
  try {
    out = execFileSync("ncdump", ["-h", file], { encoding: "utf8" });
  } catch (e) {
    console.log("SKIP: ncdump (netcdf-bin) not available:", e.message);
    process.exit(77);
  }
  const block = out.split("dimensions:")[1].split("variables:")[0];
  const dims = [];
  for (const m of block.matchAll(/^\s*(\S+) = (?:UNLIMITED ; \/\/ \((\d+) currently\)|(\d+) ;)/gm)) {
    dims.push({ name: m[1], size: Number(m[2] ?? m[3]) });
  }
  return dims;
}

const work = freshDir(path.resolve(opt.work));
const table = path.join(work, "ferret.lance");
const kChunk = 5;
execFileSync(opt.cli, ["import", table, coads, "--chunks", `TIME=${kChunk}`]);
execFileSync(opt.cli, ["import", table, etopo]);

const coadsDims = ncdumpDims(coads);
const time = coadsDims.find((d) => d.name === "TIME");
const chunks = Math.ceil(time.size / kChunk);
const { db, name } = splitTablePath(table);
const conn = await lancedb.connect(db);
const tbl = await conn.openTable(name);

async function rows(where) {
  const t = await tbl.query().where(where).select(["__global_attrs__", "SST"]).toArrow();
  return t.toArray().map((r) => r.toJSON());
}

const all = await rows("__global_attrs__.id = 'coads_climatology'");
check(all.length === chunks, `id = coads_climatology: ${all.length} rows, expected ${chunks}`);
const firsts = await rows("__global_attrs__.chunk_index = 0");
const firstIds = firsts.map((r) => r.__global_attrs__.id).sort();
check(JSON.stringify(firstIds) === JSON.stringify(["coads_climatology", "etopo60"]),
      `chunk_index = 0: ids ${JSON.stringify(firstIds)}`);
for (let c = 0; c < chunks; ++c) {
  const got = await rows(`__global_attrs__.id = 'coads_climatology' AND __global_attrs__.chunk_index = ${c}`);
  check(got.length === 1, `chunk ${c}: ${got.length} rows, expected 1`);
  if (got.length !== 1) continue;
  const g = got[0].__global_attrs__;
  const expectedOffset = coadsDims.map((d) => (d.name === "TIME" ? c * kChunk : 0));
  check(JSON.stringify(Array.from(g.chunk_offset, Number)) === JSON.stringify(expectedOffset),
        `chunk ${c}: chunk_offset ${Array.from(g.chunk_offset)} expected ${expectedOffset}`);
  check(JSON.stringify(Array.from(g.dataset_shape, Number)) === JSON.stringify(coadsDims.map((d) => d.size)),
        `chunk ${c}: dataset_shape ${Array.from(g.dataset_shape)}`);
  check(Number(g.chunk_count) === chunks, `chunk ${c}: chunk_count ${g.chunk_count}`);
  const extent = Math.min(kChunk, time.size - c * kChunk);
  const sst = got[0].SST;
  const sizes = Array.from(sst.dim_sizes, Number);
  const names = Array.from(sst.dim_names);
  check(JSON.stringify(names) === JSON.stringify(["TIME", "COADSY", "COADSX"]), `chunk ${c}: SST dims ${names}`);
  const y = coadsDims.find((d) => d.name === "COADSY").size;
  const x = coadsDims.find((d) => d.name === "COADSX").size;
  check(JSON.stringify(sizes) === JSON.stringify([extent, y, x]), `chunk ${c}: SST sizes ${sizes}`);
  check(sst.values.length === extent * y * x, `chunk ${c}: ${sst.values.length} SST values`);
}
// The check can fail: a filter on a chunk that does not exist finds nothing.
const none = await rows(`__global_attrs__.id = 'coads_climatology' AND __global_attrs__.chunk_index = ${chunks}`);
check(none.length === 0, `chunk ${chunks} should not exist, found ${none.length}`);

console.log(`netcdf_interop: ${chunks} chunk rows checked, ${failures.length} failures`);
process.exit(failures.length ? 1 : 0);
