// Region reads of COADS, lance-nd against libnetcdf, side by side in one run (see README.md).
//
//   lance_nd_region_bench COADS.nc CHUNKED.nc4 TABLE_DIR [REPEATS [--cold-only|--warm-only]
//                         [--compressed]]
//
// COADS.nc is the COADS climatology (TIME 12 x COADSY 90 x COADSX 180, float32, missing values
// as _FillValue). The tool writes it as chunk rows (TIME=5, COADSY=32, COADSX=50) into
// TABLE_DIR; CHUNKED.nc4 must be the same file as netCDF-4 with the same chunks (`nccopy -k
// nc4 -c TIME/5,COADSY/32,COADSX/50`). Then it times three kinds of region reads of SST on
// both (warm page cache), with the table / file open, opening it for each read, and opening it
// for each read after dropping every in-process cache of lance-nd (ClearReadCaches: what a new
// process sees), and prints the median times and their ratios (lance-nd / netCDF: < 1 is
// lance-nd faster). --cold-only times only lance-nd's cold reads, --warm-only
// all but those (for a profiler). --compressed writes the table as `lance-nd import` does
// (zstd on every column, byte-stream split on SST and AIRT), to compare with a CHUNKED.nc4
// that nccopy wrote with deflate and shuffle (`-d1 -s`).
#include <netcdf.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "lance_nd/api/chunking.h"
#include "lance_nd/api/options.h"
#include "lance_nd/api/region.h"
#include "lance_nd/api/table.h"
#include "lance_nd/array/builder.h"

#include "fresh_process.h"

