#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "lance_nd/array/builder.h"
#include "lance_nd/array/type.h"
#include "lance_nd/core/internal/endian.h"
#include "lance_nd/file/reader.h"
#include "lance_nd/file/writer.h"
#include "lance_nd/file/writer/test_arrays.h"
#include "lance_nd/io/file_system.h"
#include "lance_nd/testing/random_arrays.h"
#include "lance_nd/testing/status_matchers.h"

namespace lance_nd::file {
namespace {

namespace a = ::lance_nd::array;
namespace t = ::lance_nd::file::internal::writer::testing;

std::vector<std::uint8_t> FromHex(const std::string& hex) {
  std::vector<std::uint8_t> out;
  for (std::size_t i = 0; i + 1 < hex.size(); i += 2) {
    out.push_back(static_cast<std::uint8_t>(std::stoul(hex.substr(i, 2), nullptr, 16)));
  }
  return out;
}

// Writes `columns` with `schema` to an in-memory file and returns the bytes.
Result<std::vector<std::uint8_t>> WriteToMemory(a::SchemaPtr schema,
                                                std::vector<a::ArrayPtr> columns,
                                                WriterOptions options = {}) {
  auto fs = io::MakeMemoryFileSystem();
  LND_ASSIGN_OR_RETURN(auto out, fs->Create("f.lance"));
  LND_ASSIGN_OR_RETURN(auto writer, FileWriter::Open(std::move(out), schema, options));
  const int64_t rows = columns.empty() ? 0 : columns[0]->length;
  LND_ASSIGN_OR_RETURN(auto batch, a::RecordBatch::Make(schema, rows, std::move(columns)));
  LND_RETURN_NOT_OK(writer->Write(*batch));
  LND_ASSIGN_OR_RETURN(WrittenFile written, writer->Finish());
  LND_ASSIGN_OR_RETURN(auto file, fs->OpenForRead("f.lance"));
  if (written.file_size != file->Size()) return Status::Corrupt("size mismatch");
  LND_ASSIGN_OR_RETURN(auto bytes, io::ReadWholeFile(*file));
  return *bytes;
}

// The 469-byte file Lance 12 wrote for t: Struct{values: List<Float32>}
// (docs/lance-file-format.md §7).
TEST(FileWriterTest, ReproducesLance12WorkedExampleByteForByte) {
  const auto expected = FromHex(
      "7000000048484848484848484848484848484848484848484848484848484848"
      "4848484848484848484848484848484848484848484848484848484848484848"
      "05000a000a000c000000fefefefefefe01000000010001000100fefefefefefe"
      "00000000030002000000fefefefefefe0000c03f0000204000008040fefefefe"
      "0400000000000000000000000000000048484848484848484848484848484848"
      "4848484848484848484848484848484848484848484848484848484848484848"
      "0a470a1812017420ffffffffffffffffff012a0673747275637430010a141206"
      "76616c75657318012a046c697374300138010a1512046974656d180220012a05"
      "666c6f61743001380110040a2912270a250a1f2f6c616e63652e656e636f6469"
      "6e67732e436f6c756d6e456e636f64696e6712020a0012550a04004080011203"
      "0440101804224612440a420a1d2f6c616e63652e656e636f64696e677332312e"
      "506167654c61796f757412210a1f0a040a02081012040a0208101a040a020820"
      "320301060338014001480350010b010000000000008200000000000000c00000"
      "00000000004b000000000000000b010000000000008d010000000000009d0100"
      "00000000000100000001000000020002004c414e43");
  ASSERT_EQ(expected.size(), 469u);
  auto list_type = a::List(a::Float32());
  auto struct_type = a::Struct({a::MakeField("values", list_type)});
  auto schema = a::MakeSchema({a::MakeField("t", struct_type)});
  auto items = t::Prim<float>(a::Float32(), {1.5f, 2.5f, 4.0f});
  auto lists = t::List(list_type, {2, 0, 0, 1}, items);
  auto column = t::Struct(struct_type, {true, false, true, true}, {lists});
  LND_ASSERT_OK_AND_ASSIGN(auto bytes, WriteToMemory(schema, {column}));
  EXPECT_EQ(bytes, expected);
}

TEST(FileWriterTest, Int32WithNullDiffersOnlyInChunkGrammarBetweenVersions) {
  auto schema = a::MakeSchema({a::MakeField("x", a::Int32())});
  auto x = t::Prim<std::int32_t>(a::Int32(), {1, std::nullopt, 3});
  WriterOptions v21;
  v21.version = FileVersion::kV2_1;
  LND_ASSERT_OK_AND_ASSIGN(auto f21, WriteToMemory(schema, {x}, v21));
  LND_ASSERT_OK_AND_ASSIGN(auto f22, WriteToMemory(schema, {x}));
  // chunk metadata word: 0x30 = 4 words (32 bytes), last chunk
  EXPECT_EQ(f21[0], 0x30);
  EXPECT_EQ(f21[1], 0x00);
  EXPECT_EQ(f22[0], 0x30);
  EXPECT_EQ(LoadLE<std::uint32_t>(f22.data()), 0x30u);
  // chunk header at 64: 3 levels, def 6 bytes, values 12 bytes (u16 vs u32), padding
  const std::vector<std::uint8_t> h21{3, 0, 6, 0, 12, 0, 0xfe, 0xfe};
  const std::vector<std::uint8_t> h22{3, 0, 6, 0, 12, 0, 0, 0};
  EXPECT_EQ(std::vector<std::uint8_t>(f21.begin() + 64, f21.begin() + 72), h21);
  EXPECT_EQ(std::vector<std::uint8_t>(f22.begin() + 64, f22.begin() + 72), h22);
  // footer versions
  EXPECT_EQ(LoadLE<std::uint16_t>(f21.data() + f21.size() - 6), 1);
  EXPECT_EQ(LoadLE<std::uint16_t>(f22.data() + f22.size() - 6), 2);
  EXPECT_EQ(f22.size(),
            f21.size() + 2 + 2 - 2);  // u32 meta word (+2), has_large_chunk (+2), same padding
}

struct Footer {
  std::uint64_t column_meta_start, cmo, gbo;
  std::uint32_t num_global, num_columns;
  std::uint16_t major, minor;
};

Footer ReadFooter(const std::vector<std::uint8_t>& f) {
  const std::uint8_t* p = f.data() + f.size() - 40;
  return Footer{LoadLE<std::uint64_t>(p),      LoadLE<std::uint64_t>(p + 8),
                LoadLE<std::uint64_t>(p + 16), LoadLE<std::uint32_t>(p + 24),
                LoadLE<std::uint32_t>(p + 28), LoadLE<std::uint16_t>(p + 32),
                LoadLE<std::uint16_t>(p + 34)};
}

TEST(FileWriterTest, ContainerTablesAreContiguousAndAligned) {
  auto st = a::Struct({a::MakeField("s", a::Utf8()), a::MakeField("l", a::List(a::Int64()))});
  auto schema = a::MakeSchema({a::MakeField("a", a::Float64()), a::MakeField("b", st)});
  auto fa = t::Prim<double>(a::Float64(), {1.0, 2.0, std::nullopt});
  auto s = t::Strings(a::Utf8(), {"x", "yy", std::nullopt});
  auto items = t::Prim<std::int64_t>(a::Int64(), {1, 2, 3});
  auto l = t::List(a::List(a::Int64()), {3, 0, std::nullopt}, items);
  auto b = t::Struct(st, {true, true, false}, {s, l});
  LND_ASSERT_OK_AND_ASSIGN(auto f, WriteToMemory(schema, {fa, b}));
  const Footer footer = ReadFooter(f);
  EXPECT_EQ(std::string(f.end() - 4, f.end()), "LANC");
  EXPECT_EQ(footer.num_columns, 3u);
  EXPECT_EQ(footer.num_global, 1u);
  EXPECT_EQ(footer.major, 2);
  EXPECT_EQ(footer.minor, 2);
  EXPECT_EQ(footer.cmo + 16 * 3, footer.gbo);
  EXPECT_EQ(footer.gbo + 16, f.size() - 40);
  const std::uint64_t gb0 = LoadLE<std::uint64_t>(f.data() + footer.gbo);
  const std::uint64_t gb0_size = LoadLE<std::uint64_t>(f.data() + footer.gbo + 8);
  EXPECT_EQ(gb0 % 64, 0u);
  EXPECT_EQ(gb0 + gb0_size, footer.column_meta_start);
  std::uint64_t pos = footer.column_meta_start;
  for (std::uint32_t c = 0; c < 3; ++c) {
    EXPECT_EQ(LoadLE<std::uint64_t>(f.data() + footer.cmo + 16 * c), pos);
    pos += LoadLE<std::uint64_t>(f.data() + footer.cmo + 16 * c + 8);
  }
  EXPECT_EQ(pos, footer.cmo);
}

TEST(FileWriterTest, WritesOnlyVersions21And22AndReportsTheVersion) {
  auto schema = a::MakeSchema({a::MakeField("x", a::Int32())});
  for (FileVersion version : {FileVersion::kV2_1, FileVersion::kV2_2}) {
    auto fs = io::MakeMemoryFileSystem();
    LND_ASSERT_OK_AND_ASSIGN(auto out, fs->Create("f.lance"));
    WriterOptions options;
    options.version = version;
    LND_ASSERT_OK_AND_ASSIGN(auto writer, FileWriter::Open(std::move(out), schema, options));
    LND_ASSERT_OK_AND_ASSIGN(WrittenFile written, writer->Finish());
    EXPECT_EQ(written.version, version);
    LND_ASSERT_OK_AND_ASSIGN(auto file, fs->OpenForRead("f.lance"));
    LND_ASSERT_OK_AND_ASSIGN(auto bytes, io::ReadWholeFile(*file));
    const Footer footer = ReadFooter(*bytes);
    EXPECT_EQ((FileVersion{footer.major, footer.minor}), version);
  }
  const std::pair<FileVersion, const char*> refused[] = {
      {FileVersion::kV2_0, "WriterOptions.version 2.0: "},
      {FileVersion{0, 1}, "WriterOptions.version legacy v1 (0.1): "},
      {FileVersion{2, 3}, "WriterOptions.version 2.3: "},
      {FileVersion{}, "WriterOptions.version legacy v1 (0.0): "}};
  for (const auto& [version, message] : refused) {
    auto fs = io::MakeMemoryFileSystem();
    LND_ASSERT_OK_AND_ASSIGN(auto out, fs->Create("f.lance"));
    WriterOptions options;
    options.version = version;
    LND_EXPECT_ERROR(FileWriter::Open(std::move(out), schema, options),
                     StatusCode::kInvalidArgument,
                     std::string(message) + "lance-nd writes Lance file format 2.1 or 2.2");
  }
}

TEST(FileWriterTest, RejectsBatchOfAnotherSchema) {
  auto schema = a::MakeSchema({a::MakeField("x", a::Int32())});
  auto fs = io::MakeMemoryFileSystem();
  LND_ASSERT_OK_AND_ASSIGN(auto out, fs->Create("f.lance"));
  LND_ASSERT_OK_AND_ASSIGN(auto writer, FileWriter::Open(std::move(out), schema));
  auto other = a::MakeSchema({a::MakeField("x", a::Int64())});
  auto col = t::Prim<std::int64_t>(a::Int64(), {1});
  LND_ASSERT_OK_AND_ASSIGN(auto batch, a::RecordBatch::Make(other, 1, {col}));
  LND_EXPECT_ERROR(writer->Write(*batch), StatusCode::kSchemaMismatch, "has type int64");
  LND_ASSERT_OK_AND_ASSIGN(WrittenFile written, writer->Finish());
  EXPECT_EQ(written.num_rows, 0u);
  EXPECT_THAT(written.column_field_ids, ::testing::ElementsAre(0));
  LND_EXPECT_ERROR(writer->Write(*batch), StatusCode::kInvalidArgument, "after Finish");
  LND_EXPECT_ERROR(writer->Finish(), StatusCode::kInvalidArgument, "twice");
}

TEST(FileWriterTest, RejectsBadStructuralEncodingMetadata) {
  a::Metadata md({{"lance-encoding:structural-encoding", "zigzag"}});
  auto schema = a::MakeSchema({a::MakeField("x", a::Int32(), true, md)});
  auto fs = io::MakeMemoryFileSystem();
  LND_ASSERT_OK_AND_ASSIGN(auto out, fs->Create("f.lance"));
  LND_EXPECT_ERROR(FileWriter::Open(std::move(out), schema), StatusCode::kInvalidArgument,
                   "zigzag");
}

}  // namespace
}  // namespace lance_nd::file

