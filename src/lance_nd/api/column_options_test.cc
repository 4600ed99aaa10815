// Column options: the stored defaults and the lance-encoding:* field metadata a write adds, the
// check of defaults on append, and the data files' pages using the chosen encodings.
#include <gtest/gtest.h>

#include "lance_nd/api/api_test_util.h"
#include "lance_nd/api/column_options.h"
#include "lance_nd/api/table.h"
#include "lance_nd/file/reader.h"
#include "lance_nd/nd/format.h"
#include "lance_nd/testing/status_matchers.h"

namespace lance_nd {
namespace {

using api_testing::MemoryTable;
using nd::testing::Rng;
using nd::testing::Uniform;

ColumnOptions RandomOptions(Rng& rng) {
  ColumnOptions o;
  if (nd::testing::Chance(rng, 0.5)) o.compression = static_cast<Compression>(Uniform(rng, 0, 3));
  if (nd::testing::Chance(rng, 0.5)) o.compression_level = static_cast<int>(Uniform(rng, -5, 22));
  if (nd::testing::Chance(rng, 0.5)) {
    o.byte_stream_split = static_cast<ByteStreamSplit>(Uniform(rng, 0, 2));
  }
  if (nd::testing::Chance(rng, 0.5)) o.rle_threshold = static_cast<double>(Uniform(rng, 0, 8)) / 8;
  if (nd::testing::Chance(rng, 0.5)) {
    o.structural_encoding = static_cast<StructuralEncoding>(Uniform(rng, 0, 1));
  }
  return o;
}

TEST(ColumnOptions, StoredDefaultsRoundTrip) {
  Rng rng(1);
  for (int i = 0; i < 200; ++i) {
    const ColumnOptions o = RandomOptions(rng);
    const array::Metadata md = internal::ColumnDefaultsMetadata(o);
    for (const auto& [k, v] : md.entries()) {
      EXPECT_TRUE(k.starts_with("lance_nd.column_defaults.lance-encoding:")) << k;
    }
    LND_ASSERT_OK_AND_ASSIGN(auto back, internal::StoredColumnDefaults(md));
    if (internal::IsEmpty(o)) {
      EXPECT_FALSE(back.has_value());
    } else {
      EXPECT_EQ(back, o);
    }
  }
  array::Metadata bad({{"lance_nd.column_defaults.lance-encoding:compression", "brotli"}});
  LND_EXPECT_ERROR(internal::StoredColumnDefaults(bad), StatusCode::kInvalidArgument, "brotli");
}

// Every field without children under `f` (with its dotted path).
void Leaves(const array::FieldPtr& f, const std::string& path,
            std::vector<std::pair<std::string, array::FieldPtr>>& out) {
  const std::string p = path.empty() ? f->name() : path + "." + f->name();
  if (f->type()->children().empty()) {
    out.emplace_back(p, f);
    return;
  }
  for (const auto& c : f->type()->children()) Leaves(c, p, out);
}

TEST(ColumnOptions, WrittenAsFieldMetadataOfNewColumns) {
  WriteOptions o;
  o.stats = true;
  ColumnOptions defaults;
  defaults.compression = Compression::kZstd;
  defaults.compression_level = 3;
  o.column_defaults = defaults;
  ColumnOptions temp;
  temp.structural_encoding = StructuralEncoding::kFullZip;
  temp.byte_stream_split = ByteStreamSplit::kOn;
  o.column_options["temp"] = temp;
  auto row = nd::testing::Unwrap(
      nd::NdRecordBatch::FromArrays({{"temp", nd::testing::Nd(nd::testing::F32({1, 2}), {{"x", 2}},
                                                              nd::Attributes().Set("units", "K"))},
                                     {"id", nd::testing::Nd(nd::testing::I32({4}), {})}}));
  auto loc = MemoryTable();
  LND_ASSERT_OK_AND_ASSIGN(Table t, Table::Write(loc, std::vector{row}, o));
  const auto& md = t.schema()->metadata();
  EXPECT_EQ(md.Get("lance_nd.column_defaults.lance-encoding:compression"),
            std::optional<std::string_view>("zstd"));
  EXPECT_EQ(md.Get("lance_nd.column_defaults.lance-encoding:compression-level"),
            std::optional<std::string_view>("3"));
  for (const char* column : {"temp", "__stats__:temp", "id", "__stats__:id"}) {
    SCOPED_TRACE(column);
    const auto field = t.schema()->GetField(column);
    ASSERT_NE(field, nullptr);
    const bool is_temp = std::string_view(column).ends_with("temp");
    EXPECT_EQ(field->metadata().Get("lance-encoding:structural-encoding"),
              is_temp ? std::optional<std::string_view>("fullzip") : std::nullopt);
    std::vector<std::pair<std::string, array::FieldPtr>> leaves;
    Leaves(field, "", leaves);
    EXPECT_GE(leaves.size(), 2u);
    for (const auto& [path, leaf] : leaves) {
      SCOPED_TRACE(path);
      EXPECT_EQ(leaf->metadata().Get("lance-encoding:compression"),
                std::optional<std::string_view>("zstd"));
      EXPECT_EQ(leaf->metadata().Get("lance-encoding:compression-level"),
                std::optional<std::string_view>("3"));
      EXPECT_EQ(leaf->metadata().Get("lance-encoding:bss"),
                is_temp ? std::optional<std::string_view>("on") : std::nullopt);
    }
  }
  // The decoded rows carry no encoding keys.
  LND_ASSERT_OK_AND_ASSIGN(auto got, api_testing::ReadRows(t.dataset()));
  api_testing::ExpectSameRows({row}, got);

  // Appends: the defaults must match the stored ones (or be unset).
  ColumnOptions other = defaults;
  other.compression = Compression::kLz4;
  WriteOptions wrong;
  wrong.column_defaults = other;
  LND_EXPECT_ERROR(t.Append(std::vector{row}, wrong), StatusCode::kInvalidArgument,
                   "column_defaults differ");
  WriteOptions same;
  same.column_defaults = defaults;
  LND_ASSERT_OK(t.Append(std::vector{row}, same));
  // A column added later gets the stored defaults.
  auto later = nd::testing::Unwrap(nd::NdRecordBatch::FromArrays(
      {{"late", nd::testing::Nd(nd::testing::F64({1}), {{"x", 1}})}}));
  LND_ASSERT_OK(t.Append(std::vector{later}));
  std::vector<std::pair<std::string, array::FieldPtr>> leaves;
  Leaves(t.schema()->GetField("late"), "", leaves);
  for (const auto& [path, leaf] : leaves) {
    EXPECT_EQ(leaf->metadata().Get("lance-encoding:compression"),
              std::optional<std::string_view>("zstd"))
        << path;
  }
}

// The data file's pages of each column: its layout descriptions.
std::map<std::string, std::vector<std::string>> PageLayouts(const Table& t) {
  std::map<std::string, std::vector<std::string>> out;
  const auto& loc = t.location();
  for (const auto& frag : t.dataset().fragments()) {
    for (const auto& file : frag.files) {
      auto opened = loc.fs().OpenForRead(loc.Path(table::kDataDir, file.path));
      EXPECT_TRUE(opened.ok());
      auto reader = file::FileReader::Open(*opened);
      EXPECT_TRUE(reader.ok()) << reader.status().ToString();
      for (const auto& c : reader->Describe().columns) {
        for (const auto& p : c.pages) out[c.path].push_back(p.layout);
      }
    }
  }
  return out;
}

TEST(ColumnOptions, DataFilePagesUseTheChosenEncodings) {
  std::vector<std::optional<double>> values;
  for (int i = 0; i < 4000; ++i) values.emplace_back(static_cast<double>(i % 97) * 0.5);
  auto row = nd::testing::Unwrap(nd::NdRecordBatch::FromArrays(
      {{"z", nd::testing::Nd(nd::testing::F64(values), {{"x", 4000}})},
       {"l", nd::testing::Nd(nd::testing::F64(values), {{"x", 4000}})},
       {"f", nd::testing::Nd(nd::testing::F64(values), {{"x", 4000}})}}));
  WriteOptions o;
  o.column_options["z"].compression = Compression::kZstd;
  o.column_options["l"].compression = Compression::kLz4;
  o.column_options["f"].structural_encoding = StructuralEncoding::kFullZip;
  LND_ASSERT_OK_AND_ASSIGN(Table t, Table::Write(MemoryTable(), std::vector{row}, o));
  auto layouts = PageLayouts(t);
  auto all_contain = [&](const std::string& column, const std::string& what) {
    ASSERT_FALSE(layouts[column].empty()) << column;
    for (const auto& l : layouts[column]) EXPECT_NE(l.find(what), std::string::npos) << l;
  };
  all_contain("z.values.item", "zstd");
  all_contain("l.values.item", "lz4");
  all_contain("f.values.item", "full-zip");
}

TEST(ColumnOptions, OnlyColumnsAWriteAddsGetItsOptions) {
  auto row = [](const char* var) {
    return nd::testing::Unwrap(
        nd::NdRecordBatch::FromArrays({{var, nd::testing::Nd(nd::testing::F32({1}), {{"x", 1}})}}));
  };
  LND_ASSERT_OK_AND_ASSIGN(Table t, Table::Write(MemoryTable(), std::vector{row("old")}));
  WriteOptions o;
  o.column_options["old"].compression = Compression::kZstd;
  o.column_options["new"].compression = Compression::kLz4;
  LND_ASSERT_OK(t.Append(std::vector{row("old"), row("new")}, o));
  std::vector<std::pair<std::string, array::FieldPtr>> leaves;
  Leaves(t.schema()->GetField("old"), "", leaves);
  for (const auto& [path, leaf] : leaves) {
    EXPECT_FALSE(leaf->metadata().Contains("lance-encoding:compression")) << path;
  }
  leaves.clear();
  Leaves(t.schema()->GetField("new"), "", leaves);
  for (const auto& [path, leaf] : leaves) {
    EXPECT_EQ(leaf->metadata().Get("lance-encoding:compression"),
              std::optional<std::string_view>("lz4"))
        << path;
  }
  WriteOptions bad;
  bad.column_options["x"].rle_threshold = 1.5;
  LND_EXPECT_ERROR(t.Append(std::vector{row("x")}, bad), StatusCode::kInvalidArgument,
                   "column_options['x']: rle_threshold");
}

}  // namespace
}  // namespace lance_nd
