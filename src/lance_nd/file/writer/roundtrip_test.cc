// Write with FileWriter, read back with FileReader: values must come back unchanged.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "lance_nd/array/type.h"
#include "lance_nd/file/reader.h"
#include "lance_nd/file/writer.h"
#include "lance_nd/file/writer/leaf_plan.h"
#include "lance_nd/io/file_system.h"
#include "lance_nd/testing/random_arrays.h"
#include "lance_nd/testing/status_matchers.h"

namespace lance_nd::file {
namespace {

namespace a = ::lance_nd::array;

// Lance stores no child field for a fixed-size list: its item comes back named "item" and
// nullable. The expected arrays get the same types.
a::DataTypePtr AsLanceReads(const a::DataTypePtr& type) {
  using a::TypeId;
  switch (type->id()) {
    case TypeId::kFixedSizeList:
      return a::FixedSizeList(a::MakeField("item", AsLanceReads(type->value_type()), true),
                              type->fixed_size());
    case TypeId::kList:
    case TypeId::kLargeList: {
      const auto& f = type->value_field();
      auto item = a::MakeField(f->name(), AsLanceReads(f->type()), f->nullable(), f->metadata());
      return type->id() == TypeId::kList ? a::List(item) : a::LargeList(item);
    }
    case TypeId::kStruct: {
      std::vector<a::FieldPtr> fields;
      for (const auto& f : type->children()) {
        fields.push_back(
            a::MakeField(f->name(), AsLanceReads(f->type()), f->nullable(), f->metadata()));
      }
      return a::Struct(std::move(fields));
    }
    default:
      return type;
  }
}

a::ArrayPtr Retype(const a::ArrayPtr& array, const a::DataTypePtr& type) {
  auto out = std::make_shared<a::ArrayData>(*array);
  out->type = type;
  for (std::size_t i = 0; i < out->children.size(); ++i) {
    out->children[i] = Retype(out->children[i], type->children()[i]->type());
  }
  return out;
}

struct Written {
  std::shared_ptr<io::FileSystem> fs;
  std::shared_ptr<io::RandomAccessFile> file;
};

Result<Written> Write(const a::SchemaPtr& schema, const std::vector<a::RecordBatchPtr>& batches,
                      WriterOptions options) {
  Written w;
  w.fs = io::MakeMemoryFileSystem();
  LND_ASSIGN_OR_RETURN(auto out, w.fs->Create("t.lance"));
  LND_ASSIGN_OR_RETURN(auto writer, FileWriter::Open(std::move(out), schema, options));
  for (const auto& b : batches) LND_RETURN_NOT_OK(writer->Write(*b));
  LND_RETURN_NOT_OK(writer->Finish().status());
  LND_ASSIGN_OR_RETURN(w.file, w.fs->OpenForRead("t.lance"));
  return w;
}

void ExpectRoundTrip(const a::SchemaPtr& schema, const std::vector<a::ArrayPtr>& columns,
                     WriterOptions options, int num_batches = 1) {
  const int64_t rows = columns.empty() ? 0 : columns[0]->length;
  LND_ASSERT_OK_AND_ASSIGN(auto whole, a::RecordBatch::Make(schema, rows, columns));
  std::vector<a::RecordBatchPtr> batches;
  const int64_t per = std::max<int64_t>(1, (rows + num_batches - 1) / num_batches);
  for (int64_t start = 0; start < rows; start += per) {
    LND_ASSERT_OK_AND_ASSIGN(auto part, whole->Slice(start, std::min(per, rows - start)));
    batches.push_back(part);
  }
  LND_ASSERT_OK_AND_ASSIGN(Written w, Write(schema, batches, options));
  LND_ASSERT_OK_AND_ASSIGN(FileReader reader, FileReader::Open(w.file));
  ASSERT_EQ(reader.num_rows(), rows);
  LND_ASSERT_OK_AND_ASSIGN(auto read, reader.ReadAll());
  ASSERT_EQ(read->num_columns(), whole->num_columns());
  for (int c = 0; c < whole->num_columns(); ++c) {
    const auto expected = Retype(whole->column(c), AsLanceReads(whole->column(c)->type));
    EXPECT_TRUE(a::ArrayEquals(*expected, *read->column(c), false))
        << "column " << schema->field(c)->ToString() << "\nexpected "
        << a::PrettyPrint(*whole->column(c)).substr(0, 600) << "\nread "
        << a::PrettyPrint(*read->column(c)).substr(0, 600);
  }
  if (rows > 0) {
    std::vector<std::uint64_t> idx{static_cast<std::uint64_t>(rows - 1), 0,
                                   static_cast<std::uint64_t>(rows / 2)};
    LND_ASSERT_OK_AND_ASSIGN(auto taken, reader.Take(idx));
    for (int c = 0; c < whole->num_columns(); ++c) {
      for (std::size_t k = 0; k < idx.size(); ++k) {
        LND_ASSERT_OK_AND_ASSIGN(
            auto want, a::Slice(Retype(whole->column(c), AsLanceReads(whole->column(c)->type)),
                                static_cast<int64_t>(idx[k]), 1));
        LND_ASSERT_OK_AND_ASSIGN(auto got, a::Slice(taken->column(c), static_cast<int64_t>(k), 1));
        EXPECT_TRUE(a::ArrayEquals(*want, *got, false))
            << "take row " << idx[k] << " of column " << schema->field(c)->ToString();
      }
    }
  }
}

struct Setting {
  const char* name;
  FileVersion version;
  const char* compression;  // lance-encoding:compression, or nullptr
};

const Setting kSettings[] = {
    {"v21", FileVersion::kV2_1, nullptr},     {"v22", FileVersion::kV2_2, nullptr},
    {"v21_zstd", FileVersion::kV2_1, "zstd"}, {"v22_zstd", FileVersion::kV2_2, "zstd"},
    {"v22_lz4", FileVersion::kV2_2, "lz4"},   {"v22_none", FileVersion::kV2_2, "none"},
};

a::FieldPtr WithCompression(a::FieldPtr field, const char* compression) {
  if (compression == nullptr) return field;
  a::Metadata md = field->metadata();
  md.Set("lance-encoding:compression", compression);
  return field->WithMetadata(md);
}

class WriterRoundTripTest : public ::testing::TestWithParam<Setting> {};

TEST_P(WriterRoundTripTest, EveryLeafTypeWithNulls) {
  const Setting s = GetParam();
  std::vector<a::FieldPtr> fields;
  std::vector<a::ArrayPtr> columns;
  std::uint64_t seed = 1;
  for (const auto& type : ::lance_nd::testing::LeafTypes()) {
    fields.push_back(
        WithCompression(a::MakeField("c" + std::to_string(fields.size()), type), s.compression));
    columns.push_back(::lance_nd::testing::RandomArray(type, 3000, 0.1, seed++));
  }
  WriterOptions options;
  options.version = s.version;
  ExpectRoundTrip(a::MakeSchema(fields), columns, options, 3);
}

TEST_P(WriterRoundTripTest, NestedTypes) {
  const Setting s = GetParam();
  using namespace a;  // NOLINT
  std::vector<DataTypePtr> types = {
      List(Float32()),
      LargeList(Utf8()),
      List(List(Int16())),
      Struct({MakeField("v", List(Float64())), MakeField("n", Utf8()),
              MakeField("s", Struct({MakeField("u", Int32())}))}),
      List(Struct({MakeField("a", Int64()), MakeField("b", LargeBinary())})),
      FixedSizeList(Float32(), 4),
      FixedSizeList(Float32(), 80),  // 320-byte values: full-zip
      List(FixedSizeList(Int32(), 2)),
      Struct({MakeField("fsl", FixedSizeList(Float64(), 3))}),
  };
  std::vector<FieldPtr> fields;
  std::vector<ArrayPtr> columns;
  std::uint64_t seed = 100;
  for (const auto& type : types) {
    fields.push_back(
        WithCompression(MakeField("c" + std::to_string(fields.size()), type), s.compression));
    columns.push_back(::lance_nd::testing::RandomArray(type, 2000, 0.15, seed++));
  }
  WriterOptions options;
  options.version = s.version;
  ExpectRoundTrip(MakeSchema(fields), columns, options, 2);
}

TEST_P(WriterRoundTripTest, LongStringsUseFullZip) {
  const Setting s = GetParam();
  ::lance_nd::testing::RandomArrayOptions ro;
  ro.max_binary_length = 600;
  ro.max_list_length = 3;
  auto st = a::Struct({a::MakeField("names", a::List(a::Utf8())), a::MakeField("x", a::Int32())});
  auto schema = a::MakeSchema({WithCompression(a::MakeField("s", a::Utf8()), s.compression),
                               WithCompression(a::MakeField("st", st), s.compression)});
  WriterOptions options;
  options.version = s.version;
  ExpectRoundTrip(schema,
                  {::lance_nd::testing::RandomArray(a::Utf8(), 500, 0.2, 7, ro),
                   ::lance_nd::testing::RandomArray(st, 500, 0.2, 8, ro)},
                  options);
}

TEST_P(WriterRoundTripTest, ManySmallPages) {
  const Setting s = GetParam();
  auto type = a::Struct({a::MakeField("l", a::List(a::Int32())), a::MakeField("s", a::Utf8())});
  auto schema = a::MakeSchema({WithCompression(a::MakeField("x", type), s.compression)});
  WriterOptions options;
  options.version = s.version;
  options.page_bytes = 2000;
  ExpectRoundTrip(schema, {::lance_nd::testing::RandomArray(type, 5000, 0.1, 9)}, options, 25);
}

INSTANTIATE_TEST_SUITE_P(Settings, WriterRoundTripTest, ::testing::ValuesIn(kSettings),
                         [](const auto& param_info) { return std::string(param_info.param.name); });

TEST(WriterRoundTripMiscTest, RandomTypesProperty) {
  int written = 0;
  for (std::uint64_t seed = 1; seed <= 200; ++seed) {
    auto type = ::lance_nd::testing::RandomType(seed, 3);
    auto schema = a::MakeSchema({a::MakeField("x", type)});
    if (!internal::writer::PlanSchema(*schema, {}).ok()) continue;  // unsupported fsl children
    SCOPED_TRACE("seed " + std::to_string(seed) + " type " + type->ToString());
    ::lance_nd::testing::RandomArrayOptions ro;
    ro.sliced = seed % 2 == 0;
    auto column = ::lance_nd::testing::RandomArray(type, 300, 0.2, seed, ro);
    ASSERT_NE(column, nullptr);
    WriterOptions options;
    options.version = seed % 3 == 0 ? FileVersion::kV2_1 : FileVersion::kV2_2;
    ExpectRoundTrip(schema, {column}, options, 1 + static_cast<int>(seed % 3));
    ++written;
  }
  EXPECT_GT(written, 100);
}

TEST(WriterRoundTripMiscTest, EmptyFileHasNoRows) {
  auto schema = a::MakeSchema({a::MakeField("x", a::List(a::Int32()))});
  LND_ASSERT_OK_AND_ASSIGN(Written w, Write(schema, {}, {}));
  LND_ASSERT_OK_AND_ASSIGN(FileReader reader, FileReader::Open(w.file));
  EXPECT_EQ(reader.num_rows(), 0);
  EXPECT_EQ(reader.Describe().columns.size(), 1u);
}

TEST(WriterRoundTripMiscTest, AllNullAndAllEmptyColumns) {
  using namespace a;  // NOLINT
  auto schema =
      MakeSchema({MakeField("n", Int32()), MakeField("s", Struct({MakeField("x", Utf8())})),
                  MakeField("l", List(Float32())), MakeField("z", Null())});
  std::vector<ArrayPtr> cols = {
      MakeArrayOfNulls(Int32(), 50), MakeArrayOfNulls(schema->field(1)->type(), 50),
      ::lance_nd::testing::RandomArray(List(Float32()), 50, 0.0, 3), MakeArrayOfNulls(Null(), 50)};
  // all lists empty
  std::vector<std::int32_t> zeros(51, 0);
  cols[2] = MakeArrayData(List(Float32()), 50, {nullptr, Buffer::Copy(zeros.data(), 51 * 4)},
                          {MakeEmptyArray(Float32())});
  for (auto v : {FileVersion::kV2_1, FileVersion::kV2_2}) {
    WriterOptions options;
    options.version = v;
    ExpectRoundTrip(schema, cols, options);
  }
}

// 2.2 pages hold byte-stream-split + zstd values in chunks of 128 KiB (more than 4096 values);
// 2.1 pages keep Lance's chunks. Nulls, lists and several batches cross the chunk edges.
TEST(WriterRoundTripMiscTest, LargeByteStreamSplitChunks) {
  using namespace a;  // NOLINT
  Metadata md;
  md.Set("lance-encoding:compression", "zstd");
  md.Set("lance-encoding:bss", "on");
  auto schema =
      MakeSchema({MakeField("f32", Float32(), true, md), MakeField("f64", Float64(), true, md),
                  MakeField("l", List(Float32()), true, md)});
  for (int64_t rows : {int64_t{70001}, int64_t{16384}, int64_t{20000}}) {
    std::vector<ArrayPtr> cols = {::lance_nd::testing::RandomArray(Float32(), rows, 0.1, 21),
                                  ::lance_nd::testing::RandomArray(Float64(), rows, 0.0, 22),
                                  ::lance_nd::testing::RandomArray(List(Float32()), rows, 0.1, 23)};
    for (auto v : {FileVersion::kV2_1, FileVersion::kV2_2}) {
      WriterOptions options;
      options.version = v;
      ExpectRoundTrip(schema, cols, options, rows > 20000 ? 3 : 1);
    }
  }
}

}  // namespace
}  // namespace lance_nd::file