namespace lance_nd::file {
namespace {

TEST(FileWriterTest, EqualValuesBecomeAnInlineConstantIn22Only) {
  auto schema = a::MakeSchema({a::MakeField("x", a::Int32())});
  auto x = t::Prim<std::int32_t>(a::Int32(), {7, 7, 7, 7});
  LND_ASSERT_OK_AND_ASSIGN(auto f22, WriteToMemory(schema, {x}));
  // no page buffers: the schema (global buffer 0) starts the file
  const std::uint8_t* footer = f22.data() + f22.size() - 40;
  const std::uint64_t gbo = LoadLE<std::uint64_t>(footer + 16);
  EXPECT_EQ(LoadLE<std::uint64_t>(f22.data() + gbo), 0u);
  // ConstantLayout.inline_value (#6) = 07 00 00 00 inside the column metadata
  const std::string bytes(f22.begin(), f22.end());
  EXPECT_NE(bytes.find(std::string("\x32\x04\x07\x00\x00\x00", 6)), std::string::npos);
  WriterOptions v21;
  v21.version = FileVersion::kV2_1;
  LND_ASSERT_OK_AND_ASSIGN(auto f21, WriteToMemory(schema, {x}, v21));
  const std::uint64_t gbo21 = LoadLE<std::uint64_t>(f21.data() + f21.size() - 40 + 16);
  EXPECT_GT(LoadLE<std::uint64_t>(f21.data() + gbo21), 0u);  // 2.1 writes a mini-block page
}

}  // namespace
}  // namespace lance_nd::file

