#include "lance_nd/file/reader.h"

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "lance_nd/array/builder.h"
#include "lance_nd/file/test_file_builder.h"
#include "lance_nd/file/writer.h"
#include "lance_nd/io/file.h"
#include "lance_nd/io/file_system.h"
#include "lance_nd/testing/random_arrays.h"
#include "lance_nd/testing/status_matchers.h"

namespace lance_nd::file {
namespace {

namespace pb = ::lance::encodings21;
using array::ArrayData;
using testing::AddField;
using testing::BuildFile;
using testing::LeBytes;
using testing::TestPage;

// The 469-byte 2.2 file Lance 12 wrote for t: struct{values: list<float>} with rows
// [{values:[1.5,2.5]}, null, {values:[]}, {values:[4.0]}] (docs/lance-file-format.md §7).
std::vector<std::uint8_t> Example22() {
  static const char* kHex =
      "7000000048484848484848484848484848484848484848484848484848484848484848484848484848484848"
      "484848484848484848484848484848484848484805000a000a000c000000fefefefefefe0100000001000100"
      "0100fefefefefefe00000000030002000000fefefefefefe0000c03f0000204000008040fefefefe04000000"
      "0000000000000000000000004848484848484848484848484848484848484848484848484848484848484848"
      "484848484848484848484848484848480a470a1812017420ffffffffffffffffff012a067374727563743001"
      "0a14120676616c75657318012a046c697374300138010a1512046974656d180220012a05666c6f6174300138"
      "0110040a2912270a250a1f2f6c616e63652e656e636f64696e67732e436f6c756d6e456e636f64696e671202"
      "0a0012550a040040800112030440101804224612440a420a1d2f6c616e63652e656e636f64696e677332312e"
      "506167654c61796f757412210a1f0a040a02081012040a0208101a040a020820320301060338014001480350"
      "010b010000000000008200000000000000c0000000000000004b000000000000000b010000000000008d0100"
      "00000000009d010000000000000100000001000000020002004c414e43";
  std::vector<std::uint8_t> out;
  const std::size_t n = std::strlen(kHex);
  for (std::size_t i = 0; i + 1 < n; i += 2) {
    out.push_back(static_cast<std::uint8_t>(std::stoi(std::string(kHex + i, 2), nullptr, 16)));
  }
  return out;
}

std::shared_ptr<io::RandomAccessFile> FileOf(std::vector<std::uint8_t> bytes) {
  return io::MakeBufferFile(std::move(bytes), "test.lance");
}

template <typename T>
T Value(const ArrayData& a, int64_t i) {
  T v;
  std::memcpy(&v, a.buffers[1]->data() + (a.offset + i) * static_cast<int64_t>(sizeof(T)),
              sizeof(T));
  return v;
}
int32_t Offset(const ArrayData& list, int64_t i) { return Value<int32_t>(list, i); }

TEST(FileReaderTest, ReadsLanceWrittenExample) {
  auto bytes = Example22();
  ASSERT_EQ(bytes.size(), 469u);
  LND_ASSERT_OK_AND_ASSIGN(auto reader, FileReader::Open(FileOf(bytes)));
  EXPECT_EQ(reader.version(), (FileVersion{2, 2}));
  EXPECT_EQ(reader.num_rows(), 4);
  ASSERT_EQ(reader.schema()->num_fields(), 1);
  EXPECT_EQ(reader.schema()->field(0)->type()->ToString(),
            array::Struct({array::MakeField(
                              "values", array::List(array::MakeField("item", array::Float32())))})
                ->ToString());
  LND_ASSERT_OK_AND_ASSIGN(auto batch, reader.ReadAll());
  const ArrayData& t = *batch->column(0);
  LND_ASSERT_OK(array::Validate(t));
  ASSERT_EQ(t.length, 4);
  EXPECT_TRUE(t.IsValid(0));
  EXPECT_TRUE(t.IsNull(1));
  EXPECT_TRUE(t.IsValid(2));
  const ArrayData& values = *t.children[0];
  EXPECT_EQ(Offset(values, 0), 0);
  EXPECT_EQ(Offset(values, 1), 2);
  EXPECT_EQ(Offset(values, 2), 2);  // null struct: no items
  EXPECT_EQ(Offset(values, 3), 2);  // empty list
  EXPECT_EQ(Offset(values, 4), 3);
  EXPECT_TRUE(values.IsValid(2));
  EXPECT_TRUE(values.IsNull(1));
  const ArrayData& items = *values.children[0];
  ASSERT_EQ(items.length, 3);
  EXPECT_EQ(Value<float>(items, 0), 1.5f);
  EXPECT_EQ(Value<float>(items, 1), 2.5f);
  EXPECT_EQ(Value<float>(items, 2), 4.0f);
}

TEST(FileReaderTest, TakeAndRangeOnExample) {
  LND_ASSERT_OK_AND_ASSIGN(auto reader, FileReader::Open(FileOf(Example22())));
  const std::vector<std::uint64_t> rows = {3, 1, 0, 3};
  LND_ASSERT_OK_AND_ASSIGN(auto batch, reader.Take(rows));
  const ArrayData& t = *batch->column(0);
  LND_ASSERT_OK(array::Validate(t));
  ASSERT_EQ(t.length, 4);
  EXPECT_TRUE(t.IsNull(1));
  const ArrayData& values = *t.children[0];
  const ArrayData& items = *values.children[0];
  ASSERT_EQ(items.length, 4);  // [4.0], null, [1.5, 2.5], [4.0]
  EXPECT_EQ(Value<float>(items, 0), 4.0f);
  EXPECT_EQ(Value<float>(items, 1), 1.5f);
  EXPECT_EQ(Value<float>(items, 3), 4.0f);

  LND_ASSERT_OK_AND_ASSIGN(auto range, reader.ReadRange(2, 2));
  EXPECT_EQ(range->num_rows(), 2);
  EXPECT_EQ(range->column(0)->children[0]->children[0]->length, 1);
  LND_EXPECT_ERROR(reader.ReadRange(3, 2), StatusCode::kInvalidArgument,
                   "outside the file's 4 rows");
  const std::vector<std::uint64_t> bad = {4};
  LND_EXPECT_ERROR(reader.Take(bad), StatusCode::kInvalidArgument, "row index 4 is out of range");
}

TEST(FileReaderTest, ProjectionPathsAndErrors) {
  LND_ASSERT_OK_AND_ASSIGN(auto reader, FileReader::Open(FileOf(Example22())));
  LND_ASSERT_OK_AND_ASSIGN(auto batch, reader.ReadAll({"t.values"}));
  EXPECT_EQ(batch->schema()->field(0)->name(), "t");
  LND_EXPECT_ERROR(reader.ReadAll({"nope"}), StatusCode::kInvalidArgument, "no field named 'nope'");
  LND_EXPECT_ERROR(reader.ReadAll({"t.values.item"}), StatusCode::kInvalidArgument,
                   "'values' is not a struct");
}

TEST(FileReaderTest, ProjectionPathAfterItsStructIsStillChecked) {
  LND_ASSERT_OK_AND_ASSIGN(auto reader, FileReader::Open(FileOf(Example22())));
  LND_EXPECT_ERROR(reader.ReadAll({"t", "t.nope"}), StatusCode::kInvalidArgument,
                   "no field named 'nope' in the struct");
  LND_EXPECT_ERROR(reader.ProjectedSchema({"t", "t.values.item"}), StatusCode::kInvalidArgument,
                   "'values' is not a struct");
}

TEST(FileReaderTest, LayoutOfExample) {
  LND_ASSERT_OK_AND_ASSIGN(auto reader, FileReader::Open(FileOf(Example22())));
  const FileLayout& layout = reader.layout();
  EXPECT_EQ(layout.version, (FileVersion{2, 2}));
  EXPECT_EQ(layout.num_rows, 4u);
  ASSERT_EQ(layout.fields.size(), 3u);
  const std::vector<std::string> names = {"t", "values", "item"};
  const std::vector<std::string> paths = {"t", "t.values", "t.values.item"};
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(layout.fields[i].id, static_cast<std::int32_t>(i));
    EXPECT_EQ(layout.fields[i].parent_id, static_cast<std::int32_t>(i) - 1);
    EXPECT_EQ(layout.fields[i].name, names[i]);
    EXPECT_EQ(layout.fields[i].path, paths[i]);
    EXPECT_EQ(layout.fields[i].column, i == 2 ? 0 : -1);
  }
  EXPECT_TRUE(layout.fields[0].type->Equals(*reader.schema()->field(0)->type()));
  EXPECT_TRUE(layout.fields[2].type->Equals(*array::Float32()));
  ASSERT_EQ(layout.columns.size(), 1u);
  EXPECT_EQ(layout.columns[0].field_id, 2);
  EXPECT_EQ(layout.columns[0].num_pages, 1u);
  EXPECT_EQ(layout.columns[0].num_rows, 4u);
  // Computed once: the same object every time.
  EXPECT_EQ(&reader.layout(), &layout);
}

TEST(FileReaderTest, ProjectionByFieldIdsOnExample) {
  LND_ASSERT_OK_AND_ASSIGN(auto reader, FileReader::Open(FileOf(Example22())));
  LND_ASSERT_OK_AND_ASSIGN(auto all, reader.ReadAll());
  // The id of a struct child reads like its path; the top-level id reads the whole field.
  LND_ASSERT_OK_AND_ASSIGN(auto by_id, reader.ReadAll(Projection::ByFieldIds({1})));
  LND_ASSERT_OK_AND_ASSIGN(auto by_name, reader.ReadAll(Projection::ByNames({"t.values"})));
  EXPECT_TRUE(by_id->Equals(*by_name));
  LND_ASSERT_OK_AND_ASSIGN(auto top, reader.ReadAll(Projection::ByFieldIds({1, 0})));
  EXPECT_TRUE(top->Equals(*all));
  LND_ASSERT_OK_AND_ASSIGN(auto none_given, reader.ReadAll(Projection::ByFieldIds({})));
  EXPECT_TRUE(none_given->Equals(*all));
  LND_ASSERT_OK_AND_ASSIGN(auto schema, reader.ProjectedSchema(Projection::ByFieldIds({0})));
  EXPECT_TRUE(schema->Equals(*reader.schema()));

  LND_EXPECT_ERROR(reader.ReadAll(Projection::ByFieldIds({7})), StatusCode::kInvalidArgument,
                   "the file has no field with id 7; its field ids are 0, 1, 2");
  LND_EXPECT_ERROR(reader.ProjectedSchema(Projection::ByFieldIds({0, -1})),
                   StatusCode::kInvalidArgument, "no field with id -1");
  const std::vector<std::uint64_t> rows = {1};
  LND_EXPECT_ERROR(reader.Take(rows, Projection::ByFieldIds({2})), StatusCode::kInvalidArgument,
                   "field id 2 ('t.values.item') lies inside list");
  LND_EXPECT_ERROR(reader.Scan(Projection::ByFieldIds({3})), StatusCode::kInvalidArgument,
                   "no field with id 3");
}

TEST(FileReaderTest, DescribeListsPagesAndLayouts) {
  LND_ASSERT_OK_AND_ASSIGN(auto reader, FileReader::Open(FileOf(Example22())));
  const FileDescription d = reader.Describe();
  EXPECT_EQ(d.file_size, 469u);
  EXPECT_EQ(d.gbo_table_start, 413u);
  ASSERT_EQ(d.fields.size(), 3u);
  EXPECT_EQ(d.fields[2].path, "t.values.item");
  EXPECT_EQ(d.fields[2].column, 0);
  ASSERT_EQ(d.columns.size(), 1u);
  ASSERT_EQ(d.columns[0].pages.size(), 1u);
  EXPECT_NE(d.columns[0].pages[0].layout.find("NULL_AND_EMPTY_LIST"), std::string::npos);
  EXPECT_NE(d.columns[0].pages[0].layout.find("values=flat(32)"), std::string::npos);
}

// ---- hand-built files --------------------------------------------------------------------

// One mini-block chunk of int32 values with optional raw def levels.
TestPage MiniBlockInt32(const std::vector<int32_t>& values, const std::vector<std::uint16_t>& def,
                        bool v22) {
  TestPage p;
  p.num_rows = def.empty() ? values.size() : def.size();
  auto* l = p.layout.mutable_mini_block_layout();
  *l->mutable_value_compression() = testing::Flat(32);
  if (!def.empty()) *l->mutable_def_compression() = testing::Flat(16);
  l->add_layers(def.empty() ? pb::REPDEF_ALL_VALID_ITEM : pb::REPDEF_NULLABLE_ITEM);
  l->set_num_buffers(1);
  l->set_num_items(values.size());
  l->set_has_large_chunk(v22);
  std::vector<std::uint8_t> chunk;
  testing::PutU16(&chunk, static_cast<std::uint16_t>(def.size()));
  if (!def.empty()) testing::PutU16(&chunk, static_cast<std::uint16_t>(def.size() * 2));
  if (v22)
    testing::PutU32(&chunk, static_cast<std::uint32_t>(values.size() * 4));
  else
    testing::PutU16(&chunk, static_cast<std::uint16_t>(values.size() * 4));
  auto pad8 = [&] {
    while (chunk.size() % 8) chunk.push_back(0xfe);
  };
  pad8();
  for (auto d : def) testing::PutU16(&chunk, d);
  pad8();
  for (auto v : values) testing::PutU32(&chunk, static_cast<std::uint32_t>(v));
  pad8();
  std::vector<std::uint8_t> meta;
  const std::uint32_t word = static_cast<std::uint32_t>(((chunk.size() / 8 - 1) << 4));
  if (v22)
    testing::PutU32(&meta, word);
  else
    testing::PutU16(&meta, static_cast<std::uint16_t>(word));
  p.buffers = {meta, chunk};
  return p;
}

lance::file::Schema OneField(const std::string& type) {
  lance::file::Schema s;
  AddField(&s, "x", 0, -1, type);
  return s;
}

TEST(FileReaderTest, MixedPagesMiniBlockAndConstant) {
  for (bool v22 : {false, true}) {
    TestPage all_null;
    all_null.num_rows = 2;
    all_null.layout.mutable_constant_layout()->add_layers(pb::REPDEF_NULLABLE_ITEM);
    auto bytes = BuildFile(
        OneField("int32"), 6,
        {{MiniBlockInt32({1, 0, 3}, {0, 1, 0}, v22), all_null, MiniBlockInt32({9}, {}, v22)}}, 2,
        v22 ? 2 : 1);
    LND_ASSERT_OK_AND_ASSIGN(auto reader, FileReader::Open(FileOf(bytes)));
    LND_ASSERT_OK_AND_ASSIGN(auto batch, reader.ReadAll());
    const ArrayData& x = *batch->column(0);
    LND_ASSERT_OK(array::Validate(x));
    ASSERT_EQ(x.length, 6);
    EXPECT_EQ(Value<int32_t>(x, 0), 1);
    EXPECT_TRUE(x.IsNull(1));
    EXPECT_EQ(Value<int32_t>(x, 2), 3);
    EXPECT_TRUE(x.IsNull(3));
    EXPECT_TRUE(x.IsNull(4));
    EXPECT_EQ(Value<int32_t>(x, 5), 9);
    const std::vector<std::uint64_t> rows = {5, 2, 4};
    LND_ASSERT_OK_AND_ASSIGN(auto taken, reader.Take(rows, {"x"}));
    const ArrayData& t = *taken->column(0);
    EXPECT_EQ(Value<int32_t>(t, 0), 9);
    EXPECT_EQ(Value<int32_t>(t, 1), 3);
    EXPECT_TRUE(t.IsNull(2));
    // Streaming in batches of 4 rows crosses the page boundaries.
    LND_ASSERT_OK_AND_ASSIGN(auto scan, reader.Scan({}, ScanOptions{4, 1 << 20}));
    LND_ASSERT_OK_AND_ASSIGN(auto b1, scan.Next());
    LND_ASSERT_OK_AND_ASSIGN(auto b2, scan.Next());
    LND_ASSERT_OK_AND_ASSIGN(auto b3, scan.Next());
    ASSERT_TRUE(b1 && b2);
    EXPECT_EQ(b1->num_rows(), 4);
    EXPECT_EQ(b2->num_rows(), 2);
    EXPECT_EQ(b3, nullptr);
  }
}

TEST(FileReaderTest, ConstantInlineValue22) {
  TestPage p;
  p.num_rows = 4;
  auto* l = p.layout.mutable_constant_layout();
  l->add_layers(pb::REPDEF_ALL_VALID_ITEM);
  l->set_inline_value(std::string("\x07\x00\x00\x00", 4));
  auto bytes = BuildFile(OneField("int32"), 4, {{p}});
  LND_ASSERT_OK_AND_ASSIGN(auto reader, FileReader::Open(FileOf(bytes)));
  LND_ASSERT_OK_AND_ASSIGN(auto batch, reader.ReadAll());
  const ArrayData& x = *batch->column(0);
  ASSERT_EQ(x.length, 4);
  for (int64_t i = 0; i < 4; ++i) EXPECT_EQ(Value<int32_t>(x, i), 7);
  // The same page in a 2.1 file is refused (inline values are 2.2-only).
  auto bytes21 = BuildFile(OneField("int32"), 4, {{p}}, 2, 1);
  LND_ASSERT_OK_AND_ASSIGN(auto reader21, FileReader::Open(FileOf(bytes21)));
  LND_EXPECT_ERROR(reader21.ReadAll(), StatusCode::kCorrupt, "2.2-only");
}

TEST(FileReaderTest, FullZipVariableWithNulls) {
  TestPage p;
  p.num_rows = 3;
  auto* l = p.layout.mutable_full_zip_layout();
  l->set_bits_def(1);
  l->set_bits_per_offset(32);
  l->set_num_items(3);
  l->set_num_visible_items(3);
  *l->mutable_value_compression() = testing::Variable32();
  l->add_layers(pb::REPDEF_NULLABLE_ITEM);
  std::vector<std::uint8_t> zipped;
  zipped.push_back(0);
  testing::PutU32(&zipped, 3);
  zipped.insert(zipped.end(), {'a', 'b', 'c'});
  zipped.push_back(1);  // null: no bytes
  zipped.push_back(0);
  testing::PutU32(&zipped, 0);
  std::vector<std::uint8_t> rep_index = {0, 8, 9, 14};
  p.buffers = {zipped, rep_index};
  auto bytes = BuildFile(OneField("string"), 3, {{p}});
  LND_ASSERT_OK_AND_ASSIGN(auto reader, FileReader::Open(FileOf(bytes)));
  LND_ASSERT_OK_AND_ASSIGN(auto batch, reader.ReadAll());
  const ArrayData& x = *batch->column(0);
  LND_ASSERT_OK(array::Validate(x));
  ASSERT_EQ(x.length, 3);
  EXPECT_TRUE(x.IsNull(1));
  EXPECT_EQ(Value<int32_t>(x, 1), 3);
  EXPECT_EQ(Value<int32_t>(x, 3), 3);
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(x.buffers[2]->data()), 3), "abc");

  // A zipped buffer one byte short is Corrupt, naming the column and page.
  p.buffers[0].pop_back();
  auto cut = BuildFile(OneField("string"), 3, {{p}});
  LND_ASSERT_OK_AND_ASSIGN(auto reader2, FileReader::Open(FileOf(cut)));
  LND_EXPECT_ERROR(reader2.ReadAll(), StatusCode::kCorrupt, "column 0 ('x') page 0");
}

