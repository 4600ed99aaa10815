// Helpers for table-layer tests: small manifests and tables on an in-memory file system.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "lance_nd/array/array_data.h"
#include "lance_nd/array/builder.h"
#include "lance_nd/array/type.h"
#include "lance_nd/io/file_system.h"
#include "lance_nd/table/manifest.h"
#include "lance_nd/table/versions.h"

namespace lance_nd::table::testing {

/// \brief Schema: id int64 (0), s struct (1) { x float (2), tags list (3) { item string (4) } }.
inline std::vector<LanceField> NestedFields() {
  return {
      {"id", 0, -1, "int64", false, {}},           {"s", 1, -1, "struct", true, {}},
      {"x", 2, 1, "float", true, {{"unit", "m"}}}, {"tags", 3, 1, "list", true, {}},
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
  Fragment f;
  f.physical_rows = 5;
  f.files.push_back(DataFile{"b.lance", {0, 2, 4}, {0, 1, 2}, 2, 2, 999, std::nullopt});
  t.operation = op::Append{{f}};
  return t;
}

/// \brief Schema of TestBatch: id int64 not null, s struct<x: double, tags: list<utf8>>.
inline array::SchemaPtr TestSchema() {
  using namespace array;
  auto s = Struct(
      {std::make_shared<Field>("x", Float64()), std::make_shared<Field>("tags", List(Utf8()))});
  return std::make_shared<Schema>(
      std::vector<FieldPtr>{std::make_shared<Field>("id", Int64(), false),
                            std::make_shared<Field>("s", s)},
      Metadata({{"origin", "lance-nd test"}}));
}

/// \brief `n` rows with ids first..first+n-1, s.x = id / 2, s.tags = [id as text] (null s for
/// ids divisible by 7).
inline array::RecordBatchPtr TestBatch(std::int64_t first, std::int64_t n) {
  using namespace array;
  const SchemaPtr schema = TestSchema();
  PrimitiveBuilder<std::int64_t> ids(Int64());
  auto sb = MakeBuilder(schema->field(1)->type());
  auto* st = static_cast<StructBuilder*>(sb.get());
  auto* xb = static_cast<PrimitiveBuilder<double>*>(st->child_builder(0));
  auto* lb = static_cast<ListBuilder*>(st->child_builder(1));
  auto* tb = static_cast<BinaryBuilder*>(lb->value_builder());
  for (std::int64_t i = first; i < first + n; ++i) {
    ids.Append(i);
    if (i % 7 == 0) {
      st->AppendNull();
      continue;
    }
    st->Append(true);
    xb->Append(static_cast<double>(i) / 2);
    lb->Append(true);
    tb->Append(std::to_string(i));
  }
  auto id_array = ids.Finish();
  auto s_array = sb->Finish();
  if (!id_array.ok() || !s_array.ok()) return nullptr;
  auto batch = RecordBatch::Make(schema, n, {*id_array, *s_array});
  return batch.ok() ? *batch : nullptr;
}

inline Status WriteBytes(io::FileSystem& fs, const std::string& path,
                         const std::vector<std::uint8_t>& bytes) {
  LND_ASSIGN_OR_RETURN(auto out, fs.Create(path));
  LND_RETURN_NOT_OK(out->Write(bytes));
  return out->Close();
}

}  // namespace lance_nd::table::testing
