// Example: a dataset stored as chunk rows (docs/FORMAT.md §3.6) and read back by region: a
// point, a map, a value-selected box, and the whole dataset.
//
//   example_region_reads [TABLE_DIR]
//
// docs/user-guide.md walks through this file. Every step checks what it got, so the example
// fails (exit 1) when the library does not do what the guide says.
#include <cstdint>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <string>
#include <vector>

#include "lance_nd/api/chunking.h"
#include "lance_nd/api/region.h"
#include "lance_nd/api/table.h"
#include "lance_nd/array/builder.h"
#include "lance_nd/array/view.h"
#include "lance_nd/core/result.h"

namespace la = lance_nd::array;
namespace nd = lance_nd::nd;
using lance_nd::Result;
using lance_nd::Status;

// The temperature at (time t, lat i, lon j) of the example dataset.
float Temperature(std::uint64_t t, std::uint64_t i, std::uint64_t j) {
  return 270.0F + static_cast<float>(t) + 0.5F * static_cast<float>(i) +
         0.25F * static_cast<float>(j);
}

// A 1-d float64 array over `dim`: first + step * index.
Result<nd::NdArrowArray> Axis(const std::string& dim, std::uint64_t offset, std::uint64_t n,
                              double first, double step) {
  std::vector<std::optional<double>> values;
  for (std::uint64_t k = 0; k < n; ++k) {
    values.emplace_back(first + step * static_cast<double>(offset + k));
  }
  LND_ASSIGN_OR_RETURN(nd::Dimensions dims,
                       nd::Dimensions::Make(std::vector<nd::Dimension>{{dim, n}}));
  return nd::NdArrowArray::Make(la::MakePrimitiveArray<double>(la::Float64(), values), dims);
}

// Chunk `index` of the grid, computed where it lies (as a worker writing its part would).
Result<nd::NdRecordBatch> ChunkRow(const lance_nd::ChunkGrid& grid, std::uint64_t index) {
  const lance_nd::ChunkPosition pos = grid.Position(index);
  const std::vector<std::uint64_t> n = grid.Extent(index);
  std::vector<std::optional<float>> values;
  for (std::uint64_t t = 0; t < n[0]; ++t) {
    for (std::uint64_t i = 0; i < n[1]; ++i) {
      for (std::uint64_t j = 0; j < n[2]; ++j) {
        values.emplace_back(Temperature(pos.offset[0] + t, pos.offset[1] + i, pos.offset[2] + j));
      }
    }
  }
  LND_ASSIGN_OR_RETURN(nd::Dimensions dims, nd::Dimensions::Make(std::vector<nd::Dimension>{
                                                {"time", n[0]}, {"lat", n[1]}, {"lon", n[2]}}));
  nd::Attributes units;
  units.Set("units", "K");
  LND_ASSIGN_OR_RETURN(
      nd::NdArrowArray temp,
      nd::NdArrowArray::Make(la::MakePrimitiveArray<float>(la::Float32(), values), dims, units));
  // Coordinates of split dimensions go with every chunk, cut to it.
  LND_ASSIGN_OR_RETURN(auto time, Axis("time", pos.offset[0], n[0], 0, 24));
  LND_ASSIGN_OR_RETURN(auto lat, Axis("lat", pos.offset[1], n[1], -45, 10));
  LND_ASSIGN_OR_RETURN(auto lon, Axis("lon", pos.offset[2], n[2], 0, 20));
  nd::Attributes globals;
  globals.Set("title", "example temperatures");
  LND_RETURN_NOT_OK(lance_nd::SetChunkAttributes(grid.layout(), pos, &globals));
  return nd::NdRecordBatch::FromArrays({{"temp", temp}, {"time", time}, {"lat", lat}, {"lon", lon}},
                                       globals);
}

Status Expect(bool ok, const char* what) {
  return ok ? Status::OK() : Status::Internal("example: unexpected result: ", what);
}

float ValueAt(const nd::NdArrowArray& a, int64_t i) {
  return la::PrimitiveView<float>(*a.values()).Value(i);
}