namespace lance_nd::file {
namespace {

TEST(FileWriterTest, ExplicitFieldIdsReachTheSchemaAndTheResult) {
  auto schema =
      a::MakeSchema({a::MakeField("x", a::List(a::Int32())), a::MakeField("y", a::Utf8())});
  auto items = t::Prim<std::int32_t>(a::Int32(), {1, 2});
  auto x = t::List(a::List(a::Int32()), {2}, items);
  auto y = t::Strings(a::Utf8(), {"a"});
  auto fs = io::MakeMemoryFileSystem();
  LND_ASSERT_OK_AND_ASSIGN(auto out, fs->Create("f.lance"));
  WriterOptions options;
  options.field_ids = {5, 9, 2};
  LND_ASSERT_OK_AND_ASSIGN(auto writer, FileWriter::Open(std::move(out), schema, options));
  LND_ASSERT_OK_AND_ASSIGN(auto batch, a::RecordBatch::Make(schema, 1, {x, y}));
  LND_ASSERT_OK(writer->Write(*batch));
  LND_ASSERT_OK_AND_ASSIGN(WrittenFile written, writer->Finish());
  EXPECT_THAT(written.column_field_ids, ::testing::ElementsAre(9, 2));
  EXPECT_EQ(written.num_columns, 2u);
  // "item" has id 9 (18 09) and parent 5 (20 05) in the FileDescriptor
  LND_ASSERT_OK_AND_ASSIGN(auto file, fs->OpenForRead("f.lance"));
  LND_ASSERT_OK_AND_ASSIGN(auto bytes, io::ReadWholeFile(*file));
  const std::string s(bytes->begin(), bytes->end());
  EXPECT_NE(s.find(std::string("\x12\x04item\x18\x09\x20\x05", 10)), std::string::npos);
}

// One Write() of a batch much larger than page_bytes is split into pages of about page_bytes per
// leaf column (whole rows each), and the file reads back equal; a row larger than a page gets a
// page of its own.
TEST(FileWriterTest, LargeWriteIsSplitIntoPagesOfAboutPageBytes) {
  const int64_t rows = 2000;
  auto type = a::List(a::Int64());
  auto lists = lance_nd::testing::RandomArray(type, rows, 0.0, 3, {false, 64, 8});
  auto ints = lance_nd::testing::RandomArray(a::Int32(), rows, 0.1, 4);
  auto schema = a::MakeSchema({a::MakeField("l", type), a::MakeField("i", a::Int32())});
  WriterOptions options;
  options.page_bytes = 64 * 1024;
  LND_ASSERT_OK_AND_ASSIGN(auto bytes, WriteToMemory(schema, {lists, ints}, options));
  auto fs = io::MakeMemoryFileSystem();
  {
    LND_ASSERT_OK_AND_ASSIGN(auto out, fs->Create("f.lance"));
    LND_ASSERT_OK(out->Write(std::span<const std::uint8_t>(bytes.data(), bytes.size())));
    LND_ASSERT_OK(out->Close());
  }
  LND_ASSERT_OK_AND_ASSIGN(auto file, fs->OpenForRead("f.lance"));
  LND_ASSERT_OK_AND_ASSIGN(FileReader reader, FileReader::Open(file));
  const FileDescription d = reader.Describe();
  ASSERT_EQ(d.columns.size(), 2u);
  // ~2000 * 32 items * 8 B = 512 KB of list items: about 8 pages of 64 KB.
  const auto& item_pages = d.columns[0].pages;
  EXPECT_GE(item_pages.size(), 5u);
  std::uint64_t next = 0;
  for (const auto& p : item_pages) {
    EXPECT_EQ(p.first_row, next);
    next += p.num_rows;
    EXPECT_LE(p.num_bytes, 2 * options.page_bytes) << p.first_row;
  }
  EXPECT_EQ(next, static_cast<std::uint64_t>(rows));
  LND_ASSERT_OK_AND_ASSIGN(auto all, reader.ReadAll());
  EXPECT_TRUE(a::ArrayEquals(*lists, *all->column(0), false));
  EXPECT_TRUE(a::ArrayEquals(*ints, *all->column(1), false));

  // Rows larger than a page: one page per row.
  options.page_bytes = 16;
  auto three = lance_nd::testing::RandomArray(type, 3, 0.0, 5, {false, 64, 8});
  LND_ASSERT_OK_AND_ASSIGN(auto small, a::Slice(three, 0, 3));
  auto schema1 = a::MakeSchema({a::MakeField("l", type)});
  LND_ASSERT_OK_AND_ASSIGN(auto bytes1, WriteToMemory(schema1, {small}, options));
  {
    LND_ASSERT_OK_AND_ASSIGN(auto out, fs->Create("g.lance"));
    LND_ASSERT_OK(out->Write(std::span<const std::uint8_t>(bytes1.data(), bytes1.size())));
    LND_ASSERT_OK(out->Close());
  }
  LND_ASSERT_OK_AND_ASSIGN(auto file1, fs->OpenForRead("g.lance"));
  LND_ASSERT_OK_AND_ASSIGN(FileReader reader1, FileReader::Open(file1));
  EXPECT_EQ(reader1.Describe().columns[0].pages.size(), 3u);
  LND_ASSERT_OK_AND_ASSIGN(auto all1, reader1.ReadAll());
  EXPECT_TRUE(a::ArrayEquals(*small, *all1->column(0), false));
}

// Writes `batches` (of `schema`) with `options` to an in-memory file: the bytes, or the first
// error of Open / Write / Finish.
Result<std::vector<std::uint8_t>> WriteBatches(a::SchemaPtr schema,
                                               const std::vector<a::RecordBatchPtr>& batches,
                                               WriterOptions options) {
  auto fs = io::MakeMemoryFileSystem();
  LND_ASSIGN_OR_RETURN(auto out, fs->Create("f.lance"));
  LND_ASSIGN_OR_RETURN(auto writer, FileWriter::Open(std::move(out), schema, options));
  for (const auto& b : batches) LND_RETURN_NOT_OK(writer->Write(*b));
  LND_RETURN_NOT_OK(writer->Finish().status());
  LND_ASSIGN_OR_RETURN(auto file, fs->OpenForRead("f.lance"));
  LND_ASSIGN_OR_RETURN(auto bytes, io::ReadWholeFile(*file));
  return *bytes;
}

// Pages encoded on pool workers are written in the order they were cut: the file is the same
// byte for byte whatever the number of pages in flight (zstd, bss, strings, many small pages
// of three columns over several Write calls).
TEST(FileWriterTest, PagesInFlightDoNotChangeTheBytes) {
  auto values_field = a::MakeField("item", a::Float32());
  a::Metadata zstd;
  zstd.Set("lance-encoding:compression", "zstd");
  values_field = values_field->WithMetadata(zstd);
  auto grid_type = a::List(values_field);
  auto schema = a::MakeSchema({a::MakeField("grid", grid_type), a::MakeField("s", a::Utf8()),
                               a::MakeField("i", a::Int32())});
  std::vector<a::RecordBatchPtr> batches;
  for (int b = 0; b < 4; ++b) {
    const int64_t rows = 300 + 50 * b;
    auto grid = lance_nd::testing::RandomArray(grid_type, rows, 0.05, 10 + b, {false, 64, 8});
    auto s = lance_nd::testing::RandomArray(a::Utf8(), rows, 0.1, 20 + b);
    auto i = lance_nd::testing::RandomArray(a::Int32(), rows, 0.1, 30 + b);
    LND_ASSERT_OK_AND_ASSIGN(auto batch, a::RecordBatch::Make(schema, rows, {grid, s, i}));
    batches.push_back(batch);
  }
  WriterOptions options;
  options.page_bytes = 8 * 1024;
  options.pages_in_flight = 0;
  LND_ASSERT_OK_AND_ASSIGN(auto inline_bytes, WriteBatches(schema, batches, options));
  for (std::uint32_t in_flight : {1u, 2u, 5u}) {
    options.pages_in_flight = in_flight;
    LND_ASSERT_OK_AND_ASSIGN(auto bytes, WriteBatches(schema, batches, options));
    EXPECT_EQ(bytes, inline_bytes) << in_flight << " pages in flight";
  }
  // and the file holds many pages per column, read back as written
  auto fs = io::MakeMemoryFileSystem();
  {
    LND_ASSERT_OK_AND_ASSIGN(auto out, fs->Create("f.lance"));
    LND_ASSERT_OK(out->Write(std::span<const std::uint8_t>(inline_bytes)));
    LND_ASSERT_OK(out->Close());
  }
  LND_ASSERT_OK_AND_ASSIGN(auto file, fs->OpenForRead("f.lance"));
  LND_ASSERT_OK_AND_ASSIGN(FileReader reader, FileReader::Open(file));
  EXPECT_GE(reader.Describe().columns[0].pages.size(), 10u);
  LND_ASSERT_OK_AND_ASSIGN(auto all, reader.ReadAll());
  int64_t row = 0;
  for (const auto& b : batches) {
    for (int c = 0; c < 3; ++c) {
      LND_ASSERT_OK_AND_ASSIGN(auto part, a::Slice(all->column(c), row, b->num_rows()));
      EXPECT_TRUE(a::ArrayEquals(*b->column(c), *part, false)) << "column " << c << " row " << row;
    }
    row += b->num_rows();
  }
}

// An error found while a page is encoded in the background is returned by the next call that
// waits for that page, names the column and its rows, and sticks: nothing else is written.
TEST(FileWriterTest, BackgroundPageErrorNamesColumnAndRowsAndSticks) {
  auto empty = a::Struct({});
  auto schema = a::MakeSchema({a::MakeField("i", a::Int32()), a::MakeField("e", empty)});
  auto i = t::Prim<std::int32_t>(a::Int32(), {1, 2, 3});
  auto e = t::Struct(empty, {true, false, true}, {});
  LND_ASSERT_OK_AND_ASSIGN(auto batch, a::RecordBatch::Make(schema, 3, {i, e}));
  for (std::uint32_t in_flight : {0u, 2u}) {
    WriterOptions options;
    options.pages_in_flight = in_flight;
    auto fs = io::MakeMemoryFileSystem();
    LND_ASSERT_OK_AND_ASSIGN(auto out, fs->Create("f.lance"));
    LND_ASSERT_OK_AND_ASSIGN(auto writer, FileWriter::Open(std::move(out), schema, options));
    LND_ASSERT_OK(writer->Write(*batch));  // under a page: nothing is encoded yet
    const char* want = "writing column 1 ('e'), page of rows 0..3: an empty struct with nulls";
    LND_EXPECT_ERROR(writer->Finish().status(), StatusCode::kNotImplemented, want);
    LND_EXPECT_ERROR(writer->Write(*batch), StatusCode::kNotImplemented, want);
    LND_EXPECT_ERROR(writer->Finish().status(), StatusCode::kNotImplemented, want);
  }
}

}  // namespace
}  // namespace lance_nd::file