namespace {

namespace nd = lance_nd::nd;
using lance_nd::DimSelector;
using lance_nd::RegionSelection;
using lance_nd::Result;
using lance_nd::Status;

constexpr float kFill = -1e34F;

Status NcStatus(int rc, const std::string& what) {
  return rc == NC_NOERR ? Status::OK() : Status::IOError(what, ": ", nc_strerror(rc));
}

/// A whole variable of the netCDF file as floats, with its dimension names and sizes.
struct NcVariable {
  std::vector<float> values;
  std::vector<std::string> dims;
  std::vector<std::uint64_t> sizes;
};

Result<NcVariable> ReadNcVariable(int nc, const std::string& name) {
  int var = 0, ndims = 0;
  LND_RETURN_NOT_OK(NcStatus(nc_inq_varid(nc, name.c_str(), &var), name));
  LND_RETURN_NOT_OK(NcStatus(nc_inq_varndims(nc, var, &ndims), name));
  std::vector<int> dimids(static_cast<std::size_t>(ndims));
  LND_RETURN_NOT_OK(NcStatus(nc_inq_vardimid(nc, var, dimids.data()), name));
  NcVariable v;
  std::size_t n = 1;
  for (int id : dimids) {
    char dim[NC_MAX_NAME + 1];
    std::size_t len = 0;
    LND_RETURN_NOT_OK(NcStatus(nc_inq_dim(nc, id, dim, &len), name));
    v.dims.emplace_back(dim);
    v.sizes.push_back(len);
    n *= len;
  }
  v.values.resize(n);
  LND_RETURN_NOT_OK(NcStatus(nc_get_var_float(nc, var, v.values.data()), name));
  return v;
}

/// The part of `v` at chunk `pos` / `extent` of the grid, fill values as nulls.
Result<nd::NdArrowArray> ChunkOf(const NcVariable& v, const lance_nd::ChunkGrid& grid,
                                 const lance_nd::ChunkPosition& pos,
                                 const std::vector<std::uint64_t>& extent, bool as_double) {
  std::vector<std::uint64_t> lo, n;
  std::vector<nd::Dimension> dims;
  for (std::size_t k = 0; k < v.dims.size(); ++k) {
    const auto g = static_cast<std::size_t>(grid.layout().DimIndex(v.dims[k]));
    lo.push_back(pos.offset[g]);
    n.push_back(extent[g]);
    dims.push_back({v.dims[k], extent[g]});
  }
  std::uint64_t total = 1;
  for (std::uint64_t s : n) total *= s;
  std::vector<std::optional<float>> f;
  std::vector<std::optional<double>> d;
  for (std::uint64_t e = 0; e < total; ++e) {
    std::uint64_t rest = e, flat = 0, stride = 1;
    for (std::size_t k = n.size(); k-- > 0;) {
      flat += (lo[k] + rest % n[k]) * stride;
      rest /= n[k];
      stride *= v.sizes[k];
    }
    const float x = v.values[flat];
    if (as_double) {
      d.emplace_back(x);
    } else {
      f.emplace_back(x == kFill ? std::nullopt : std::optional<float>(x));
    }
  }
  LND_ASSIGN_OR_RETURN(nd::Dimensions dimensions, nd::Dimensions::Make(std::move(dims)));
  auto values = as_double
                    ? lance_nd::array::MakePrimitiveArray<double>(lance_nd::array::Float64(), d)
                    : lance_nd::array::MakePrimitiveArray<float>(lance_nd::array::Float32(), f);
  return nd::NdArrowArray::Make(values, std::move(dimensions));
}

/// The write options of `lance-nd import`: zstd level 9 on every column, byte-stream split on
/// the float variables; or the writer's defaults.
lance_nd::WriteOptions TableOptions(bool compressed) {
  lance_nd::WriteOptions options;
  if (!compressed) return options;
  lance_nd::ColumnOptions zstd;
  zstd.compression = lance_nd::Compression::kZstd;
  zstd.compression_level = 9;
  options.column_defaults = zstd;
  lance_nd::ColumnOptions split;
  split.byte_stream_split = lance_nd::ByteStreamSplit::kOn;
  options.column_options.emplace("SST", split);
  options.column_options.emplace("AIRT", split);
  return options;
}

/// COADS as chunk rows in `dir` (SST, AIRT and the coordinates; TIME, COADSY, COADSX read as
/// float, exact for their values).
Status WriteTable(const std::string& path, const std::string& dir, bool compressed) {
  int nc = 0;
  LND_RETURN_NOT_OK(NcStatus(nc_open(path.c_str(), NC_NOWRITE, &nc), path));
  const std::vector<std::string> names = {"SST", "AIRT", "TIME", "COADSY", "COADSX"};
  std::vector<NcVariable> vars;
  for (const auto& name : names) {
    LND_ASSIGN_OR_RETURN(NcVariable v, ReadNcVariable(nc, name));
    vars.push_back(std::move(v));
  }
  nc_close(nc);
  lance_nd::DatasetLayout layout{"coads", vars[0].dims, vars[0].sizes, {"TIME"}};
  const std::vector<std::pair<std::string, std::uint64_t>> chunks = {
      {"TIME", 5}, {"COADSY", 32}, {"COADSX", 50}};
  LND_ASSIGN_OR_RETURN(lance_nd::ChunkGrid grid, lance_nd::ChunkGrid::Make(layout, chunks));
  std::vector<nd::NdRecordBatch> rows;
  for (std::uint64_t i = 0; i < grid.num_chunks(); ++i) {
    const lance_nd::ChunkPosition pos = grid.Position(i);
    const std::vector<std::uint64_t> extent = grid.Extent(i);
    std::vector<std::pair<std::string, nd::NdArrowArray>> arrays;
    for (std::size_t v = 0; v < vars.size(); ++v) {
      LND_ASSIGN_OR_RETURN(auto a, ChunkOf(vars[v], grid, pos, extent, v >= 2));
      arrays.emplace_back(names[v], std::move(a));
    }
    nd::Attributes globals;
    LND_RETURN_NOT_OK(lance_nd::SetChunkAttributes(layout, pos, &globals));
    LND_ASSIGN_OR_RETURN(auto row, nd::NdRecordBatch::FromArrays(std::move(arrays), globals));
    rows.push_back(std::move(row));
  }
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
  return lance_nd::Table::Write(dir, rows, TableOptions(compressed)).status();
}

/// One kind of read: the lance-nd selection and the netCDF start / count of the same region.
struct Region {
  RegionSelection selection;
  std::vector<std::size_t> start, count;
};

constexpr int kKinds = 3;

/// The name of read kind `kind`, as the results print it.
const char* KindName(int kind) {
  static const char* const names[kKinds] = {"map (one TIME, 90 x 180)",
                                            "time series (12 at one point)", "box (6 x 30 x 80)"};
  return names[kind];
}

/// A read of kind `kind` at a random position drawn from `rng`.
Region MakeRegion(int kind, std::mt19937_64& rng) {
  auto draw = [&rng](std::uint64_t n) { return static_cast<std::int64_t>(rng() % n); };
  auto at = [](std::int64_t i) { return static_cast<std::size_t>(i); };
  if (kind == 0) {
    const std::int64_t t = draw(12);
    return Region{{{"TIME", DimSelector::Index(t)}}, {at(t), 0, 0}, {1, 90, 180}};
  }
  if (kind == 1) {
    const std::int64_t y = draw(90), x = draw(180);
    return Region{{{"COADSY", DimSelector::Index(y)}, {"COADSX", DimSelector::Index(x)}},
                  {0, at(y), at(x)},
                  {12, 1, 1}};
  }
  const std::int64_t t = draw(7), y = draw(60), x = draw(100);
  return Region{{{"TIME", DimSelector::Range(t, t + 6)},
                 {"COADSY", DimSelector::Range(y, y + 30)},
                 {"COADSX", DimSelector::Range(x, x + 80)}},
                {at(t), at(y), at(x)},
                {6, 30, 80}};
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

template <typename F>
Result<double> TimeMs(F&& read) {
  const auto t0 = std::chrono::steady_clock::now();
  LND_RETURN_NOT_OK(read());
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

/// `--one-read`: one open + read of kind `kind` (position from `seed`) on a new process's first
/// use of the library, timed from before the open to after the close. Prints the time in ms.
Status OneRead(const std::string& side, const std::string& path, int kind, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  const Region r = MakeRegion(kind, rng);
  std::vector<float> buffer(r.count[0] * r.count[1] * r.count[2]);
  const auto t0 = std::chrono::steady_clock::now();
  if (side == "lance") {
    LND_ASSIGN_OR_RETURN(lance_nd::Table t, lance_nd::Table::Open(path));
    LND_RETURN_NOT_OK(lance_nd::ReadRegion(t, "coads", "SST", r.selection).status());
  } else {
    int f = 0, v = 0;
    LND_RETURN_NOT_OK(NcStatus(nc_open(path.c_str(), NC_NOWRITE, &f), path));
    LND_RETURN_NOT_OK(NcStatus(nc_inq_varid(f, "SST", &v), "SST"));
    const int rc = nc_get_vara_float(f, v, r.start.data(), r.count.data(), buffer.data());
    nc_close(f);
    LND_RETURN_NOT_OK(NcStatus(rc, "SST"));
  }
  const double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  std::printf("%.4f\n", ms);
  return Status::OK();
}

/// Each kind of read in new processes, `repeats` times a side, the sides taking turns.
Status RunFresh(const std::string& nc4, const std::string& dir, int repeats) {
  std::printf("\n%-30s %9s %9s %7s %13s %13s %7s\n", "new process (median ms)", "lance-nd",
              "netCDF", "ratio", "lance-nd proc", "netCDF proc", "ratio");
  const std::string self = std::filesystem::read_symlink("/proc/self/exe").string();
  for (int kind = 0; kind < kKinds; ++kind) {
    std::vector<double> ours, theirs, ours_proc, theirs_proc;
    for (int i = 0; i < repeats; ++i) {
      const std::string k = std::to_string(kind), seed = std::to_string(1000 + i);
      LND_ASSIGN_OR_RETURN(region_bench::FreshRun a,
                           region_bench::RunFresh({self, "--one-read", "lance", dir, k, seed}));
      LND_ASSIGN_OR_RETURN(region_bench::FreshRun b,
                           region_bench::RunFresh({self, "--one-read", "netcdf", nc4, k, seed}));
      ours.push_back(a.reported_ms);
      ours_proc.push_back(a.process_ms);
      theirs.push_back(b.reported_ms);
      theirs_proc.push_back(b.process_ms);
    }
    const double mo = Median(ours), mt = Median(theirs);
    const double po = Median(ours_proc), pt = Median(theirs_proc);
    std::printf("%-30s %9.3f %9.3f %7.2f %13.3f %13.3f %7.2f\n", KindName(kind), mo, mt, mo / mt,
                po, pt, po / pt);
  }
  return Status::OK();
}

Status Run(const std::string& coads, const std::string& nc4, const std::string& dir, int repeats,
           bool cold_only, bool warm_only, bool compressed) {
  LND_RETURN_NOT_OK(WriteTable(coads, dir, compressed));
  LND_ASSIGN_OR_RETURN(lance_nd::Table table, lance_nd::Table::Open(dir));
  int nc = 0, sst = 0;
  LND_RETURN_NOT_OK(NcStatus(nc_open(nc4.c_str(), NC_NOWRITE, &nc), nc4));
  LND_RETURN_NOT_OK(NcStatus(nc_inq_varid(nc, "SST", &sst), "SST"));
  std::mt19937_64 rng(42);

  std::printf("%-30s %9s %9s %7s %11s %11s %7s %11s %7s %5s\n", "read (median ms)", "lance-nd",
              "netCDF", "ratio", "lance-nd+op", "netCDF+op", "ratio", "lance-nd+cold", "ratio",
              "rows");
  for (int kind = 0; kind < kKinds; ++kind) {
    const auto make = [&rng, kind] { return MakeRegion(kind, rng); };
    const char* name = KindName(kind);
    std::vector<double> ours, theirs, ours_open, theirs_open, ours_cold;
    lance_nd::RegionReadStats stats;
    for (int i = 0; i < (cold_only ? 0 : repeats); ++i) {
      const Region r = make();
      std::vector<float> buffer(r.count[0] * r.count[1] * r.count[2]);
      // With the table / file open (the netCDF chunk cache warm after the first reads).
      LND_ASSIGN_OR_RETURN(
          double a, TimeMs([&]() -> Status {
            return lance_nd::ReadRegion(table, "coads", "SST", r.selection, &stats).status();
          }));
      LND_ASSIGN_OR_RETURN(
          double b, TimeMs([&]() -> Status {
            return NcStatus(
                nc_get_vara_float(nc, sst, r.start.data(), r.count.data(), buffer.data()), "SST");
          }));
      // Opening the table / file for each read.
      LND_ASSIGN_OR_RETURN(double c, TimeMs([&]() -> Status {
                             LND_ASSIGN_OR_RETURN(lance_nd::Table t, lance_nd::Table::Open(dir));
                             return lance_nd::ReadRegion(t, "coads", "SST", r.selection).status();
                           }));
      LND_ASSIGN_OR_RETURN(double d, TimeMs([&]() -> Status {
                             int f = 0, v = 0;
                             LND_RETURN_NOT_OK(NcStatus(nc_open(nc4.c_str(), NC_NOWRITE, &f), nc4));
                             LND_RETURN_NOT_OK(NcStatus(nc_inq_varid(f, "SST", &v), "SST"));
                             const int rc = nc_get_vara_float(f, v, r.start.data(), r.count.data(),
                                                              buffer.data());
                             nc_close(f);
                             return NcStatus(rc, "SST");
                           }));
      ours.push_back(a);
      theirs.push_back(b);
      ours_open.push_back(c);
      theirs_open.push_back(d);
    }
    // Cold: every cache of reads dropped first, as a new process would start (after the warm
    // reads, which it would otherwise make cold too).
    for (int i = 0; i < (warm_only ? 0 : repeats); ++i) {
      const Region r = make();
      // Dropping the caches (freeing what the reads before kept) is not part of a new
      // process's read, so it is not timed.
      lance_nd::ClearReadCaches();
      LND_ASSIGN_OR_RETURN(double e, TimeMs([&]() -> Status {
                             LND_ASSIGN_OR_RETURN(lance_nd::Table t, lance_nd::Table::Open(dir));
                             return lance_nd::ReadRegion(t, "coads", "SST", r.selection).status();
                           }));
      ours_cold.push_back(e);
    }
    if (cold_only) {
      std::printf("%-30s %9s %9s %7s %11s %11s %7s %11.3f\n", name, "", "", "", "", "", "",
                  Median(ours_cold));
      continue;
    }
    if (warm_only) ours_cold.push_back(0);
    const double mo = Median(ours), mt = Median(theirs);
    const double mo2 = Median(ours_open), mt2 = Median(theirs_open), mo3 = Median(ours_cold);
    std::printf("%-30s %9.3f %9.3f %7.2f %11.3f %11.3f %7.2f %11.3f %7.2f %5llu\n", name, mo, mt,
                mo / mt, mo2, mt2, mo2 / mt2, mo3, mo3 / mt2,
                static_cast<unsigned long long>(stats.rows_read));
  }
  std::vector<double> listing;
  for (int i = 0; i < repeats; ++i) {
    LND_ASSIGN_OR_RETURN(
        double a, TimeMs([&]() -> Status { return lance_nd::ListDatasets(table).status(); }));
    listing.push_back(a);
  }
  std::printf("%-30s %9.3f  (the per-version index every read starts with)\n",
              "ListDatasets (kept index)", Median(listing));
  nc_close(nc);
  if (cold_only || warm_only) return Status::OK();
  // Each child process costs a few ms: at most 40 of them a kind and a side.
  return RunFresh(nc4, dir, std::min(repeats, 40));
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 6 && std::string(argv[1]) == "--one-read") {
    const Status st =
        OneRead(argv[2], argv[3], std::atoi(argv[4]), std::strtoull(argv[5], nullptr, 10));
    if (!st.ok()) std::printf("%s\n", st.ToString().c_str());
    return st.ok() ? 0 : 1;
  }
  if (argc < 4) {
    std::fprintf(stderr,
                 "usage: %s COADS.nc CHUNKED.nc4 TABLE_DIR [REPEATS [--cold-only|--warm-only] "
                 "[--compressed]]\n",
                 argv[0]);
    return 2;
  }
  const int repeats = argc > 4 ? std::max(1, std::atoi(argv[4])) : 50;
  bool cold_only = false, warm_only = false, compressed = false;
  for (int i = 5; i < argc; ++i) {
    const std::string flag = argv[i];
    cold_only |= flag == "--cold-only";
    warm_only |= flag == "--warm-only";
    compressed |= flag == "--compressed";
  }
  const Status st = Run(argv[1], argv[2], argv[3], repeats, cold_only, warm_only, compressed);
  if (!st.ok()) {
    std::fprintf(stderr, "lance_nd_region_bench: %s\n", st.ToString().c_str());
    return 1;
  }
  return 0;
}
