// Example: a lance-nd table through the facade (Table, NdWriter, Scanner): write with stats,
// append rows that bring a new variable, scan with an exact filter, a stats prune and a
// projection, delete, widen, time travel, and a distributed write staged in pieces.
//
//   example_nd_tables [TABLE_DIR]
//
// docs/user-guide.md walks through this file. Every step checks what it got, so the example
// fails (exit 1) when the library does not do what the guide says.
#include <cstdint>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <string>
#include <vector>

#include "lance_nd/api/nd_writer.h"
#include "lance_nd/api/scanner.h"
#include "lance_nd/api/staged.h"
#include "lance_nd/api/table.h"
#include "lance_nd/array/builder.h"
#include "lance_nd/core/result.h"
#include "lance_nd/nd/record_batch.h"

namespace la = lance_nd::array;
namespace nd = lance_nd::nd;
using lance_nd::Result;
using lance_nd::Status;

// One row: sea-surface temperatures on a 2 x 3 grid, in kelvin, from station `id`; with
// `with_depth`, also a 1-d depth variable.
Result<nd::NdRecordBatch> Station(const std::string& id, float base, bool with_depth) {
  LND_ASSIGN_OR_RETURN(nd::Dimensions grid,
                       nd::Dimensions::Make(std::vector<nd::Dimension>{{"lat", 2}, {"lon", 3}}));
  std::vector<std::optional<float>> values;
  for (int i = 0; i < 6; ++i) values.emplace_back(base + static_cast<float>(i));
  nd::Attributes units;
  units.Set("units", "K");
  LND_ASSIGN_OR_RETURN(
      nd::NdArrowArray sst,
      nd::NdArrowArray::Make(la::MakePrimitiveArray<float>(la::Float32(), values), grid, units));
  std::vector<std::pair<std::string, nd::NdArrowArray>> arrays{{"sst", sst}};
  if (with_depth) {
    LND_ASSIGN_OR_RETURN(nd::Dimensions z,
                         nd::Dimensions::Make(std::vector<nd::Dimension>{{"z", 2}}));
    LND_ASSIGN_OR_RETURN(
        nd::NdArrowArray depth,
        nd::NdArrowArray::Make(la::MakePrimitiveArray<std::int32_t>(la::Int32(), {5, 10}), z));
    arrays.emplace_back("depth", depth);
  }
  nd::Attributes globals;
  globals.Set("id", id);
  return nd::NdRecordBatch::FromArrays(std::move(arrays), globals);
}

Status Expect(bool ok, const char* what) {
  return ok ? Status::OK() : Status::Internal("example: unexpected result: ", what);
}

// [facade]
Status Run(const std::string& uri) {
  // Version 1: three rows, with per-row min/max stats of every numeric variable.
  std::vector<nd::NdRecordBatch> rows;
  for (int i = 0; i < 3; ++i) {
    LND_ASSIGN_OR_RETURN(
        auto row, Station("s" + std::to_string(i), 280.0F + 10.0F * static_cast<float>(i), false));
    rows.push_back(std::move(row));
  }
  lance_nd::WriteOptions options;
  options.stats = true;
  LND_ASSIGN_OR_RETURN(lance_nd::Table table, lance_nd::Table::Write(uri, rows, options));

  // A streamed append: a new variable first extends the schema (a commit of its own), then
  // the rows land in one commit.
  LND_ASSIGN_OR_RETURN(lance_nd::NdWriter writer, lance_nd::NdWriter::Append(uri));
  LND_ASSIGN_OR_RETURN(auto deep, Station("s3", 310.0F, /*with_depth=*/true));
  LND_RETURN_NOT_OK(writer.Write(deep));
  LND_ASSIGN_OR_RETURN(table, writer.Finish());

  // An exact filter (SQL, as LanceDB takes it), a stats prune, a projection.
  LND_ASSIGN_OR_RETURN(auto s1, table.Scan().Filter("__global_attrs__.id = 's1'").ReadAll());
  LND_ASSIGN_OR_RETURN(auto warm, table.Scan().Prune("sst.values > 304").ReadAll());
  LND_ASSIGN_OR_RETURN(auto depths,
                       table.Scan().Filter("depth IS NOT NULL").Project({"depth"}).ReadAll());
  LND_RETURN_NOT_OK(Expect(s1.size() == 1, "one row with id s1"));
  LND_RETURN_NOT_OK(Expect(warm.size() == 2, "stats keep the two rows above 304"));
  LND_RETURN_NOT_OK(Expect(depths.size() == 1 && depths[0].num_columns() == 1, "depth only"));

  // Delete by an exact filter, widen a variable, look back at an older version.
  LND_ASSIGN_OR_RETURN(std::uint64_t deleted, table.Delete("sst.attrs.units = 'K' AND "
                                                           "__global_attrs__.id = 's0'"));
  LND_RETURN_NOT_OK(table.Widen("sst", la::Float64()));
  LND_ASSIGN_OR_RETURN(auto versions, table.Versions());
  LND_ASSIGN_OR_RETURN(lance_nd::Table first, table.Checkout(versions.front().version));
  LND_ASSIGN_OR_RETURN(std::uint64_t then, first.CountRows());
  LND_ASSIGN_OR_RETURN(std::uint64_t now, table.CountRows());
  LND_RETURN_NOT_OK(Expect(deleted == 1 && then == 3 && now == 3, "row counts"));

  // A distributed write: workers stage rows (the JSON travels to a coordinator), one commit.
  // The workers' float32 values are cast to the widened float64 column (no value changes).
  lance_nd::WriteOptions append;
  append.mode = lance_nd::WriteMode::kAppend;
  append.casting = lance_nd::Casting::kSafe;
  std::vector<lance_nd::StagedFragments> staged;
  for (int worker = 0; worker < 2; ++worker) {
    LND_ASSIGN_OR_RETURN(auto row, Station("w" + std::to_string(worker), 270.0F, false));
    LND_ASSIGN_OR_RETURN(auto piece, lance_nd::StageRows(uri, std::vector{row}, append));
    LND_ASSIGN_OR_RETURN(auto shipped, lance_nd::StagedFragments::FromJson(piece.ToJson()));
    staged.push_back(std::move(shipped));
  }
  LND_ASSIGN_OR_RETURN(table, lance_nd::CommitStaged(uri, staged, append));
  LND_ASSIGN_OR_RETURN(std::uint64_t total, table.CountRows());
  return Expect(total == 5, "five rows after the staged commit");
}
// [facade]

int main(int argc, char** argv) {
  try {
    const std::string path = argc > 1 ? argv[1] : "example_nd_tables.lance";
    std::error_code ec;
    std::filesystem::remove_all(path, ec);  // the example always starts from a new table
    Status st = Run(path);
    if (!st.ok()) {
      std::fprintf(stderr, "example_nd_tables: %s\n", st.ToString().c_str());
      return 1;
    }
    std::printf("table at %s\n", path.c_str());
    return 0;
  } catch (const std::exception& e) {  // lance-nd reports errors as Status; this is bad_alloc
    std::fprintf(stderr, "example_nd_tables: %s\n", e.what());
    return 1;
  }
}