// ---- container errors ----------------------------------------------------------------------

TEST(FileReaderTest, RejectsBadFooters) {
  auto good = Example22();
  auto bad_magic = good;
  bad_magic.back() = 'X';
  LND_EXPECT_ERROR(FileReader::Open(FileOf(bad_magic)), StatusCode::kCorrupt, "magic 'LANC'");

  auto v20 = good;
  v20[good.size() - 8] = 0;
  v20[good.size() - 6] = 3;  // (0, 3) = 2.0
  LND_EXPECT_ERROR(FileReader::Open(FileOf(v20)), StatusCode::kNotImplemented, "version 2.0");
  auto v01 = good;
  v01[good.size() - 8] = 0;
  v01[good.size() - 6] = 2;
  LND_EXPECT_ERROR(FileReader::Open(FileOf(v01)), StatusCode::kNotImplemented, "legacy v1 (0.2)");

  LND_EXPECT_ERROR(FileReader::Open(FileOf({1, 2, 3})), StatusCode::kCorrupt,
                   "fewer than the 40-byte Lance footer");
  // Drop the first 100 bytes: every absolute position now points past its region.
  std::vector<std::uint8_t> cut(good.begin() + 100, good.end());
  LND_EXPECT_ERROR(FileReader::Open(FileOf(cut)), StatusCode::kCorrupt, "extends past");
}

