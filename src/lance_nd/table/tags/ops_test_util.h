// Test helpers for the tags/ and maintenance/ tests: temporary directories, copying a table from
// disk into any file system, reading files as text.
#pragma once

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "lance_nd/io/file_system.h"
#include "lance_nd/testing/test_env.h"

namespace lance_nd::table::ops_testing {

/// \brief tests/table_ops_testdata/lance12_tagged.lance: Lance 12 wrote v1 create (ids 0,1,2),
/// v2 append (3,4), v3 delete "id = 1"; tags v-one -> 1, x -> 2 (make_tagged_table.mjs).
inline std::string Lance12TaggedTable() {
  return lance_nd::testing::SourcePath("tests/table_ops_testdata/lance12_tagged.lance");
}

using lance_nd::testing::TempDir;

inline Result<std::string> ReadText(io::FileSystem& fs, const std::string& path) {
  LND_ASSIGN_OR_RETURN(auto f, fs.OpenForRead(path));
  LND_ASSIGN_OR_RETURN(io::Bytes bytes, io::ReadWholeFile(*f));
  return std::string(bytes->begin(), bytes->end());
}

/// \brief Copy every file under the local directory `from` to `to` in `fs`.
inline Status CopyLocalTree(const std::string& from, io::FileSystem& fs, const std::string& to) {
  auto local = io::LocalFileSystem();
  std::error_code ec;
  for (auto it = std::filesystem::recursive_directory_iterator(from, ec);
       !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
    if (!it->is_regular_file()) continue;
    const std::string rel = std::filesystem::relative(it->path(), from).string();
    LND_ASSIGN_OR_RETURN(auto in, local->OpenForRead(it->path().string()));
    LND_ASSIGN_OR_RETURN(io::Bytes bytes, io::ReadWholeFile(*in));
    LND_ASSIGN_OR_RETURN(auto out, fs.Create(to + "/" + rel));
    LND_RETURN_NOT_OK(out->Write(*bytes));
    LND_RETURN_NOT_OK(out->Close());
  }
  if (ec) return Status::IOError("cannot copy '" + from + "': " + ec.message());
  return Status::OK();
}

}  // namespace lance_nd::table::ops_testing
