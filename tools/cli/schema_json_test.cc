// schema --json on tables written with generated column options, attributes and global keys:
// the options come back as field metadata at the paths the storage layout has, and keys, types
// and stats columns as they were written.
#include "schema_json.h"

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <string>

#include "lance_nd/api/table.h"
#include "lance_nd/array/builder.h"
#include "lance_nd/io/file_system.h"

namespace lance_nd::cli {
namespace {

using Entries = std::map<std::string, std::string>;

nd::NdArrowArray Floats(const std::string& dim, std::size_t n, nd::Attributes attributes) {
  std::vector<std::optional<float>> values(n, 1.5F);
  auto array = nd::NdArrowArray::Make(array::MakePrimitiveArray<float>(array::Float32(), values),
                                      *nd::Dimensions::Make({dim}, {n}), std::move(attributes));
  return *array;
}

Entries AsEntries(const nlohmann::ordered_json& object) {
  Entries out;
  for (const auto& item : object.items()) out[item.key()] = item.value().get<std::string>();
  return out;
}

TEST(SchemaJsonTest, ColumnOptionsKeysAndStatsComeBackAsWritten) {
  std::mt19937_64 rng(31);
  const char* compression_names[] = {"none", "lz4", "zstd"};
  for (int round = 0; round < 12; ++round) {
    SCOPED_TRACE("round " + std::to_string(round));
    WriteOptions options;
    options.stats = round % 2 == 0;
    std::map<std::string, std::map<std::string, Entries>> expected;  // variable -> path -> keys
    std::vector<std::pair<std::string, nd::NdArrowArray>> arrays;
    const std::size_t variables = 1 + rng() % 4;
    for (std::size_t v = 0; v < variables; ++v) {
      const std::string name = "v" + std::to_string(v);
      nd::Attributes attributes;
      if (rng() % 2 == 0) attributes.Set("units", "K");
      ColumnOptions column;
      Entries leaf;
      if (const auto c = rng() % 4; c < 3) {
        column.compression = static_cast<Compression>(c);
        leaf["lance-encoding:compression"] = compression_names[c];
      }
      if (rng() % 2 == 0) {
        column.byte_stream_split = ByteStreamSplit::kOn;
        leaf["lance-encoding:bss"] = "on";
      }
      auto& paths = expected[name];
      if (rng() % 2 == 0) {
        column.structural_encoding = StructuralEncoding::kFullZip;
        paths[""]["lance-encoding:structural-encoding"] = "fullzip";
      }
      if (!leaf.empty()) {
        for (const char* path : {"values.item", "dim_names.item", "dim_sizes.item"}) {
          paths[path] = leaf;
        }
        if (!attributes.empty()) paths["attrs.units"] = leaf;
      }
      options.column_options[name] = column;
      arrays.emplace_back(name, Floats("x" + name, 1 + rng() % 5, attributes));
    }
    nd::Attributes globals;
    globals.Set("id", "r").Set("n", std::int64_t{7});
    auto row = nd::NdRecordBatch::FromArrays(std::move(arrays), globals);
    ASSERT_TRUE(row.ok()) << row.status().ToString();
    options.file_system = io::MakeMemoryFileSystem();
    auto table = Table::Write("t" + std::to_string(round), std::vector{*row}, options);
    ASSERT_TRUE(table.ok()) << table.status().ToString();

    auto got = SchemaJson(*table->schema());
    ASSERT_TRUE(got.ok()) << got.status().ToString();
    const nlohmann::ordered_json& j = *got;
    ASSERT_EQ(j["variables"].size(), variables);
    for (const auto& v : j["variables"]) {
      const std::string name = v["name"];
      SCOPED_TRACE(name);
      EXPECT_EQ(v["dtype"], "float32");
      std::map<std::string, Entries> paths;
      for (const auto& item : v["field_metadata"].items()) {
        paths[item.key()] = AsEntries(item.value());
      }
      EXPECT_EQ(paths, expected[name]);
    }
    EXPECT_EQ(j["global_attrs"],
              nlohmann::ordered_json::parse(
                  R"([{"key":"id","dtype":"utf8"},{"key":"n","dtype":"int64"}])"));
    ASSERT_EQ(j["stats"].size(), options.stats ? variables : 0u);
    for (const auto& s : j["stats"]) {
      EXPECT_EQ(s["name"], "__stats__:" + s["variable"].get<std::string>());
      EXPECT_EQ(s["dtype"], "float32");
    }
    EXPECT_EQ(j["metadata"]["lance_nd:format"], "1");
    EXPECT_EQ(j["metadata"].contains("lance_nd:stats"), options.stats);
  }
}

}  // namespace
}  // namespace lance_nd::cli