TEST(FileReaderTest, RejectsPageBufferBeyondData) {
  auto bytes = BuildFile(OneField("int32"), 3, {{MiniBlockInt32({1, 2, 3}, {}, true)}});
  // Corrupt the page's second buffer offset (64) in the column metadata to a huge value.
  // Find the packed offsets field "0a 02 00 40" (offsets [0, 64]).
  const std::vector<std::uint8_t> needle = {0x0a, 0x02, 0x00, 0x40};
  auto it = std::search(bytes.begin(), bytes.end(), needle.begin(), needle.end());
  ASSERT_NE(it, bytes.end());
  *(it + 3) = 0x7f;  // offset 127: still a 1-byte varint, but the buffer then overlaps the schema
  auto r = FileReader::Open(FileOf(bytes));
  if (r.ok()) {
    LND_EXPECT_ERROR(r->ReadAll(), StatusCode::kCorrupt, "column 0");
  } else {
    LND_EXPECT_ERROR(r, StatusCode::kCorrupt, "column 0 page 0 buffer 1");
  }
}

TEST(FileReaderTest, RejectsSchemaWithMissingParent) {
  lance::file::Schema s;
  AddField(&s, "a", 0, -1, "struct");
  AddField(&s, "b", 1, 5, "int32");
  auto bytes = BuildFile(s, 0, {{}});
  LND_EXPECT_ERROR(FileReader::Open(FileOf(bytes)), StatusCode::kCorrupt, "names parent id 5");
}

