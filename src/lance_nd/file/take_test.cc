// FileReader::Take reads only the chunks / rows it needs and returns exactly what ReadAll
// returns for those rows.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "lance_nd/array/builder.h"
#include "lance_nd/array/type.h"
#include "lance_nd/file/reader.h"
#include "lance_nd/file/writer.h"
#include "lance_nd/io/file_system.h"
#include "lance_nd/testing/random_arrays.h"
#include "lance_nd/testing/status_matchers.h"

namespace lance_nd::file {
namespace {

namespace a = ::lance_nd::array;

// Counts the bytes and calls of every ReadAt.
class CountingFile : public io::RandomAccessFile {
 public:
  explicit CountingFile(std::shared_ptr<io::RandomAccessFile> base) : base_(std::move(base)) {}
  std::uint64_t Size() const override { return base_->Size(); }
  Result<io::Bytes> ReadAt(std::uint64_t offset, std::uint64_t length) const override {
    bytes_ += length;
    calls_ += 1;
    return base_->ReadAt(offset, length);
  }
  const std::string& path() const override { return base_->path(); }
  std::uint64_t bytes() const { return bytes_; }
  void Reset() {
    bytes_ = 0;
    calls_ = 0;
  }

 private:
  std::shared_ptr<io::RandomAccessFile> base_;
  mutable std::atomic<std::uint64_t> bytes_{0};
  mutable std::atomic<std::uint64_t> calls_{0};
};

struct Written {
  std::shared_ptr<io::FileSystem> fs;
  std::shared_ptr<CountingFile> file;
};

Result<Written> Write(const a::SchemaPtr& schema, const std::vector<a::ArrayPtr>& columns,
                      WriterOptions options, int num_batches) {
  const int64_t rows = columns[0]->length;
  LND_ASSIGN_OR_RETURN(auto whole, a::RecordBatch::Make(schema, rows, columns));
  Written w;
  w.fs = io::MakeMemoryFileSystem();
  LND_ASSIGN_OR_RETURN(auto out, w.fs->Create("t.lance"));
  LND_ASSIGN_OR_RETURN(auto writer, FileWriter::Open(std::move(out), schema, options));
  const int64_t per = std::max<int64_t>(1, (rows + num_batches - 1) / num_batches);
  for (int64_t start = 0; start < rows; start += per) {
    LND_ASSIGN_OR_RETURN(auto part, whole->Slice(start, std::min(per, rows - start)));
    LND_RETURN_NOT_OK(writer->Write(*part));
  }
  LND_RETURN_NOT_OK(writer->Finish().status());
  LND_ASSIGN_OR_RETURN(auto f, w.fs->OpenForRead("t.lance"));
  w.file = std::make_shared<CountingFile>(f);
  return w;
}

a::FieldPtr WithCompression(a::FieldPtr field, const char* compression) {
  if (compression == nullptr) return field;
  a::Metadata md = field->metadata();
  md.Set("lance-encoding:compression", compression);
  return field->WithMetadata(md);
}

// Rows `idx` of `batch`, column by column.
void ExpectRows(const a::RecordBatch& all, const std::vector<std::uint64_t>& idx,
                const a::RecordBatch& taken, const std::string& what) {
  ASSERT_EQ(taken.num_rows(), static_cast<int64_t>(idx.size())) << what;
  ASSERT_EQ(taken.num_columns(), all.num_columns()) << what;
  for (int c = 0; c < all.num_columns(); ++c) {
    std::vector<a::ArrayPtr> pieces;
    for (std::uint64_t i : idx) {
      LND_ASSERT_OK_AND_ASSIGN(auto s, a::Slice(all.column(c), static_cast<int64_t>(i), 1));
      pieces.push_back(s);
    }
    if (pieces.empty()) {
      EXPECT_EQ(taken.column(c)->length, 0);
      continue;
    }
    LND_ASSERT_OK_AND_ASSIGN(auto want, a::Concatenate(pieces));
    EXPECT_TRUE(a::ArrayEquals(*want, *taken.column(c), false))
        << what << " column " << all.schema()->field(c)->ToString() << "\nwant "
        << a::PrettyPrint(*want).substr(0, 400) << "\ngot "
        << a::PrettyPrint(*taken.column(c)).substr(0, 400);
  }
}

TEST(FileTake, ReadsOnlyTheChunksItNeeds) {
  // ~48 MB of incompressible doubles, plus lists and full-zip binary values.
  const int64_t rows = 6'000'000;
  a::PrimitiveBuilder<double> fb(a::Float64());
  testing::Rng rng(7);
  std::vector<double> values(static_cast<std::size_t>(rows));
  for (double& d : values) {
    const std::uint64_t bits = rng.Next();
    std::memcpy(&d, &bits, 8);
  }
  fb.AppendValues(values.data(), rows);
  LND_ASSERT_OK_AND_ASSIGN(auto doubles, fb.Finish());
  auto schema = a::MakeSchema({a::MakeField("x", a::Float64())});
  for (FileVersion v : {FileVersion::kV2_1, FileVersion::kV2_2}) {
    WriterOptions options;
    options.version = v;
    LND_ASSERT_OK_AND_ASSIGN(Written w, Write(schema, {doubles}, options, 4));
    LND_ASSERT_OK_AND_ASSIGN(FileReader reader, FileReader::Open(w.file));
    const std::vector<std::uint64_t> idx{5'999'999, 17, 3'000'000, 17, 4'123'457};
    w.file->Reset();
    LND_ASSERT_OK_AND_ASSIGN(auto taken, reader.Take(idx));
    const std::uint64_t bytes = w.file->bytes();
    const std::uint64_t size = w.file->Size();
    std::printf("[take] version %s: Take of %zu rows read %llu of %llu bytes (%.4f%%)\n",
                reader.version().ToString().c_str(), idx.size(),
                static_cast<unsigned long long>(bytes), static_cast<unsigned long long>(size),
                100.0 * static_cast<double>(bytes) / static_cast<double>(size));
    EXPECT_LT(bytes * 20, size);               // < 5 %
    EXPECT_LT(bytes, std::uint64_t{1} << 20);  // a few chunks, not pages
    auto all = a::RecordBatch::Make(schema, rows, {doubles});
    ASSERT_TRUE(all.ok());
    ExpectRows(**all, idx, *taken, "doubles " + reader.version().ToString());
  }
}

TEST(FileTake, ReadsOnlyNeededListChunksAndFullZipRows) {
  const int64_t rows = 200'000;
  auto list_type = a::List(a::Float32());
  auto blob_type = a::Binary();
  auto lists = testing::RandomArray(list_type, rows, 0.1, 11, {false, 40, 12});
  auto blobs = testing::RandomArray(blob_type, 20'000, 0.1, 12, {false, 4, 600});
  for (FileVersion v : {FileVersion::kV2_1, FileVersion::kV2_2}) {
    WriterOptions options;
    options.version = v;
    for (int which = 0; which < 2; ++which) {
      auto arr = which == 0 ? lists : blobs;
      auto schema = a::MakeSchema({a::MakeField("c", arr->type)});
      LND_ASSERT_OK_AND_ASSIGN(Written w, Write(schema, {arr}, options, 3));
      LND_ASSERT_OK_AND_ASSIGN(FileReader reader, FileReader::Open(w.file));
      LND_ASSERT_OK_AND_ASSIGN(auto all, reader.ReadAll());
      const std::uint64_t n = static_cast<std::uint64_t>(arr->length);
      const std::vector<std::uint64_t> idx{n - 1, 0, n / 2, n / 2 + 1, 5, n / 3};
      LND_ASSERT_OK_AND_ASSIGN(FileReader fresh, FileReader::Open(w.file));
      w.file->Reset();
      LND_ASSERT_OK_AND_ASSIGN(auto taken, fresh.Take(idx));
      const std::uint64_t bytes = w.file->bytes();
      std::printf("[take] %s version %s: Take of %zu rows read %llu of %llu bytes (%.3f%%)\n",
                  which == 0 ? "list<float>" : "binary(full-zip)",
                  reader.version().ToString().c_str(), idx.size(),
                  static_cast<unsigned long long>(bytes),
                  static_cast<unsigned long long>(w.file->Size()),
                  100.0 * static_cast<double>(bytes) / static_cast<double>(w.file->Size()));
      EXPECT_LT(bytes * 20, w.file->Size()) << (which == 0 ? "lists" : "full-zip");
      ExpectRows(*all, idx, *taken, which == 0 ? "lists" : "full-zip");
    }
  }
}

// An nd-like column (struct {values: list<float32>, dim_sizes: list<uint32>}) with large rows
// (16,200 values each, so every row spans several mini-block chunks), written by ONE Write call:
// Take must still read and decode only the chunks holding the taken rows.
TEST(FileTake, LargeListRowsInStructReadOnlyTheirChunks) {
  const int64_t rows = 120;
  const int64_t per_row = 16'200;
  auto values_type = a::List(a::Float32());
  auto sizes_type = a::List(a::UInt32());
  auto type =
      a::Struct({a::MakeField("values", values_type), a::MakeField("dim_sizes", sizes_type)});
  a::StructBuilder sb(type);
  auto* vb = static_cast<a::ListBuilder*>(sb.child_builder(0));
  auto* vvb = static_cast<a::PrimitiveBuilder<float>*>(vb->value_builder());
  auto* db = static_cast<a::ListBuilder*>(sb.child_builder(1));
  auto* dvb = static_cast<a::PrimitiveBuilder<std::uint32_t>*>(db->value_builder());
  testing::Rng rng(5);
  std::vector<float> row(static_cast<std::size_t>(per_row));
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t i = 0; i < per_row; ++i) {
      // Smooth field plus quantised noise (like the benchmark's grids).
      const double v = 20.0 + 0.001 * static_cast<double>(i % 180) + static_cast<double>(r) +
                       0.01 * static_cast<double>(rng.Below(50));
      row[static_cast<std::size_t>(i)] = static_cast<float>(v);
    }
    sb.Append();
    vb->Append();
    vvb->AppendValues(row.data(), per_row);
    db->Append();
    for (std::uint32_t d : {1u, 90u, 180u}) dvb->Append(d);
  }
  LND_ASSERT_OK_AND_ASSIGN(auto column, sb.Finish());
  auto schema = a::MakeSchema({a::MakeField("sst", type)});
  for (FileVersion v : {FileVersion::kV2_1, FileVersion::kV2_2}) {
    WriterOptions options;
    options.version = v;
    LND_ASSERT_OK_AND_ASSIGN(Written w, Write(schema, {column}, options, 1));
    LND_ASSERT_OK_AND_ASSIGN(FileReader reader, FileReader::Open(w.file));
    LND_ASSERT_OK_AND_ASSIGN(auto all, reader.ReadAll());
    const std::vector<std::uint64_t> idx{7, 119, 0, 64, 65, 30};
    LND_ASSERT_OK_AND_ASSIGN(FileReader fresh, FileReader::Open(w.file));
    w.file->Reset();
    LND_ASSERT_OK_AND_ASSIGN(auto taken, fresh.Take(idx));
    const std::uint64_t bytes = w.file->bytes();
    const std::uint64_t size = w.file->Size();
    std::printf("[take] nd-like version %s: Take of %zu of %lld rows read %llu of %llu bytes\n",
                reader.version().ToString().c_str(), idx.size(), static_cast<long long>(rows),
                static_cast<unsigned long long>(bytes), static_cast<unsigned long long>(size));
    // 6 of 120 rows is 5 % of the data; allow chunk rounding and metadata, not whole pages.
    EXPECT_LT(bytes * 8, size) << reader.version().ToString();
    ExpectRows(*all, idx, *taken, "nd-like " + reader.version().ToString());
  }
}

// Long lists (up to thousands of items per row, so rows span chunks and chunks hold several row
// ends) with nulls and empty rows, utf8 and int items: Take of random rows equals ReadAll's rows.
TEST(FileTake, LongListRowsAcrossChunksMatchReadAll) {
  const a::DataTypePtr types[] = {a::List(a::Int32()), a::List(a::Utf8()), a::List(a::Float64())};
  int checked = 0;
  for (std::uint64_t seed = 0; seed < 6; ++seed) {
    const a::DataTypePtr& type = types[seed % std::size(types)];
    testing::Rng rng(seed + 100);
    const int64_t rows = 300 + static_cast<int64_t>(rng.Below(300));
    auto arr = testing::RandomArray(type, rows, seed % 2 == 0 ? 0.1 : 0.0, seed,
                                    {false, seed < 3 ? 3000 : 600, 8});
    auto schema = a::MakeSchema({a::MakeField("c", type)});
    WriterOptions options;
    options.version = seed % 2 == 0 ? FileVersion::kV2_2 : FileVersion::kV2_1;
    LND_ASSERT_OK_AND_ASSIGN(Written w, Write(schema, {arr}, options, 1));
    LND_ASSERT_OK_AND_ASSIGN(FileReader reader, FileReader::Open(w.file));
    LND_ASSERT_OK_AND_ASSIGN(auto all, reader.ReadAll());
    for (int trial = 0; trial < 6; ++trial) {
      std::vector<std::uint64_t> idx;
      const std::uint64_t k = 1 + rng.Below(8);
      for (std::uint64_t i = 0; i < k; ++i) {
        if (!idx.empty() && rng.Chance(0.3)) {
          idx.push_back(
              std::min<std::uint64_t>(idx.back() + 1, static_cast<std::uint64_t>(rows - 1)));
        } else {
          idx.push_back(rng.Below(static_cast<std::uint64_t>(rows)));
        }
      }
      LND_ASSERT_OK_AND_ASSIGN(FileReader fresh, FileReader::Open(w.file));
      LND_ASSERT_OK_AND_ASSIGN(auto taken, fresh.Take(idx));
      ExpectRows(*all, idx, *taken, "seed " + std::to_string(seed) + " " + type->ToString());
      if (::testing::Test::HasFailure()) return;
      ++checked;
    }
  }
  EXPECT_EQ(checked, 36);
}

struct Setting {
  FileVersion version;
  const char* compression;
};

TEST(FileTake, RandomTypesMatchReadAll) {
  const Setting settings[] = {{FileVersion::kV2_1, nullptr},
                              {FileVersion::kV2_2, nullptr},
                              {FileVersion::kV2_1, "zstd"},
                              {FileVersion::kV2_2, "zstd"},
                              {FileVersion::kV2_2, "lz4"}};
  int checked = 0;
  for (std::uint64_t seed = 0; seed < 40; ++seed) {
    const Setting& s = settings[seed % std::size(settings)];
    testing::RandomTypeOptions to;
    to.float16 = false;
    std::vector<a::FieldPtr> fields;
    std::vector<a::ArrayPtr> columns;
    testing::Rng rng(seed);
    const int64_t rows = 500 + static_cast<int64_t>(rng.Below(4000));
    for (int c = 0; c < 3; ++c) {
      auto type = testing::RandomType(seed * 3 + static_cast<std::uint64_t>(c), 2, to);
      fields.push_back(WithCompression(a::MakeField("c" + std::to_string(c), type), s.compression));
      columns.push_back(
          testing::RandomArray(type, rows, 0.2, seed * 7 + static_cast<std::uint64_t>(c)));
    }
    auto schema = a::MakeSchema(fields);
    WriterOptions options;
    options.version = s.version;
    options.page_bytes = 1 + rng.Below(64 * 1024);  // several pages per column
    auto w = Write(schema, columns, options, 1 + static_cast<int>(rng.Below(3)));
    if (!w.ok() && w.status().code() == StatusCode::kNotImplemented) continue;  // type not writable
    ASSERT_TRUE(w.ok()) << w.status().ToString() << " " << schema->ToString();
    LND_ASSERT_OK_AND_ASSIGN(FileReader reader, FileReader::Open(w->file));
    LND_ASSERT_OK_AND_ASSIGN(auto all, reader.ReadAll());
    for (int trial = 0; trial < 4; ++trial) {
      std::vector<std::uint64_t> idx;
      const std::uint64_t k = trial == 3 ? static_cast<std::uint64_t>(rows) : 1 + rng.Below(12);
      for (std::uint64_t i = 0; i < k; ++i) {
        if (!idx.empty() && rng.Chance(0.3)) {
          idx.push_back(
              std::min<std::uint64_t>(idx.back() + 1, static_cast<std::uint64_t>(rows - 1)));
        } else {
          idx.push_back(rng.Below(static_cast<std::uint64_t>(rows)));
        }
      }
      LND_ASSERT_OK_AND_ASSIGN(FileReader fresh, FileReader::Open(w->file));  // empty page cache
      LND_ASSERT_OK_AND_ASSIGN(auto taken, fresh.Take(idx));
      ExpectRows(*all, idx, *taken, "seed " + std::to_string(seed) + " " + schema->ToString());
      if (::testing::Test::HasFailure()) return;
      ++checked;
    }
  }
  EXPECT_GT(checked, 100);
}

// Utf8 with nulls: `few` distinct short values (dictionary-encoded), else distinct, longer and
// repetitive values (FSST-compressed).
a::ArrayPtr Strings(int64_t rows, bool few, std::uint64_t seed) {
  a::BinaryBuilder b(a::Utf8());
  testing::Rng rng(seed);
  static const char* const kWords[] = {"sea", "surface", "temperature", "buoy", "argo", "ship"};
  for (int64_t r = 0; r < rows; ++r) {
    if (rng.Chance(0.05)) {
      b.AppendNull();
    } else if (few) {
      b.Append(std::string(kWords[rng.Below(6)]) + std::to_string(rng.Below(5)));
    } else {
      std::string v = "station-" + std::to_string(r);
      for (std::uint64_t w = rng.Below(5); w > 0; --w) v += std::string("/") + kWords[rng.Below(6)];
      b.Append(v);
    }
  }
  auto out = b.Finish();
  return out.ok() ? *out : nullptr;
}

// Takes from a fresh reader of `w` (no cached pages) of the rows drawn each with probability
// `share`, one take per share, compared with `all`, counted in `checked`. With `scramble`,
// duplicates or neighbours are added and the first and last rows swapped.
template <typename Batch>
void CheckSparseTakes(const Written& w, const Batch& all, int64_t rows,
                      std::initializer_list<double> shares, testing::Rng& rng, bool scramble,
                      int* checked) {
  for (const double share : shares) {
    std::vector<std::uint64_t> idx;
    for (std::uint64_t r = 0; r < static_cast<std::uint64_t>(rows); ++r) {
      if (rng.Chance(share)) idx.push_back(r);
      if (scramble && rng.Chance(share / 4)) idx.push_back(r);  // a duplicate or a neighbour
    }
    if (idx.empty()) idx.push_back(rng.Below(static_cast<std::uint64_t>(rows)));
    if (scramble && rng.Chance(0.5)) std::swap(idx.front(), idx.back());  // out of order
    LND_ASSERT_OK_AND_ASSIGN(FileReader fresh, FileReader::Open(w.file));
    LND_ASSERT_OK_AND_ASSIGN(auto taken, fresh.Take(idx));
    ExpectRows(all, idx, *taken,
               "share " + std::to_string(share) + " version " + fresh.version().ToString());
    if (::testing::Test::HasFailure()) return;
    ++*checked;
  }
}

// Takes of a few scattered rows per page (every mini-block chunk holding one or two) keep only
// those rows of each chunk: they must equal ReadAll's rows for dictionary and FSST strings,
// nullable lists, nested structs and booleans, in 2.1 and 2.2 files.
TEST(FileTake, SparseTakesOfEncodingsMatchReadAll) {
  const int64_t rows = 30'000;
  auto nested =
      a::Struct({a::MakeField("a", a::Int32()),
                 a::MakeField("s", a::Struct({a::MakeField("b", a::Utf8()),
                                              a::MakeField("l", a::List(a::Float32()))}))});
  std::vector<a::FieldPtr> fields{
      a::MakeField("dict", a::Utf8()),           a::MakeField("fsst", a::Utf8()),
      a::MakeField("list", a::List(a::Int32())), a::MakeField("nested", nested),
      a::MakeField("flag", a::Bool()),           a::MakeField("words", a::List(a::Utf8()))};
  std::vector<a::ArrayPtr> columns{
      Strings(rows, true, 1),
      Strings(rows, false, 2),
      testing::RandomArray(fields[2]->type(), rows, 0.1, 3, {false, 24, 8}),
      testing::RandomArray(nested, rows, 0.15, 4),
      testing::RandomArray(a::Bool(), rows, 0.1, 5),
      testing::RandomArray(fields[5]->type(), rows, 0.1, 6, {false, 5, 6})};
  auto schema = a::MakeSchema(fields);
  int checked = 0;
  for (FileVersion v : {FileVersion::kV2_1, FileVersion::kV2_2}) {
    WriterOptions options;
    options.version = v;
    LND_ASSERT_OK_AND_ASSIGN(Written w, Write(schema, columns, options, 2));
    LND_ASSERT_OK_AND_ASSIGN(FileReader reader, FileReader::Open(w.file));
    std::string layouts;
    for (const auto& col : reader.Describe().columns) {
      for (const auto& page : col.pages) layouts += page.layout + "\n";
    }
    EXPECT_THAT(layouts, ::testing::HasSubstr("fsst")) << reader.version().ToString();
    if (v == FileVersion::kV2_2) {
      EXPECT_THAT(layouts, ::testing::HasSubstr("dictionary"));
    }
    LND_ASSERT_OK_AND_ASSIGN(auto all, reader.ReadAll());
    testing::Rng rng(v == FileVersion::kV2_2 ? 42 : 41);
    CheckSparseTakes(w, *all, rows, {0.001, 0.01, 0.01, 0.03, 0.1, 0.3}, rng, true, &checked);
    if (::testing::Test::HasFailure()) return;
  }
  EXPECT_EQ(checked, 12);
}

// Rows whose lists span many blocks of level entries (a chunk row of an nd variable): kept rows
// are kept a block at a time, the others skipped; both must equal ReadAll's rows.
TEST(FileTake, SparseTakesOfLongListsMatchReadAll) {
  const int64_t rows = 3'000;
  std::vector<a::FieldPtr> fields{a::MakeField("long", a::List(a::Float32())),
                                  a::MakeField("nested", a::List(a::List(a::Int16())))};
  std::vector<a::ArrayPtr> columns{
      testing::RandomArray(fields[0]->type(), rows, 0.1, 7, {false, 400, 8}),
      testing::RandomArray(fields[1]->type(), rows, 0.1, 8, {false, 30, 8})};
  auto schema = a::MakeSchema(fields);
  int checked = 0;
  for (FileVersion v : {FileVersion::kV2_1, FileVersion::kV2_2}) {
    WriterOptions options;
    options.version = v;
    LND_ASSERT_OK_AND_ASSIGN(Written w, Write(schema, columns, options, 2));
    LND_ASSERT_OK_AND_ASSIGN(FileReader reader, FileReader::Open(w.file));
    LND_ASSERT_OK_AND_ASSIGN(auto all, reader.ReadAll());
    testing::Rng rng(v == FileVersion::kV2_2 ? 52 : 51);
    CheckSparseTakes(w, *all, rows, {0.003, 0.01, 0.05, 0.2, 0.4}, rng, false, &checked);
    if (::testing::Test::HasFailure()) return;
  }
  EXPECT_EQ(checked, 10);
}

TEST(FileTake, OutOfRangeIndexNamesIndexAndRowCount) {
  auto schema = a::MakeSchema({a::MakeField("x", a::Int32())});
  auto arr = testing::RandomArray(a::Int32(), 5, 0.0, 1);
  LND_ASSERT_OK_AND_ASSIGN(Written w, Write(schema, {arr}, {}, 1));
  LND_ASSERT_OK_AND_ASSIGN(FileReader reader, FileReader::Open(w.file));
  const std::vector<std::uint64_t> idx{1, 7};
  LND_EXPECT_ERROR(reader.Take(idx), StatusCode::kInvalidArgument, "row index 7");
  LND_EXPECT_ERROR(reader.Take(idx), StatusCode::kInvalidArgument, "5 rows");
  const std::vector<std::uint64_t> none;
  LND_ASSERT_OK_AND_ASSIGN(auto empty, reader.Take(none));
  EXPECT_EQ(empty->num_rows(), 0);
}

}  // namespace
}  // namespace lance_nd::file
