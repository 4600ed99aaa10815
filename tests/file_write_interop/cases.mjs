// Test tables for the writer interop: deterministic data with apache-arrow alone.
// Each case returns an Arrow Table (with field metadata where the case needs it).
export function makeCases(arrow) {
  const {
    Bool, Field, Float32, Float64, Int8, Int16, Int32, Int64, Uint8, Uint16, Uint32, Uint64,
    List, Struct, Utf8, LargeUtf8, Binary, FixedSizeList, Schema, DateDay, TimestampMicrosecond,
    FixedSizeBinary, Float16, LargeBinary,
  } = arrow;

  // mulberry32: a small deterministic PRNG
  function rng(seed) {
    let a = seed >>> 0;
    return () => {
      a = (a + 0x6d2b79f5) >>> 0;
      let t = a;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }
  const f32 = (x) => Math.fround(x);

  function table(fields, columns, schemaMetadata) {
    const vectors = {};
    fields.forEach((f, i) => {
      vectors[f.name] = columns[i] instanceof arrow.Vector ? columns[i] : arrow.vectorFromArray(columns[i], f.type);
    });
    const t = new arrow.Table(vectors);
    const schema = new Schema(fields, schemaMetadata ?? new Map());
    return new arrow.Table(schema, t.batches.map((b) => new arrow.RecordBatch(schema, b.data)));
  }
  const field = (name, type, md) => new Field(name, type, true, md ? new Map(Object.entries(md)) : undefined);
  const list = (t) => new List(new Field("item", t, true));

  const cases = {};

  cases.primitives = () => {
    const r = rng(1); const n = 5000;
    const pick = (gen, nullEvery) => Array.from({ length: n }, (_, i) => (i % nullEvery === 3 ? null : gen(i)));
    const fields = [
      field("i8", new Int8()), field("i16", new Int16()), field("i32", new Int32()),
      field("i64", new Int64()), field("u8", new Uint8()), field("u16", new Uint16()),
      field("u32", new Uint32()), field("u64", new Uint64()), field("f32", new Float32()),
      field("f64", new Float64()), field("b", new Bool()), field("s", new Utf8()),
      field("ls", new LargeUtf8()), field("bin", new Binary()), field("d", new DateDay()),
      field("ts", new TimestampMicrosecond()), field("dense", new Int32()),
      field("fsb", new FixedSizeBinary(5)), field("f16", new Float16()),
      field("lbin", new LargeBinary()),
    ];
    const cols = [
      pick(() => Math.floor(r() * 256) - 128, 7),
      pick(() => Math.floor(r() * 65536) - 32768, 11),
      pick(() => Math.floor(r() * 10000) - 5000, 5),
      pick((i) => BigInt(i) * 1234567891011n - 99n, 13),
      pick(() => Math.floor(r() * 256), 17),
      pick(() => Math.floor(r() * 65536), 19),
      pick(() => Math.floor(r() * 4294967296), 23),
      pick((i) => BigInt(i) * 3n, 29),
      pick(() => f32(r() * 1000 - 500), 31),
      pick(() => r() * 1e6, 37),
      pick(() => r() < 0.5, 41),
      pick((i) => "s" + i.toString(36).repeat(1 + (i % 7)), 43),
      pick((i) => "large" + i, 47),
      pick((i) => Uint8Array.from({ length: i % 9 }, (_, k) => (i + k) & 255), 53),
      pick((i) => new Date(Date.UTC(2000, 0, 1) + i * 86400000), 59),
      pick((i) => 1700000000000 + i * 1000, 61),
      Array.from({ length: n }, (_, i) => i),
      pick((i) => Uint8Array.from({ length: 5 }, (_, k) => (i * 7 + k) & 255), 67),
      pick((i) => (i % 100) / 4, 71),
      pick((i) => Uint8Array.from({ length: (i * 13) % 300 }, (_, k) => (i + k) & 255), 73),
    ];
    return table(fields, cols);
  };

  // The nd data model: a nullable struct with lists and a nested struct.
  cases.nested = () => {
    const r = rng(2); const n = 60;
    const names = ["time", "lat", "lon", "depth"];
    const temperature = Array.from({ length: n }, (_, i) => {
      if (i % 7 === 3) return null;
      const len = [10, 11, 30].includes(i) ? 5000 : 3 + Math.floor(r() * 10);
      return {
        values: i % 9 === 5 ? null : Array.from({ length: len }, (_, k) => (k % 13 === 4 ? null : f32(273.15 + r() * 40))),
        dim_names: Array.from({ length: 1 + (i % 4) }, (_, k) => names[k]),
        dim_sizes: i % 8 === 6 ? [] : Array.from({ length: 1 + (i % 3) }, () => Math.floor(r() * 1000)),
        attrs: i % 5 === 1 ? null : { units: i % 11 === 2 ? null : ["K", "degC"][i % 2] },
      };
    });
    const ga = Array.from({ length: n }, (_, i) => ({
      id: "chunk-" + i,
      chunk_offset: i % 6 === 0 ? null : i % 6 === 1 ? [] : Array.from({ length: i % 6 }, (_, k) => i * 10 + k),
    }));
    const tempType = new Struct([
      new Field("values", list(new Float32()), true),
      new Field("dim_names", list(new Utf8()), true),
      new Field("dim_sizes", list(new Uint32()), true),
      new Field("attrs", new Struct([new Field("units", new Utf8(), true)]), true),
    ]);
    const gaType = new Struct([
      new Field("id", new Utf8(), true),
      new Field("chunk_offset", list(new Uint32()), true),
    ]);
    const fields = [
      field("temperature", tempType, { "ARROW:extension:name": "test.temperature" }),
      field("__global_attrs__", gaType),
      field("allnull", new Int32()),
      field("empty_lists", list(new Float32())),
      field("lol", list(list(new Int16()))),
    ];
    const cols = [
      temperature, ga, Array(n).fill(null),
      Array.from({ length: n }, (_, i) => (i % 3 === 0 ? null : [])),
      Array.from({ length: n }, (_, i) => (i % 4 === 0 ? null : Array.from({ length: i % 3 }, (_, k) => (k === 1 ? [] : [i, k, null])))),
    ];
    return table(fields, cols);
  };

  // apache-arrow's builder drops the items of null fixed-size-list rows: build them by hand.
  function fsl(itemType, dim, rows) {
    const n = rows.length;
    const ItemArray = itemType.ArrayType;
    const items = new ItemArray(n * dim);
    const rowValid = new Uint8Array(Math.ceil(n / 8));
    const itemValid = new Uint8Array(Math.ceil((n * dim) / 8));
    let itemNulls = 0; let rowNulls = 0;
    rows.forEach((row, i) => {
      if (row !== null) rowValid[i >> 3] |= 1 << (i & 7); else rowNulls++;
      for (let k = 0; k < dim; ++k) {
        const x = row === null ? 0 : row[k];
        const j = i * dim + k;
        if (x !== null) { itemValid[j >> 3] |= 1 << (j & 7); items[j] = x; } else itemNulls++;
      }
    });
    const child = arrow.makeData({ type: itemType, length: n * dim, nullCount: itemNulls,
      nullBitmap: itemNulls ? itemValid : undefined, data: items });
    const type = new FixedSizeList(dim, new Field("item", itemType, true));
    return arrow.makeVector(arrow.makeData({ type, length: n, nullCount: rowNulls,
      nullBitmap: rowNulls ? rowValid : undefined, child }));
  }

  cases.fixed_size_list = () => {
    const r = rng(3); const n = 300;
    const fields = [
      field("v4", new FixedSizeList(4, new Field("item", new Float32(), true))),
      field("v128", new FixedSizeList(128, new Field("item", new Float32(), true))),
      field("vi", new FixedSizeList(3, new Field("item", new Int16(), true))),
    ];
    const cols = [
      fsl(new Float32(), 4, Array.from({ length: n }, (_, i) => (i % 10 === 7 ? null : Array.from({ length: 4 }, () => f32(r()))))),
      fsl(new Float32(), 128, Array.from({ length: n }, (_, i) => (i % 9 === 2 ? null : Array.from({ length: 128 }, (_, k) => f32(i + k / 8))))),
      fsl(new Int16(), 3, Array.from({ length: n }, (_, i) => (i % 5 === 1 ? null : [i, i % 7 === 0 ? null : -i, 7]))),
    ];
    return table(fields, cols);
  };

  cases.long_values = () => {
    const n = 200;
    const big = (i) => ("v" + i + "-").repeat(40 + (i % 30));
    const sType = new Struct([new Field("names", list(new Utf8()), true), new Field("x", new Int32(), true)]);
    const fields = [
      field("long", new Utf8()),
      field("mixed", new Utf8()),
      field("s", sType),
      field("forced_mb", new Utf8(), { "lance-encoding:structural-encoding": "miniblock" }),
      field("forced_fz", new Int32(), { "lance-encoding:structural-encoding": "fullzip" }),
    ];
    const cols = [
      Array.from({ length: n }, (_, i) => (i % 6 === 0 ? null : big(i))),
      Array.from({ length: n }, (_, i) => (i === 77 ? "x".repeat(300) : i % 4 === 0 ? null : "short" + i)),
      Array.from({ length: n }, (_, i) => (i % 7 === 2 ? null : { names: i % 5 === 0 ? null : Array.from({ length: i % 4 }, (_, k) => big(i + k)), x: i % 3 === 0 ? null : i })),
      Array.from({ length: n }, (_, i) => (i % 5 === 0 ? null : "m".repeat(250 + (i % 200)))),
      Array.from({ length: n }, (_, i) => (i % 6 === 1 ? null : i * 3)),
    ];
    return table(fields, cols);
  };

  cases.compression = () => {
    const r = rng(4); const n = 20000;
    const md = (c, extra) => ({ "lance-encoding:compression": c, ...(extra ?? {}) });
    const fields = [
      field("z_f64", new Float64(), md("zstd", { "lance-encoding:compression-level": "3" })),
      field("lz_i32", new Int32(), md("lz4")),
      field("none_s", new Utf8(), md("none")),
      field("z_s", new Utf8(), md("zstd")),
      field("bss_f32", new Float32(), md("zstd", { "lance-encoding:bss": "on" })),
      field("dict_s", new Utf8()),
      field("small_u64", new Uint64()),
      field("runs_i64", new Int64(), { "lance-encoding:rle-threshold": "0.9" }),
      field("const_i32", new Int32()),
      field("z_list", list(new Float32()), md("zstd")),
    ];
    const cols = [
      Array.from({ length: n }, (_, i) => (i % 100 === 5 ? null : Math.sin(i / 100))),
      Array.from({ length: n }, (_, i) => (i % 50 === 5 ? null : Math.floor(r() * 100))),
      Array.from({ length: n }, (_, i) => "none-" + (i % 977)),
      Array.from({ length: n }, (_, i) => (i % 9 === 0 ? null : "zstd string " + (i % 1313))),
      Array.from({ length: n }, (_, i) => f32(Math.cos(i / 50) * 100)),
      Array.from({ length: n }, (_, i) => (i % 31 === 0 ? null : ["red", "green", "blue", "yellow"][i % 4])),
      Array.from({ length: n }, (_, i) => BigInt(i % 1000)),
      Array.from({ length: n }, (_, i) => BigInt(Math.floor(i / 250))),
      Array.from({ length: n }, () => 7),
      Array.from({ length: n / 10 }, (_, i) => (i % 11 === 0 ? null : Array.from({ length: i % 20 }, (_, k) => f32(k * 0.5)))).concat(Array(n - n / 10).fill([])),
    ];
    return table(fields, cols);
  };

  // Edge cases: booleans, all-null / all-empty columns, long runs of empty lists (more levels
  // than a mini-block chunk can hold), a row spanning many chunks.
  cases.edge = () => {
    const n = 40000;
    const fields = [
      field("b", new Bool()),
      field("all_null_struct", new Struct([new Field("x", new Int32(), true)])),
      field("all_empty", list(new Int32())),
      field("sparse", list(new Float32())),
      field("big_row", list(new Uint16())),
      field("i64_const", new Int64()),
    ];
    const cols = [
      Array.from({ length: n }, (_, i) => (i % 17 === 0 ? null : i % 3 === 0)),
      Array(n).fill(null),
      Array(n).fill([]),
      Array.from({ length: n }, (_, i) => (i === 39000 ? [1.5, 2.5] : i === 5 ? [0.25] : [])),
      Array.from({ length: n }, (_, i) => (i === 7 ? Array.from({ length: 100000 }, (_, k) => k & 0xffff) : i % 2 ? null : [i & 0xffff])),
      Array(n).fill(42n),
    ];
    return table(fields, cols);
  };

  // Many pages: small page size, many small Write calls.
  cases.pages = () => {
    const n = 30000;
    const fields = [
      field("i", new Int32()),
      field("s", new Utf8()),
      field("l", list(new Float64())),
      field("st", new Struct([new Field("a", new Int16(), true), new Field("t", list(new Utf8()), true)])),
    ];
    const cols = [
      Array.from({ length: n }, (_, i) => (i % 13 === 0 ? null : i)),
      Array.from({ length: n }, (_, i) => (i % 11 === 0 ? null : "row" + i)),
      Array.from({ length: n }, (_, i) => (i % 9 === 0 ? null : Array.from({ length: i % 5 }, (_, k) => i + k / 4))),
      Array.from({ length: n }, (_, i) => (i % 7 === 0 ? null : { a: i % 3 ? i & 0x7fff : null, t: i % 4 ? ["x" + i] : [] })),
    ];
    const t = table(fields, cols);
    t.writerOptions = { pageBytes: 16384, batchRows: 1000 };
    return t;
  };

  // Large 2.2 chunks (byte-stream split under zstd): random float and int columns of several
  // lengths with nulls, smooth and noisy, flat and in lists; pages cut small and large.
  const largeChunks = (seed, n, pageBytes) => () => {
    const r = rng(seed);
    const zstd = { "lance-encoding:compression": "zstd" };
    const bss = { ...zstd, "lance-encoding:bss": "on" };
    const nulls = (every, gen) => Array.from({ length: n }, (_, i) => (every && i % every === 1 ? null : gen(i)));
    const fields = [
      field("smooth_f32", new Float32(), zstd), field("noisy_f32", new Float32(), bss),
      field("smooth_f64", new Float64(), zstd), field("noisy_f64", new Float64(), bss),
      field("i32", new Int32(), zstd), field("i64", new Int64(), zstd),
      field("list_f32", list(new Float32()), bss),
    ];
    const cols = [
      nulls(0, (i) => f32(Math.sin(i / 300) * 40 + 15)),
      nulls(7, () => f32((r() - 0.5) * 1e4)),
      nulls(101, (i) => Math.cos(i / 1000) * 1e3 + i * 1e-3),
      nulls(3, () => r() * 1e9 - 5e8),
      nulls(13, () => Math.floor(r() * 2 ** 31) - 2 ** 30),
      nulls(5, (i) => BigInt(i) * 1000003n - BigInt(Math.floor(r() * 1e6))),
      nulls(17, (i) => Array.from({ length: i % 23 }, () => f32(r() * 100))),
    ];
    const t = table(fields, cols);
    if (pageBytes) t.writerOptions = { pageBytes, batchRows: 7919 };
    return t;
  };
  cases.large_chunks_a = largeChunks(11, 70001, 0);
  cases.large_chunks_b = largeChunks(12, 33000, 300000);
  cases.large_chunks_c = largeChunks(13, 1500, 0);

  return cases;
}
