// Example: a Lance table of nd record batches — create, append, read, delete, compact, tag,
// time travel. The table is a real Lance 12 table: LanceDB opens it as it is.
//
//   example_table_basics [TABLE_DIR]
//
// docs/user-guide.md walks through this file.
#include <cstdint>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "lance_nd/array/builder.h"
#include "lance_nd/core/result.h"
#include "lance_nd/io/file_system.h"
#include "lance_nd/nd/dimensions.h"
#include "lance_nd/nd/nd_array.h"
#include "lance_nd/nd/record_batch.h"
#include "lance_nd/nd/row_encoding.h"
#include "lance_nd/table/dataset.h"
#include "lance_nd/table/location.h"
#include "lance_nd/table/maintenance.h"
#include "lance_nd/table/scan.h"
#include "lance_nd/table/table_writer.h"
#include "lance_nd/table/tags.h"
#include "lance_nd/table/write.h"

namespace la = lance_nd::array;
namespace nd = lance_nd::nd;
namespace lt = lance_nd::table;
using lance_nd::Result;
using lance_nd::Status;

// One nd record batch: a 2 x 2 grid of temperatures for time step `step`.
Result<nd::NdRecordBatch> MakeStep(float step) {
  LND_ASSIGN_OR_RETURN(nd::Dimensions grid,
                       nd::Dimensions::Make(std::vector<nd::Dimension>{{"lat", 2}, {"lon", 2}}));
  la::ArrayPtr values = la::MakePrimitiveArray<float>(
      la::Float32(), {280.0F + step, 281.0F + step, 282.0F + step, 283.0F + step});
  LND_ASSIGN_OR_RETURN(nd::NdArrowArray temp, nd::NdArrowArray::Make(values, grid));
  return nd::NdRecordBatch::FromArrays({{"temp", temp}});
}

// Encode `count` time steps starting at `first` as one Arrow record batch (one row per step).
Result<la::RecordBatchPtr> Steps(int first, int count) {
  std::vector<nd::NdRecordBatch> rows;
  for (int i = first; i < first + count; ++i) {
    LND_ASSIGN_OR_RETURN(nd::NdRecordBatch row, MakeStep(static_cast<float>(i)));
    rows.push_back(std::move(row));
  }
  return nd::EncodeRows(rows);
}

// [table]
Status Run(const std::string& path) {
  const lt::TableLocation table = lt::TableLocation::Local(path);

  // Version 1: create the table from 3 rows (one call).
  LND_ASSIGN_OR_RETURN(la::RecordBatchPtr first, Steps(0, 3));
  lt::WriteOptions create;
  create.mode = lt::WriteMode::kCreate;
  LND_ASSIGN_OR_RETURN(lt::Dataset v1, lt::WriteTable(table, std::span(&first, 1), create));
  // Version 2: stream 2 more rows in two writes; the commit makes one version.
  lt::WriteOptions append;
  append.mode = lt::WriteMode::kAppend;
  LND_ASSIGN_OR_RETURN(lt::TableWriter writer, lt::TableWriter::Open(table, nullptr, append));
  for (int step = 3; step < 5; ++step) {
    LND_ASSIGN_OR_RETURN(la::RecordBatchPtr one, Steps(step, 1));
    LND_RETURN_NOT_OK(writer.Write(*one));
  }
  LND_ASSIGN_OR_RETURN(lt::Dataset v2, writer.Commit());
  std::printf("version %llu: %llu rows\n", static_cast<unsigned long long>(v2.version()),
              static_cast<unsigned long long>(v2.CountRows()));

  // Read every row back, with its row address ((fragment id << 32) | offset).
  lt::TableScanOptions scan;
  scan.with_row_address = true;
  LND_ASSIGN_OR_RETURN(la::RecordBatchPtr all, lt::ReadTable(v2, scan));
  LND_ASSIGN_OR_RETURN(nd::RowDecoder decoder, nd::RowDecoder::Make(v2.schema()));

  // Version 3: delete the first row of the append (fragment 1, offset 0).
  const std::uint64_t address = (std::uint64_t{1} << 32) | 0;
  LND_ASSIGN_OR_RETURN(lt::DeleteResult deleted, lt::DeleteRows(v2, std::span(&address, 1)));

  // Version 4: compact the small fragments into one, dropping the deleted row.
  LND_ASSIGN_OR_RETURN(lt::CompactionResult compacted, lt::Compact(deleted.dataset));
  const lt::Dataset& latest = compacted.dataset;
  std::printf("compaction: %llu fragments -> %llu, now version %llu with %llu rows\n",
              static_cast<unsigned long long>(compacted.metrics.fragments_removed),
              static_cast<unsigned long long>(compacted.metrics.fragments_added),
              static_cast<unsigned long long>(latest.version()),
              static_cast<unsigned long long>(latest.CountRows()));

  // Tag version 2 and read it again later: time travel is read-only.
  LND_ASSIGN_OR_RETURN(lt::TagInfo tag, lt::CreateTag(table, "before-cleanup", v2.version()));
  LND_ASSIGN_OR_RETURN(lt::Dataset tagged, lt::OpenTag(table, tag.name));
  LND_ASSIGN_OR_RETURN(la::RecordBatchPtr old_rows, lt::ReadTable(tagged));

  // Check what the example claims, so that it fails loudly if the library changes behaviour.
  LND_ASSIGN_OR_RETURN(la::RecordBatchPtr now_rows, lt::ReadTable(latest));
  if (all->num_rows() != 5 || old_rows->num_rows() != 5 || now_rows->num_rows() != 4 ||
      v1.version() != 1 || latest.version() != 4 || deleted.num_deleted_rows != 1) {
    return Status::Corrupt("unexpected row counts or versions in the example table");
  }
  LND_ASSIGN_OR_RETURN(std::vector<nd::NdRecordBatch> decoded, decoder.DecodeAll(*now_rows));
  LND_ASSIGN_OR_RETURN(nd::NdRecordBatch expected_last, MakeStep(4.0F));
  if (decoded.size() != 4 || !decoded.back().Equals(expected_last)) {
    return Status::Corrupt("the last row of the compacted table is not time step 4");
  }
  std::printf("row 3 now: %s\n", decoded.back().ToString().c_str());
  return Status::OK();
}
// [table]

int main(int argc, char** argv) {
  try {
    const std::string path = argc > 1 ? argv[1] : "example_table.lance";
    std::error_code ec;
    std::filesystem::remove_all(path, ec);  // the example always starts from a new table
    Status st = Run(path);
    if (!st.ok()) {
      std::fprintf(stderr, "example_table_basics: %s\n", st.ToString().c_str());
      return 1;
    }
    std::printf("table at %s\n", path.c_str());
    return 0;
  } catch (const std::exception& e) {  // lance-nd reports errors as Status; this is bad_alloc
    std::fprintf(stderr, "example_table_basics: %s\n", e.what());
    return 1;
  }
}
