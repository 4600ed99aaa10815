// New data files of an existing table have the table's data file version: Lance 12 refuses to
// read a table whose data files mix versions ("mixed data-file-version capability is not
// enabled"), so appends and compaction must not write 2.2 files into a 2.1 table.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "lance_nd/table/maintenance.h"
#include "lance_nd/table/test_util.h"
#include "lance_nd/table/write.h"
#include "lance_nd/testing/status_matchers.h"

namespace lance_nd::table {
namespace {

using testing::TestBatch;

std::vector<std::string> FileVersions(const Dataset& ds) {
  std::vector<std::string> out;
  for (const Fragment& f : ds.fragments()) {
    for (const DataFile& file : f.files) {
      out.push_back(std::to_string(file.file_major_version) + "." +
                    std::to_string(file.file_minor_version));
    }
  }
  return out;
}

Dataset Create21(const std::shared_ptr<io::FileSystem>& fs, const std::string& path) {
  WriteOptions create;
  create.file_options.version = file::FileVersion::kV2_1;
  create.max_rows_per_file = 4;
  std::vector<array::RecordBatchPtr> rows = {TestBatch(0, 10)};
  auto ds = WriteTable(TableLocation(fs, path), rows, create);
  EXPECT_TRUE(ds.ok()) << ds.status().ToString();
  return std::move(ds).value();
}

TEST(TableFileVersion, AppendWithDefaultOptionsKeepsTheTablesVersion) {
  auto fs = io::MakeMemoryFileSystem();
  const Dataset v1 = Create21(fs, "mem/t.lance");
  ASSERT_EQ(v1.manifest().data_format_version, "2.1");
  WriteOptions append;  // file_options.version is 2.2 by default
  append.mode = WriteMode::kAppend;
  std::vector<array::RecordBatchPtr> more = {TestBatch(10, 3)};
  LND_ASSERT_OK_AND_ASSIGN(Dataset v2, WriteTable(TableLocation(fs, "mem/t.lance"), more, append));
  EXPECT_EQ(v2.manifest().data_format_version, "2.1");
  EXPECT_EQ(FileVersions(v2), std::vector<std::string>(4, "2.1"));
}

TEST(TableFileVersion, CompactionKeepsTheTablesVersion) {
  auto fs = io::MakeMemoryFileSystem();
  const Dataset v1 = Create21(fs, "mem/t.lance");
  ASSERT_EQ(v1.fragments().size(), 3u);
  LND_ASSERT_OK_AND_ASSIGN(CompactionResult m_compacted, Compact(v1));
  CompactionMetrics m = std::move(m_compacted.metrics);
  EXPECT_EQ(m.fragments_added, 1u);
  LND_ASSERT_OK_AND_ASSIGN(Dataset v2, Dataset::Open(TableLocation(fs, "mem/t.lance")));
  EXPECT_EQ(v2.CountRows(), 10u);
  EXPECT_EQ(FileVersions(v2), std::vector<std::string>{"2.1"});
}

TEST(TableFileVersion, FileVersionOfTheManifest) {
  Manifest m;
  m.data_format_version = "2.1";
  EXPECT_EQ(TableFileVersion(m).value(), file::FileVersion::kV2_1);
  m.data_format_version = "2.2";
  EXPECT_EQ(TableFileVersion(m).value(), file::FileVersion::kV2_2);
  m.data_format_version = "2.0";
  EXPECT_EQ(TableFileVersion(m).status().code(), StatusCode::kNotImplemented);
}

}  // namespace
}  // namespace lance_nd::table