// [regions]
Status Run(const std::string& uri) {
  // A dataset "temps": time 6 x lat 10 x lon 18, in chunks of 4 x 4 x 8 (edge chunks shorter):
  // 2 x 3 x 3 = 18 chunk rows, written in one commit.
  lance_nd::DatasetLayout layout{"temps", {"time", "lat", "lon"}, {6, 10, 18}, {"time"}};
  const std::vector<std::pair<std::string, std::uint64_t>> chunks = {
      {"time", 4}, {"lat", 4}, {"lon", 8}};
  LND_ASSIGN_OR_RETURN(lance_nd::ChunkGrid grid, lance_nd::ChunkGrid::Make(layout, chunks));
  std::vector<nd::NdRecordBatch> rows;
  for (std::uint64_t i = 0; i < grid.num_chunks(); ++i) {
    LND_ASSIGN_OR_RETURN(auto row, ChunkRow(grid, i));
    rows.push_back(std::move(row));
  }
  LND_ASSIGN_OR_RETURN(lance_nd::Table table, lance_nd::Table::Write(uri, rows));

  // A point: single indices drop their dimensions (negative ones count from the end). The
  // chunk rows are chosen from the global attributes; only one row's temp is read.
  using lance_nd::DimSelector;
  lance_nd::RegionReadStats stats;
  LND_ASSIGN_OR_RETURN(nd::NdArrowArray point,
                       lance_nd::ReadRegion(table, "temps", "temp",
                                            {{"time", DimSelector::Index(2)},
                                             {"lat", DimSelector::Index(-1)},
                                             {"lon", DimSelector::Index(5)}},
                                            &stats));
  LND_RETURN_NOT_OK(
      Expect(point.rank() == 0 && ValueAt(point, 0) == Temperature(2, 9, 5), "the point's value"));
  LND_RETURN_NOT_OK(Expect(stats.dataset_rows == 18 && stats.rows_read == 1, "one row read"));

  // A map at the last time step: half-open index ranges keep their dimensions.
  LND_ASSIGN_OR_RETURN(
      nd::NdArrowArray map,
      lance_nd::ReadRegion(table, "temps", "temp",
                           {{"time", DimSelector::Index(-1)}, {"lon", DimSelector::Range(3, 12)}}));
  LND_RETURN_NOT_OK(Expect(map.dimensions().ToString() == "[lat=10, lon=9]", "map shape"));

  // By coordinate value (xarray's sel): the nearest time, and lat in the closed range [-20, 20].
  LND_ASSIGN_OR_RETURN(nd::NdArrowArray band,
                       lance_nd::ReadRegion(table, "temps", "temp",
                                            {{"time", DimSelector::Nearest(50)},
                                             {"lat", DimSelector::ValueRange(-20, 20)}}));
  LND_RETURN_NOT_OK(Expect(
      band.dimensions().ToString() == "[lat=4, lon=18]" && ValueAt(band, 0) == Temperature(2, 3, 0),
      "lat -15..15 at time 48"));

  // The datasets of the table, from the global attributes alone; the whole dataset back.
  LND_ASSIGN_OR_RETURN(auto datasets, lance_nd::ListDatasets(table));
  LND_RETURN_NOT_OK(Expect(datasets.size() == 1 && datasets[0].chunk_count == 18, "one dataset"));
  LND_ASSIGN_OR_RETURN(nd::NdRecordBatch whole, lance_nd::ReadDataset(table, "temps"));
  const nd::NdArrowArray* temp = whole.GetColumn("temp");
  return Expect(temp != nullptr && temp->num_elements() == 6 * 10 * 18 &&
                    ValueAt(*temp, temp->num_elements() - 1) == Temperature(5, 9, 17) &&
                    !whole.attributes().Contains("chunk_index"),
                "the whole dataset, without the chunk keys");
}
// [regions]

int main(int argc, char** argv) {
  try {
    const std::string path = argc > 1 ? argv[1] : "example_region_reads.lance";
    std::error_code ec;
    std::filesystem::remove_all(path, ec);  // the example always starts from a new table
    Status st = Run(path);
    if (!st.ok()) {
      std::fprintf(stderr, "example_region_reads: %s\n", st.ToString().c_str());
      return 1;
    }
    std::printf("table at %s\n", path.c_str());
    return 0;
  } catch (const std::exception& e) {  // lance-nd reports errors as Status; this is bad_alloc
    std::fprintf(stderr, "example_region_reads: %s\n", e.what());
    return 1;
  }
}
