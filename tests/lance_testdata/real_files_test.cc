// Real Lance files that others wrote (tests/lance_testdata/README.md): each is read value for
// value, or refused with an error that names what lance-nd does not read.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "lance_nd/array/view.h"
#include "lance_nd/file/lance_schema.h"
#include "lance_nd/file/reader.h"
#include "lance_nd/io/file_system.h"
#include "lance_nd/table/dataset.h"
#include "lance_nd/table/deletion.h"
#include "lance_nd/table/scan.h"
#include "lance_nd/table/write.h"
#include "lance_nd/testing/status_matchers.h"

namespace lance_nd {
namespace {

namespace fs = std::filesystem;
using array::TypeId;
using nlohmann::json;

const std::string kTestData = LANCE_ND_TESTDATA_DIR;

// The LanceDB tables with dictionary and decimal columns: freshly generated when the test runs
// under make_dict_decimal.mjs, else the checked-in copies.
std::string DictDecimalDir() {
  const char* env = std::getenv("LANCE_ND_DICT_DECIMAL_DIR");
  return env != nullptr && *env != '\0' ? env : kTestData + "/lancedb_0.39";
}

std::vector<std::uint8_t> ReadBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// ---- old deletion files ----------------------------------------------------------------------

// Lance 0.7.5 wrote this deletion file with an arrow-rs whose IPC footer puts the record batch
// block vector 4 bytes off 8-byte alignment.
TEST(RealFiles, OldDeletionFileWithMisalignedFooterIsRead) {
  const std::string name =
      kTestData + "/v0.7.5/with_deletions/_deletions/0-1-8958018423523767581.arrow";
  const auto bytes = ReadBytes(name);
  ASSERT_FALSE(bytes.empty());
  LND_ASSERT_OK_AND_ASSIGN(
      auto rows,
      table::ParseDeletionFile(bytes, table::DeletionFileType::kArrowArray, 100, 0, name));
  std::vector<std::uint32_t> expected;
  for (std::uint32_t i = 10; i < 20; ++i) expected.push_back(i);  // delete x >= 10 and x < 20
  EXPECT_EQ(rows.offsets(), expected);
}

// ---- tables in formats lance-nd does not read --------------------------------------------

TEST(RealFiles, LegacyFormatTableIsNotImplemented) {
  LND_ASSERT_OK_AND_ASSIGN(
      auto ds,
      table::Dataset::Open(table::TableLocation::Local(kTestData + "/v0.7.5/with_deletions")));
  EXPECT_EQ(ds.fragments().size(), 1u);
  LND_EXPECT_ERROR(table::ReadTable(ds), StatusCode::kNotImplemented,
                   "is in the legacy Lance file format (0.1), which lance-nd does not read (it "
                   "reads file formats 2.1 and 2.2); the table is valid");
}

TEST(RealFiles, Format20TableIsNotImplemented) {
  const std::string path = kTestData + "/v0.15.0/v2_with_files.lance";
  LND_ASSERT_OK_AND_ASSIGN(auto ds, table::Dataset::Open(table::TableLocation::Local(path)));
  LND_EXPECT_ERROR(table::ReadTable(ds), StatusCode::kNotImplemented,
                   "is in the Lance 2.0 file format, which lance-nd does not read");
  ASSERT_FALSE(ds.fragments().empty());
  const std::string data = path + "/data/" + ds.fragments()[0].files.at(0).path;
  LND_ASSERT_OK_AND_ASSIGN(auto file, io::LocalFileSystem()->OpenForRead(data));
  LND_EXPECT_ERROR(file::FileReader::Open(std::move(file)), StatusCode::kNotImplemented,
                   "Lance file format version 2.0 is not supported; lance-nd reads versions 2.1 "
                   "and 2.2");
}

// Lance 0.16 could write a table mixing legacy and 2.0 files under duplicate fragment ids;
// Lance itself only detects it ("a mixture of file versions").
TEST(RealFiles, DuplicateFragmentIdsAreCorrupt) {
  LND_EXPECT_ERROR(table::Dataset::Open(table::TableLocation::Local(
                       kTestData + "/v0.16.0/wrong_data_version_no_fix.lance")),
                   StatusCode::kCorrupt, "lists fragment id 1 twice; fragment ids must be unique");
}

// Every table under a Lance checkout's test_data/ (LANCE_ND_LANCE_TEST_DATA names it; skipped
// otherwise): it opens and scans, or is refused as NotImplemented naming what lance-nd does not
// read. The one Corrupt table is the Lance 0.16 bug above; a table whose data file the checkout
// leaves out is NotFound naming the file.
TEST(RealFiles, EveryLanceTestDataTableIsReadOrRefusedByName) {
  const char* root = std::getenv("LANCE_ND_LANCE_TEST_DATA");
  if (root == nullptr || *root == '\0') GTEST_SKIP() << "LANCE_ND_LANCE_TEST_DATA is not set";
  int tables = 0;
  for (const auto& e : fs::recursive_directory_iterator(root)) {
    if (!e.is_directory() || e.path().filename() != "_versions") continue;
    const std::string table = e.path().parent_path().string();
    ++tables;
    auto ds = table::Dataset::Open(table::TableLocation::Local(table));
    Status st = ds.status();
    if (ds.ok()) st = table::ReadTable(*ds).status();
    SCOPED_TRACE(table + ": " + st.ToString());
    if (table.find("wrong_data_version_no_fix") != std::string::npos) {
      EXPECT_EQ(st.code(), StatusCode::kCorrupt);
      continue;
    }
    if (st.code() == StatusCode::kNotFound) {  // Lance's checkout leaves out some data files
      EXPECT_NE(st.message().find("does not exist; the table may be damaged"), std::string::npos);
      continue;
    }
    EXPECT_TRUE(st.ok() || st.code() == StatusCode::kNotImplemented);
    if (st.code() == StatusCode::kNotImplemented) {
      const std::string m(st.message());
      EXPECT_TRUE(m.find("legacy Lance file format") != std::string::npos ||
                  m.find("Lance 2.0 file format") != std::string::npos ||
                  m.find("version 2.0 is not supported") != std::string::npos);
    }
  }
  EXPECT_GT(tables, 0);
}

// ---- transactions stored only in _transactions/*.txn ----------------------------------------

TEST(RealFiles, TransactionIsReadFromTxnFile) {
  LND_ASSERT_OK_AND_ASSIGN(auto ds, table::Dataset::Open(table::TableLocation::Local(
                                        kTestData + "/v0.15.0/v2_with_files.lance")));
  EXPECT_FALSE(ds.transaction().has_value());  // not inline
  EXPECT_FALSE(ds.manifest().transaction_file.empty());
  LND_ASSERT_OK_AND_ASSIGN(auto txn, ds.ReadTransaction());
  ASSERT_TRUE(txn.has_value());
  EXPECT_EQ(txn->type(), table::OperationType::kOverwrite);
  EXPECT_EQ(txn->read_version, 0u);
}

// ---- dictionary and decimal columns written by LanceDB ------------------------------------

// The text of row `i` of `a` in the form of make_dict_decimal.mjs's JSON.
json ValueJson(const array::ArrayData& a, std::int64_t i) {
  if (a.IsNull(i)) return nullptr;
  switch (a.type->id()) {
    case TypeId::kInt32:
      return a.values<std::int32_t>()[i];
    case TypeId::kUtf8:
    case TypeId::kLargeUtf8:
      return std::string(array::BinaryView(a).Value(i));
    case TypeId::kDecimal128:
    case TypeId::kDecimal256: {
      const int w = a.type->byte_width();
      return array::DecimalToString(a.buffers[1]->data() + (a.offset + i) * w, w, a.type->scale());
    }
    default:
      return "unexpected type " + a.type->ToString();
  }
}

void ExpectColumn(const array::RecordBatch& batch, const std::string& name, const json& expected) {
  const array::ArrayPtr col = batch.GetColumnByName(name);
  ASSERT_NE(col, nullptr) << name;
  ASSERT_EQ(static_cast<std::size_t>(col->length), expected.size()) << name;
  int mismatches = 0;
  for (std::size_t i = 0; i < expected.size() && mismatches < 5; ++i) {
    const json got = ValueJson(*col, static_cast<std::int64_t>(i));
    if (got != expected[i]) {
      ++mismatches;
      ADD_FAILURE() << name << " row " << i << ": got " << got << ", expected " << expected[i];
    }
  }
}

json ExpectedDictDecimal() {
  std::ifstream in(DictDecimalDir() + "/dict_decimal.json");
  return json::parse(in);
}

const std::vector<std::string> kReadable = {
    "id",       "dict_utf8_int8", "dict_utf8_uint16", "dict_int32_int32",
    "dec_10_2", "dec_38_0",       "dec_20_neg3",      "dec256_60_20"};

class DictDecimal : public ::testing::TestWithParam<std::string> {
 protected:
  std::string TablePath() const {
    return DictDecimalDir() + "/dict_decimal_" + GetParam() + ".lance";
  }
};

// Dictionary columns read decoded, with their value type; decimals as decimal128/256.
TEST_P(DictDecimal, SchemaMapsLogicalTypes) {
  LND_ASSERT_OK_AND_ASSIGN(
      auto ds, table::Dataset::Open(table::TableLocation(io::LocalFileSystem(), TablePath())));
  const array::Schema& s = *ds.schema();
  EXPECT_EQ(*s.GetField("dict_utf8_int8")->type(), *array::Utf8());
  EXPECT_EQ(*s.GetField("dict_utf8_uint16")->type(), *array::Utf8());
  EXPECT_EQ(*s.GetField("dict_int32_int32")->type(), *array::Int32());
  EXPECT_EQ(*s.GetField("dec_10_2")->type(), *array::Decimal128(10, 2));
  EXPECT_EQ(*s.GetField("dec_38_0")->type(), *array::Decimal128(38, 0));
  EXPECT_EQ(*s.GetField("dec_20_neg3")->type(), *array::Decimal128(20, -3));
  EXPECT_EQ(*s.GetField("dec256_60_20")->type(), *array::Decimal256(60, 20));
  const array::FieldPtr time = s.GetField("time_ms");
  ASSERT_NE(time, nullptr);
  EXPECT_EQ(time->type()->id(), TypeId::kNull);
  const auto why = file::UnsupportedFieldReason(*time);
  ASSERT_TRUE(why.has_value());
  EXPECT_NE(why->find("logical type 'time32:ms' is not supported by lance-nd"), std::string::npos)
      << *why;
  const array::FieldPtr packed = s.GetField("packed_xy");
  ASSERT_NE(packed, nullptr);
  EXPECT_EQ(packed->type()->id(), TypeId::kNull);
  EXPECT_TRUE(file::UnsupportedFieldReason(*packed).has_value());
}

TEST_P(DictDecimal, TableReadsValueForValue) {
  const json expected = ExpectedDictDecimal();
  LND_ASSERT_OK_AND_ASSIGN(
      auto ds, table::Dataset::Open(table::TableLocation(io::LocalFileSystem(), TablePath())));
  table::TableScanOptions o;
  o.projection = kReadable;
  LND_ASSERT_OK_AND_ASSIGN(auto batch, table::ReadTable(ds, o));
  ASSERT_EQ(batch->num_rows(), expected["num_rows"].get<std::int64_t>());
  for (const std::string& name : kReadable) ExpectColumn(*batch, name, expected["columns"][name]);
}

// The column of a type lance-nd does not read is refused alone: the others read, inspect
// (Describe) shows it, and a read that includes it names the type.
TEST_P(DictDecimal, UnreadableColumnIsRefusedAlone) {
  LND_ASSERT_OK_AND_ASSIGN(
      auto ds, table::Dataset::Open(table::TableLocation(io::LocalFileSystem(), TablePath())));
  LND_EXPECT_ERROR(table::ReadTable(ds), StatusCode::kNotImplemented,
                   "table field 'time_ms' (id 8): field 'time_ms' (id 8): logical type "
                   "'time32:ms' is not supported by lance-nd");
  table::TableScanOptions o;
  o.projection = {"time_ms"};
  LND_EXPECT_ERROR(table::ReadTable(ds, o), StatusCode::kNotImplemented,
                   "read the other columns with a projection that leaves it out");
  o.projection = {"id", "packed_xy"};
  LND_EXPECT_ERROR(table::ReadTable(ds, o), StatusCode::kNotImplemented,
                   "table field 'packed_xy' (id 9): field 'packed_xy' (id 9) is a packed struct, "
                   "which lance-nd does not read");

  const std::string data = TablePath() + "/data/" + ds.fragments().at(0).files.at(0).path;
  LND_ASSERT_OK_AND_ASSIGN(auto f, io::LocalFileSystem()->OpenForRead(data));
  LND_ASSERT_OK_AND_ASSIGN(auto reader, file::FileReader::Open(std::move(f)));
  const file::FileDescription d = reader.Describe();
  int unsupported = 0;
  for (const auto& fd : d.fields) {
    if (fd.path == "packed_xy") {
      EXPECT_EQ(fd.column, 9);
      EXPECT_NE(fd.unsupported.find("is a packed struct"), std::string::npos);
      ++unsupported;
    } else if (fd.path == "time_ms") {
      EXPECT_EQ(fd.logical_type, "time32:ms");
      EXPECT_NE(fd.unsupported.find("is not supported by lance-nd"), std::string::npos);
      EXPECT_FALSE(fd.metadata.Contains(file::kUnsupportedFieldKey));
      ++unsupported;
    } else {
      EXPECT_EQ(fd.unsupported, "") << fd.path;
    }
    if (fd.path == "dict_utf8_int8") {
      EXPECT_EQ(fd.logical_type, "dict:string:int8:false");
    }
    if (fd.path == "dec_10_2") {
      EXPECT_EQ(fd.logical_type, "decimal:128:10:2");
    }
  }
  EXPECT_EQ(unsupported, 2);
  EXPECT_EQ(d.columns.size(), 10u);
  LND_EXPECT_ERROR(reader.ReadAll(), StatusCode::kNotImplemented,
                   "logical type 'time32:ms' is not supported by lance-nd");
  LND_EXPECT_ERROR(reader.ReadRange(0, 1, {"id", "time_ms"}), StatusCode::kNotImplemented,
                   "projection that leaves it out");
  LND_ASSERT_OK_AND_ASSIGN(auto batch, reader.ReadAll(kReadable));
  EXPECT_EQ(batch->num_columns(), static_cast<int>(kReadable.size()));
  const std::vector<std::uint64_t> rows = {999, 0, 500};
  LND_ASSERT_OK_AND_ASSIGN(auto taken, reader.Take(rows, {"dec256_60_20", "dict_utf8_int8"}));
  const json expected = ExpectedDictDecimal();
  for (const char* name : {"dec256_60_20", "dict_utf8_int8"}) {
    const json& col = expected["columns"][name];
    ExpectColumn(*taken, name, json::array({col[999], col[0], col[500]}));
  }
}

// lance-nd writes the decimal columns (and the dictionary columns, decoded) into a new table;
// LANCE_ND_WRITE_OUT names where, for make_dict_decimal.mjs --check to read back with LanceDB.
TEST_P(DictDecimal, WritesDecimalsBack) {
  LND_ASSERT_OK_AND_ASSIGN(
      auto ds, table::Dataset::Open(table::TableLocation(io::LocalFileSystem(), TablePath())));
  table::TableScanOptions o;
  o.projection = kReadable;
  LND_ASSERT_OK_AND_ASSIGN(auto batch, table::ReadTable(ds, o));
  const char* env = std::getenv("LANCE_ND_WRITE_OUT");
  const std::string out = env != nullptr && *env != '\0'
                              ? std::string(env) + "/ours_" + GetParam() + ".lance"
                              : ::testing::TempDir() + "/lance_nd_ours_" + GetParam() + ".lance";
  fs::remove_all(out);
  table::WriteOptions w;
  w.file_options.version =
      GetParam() == "2_1" ? file::FileVersion::kV2_1 : file::FileVersion::kV2_2;
  const std::vector<array::RecordBatchPtr> batches = {batch};
  LND_ASSERT_OK_AND_ASSIGN(auto written,
                           table::WriteTable(table::TableLocation::Local(out), batches, w));
  LND_ASSERT_OK_AND_ASSIGN(auto back, table::ReadTable(written));
  const json expected = ExpectedDictDecimal();
  for (const std::string& name : kReadable) ExpectColumn(*back, name, expected["columns"][name]);
  EXPECT_EQ(*back->schema()->GetField("dec256_60_20")->type(), *array::Decimal256(60, 20));
}

// Appending to a table with a field lance-nd cannot read would store the wrong type under its
// field id: refused, and the table is left as it was.
TEST_P(DictDecimal, AppendToTableWithUnreadableFieldIsRefused) {
  const std::string copy = ::testing::TempDir() + "/lance_nd_append_" + GetParam() + ".lance";
  fs::remove_all(copy);
  fs::copy(TablePath(), copy, fs::copy_options::recursive);
  LND_ASSERT_OK_AND_ASSIGN(auto ds, table::Dataset::Open(table::TableLocation::Local(copy)));
  table::TableScanOptions o;
  o.projection = {"id"};
  LND_ASSERT_OK_AND_ASSIGN(auto batch, table::ReadTable(ds, o));
  table::WriteOptions w;
  w.mode = table::WriteMode::kAppend;
  const std::vector<array::RecordBatchPtr> batches = {batch};
  LND_EXPECT_ERROR(table::WriteTable(table::TableLocation::Local(copy), batches, w),
                   StatusCode::kNotImplemented,
                   "its field 'time_ms' has a type lance-nd does not read");
  LND_ASSERT_OK_AND_ASSIGN(auto after, table::Dataset::Open(table::TableLocation::Local(copy)));
  EXPECT_EQ(after.version(), ds.version());
  fs::remove_all(copy);
}

INSTANTIATE_TEST_SUITE_P(Versions, DictDecimal, ::testing::Values("2_1", "2_2"));

}  // namespace
}  // namespace lance_nd