TEST(FileReaderTest, RejectsColumnCountMismatch) {
  auto bytes = BuildFile(OneField("int32"), 3, {{MiniBlockInt32({1, 2, 3}, {}, true)}, {}});
  LND_EXPECT_ERROR(FileReader::Open(FileOf(bytes)), StatusCode::kCorrupt,
                   "schema has 1 leaf fields but the file has 2 columns");
}

TEST(FileReaderTest, RejectsHasLargeChunkIn21) {
  auto bytes = BuildFile(OneField("int32"), 3, {{MiniBlockInt32({1, 2, 3}, {}, true)}}, 2, 1);
  LND_ASSERT_OK_AND_ASSIGN(auto reader, FileReader::Open(FileOf(bytes)));
  LND_EXPECT_ERROR(reader.ReadAll(), StatusCode::kCorrupt, "has_large_chunk is set in a 2.1 file");
}

// The bulk read paths (dense levels without nulls, bulk value copies, pages decoded on two
// threads) and the general paths (nulls, empty lists) must both return exactly the written data.
TEST(FileReaderTest, BulkAndGeneralPathsReturnWrittenData) {
  namespace a = ::lance_nd::array;
  int checked = 0;
  for (std::uint64_t seed = 0; seed < 36; ++seed) {
    ::lance_nd::testing::Rng rng(seed);
    ::lance_nd::testing::RandomTypeOptions to;
    to.float16 = false;
    const double null_p = seed % 2 == 0 ? 0.0 : 0.25;  // even seeds: no nulls -> dense path
    const int64_t rows = 200 + static_cast<int64_t>(rng.Below(3000));
    std::vector<a::FieldPtr> fields;
    std::vector<a::ArrayPtr> columns;
    for (int c = 0; c < 3; ++c) {
      a::DataTypePtr type;
      if (c == 0) {
        type = seed % 3 == 0   ? a::List(a::Float32())
               : seed % 3 == 1 ? a::Float64()
                               : a::List(a::List(a::Int32()));
      } else {
        type = ::lance_nd::testing::RandomType(seed * 5 + static_cast<std::uint64_t>(c), 2, to);
      }
      fields.push_back(a::MakeField("c" + std::to_string(c), type, null_p > 0));
      columns.push_back(::lance_nd::testing::RandomArray(
          type, rows, null_p, seed * 11 + static_cast<std::uint64_t>(c)));
    }
    auto schema = a::MakeSchema(fields);
    LND_ASSERT_OK_AND_ASSIGN(auto batch, a::RecordBatch::Make(schema, rows, columns));
    auto fs = io::MakeMemoryFileSystem();
    LND_ASSERT_OK_AND_ASSIGN(auto out, fs->Create("t.lance"));
    WriterOptions wo;
    wo.page_bytes = 1 + rng.Below(32 * 1024);  // several pages per column
    auto writer = FileWriter::Open(std::move(out), schema, wo);
    if (!writer.ok() && writer.status().code() == StatusCode::kNotImplemented) continue;
    ASSERT_TRUE(writer.ok()) << writer.status().ToString();
    // Several Write calls (a page never splits one call): several pages per column.
    const int64_t per = std::max<int64_t>(1, rows / (1 + static_cast<int64_t>(rng.Below(5))));
    Status st;
    for (int64_t start = 0; start < rows && st.ok(); start += per) {
      LND_ASSERT_OK_AND_ASSIGN(auto part, batch->Slice(start, std::min(per, rows - start)));
      st = (*writer)->Write(*part);
    }
    if (st.code() == StatusCode::kNotImplemented) continue;
    LND_ASSERT_OK(st);
    LND_ASSERT_OK((*writer)->Finish().status());
    LND_ASSERT_OK_AND_ASSIGN(auto file, fs->OpenForRead("t.lance"));
    for (int threads : {1, 2}) {
      ReaderOptions ro;
      ro.num_threads = threads;
      LND_ASSERT_OK_AND_ASSIGN(FileReader reader, FileReader::Open(file, ro));
      LND_ASSERT_OK_AND_ASSIGN(auto all, reader.ReadAll());
      const int64_t off = static_cast<int64_t>(rng.Below(static_cast<std::uint64_t>(rows)));
      const int64_t len =
          static_cast<int64_t>(rng.Below(static_cast<std::uint64_t>(rows - off) + 1));
      LND_ASSERT_OK_AND_ASSIGN(FileReader fresh, FileReader::Open(file, ro));
      LND_ASSERT_OK_AND_ASSIGN(auto range, fresh.ReadRange(off, len));
      for (int c = 0; c < 3; ++c) {
        const auto& col = columns[static_cast<std::size_t>(c)];
        // Known schema round-trip gap (not the read path): a fixed_size_list's non-nullable item
        // comes back nullable; then the values are compared as printed.
        auto same = [&](const a::ArrayData& want, const a::ArrayData& got) {
          if (want.type->Equals(*got.type)) return a::ArrayEquals(want, got, false);
          return a::PrettyPrint(want) == a::PrettyPrint(got);
        };
        EXPECT_TRUE(same(*col, *all->column(c))) << "seed " << seed << " threads " << threads << " "
                                                 << fields[static_cast<std::size_t>(c)]->ToString();
        LND_ASSERT_OK_AND_ASSIGN(auto want, a::Slice(col, off, len));
        EXPECT_TRUE(same(*want, *range->column(c)))
            << "seed " << seed << " range " << off << "+" << len << " "
            << fields[static_cast<std::size_t>(c)]->ToString();
      }
      if (::testing::Test::HasFailure()) return;
      ++checked;
    }
  }
  EXPECT_GT(checked, 40);
}