namespace lance_nd::file {
namespace {

// The layouts of the pages of a struct column's leaf, written with `top_metadata` on the struct.
std::vector<std::string> LeafPageLayouts(const a::Metadata& top_metadata) {
  auto type = a::Struct({a::MakeField("a", a::Int32(), false)});
  auto schema = a::MakeSchema({a::MakeField("s", type, true, top_metadata)});
  a::StructBuilder b(type);
  for (int i = 0; i < 100; ++i) {
    b.Append(true);
    static_cast<a::PrimitiveBuilder<std::int32_t>*>(b.child_builder(0))->Append(i * 7);
  }
  auto fs = io::MakeMemoryFileSystem();
  auto out = fs->Create("f.lance");
  auto writer = FileWriter::Open(std::move(*out), schema);
  EXPECT_TRUE(writer.ok()) << writer.status().ToString();
  auto batch = a::RecordBatch::Make(schema, 100, {*b.Finish()});
  EXPECT_TRUE((*writer)->Write(**batch).ok());
  EXPECT_TRUE((*writer)->Finish().ok());
  auto reader = FileReader::Open(*fs->OpenForRead("f.lance"));
  EXPECT_TRUE(reader.ok()) << reader.status().ToString();
  std::vector<std::string> layouts;
  for (const auto& c : reader->Describe().columns) {
    for (const auto& p : c.pages) layouts.push_back(p.layout);
  }
  return layouts;
}

// Lance 12 reads the structural encoding of a nested column from its top-level field.
TEST(FileWriterTest, StructuralEncodingOfTheTopLevelFieldReachesItsLeaves) {
  for (const auto& l :
       LeafPageLayouts(a::Metadata({{"lance-encoding:structural-encoding", "fullzip"}}))) {
    EXPECT_EQ(l.rfind("full-zip", 0), 0u) << l;
  }
  for (const auto& l : LeafPageLayouts({}))
    EXPECT_EQ(l.rfind("full-zip", 0), std::string::npos) << l;
}

}  // namespace
}  // namespace lance_nd::file

