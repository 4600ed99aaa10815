// Helpers for table-layer tests: small manifests and tables on an in-memory file system.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "lance_nd/io/file_system.h"
#include "lance_nd/table/manifest.h"
#include "lance_nd/table/versions.h"

namespace lance_nd::table::testing {

/// \brief Schema: id int64 (0), s struct (1) { x float (2), tags list (3) { item string (4) } }.
inline std::vector<LanceField> NestedFields() {
  return {
      {"id", 0, -1, "int64", false, {}},
      {"s", 1, -1, "struct", true, {}},
      {"x", 2, 1, "float", true, {{"unit", "m"}}},
      {"tags", 3, 1, "list", true, {}},
      {"item", 4, 3, "string", true, {}},
  };
}

inline Manifest SampleManifest(std::uint64_t version) {
  Manifest m;
  m.version = version;
  m.fields = NestedFields();
  m.schema_metadata = array::Metadata({{"lance_nd:format", "1"}});
  Fragment f0;
  f0.id = 0;
  f0.physical_rows = 10;
  f0.files.push_back(DataFile{"a.lance", {0, 2, 4}, {0, 1, 2}, 2, 2, 1234, std::nullopt});
  Fragment f1;
  f1.id = 3;
  f1.physical_rows = 5;
  f1.files.push_back(DataFile{"b.lance", {0, 2, 4}, {0, 1, 2}, 2, 2, 999, std::nullopt});
  f1.deletion_file = DeletionFile{DeletionFileType::kArrowArray, version, 42, 2, std::nullopt};
  m.fragments = {f0, f1};
  m.max_fragment_id = 3;
  m.reader_feature_flags = kFlagDeletionFiles;
  m.writer_feature_flags = kFlagDeletionFiles;
  m.timestamp_seconds = 1'790'000'000;
  m.timestamp_nanos = 123;
  m.transaction_file = std::to_string(version - 1) + "-uuid.txn";
  m.writer_library = "lance-nd";
  m.writer_version = "0.1.0";
  m.data_format_file_format = "lance";
  m.data_format_version = "2.2";
  return m;
}

inline Transaction SampleAppend(std::uint64_t read_version) {
  Transaction t;
  t.read_version = read_version;
  t.uuid = "df9b9839-576e-4109-b11b-9e09ba4861d8";
  t.operation = OperationType::kAppend;
  Fragment f;
  f.physical_rows = 5;
  f.files.push_back(DataFile{"b.lance", {0, 2, 4}, {0, 1, 2}, 2, 2, 999, std::nullopt});
  t.fragments = {f};
  return t;
}

inline Status WriteBytes(io::FileSystem& fs, const std::string& path,
                         const std::vector<std::uint8_t>& bytes) {
  LND_ASSIGN_OR_RETURN(auto out, fs.Create(path));
  LND_RETURN_NOT_OK(out->Write(bytes));
  return out->Close();
}

}  // namespace lance_nd::table::testing