// A page whose def levels are all 0 (no nulls, no empty lists) keeps no def vector; the first
// chunk holding another level must bring back the zeros of the chunks before it. One null item,
// null row or empty list at a random place in a long page (many chunks) must come back there.
TEST(FileReaderTest, ARareNullAnywhereInALongPageIsKept) {
  namespace a = ::lance_nd::array;
  for (std::uint64_t seed = 0; seed < 40; ++seed) {
    ::lance_nd::testing::Rng rng(seed);
    const int64_t rows = 300 + static_cast<int64_t>(rng.Below(700));
    const int kind = static_cast<int>(seed % 4);  // 0 none, 1 null item, 2 null row, 3 empty
    const int64_t odd_row = static_cast<int64_t>(rng.Below(static_cast<std::uint64_t>(rows)));
    a::ListBuilder lists(a::List(a::Float32()));
    a::PrimitiveBuilder<float> flat(a::Float32());
    auto* items = static_cast<a::PrimitiveBuilder<float>*>(lists.value_builder());
    for (int64_t r = 0; r < rows; ++r) {
      const bool odd = r == odd_row;
      odd&& kind == 2 ? lists.AppendNull() : lists.Append(true);
      odd&& kind == 1 ? flat.AppendNull() : flat.Append(static_cast<float>(r));
      const int64_t len = odd && kind == 3 ? 0 : 1 + static_cast<int64_t>(rng.Below(400));
      const int64_t null_at = static_cast<int64_t>(rng.Below(static_cast<std::uint64_t>(len)));
      for (int64_t i = 0; i < len && !(odd && kind == 2); ++i) {
        odd&& kind == 1 && i == null_at ? items->AppendNull()
                                        : items->Append(static_cast<float>(r * 1000 + i));
      }
    }
    LND_ASSERT_OK_AND_ASSIGN(auto list_col, lists.Finish());
    LND_ASSERT_OK_AND_ASSIGN(auto flat_col, flat.Finish());
    auto schema = a::MakeSchema(
        {a::MakeField("l", list_col->type, true), a::MakeField("f", flat_col->type, true)});
    LND_ASSERT_OK_AND_ASSIGN(auto batch, a::RecordBatch::Make(schema, rows, {list_col, flat_col}));
    auto fs = io::MakeMemoryFileSystem();
    LND_ASSERT_OK_AND_ASSIGN(auto out, fs->Create("t.lance"));
    WriterOptions wo;
    wo.page_bytes = 64 << 20;  // one page per column: every chunk in the same page
    LND_ASSERT_OK_AND_ASSIGN(auto writer, FileWriter::Open(std::move(out), schema, wo));
    LND_ASSERT_OK(writer->Write(*batch));
    LND_ASSERT_OK(writer->Finish().status());
    LND_ASSERT_OK_AND_ASSIGN(auto file, fs->OpenForRead("t.lance"));
    LND_ASSERT_OK_AND_ASSIGN(FileReader reader, FileReader::Open(file));
    LND_ASSERT_OK_AND_ASSIGN(auto all, reader.ReadAll());
    EXPECT_TRUE(a::ArrayEquals(*list_col, *all->column(0), false)) << "seed " << seed;
    EXPECT_TRUE(a::ArrayEquals(*flat_col, *all->column(1), false)) << "seed " << seed;
    EXPECT_EQ(all->column(0)->null_count(), kind == 2 ? 1 : 0) << "seed " << seed;
    LND_ASSERT_OK_AND_ASSIGN(FileReader fresh, FileReader::Open(file));
    const int64_t from = std::max<int64_t>(0, odd_row - 3);
    LND_ASSERT_OK_AND_ASSIGN(auto range, fresh.ReadRange(from, std::min<int64_t>(7, rows - from)));
    LND_ASSERT_OK_AND_ASSIGN(auto want, a::Slice(list_col, from, range->num_rows()));
    EXPECT_TRUE(a::ArrayEquals(*want, *range->column(0), false)) << "seed " << seed;
    if (::testing::Test::HasFailure()) return;
  }
}

