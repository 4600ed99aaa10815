// Generated files: the layout agrees with Describe(), and every read by Lance field ids returns
// exactly what the same read by the fields' paths returns.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "lance_nd/file/lance_schema.h"
#include "lance_nd/file/reader.h"
#include "lance_nd/file/writer.h"
#include "lance_nd/io/file_system.h"
#include "lance_nd/testing/random_arrays.h"
#include "lance_nd/testing/status_matchers.h"

namespace lance_nd::file {
namespace {

constexpr std::int64_t kRows = 300;

// A random type the writer and reader handle: leaves, lists, large lists, fixed-size lists of
// fixed-width leaves, and structs (more often, since projections prune them) of up to 3
// children, nested up to `depth` levels.
array::DataTypePtr NestedType(testing::Rng& rng, int depth) {
  const std::vector<array::DataTypePtr> leaves = testing::LeafTypes();
  if (depth <= 0 || rng.Below(3) == 0) return leaves[rng.Below(leaves.size())];
  auto child = [&](std::string name) {
    return array::MakeField(std::move(name), NestedType(rng, depth - 1), rng.Below(4) != 0);
  };
  switch (rng.Below(5)) {
    case 0:
      return array::List(child("item"));
    case 1:
      return array::LargeList(child("item"));
    case 2:
      return array::FixedSizeList(array::Float32(), static_cast<int32_t>(rng.Range(1, 4)));
    default: {
      std::vector<array::FieldPtr> kids;
      const std::int64_t n = rng.Range(1, 3);
      for (std::int64_t i = 0; i < n; ++i) kids.push_back(child("f" + std::to_string(i)));
      return array::Struct(std::move(kids));
    }
  }
}

// A random file of 1..4 top-level fields of random nested types, with shuffled field ids and
// small pages (so columns have several).
struct GeneratedFile {
  std::shared_ptr<io::FileSystem> fs;
  std::optional<FileReader> opened;
  const FileReader& reader() const { return *opened; }
};

Result<GeneratedFile> Generate(std::uint64_t seed) {
  testing::Rng rng(seed);
  std::vector<array::FieldPtr> fields;
  std::vector<array::ArrayPtr> columns;
  const std::int64_t n = rng.Range(1, 4);
  for (std::int64_t i = 0; i < n; ++i) {
    auto type = NestedType(rng, 3);
    fields.push_back(array::MakeField("c" + std::to_string(i), type));
    columns.push_back(
        testing::RandomArray(type, kRows, 0.1, seed * 8 + 100 + static_cast<std::uint64_t>(i)));
  }
  auto schema = array::MakeSchema(fields);
  LND_ASSIGN_OR_RETURN(auto batch, array::RecordBatch::Make(schema, kRows, columns));
  LND_ASSIGN_OR_RETURN(auto lance_fields, LanceFieldsFromSchema(*schema));
  WriterOptions options;
  options.page_bytes = 2048;
  for (std::size_t k = 0; k < lance_fields.size(); ++k) {
    options.field_ids.push_back(static_cast<std::int32_t>(5 + 3 * k));
  }
  for (std::size_t k = options.field_ids.size(); k > 1; --k) {
    std::swap(options.field_ids[k - 1], options.field_ids[rng.Below(k)]);
  }
  GeneratedFile g{io::MakeMemoryFileSystem(), std::nullopt};
  LND_ASSIGN_OR_RETURN(auto out, g.fs->Create("g.lance"));
  LND_ASSIGN_OR_RETURN(auto writer, FileWriter::Open(std::move(out), schema, options));
  LND_RETURN_NOT_OK(writer->Write(*batch));
  LND_RETURN_NOT_OK(writer->Finish().status());
  LND_ASSIGN_OR_RETURN(auto file, g.fs->OpenForRead("g.lance"));
  LND_ASSIGN_OR_RETURN(g.opened, FileReader::Open(file));
  return g;
}

// Fields a projection can choose: those with only structs above them.
std::vector<const FieldLayout*> Selectable(const FileLayout& layout) {
  std::map<std::int32_t, const FieldLayout*> by_id;
  for (const auto& f : layout.fields) by_id[f.id] = &f;
  std::vector<const FieldLayout*> out;
  for (const auto& f : layout.fields) {
    bool ok = true;
    for (std::int32_t p = f.parent_id; p >= 0; p = by_id.at(p)->parent_id) {
      ok = ok && by_id.at(p)->type->id() == array::TypeId::kStruct;
    }
    if (ok) out.push_back(&f);
  }
  return out;
}

TEST(FileLayoutTest, AgreesWithDescribeOnGeneratedFiles) {
  int with_several_pages = 0;
  for (std::uint64_t seed = 1; seed <= 25; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    LND_ASSERT_OK_AND_ASSIGN(GeneratedFile g, Generate(seed));
    const FileLayout& layout = g.reader().layout();
    const FileDescription d = g.reader().Describe();
    EXPECT_EQ(layout.version, d.version);
    EXPECT_EQ(layout.num_rows, d.num_rows);
    ASSERT_EQ(layout.fields.size(), d.fields.size());
    for (std::size_t i = 0; i < d.fields.size(); ++i) {
      const FieldLayout& f = layout.fields[i];
      EXPECT_EQ(f.id, d.fields[i].id);
      EXPECT_EQ(f.parent_id, d.fields[i].parent_id);
      EXPECT_EQ(f.path, d.fields[i].path);
      EXPECT_EQ(f.column, d.fields[i].column);
      EXPECT_TRUE(f.path == f.name || f.path.ends_with("." + f.name)) << f.path;
    }
    int top = 0;  // top-level fields have the schema's types
    for (const auto& f : layout.fields) {
      if (f.parent_id >= 0) continue;
      ASSERT_LT(top, g.reader().schema()->num_fields());
      EXPECT_TRUE(f.type->Equals(*g.reader().schema()->field(top++)->type())) << f.path;
    }
    EXPECT_EQ(top, g.reader().schema()->num_fields());
    ASSERT_EQ(layout.columns.size(), d.columns.size());
    bool several_pages = false;
    for (std::size_t c = 0; c < d.columns.size(); ++c) {
      EXPECT_EQ(layout.columns[c].field_id, d.columns[c].field_id);
      EXPECT_EQ(layout.columns[c].num_pages, d.columns[c].pages.size());
      std::uint64_t rows = 0;
      for (const auto& p : d.columns[c].pages) rows += p.num_rows;
      EXPECT_EQ(layout.columns[c].num_rows, rows);
      several_pages = several_pages || d.columns[c].pages.size() > 1;
    }
    with_several_pages += several_pages ? 1 : 0;
  }
  EXPECT_GT(with_several_pages, 15);
}

TEST(FileProjectionTest, FieldIdsReadLikeTheirPaths) {
  int struct_children = 0;  // chosen fields below a struct: pruned projections
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    LND_ASSERT_OK_AND_ASSIGN(GeneratedFile g, Generate(seed));
    const FileReader& reader = g.reader();
    const std::vector<const FieldLayout*> choices = Selectable(reader.layout());
    testing::Rng rng(seed + 1000);
    std::vector<std::int32_t> ids;
    std::vector<std::string> paths;
    const std::int64_t k = rng.Range(1, 3);
    for (std::int64_t i = 0; i < k; ++i) {
      const FieldLayout* f = choices[rng.Below(choices.size())];
      ids.push_back(f->id);
      paths.push_back(f->path);
      struct_children += f->parent_id >= 0 ? 1 : 0;
    }
    SCOPED_TRACE("paths " + paths[0] + (paths.size() > 1 ? ", " + paths[1] : ""));
    const Projection by_ids = Projection::ByFieldIds(ids);
    const Projection by_names = Projection::ByNames(paths);
    LND_ASSERT_OK_AND_ASSIGN(auto s_ids, reader.ProjectedSchema(by_ids));
    LND_ASSERT_OK_AND_ASSIGN(auto s_names, reader.ProjectedSchema(by_names));
    EXPECT_TRUE(s_ids->Equals(*s_names));

    LND_ASSERT_OK_AND_ASSIGN(auto all_ids, reader.ReadAll(by_ids));
    LND_ASSERT_OK_AND_ASSIGN(auto all_names, reader.ReadAll(by_names));
    EXPECT_TRUE(all_ids->Equals(*all_names));
    EXPECT_TRUE(all_ids->schema()->Equals(*s_ids));

    const auto offset = static_cast<std::int64_t>(rng.Below(kRows));
    const auto length =
        static_cast<std::int64_t>(rng.Below(static_cast<std::uint64_t>(kRows - offset) + 1));
    LND_ASSERT_OK_AND_ASSIGN(auto range_ids, reader.ReadRange(offset, length, by_ids));
    LND_ASSERT_OK_AND_ASSIGN(auto range_names, reader.ReadRange(offset, length, by_names));
    EXPECT_TRUE(range_ids->Equals(*range_names));

    std::vector<std::uint64_t> rows;
    for (int i = 0; i < 12; ++i) rows.push_back(rng.Below(kRows));
    LND_ASSERT_OK_AND_ASSIGN(auto take_ids, reader.Take(rows, by_ids));
    LND_ASSERT_OK_AND_ASSIGN(auto take_names, reader.Take(rows, by_names));
    EXPECT_TRUE(take_ids->Equals(*take_names));

    LND_ASSERT_OK_AND_ASSIGN(auto scan, reader.Scan(by_ids, ScanOptions{77, 1 << 20}));
    EXPECT_TRUE(scan.schema()->Equals(*s_ids));
    std::int64_t at = 0;
    while (true) {
      LND_ASSERT_OK_AND_ASSIGN(auto batch, scan.Next());
      if (!batch) break;
      LND_ASSERT_OK_AND_ASSIGN(auto want, all_names->Slice(at, batch->num_rows()));
      EXPECT_TRUE(batch->Equals(*want));
      at += batch->num_rows();
    }
    EXPECT_EQ(at, kRows);
  }
  EXPECT_GT(struct_children, 10);
}

TEST(FileProjectionTest, UnknownAndListedIdsAreRefused) {
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    LND_ASSERT_OK_AND_ASSIGN(GeneratedFile g, Generate(seed));
    const FileLayout& layout = g.reader().layout();
    std::int32_t unknown = 0;
    for (const auto& f : layout.fields) unknown = std::max(unknown, f.id + 1);
    LND_EXPECT_ERROR(g.reader().ReadAll(Projection::ByFieldIds({unknown})),
                     StatusCode::kInvalidArgument,
                     "the file has no field with id " + std::to_string(unknown));
    // Any field below a list (or a fixed-size list's parent chain) is refused by id.
    const std::vector<const FieldLayout*> ok = Selectable(layout);
    for (const auto& f : layout.fields) {
      if (std::find(ok.begin(), ok.end(), &f) != ok.end()) continue;
      LND_EXPECT_ERROR(g.reader().ReadAll(Projection::ByFieldIds({f.id})),
                       StatusCode::kInvalidArgument,
                       "field id " + std::to_string(f.id) + " ('" + f.path + "') lies inside");
    }
  }
}

}  // namespace
}  // namespace lance_nd::file