namespace lance_nd::file {
namespace {

// Full-zip pages with a null list below a nullable struct are misread by Lance 12: a requested
// full-zip falls back to mini-block there (and only there).
TEST(FileWriterTest, RequestedFullZipFallsBackWhereLance12MisreadsIt) {
  for (bool null_lists : {true, false}) {
    SCOPED_TRACE(null_lists);
    auto list = a::List(a::MakeField("item", a::Int32(), true));
    auto type = a::Struct({a::MakeField("l", list, true)});
    a::Metadata md({{"lance-encoding:structural-encoding", "fullzip"}});
    auto schema = a::MakeSchema({a::MakeField("s", type, true, md)});
    a::StructBuilder b(type);
    auto* lb = static_cast<a::ListBuilder*>(b.child_builder(0));
    for (int i = 0; i < 60; ++i) {
      if (i % 7 == 3) {
        b.AppendNull();
        continue;
      }
      b.Append(true);
      if (null_lists && i % 5 == 1) {
        lb->AppendNull();
        continue;
      }
      lb->Append(true);
      for (int k = 0; k < i % 4 + 1; ++k) {
        static_cast<a::PrimitiveBuilder<std::int32_t>*>(lb->value_builder())->Append(i + k);
      }
    }
    LND_ASSERT_OK_AND_ASSIGN(auto column, b.Finish());
    auto fs = io::MakeMemoryFileSystem();
    LND_ASSERT_OK_AND_ASSIGN(auto out, fs->Create("f.lance"));
    LND_ASSERT_OK_AND_ASSIGN(auto writer, FileWriter::Open(std::move(out), schema));
    LND_ASSERT_OK_AND_ASSIGN(auto batch, a::RecordBatch::Make(schema, 60, {column}));
    LND_ASSERT_OK(writer->Write(*batch));
    LND_ASSERT_OK(writer->Finish().status());
    LND_ASSERT_OK_AND_ASSIGN(auto file, fs->OpenForRead("f.lance"));
    LND_ASSERT_OK_AND_ASSIGN(auto reader, FileReader::Open(file));
    for (const auto& c : reader.Describe().columns) {
      for (const auto& p : c.pages) {
        EXPECT_EQ(p.layout.rfind(null_lists ? "mini-block" : "full-zip", 0), 0u) << p.layout;
      }
    }
    LND_ASSERT_OK_AND_ASSIGN(auto back, reader.ReadAll());
    EXPECT_TRUE(a::ArrayEquals(*back->column(0), *column));
  }
}

}  // namespace
}  // namespace lance_nd::file
