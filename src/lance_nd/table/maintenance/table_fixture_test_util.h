// Fixture of the maintenance/ tests: one table path on the memory file system or in a fresh
// local directory, chosen by the test parameter. Instantiate a suite with
//   INSTANTIATE_TEST_SUITE_P(MemoryAndLocal, MyTest, ::testing::Values(false, true),
//                            ops_testing::MemoryOrLocalName);
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "lance_nd/io/file_system.h"
#include "lance_nd/table/tags/ops_test_util.h"

namespace lance_nd::table::ops_testing {

/// \brief Parameter false: `fs_` is a memory file system and `table_` is "db/t.lance"; true: the
/// local file system and a table under a temporary directory removed after the test.
class MemoryOrLocalTableTest : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override {
    if (GetParam()) {
      fs_ = io::LocalFileSystem();
      table_ = temp_.path() + "/t.lance";
    } else {
      fs_ = io::MakeMemoryFileSystem();
      table_ = "db/t.lance";
    }
  }

  TempDir temp_;
  std::shared_ptr<io::FileSystem> fs_;
  std::string table_;
};

/// \brief Test name suffix for the parameter of MemoryOrLocalTableTest: "Local" or "Memory".
inline std::string MemoryOrLocalName(const ::testing::TestParamInfo<bool>& info) {
  return info.param ? "Local" : "Memory";
}

}  // namespace lance_nd::table::ops_testing
