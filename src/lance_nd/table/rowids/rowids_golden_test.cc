// A Lance 12 table with stable row ids (LanceDB 0.39, tests/table_read_testdata/
// make_rowids_table.mjs): our scan and "_rowid" equal what LanceDB read at every version
// (testdata/lance12_rowids.expected.json). Writes: rowids_write_test.cc.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "lance_nd/table/dataset.h"
#include "lance_nd/table/scan.h"
#include "lance_nd/testing/status_matchers.h"
#include "lance_nd/testing/test_env.h"

namespace lance_nd::table {
namespace {

std::string TestData(const std::string& name) {
  return lance_nd::testing::SourcePath("src/lance_nd/table/testdata/" + name);
}

template <typename T>
std::vector<std::uint64_t> Column(const array::RecordBatch& b, int c) {
  const auto& a = *b.column(c);
  std::vector<std::uint64_t> out;
  for (std::int64_t i = 0; i < a.length; ++i) {
    out.push_back(static_cast<std::uint64_t>(a.values<T>()[i]));
  }
  return out;
}

TEST(TableRowIdsGolden, ScanAndRowIdsEqualLanceDbAtEveryVersion) {
  std::ifstream in(TestData("lance12_rowids.expected.json"));
  ASSERT_TRUE(in) << "missing expected json";
  const auto expected = nlohmann::json::parse(in);
  ASSERT_EQ(expected.size(), 8u);
  auto fs = io::LocalFileSystem();
  bool saw_moved_id = false;
  for (const auto& e : expected) {
    const auto version = e["version"].get<std::uint64_t>();
    SCOPED_TRACE("version " + std::to_string(version));
    LND_ASSERT_OK_AND_ASSIGN(
        Dataset ds, Dataset::Open(TableLocation(fs, TestData("lance12_rowids.lance")), version));
    EXPECT_EQ(ds.manifest().reader_feature_flags & kFlagStableRowIds, kFlagStableRowIds);
    TableScanOptions o;
    o.with_row_id = true;
    o.with_row_address = true;
    o.batch_rows = 17;  // several batches per fragment
    LND_ASSERT_OK_AND_ASSIGN(auto b, ReadTable(ds, o));
    LND_ASSERT_OK(b->Validate());
    EXPECT_EQ(b->schema()->ToString(),
              "id: int32 not null\nv: int32\n_rowid: uint64 not null\n_rowaddr: uint64 not null");
    const auto ids = Column<std::int32_t>(*b, 0);
    const auto rowids = Column<std::uint64_t>(*b, 2);
    const auto addrs = Column<std::uint64_t>(*b, 3);
    EXPECT_EQ(ids, e["ids"].get<std::vector<std::uint64_t>>());
    EXPECT_EQ(rowids, e["rowids"].get<std::vector<std::uint64_t>>());
    for (std::size_t i = 0; i < rowids.size(); ++i) saw_moved_id |= rowids[i] != addrs[i];

    // "_rowid" by projection, and through TakeRows.
    TableScanOptions p;
    p.projection = {"_rowid"};
    LND_ASSERT_OK_AND_ASSIGN(auto only, ReadTable(ds, p));
    EXPECT_EQ(only->schema()->ToString(), "_rowid: uint64 not null");
    EXPECT_EQ(Column<std::uint64_t>(*only, 0), rowids);
    const std::vector<std::uint64_t> pick = {rowids.size() - 1, 0};
    LND_ASSERT_OK_AND_ASSIGN(auto taken, TakeRows(ds, pick, p));
    EXPECT_EQ(Column<std::uint64_t>(*taken, 0),
              (std::vector<std::uint64_t>{rowids.back(), rowids.front()}));
  }
  // Stable row ids are not row addresses (fragments after the first, the moved row 50).
  EXPECT_TRUE(saw_moved_id);
}

}  // namespace
}  // namespace lance_nd::table