// Big local files are memory-mapped and pages are sliced out of the mapping instead of copied
// (io::RandomAccessFile::Mapped); the values must be exactly those read through plain reads.
TEST(FileReaderTest, MappedLocalFileReadsLikeCopiedBytes) {
  namespace a = ::lance_nd::array;
  const int64_t rows = 3000;
  auto type = a::List(a::Float32());
  auto values = ::lance_nd::testing::RandomArray(type, rows, 0.1, 7);
  auto ints = ::lance_nd::testing::RandomArray(a::Int64(), rows, 0.0, 8);
  auto schema =
      a::MakeSchema({a::MakeField("v", type, true), a::MakeField("i", a::Int64(), false)});
  LND_ASSERT_OK_AND_ASSIGN(auto batch, a::RecordBatch::Make(schema, rows, {values, ints}));
  char tmpl[] = "/tmp/lance_nd_mapped_XXXXXX";
  ASSERT_NE(::mkdtemp(tmpl), nullptr);
  const std::string path = std::string(tmpl) + "/m.lance";
  auto fs = io::LocalFileSystem();
  {
    LND_ASSERT_OK_AND_ASSIGN(auto writer, FileWriter::Open(path, schema));
    for (int k = 0; k < 40; ++k) LND_ASSERT_OK(writer->Write(*batch));  // > 1 MiB
    LND_ASSERT_OK(writer->Finish().status());
  }
  LND_ASSERT_OK_AND_ASSIGN(auto local, fs->OpenForRead(path));
  ASSERT_FALSE(local->Mapped().bytes.empty()) << "expected a mapped file of " << local->Size();
  LND_ASSERT_OK_AND_ASSIGN(auto bytes, io::ReadWholeFile(*local));
  auto copied = io::MakeBufferFile(bytes, "copy");
  ASSERT_TRUE(copied->Mapped().bytes.empty());
  const std::vector<std::uint64_t> take{0, 17, 2999, 3000, 61000, 119999};
  for (int threads : {1, 2}) {
    ReaderOptions ro;
    ro.num_threads = threads;
    LND_ASSERT_OK_AND_ASSIGN(FileReader mapped, FileReader::Open(local, ro));
    LND_ASSERT_OK_AND_ASSIGN(FileReader plain, FileReader::Open(copied, ro));
    LND_ASSERT_OK_AND_ASSIGN(auto got, mapped.ReadAll());
    LND_ASSERT_OK_AND_ASSIGN(auto want, plain.ReadAll());
    ASSERT_EQ(got->num_rows(), 40 * rows);
    for (int c = 0; c < 2; ++c) {
      EXPECT_TRUE(a::ArrayEquals(*want->column(c), *got->column(c), false)) << "column " << c;
    }
    LND_ASSERT_OK_AND_ASSIGN(auto got_t, mapped.Take(take));
    LND_ASSERT_OK_AND_ASSIGN(auto want_t, plain.Take(take));
    for (int c = 0; c < 2; ++c) {
      EXPECT_TRUE(a::ArrayEquals(*want_t->column(c), *got_t->column(c), false)) << "take " << c;
    }
  }
  std::filesystem::remove_all(tmpl);
}

}  // namespace
}  // namespace lance_nd::file
