// The chunk convention: generated layouts and chunk sizes tile the grid exactly once; the keys
// survive a table round trip; malformed keys are refused by name.
#include "lance_nd/api/chunking.h"

#include <gtest/gtest.h>

#include <functional>
#include <map>

#include "api_test_util.h"
#include "lance_nd/api/scanner.h"
#include "lance_nd/testing/status_matchers.h"

namespace lance_nd {
namespace {

using nd::testing::Chance;
using nd::testing::Rng;
using nd::testing::Uniform;

struct GridCase {
  DatasetLayout layout;
  std::vector<std::pair<std::string, std::uint64_t>> chunk_sizes;
};

GridCase RandomGridCase(Rng& rng) {
  GridCase c;
  c.layout.id = "ds" + std::to_string(Uniform(rng, 0, 99));
  const int rank = static_cast<int>(Uniform(rng, 0, 4));
  for (int d = 0; d < rank; ++d) {
    c.layout.dim_names.push_back("d" + std::to_string(d));
    c.layout.dim_sizes.push_back(static_cast<std::uint64_t>(Uniform(rng, 0, 9)));
    if (Chance(rng, 0.5)) {
      c.chunk_sizes.emplace_back(c.layout.dim_names.back(), Uniform(rng, 1, 11));
    }
    if (Chance(rng, 0.2)) c.layout.unlimited_dims.push_back(c.layout.dim_names.back());
  }
  return c;
}

// Row-major index of `cell` in the layout's grid.
std::uint64_t Flat(const std::vector<std::uint64_t>& cell, const DatasetLayout& layout) {
  std::uint64_t flat = 0;
  for (std::size_t d = 0; d < cell.size(); ++d) flat = flat * layout.dim_sizes[d] + cell[d];
  return flat;
}

// How many chunks cover each cell of the grid.
std::vector<int> Coverage(const ChunkGrid& grid) {
  const DatasetLayout& layout = grid.layout();
  std::uint64_t cells = 1;
  for (std::uint64_t s : layout.dim_sizes) cells *= s;
  std::vector<int> covered(cells, 0);
  for (std::uint64_t i = 0; i < grid.num_chunks(); ++i) {
    const ChunkPosition p = grid.Position(i);
    const std::vector<std::uint64_t> extent = grid.Extent(i);
    std::uint64_t n = 1;
    for (std::uint64_t e : extent) n *= e;
    for (std::uint64_t k = 0; k < n; ++k) {
      std::vector<std::uint64_t> cell(extent.size());
      std::uint64_t rest = k;
      for (std::size_t d = extent.size(); d-- > 0;) {
        cell[d] = p.offset[d] + rest % extent[d];
        rest /= extent[d];
      }
      ++covered.at(Flat(cell, layout));
    }
  }
  return covered;
}

TEST(ChunkGridTest, GeneratedGridsTileTheDatasetExactlyOnce) {
  Rng rng(20261202);
  for (int trial = 0; trial < 500; ++trial) {
    const GridCase c = RandomGridCase(rng);
    LND_ASSERT_OK_AND_ASSIGN(ChunkGrid grid, ChunkGrid::Make(c.layout, c.chunk_sizes));
    for (int covered : Coverage(grid)) ASSERT_EQ(covered, 1) << "trial " << trial;
    // Chunk 0 is at the origin, positions are distinct and in C order over the chunk grid.
    std::vector<std::uint64_t> previous;
    for (std::uint64_t i = 0; i < grid.num_chunks(); ++i) {
      const ChunkPosition p = grid.Position(i);
      EXPECT_EQ(p.index, i);
      EXPECT_EQ(p.count, grid.num_chunks());
      if (i == 0) {
        EXPECT_EQ(p.offset, std::vector<std::uint64_t>(c.layout.dim_names.size(), 0));
      } else {
        EXPECT_LT(previous, p.offset) << "trial " << trial;
      }
      previous = p.offset;
    }
    for (std::size_t d = 0; d < c.layout.dim_names.size(); ++d) {
      const bool split = grid.chunk_sizes()[d] < c.layout.dim_sizes[d];
      EXPECT_EQ(grid.IsSplit(d), split);
    }
  }
}

TEST(ChunkGridTest, ChunkLargerThanTheDimensionIsTheWholeDimension) {
  const DatasetLayout layout{"a", {"time", "x"}, {5, 3}, {"time"}};
  const std::vector<std::pair<std::string, std::uint64_t>> sizes = {{"time", 2}, {"x", 10}};
  LND_ASSERT_OK_AND_ASSIGN(ChunkGrid grid, ChunkGrid::Make(layout, sizes));
  EXPECT_EQ(grid.num_chunks(), 3u);
  EXPECT_EQ(grid.Extent(2), (std::vector<std::uint64_t>{1, 3}));  // the partial edge chunk
  EXPECT_FALSE(grid.IsSplit(1));
}

TEST(ChunkGridTest, BadChunkSizesAreRefusedByName) {
  const DatasetLayout layout{"a", {"time", "x"}, {5, 3}, {}};
  using Sizes = std::vector<std::pair<std::string, std::uint64_t>>;
  LND_EXPECT_ERROR(ChunkGrid::Make(layout, Sizes{{"lat", 2}}), StatusCode::kInvalidArgument,
                   "cannot chunk dimension 'lat': dataset 'a' has dimensions time, x");
  LND_EXPECT_ERROR(ChunkGrid::Make(layout, Sizes{{"x", 0}}), StatusCode::kInvalidArgument,
                   "chunk size of 'x' is 0");
  LND_EXPECT_ERROR(ChunkGrid::Make(layout, Sizes{{"x", 1}, {"x", 2}}), StatusCode::kInvalidArgument,
                   "given twice");
  const DatasetLayout uneven{"b", {"t"}, {1, 2}, {}};
  LND_EXPECT_ERROR(ChunkGrid::Make(uneven, {}), StatusCode::kInvalidArgument,
                   "1 dimension names but 2 sizes");
  const DatasetLayout bad_unlimited{"c", {"t"}, {1}, {"u"}};
  LND_EXPECT_ERROR(ChunkGrid::Make(bad_unlimited, {}), StatusCode::kInvalidArgument,
                   "unlimited dimension 'u'");
}

// Every chunk of generated grids, written as global attributes of table rows, reads back equal
// (the empty lists of dimensionless datasets included).
TEST(ChunkAttributesTest, GeneratedChunksRoundTripThroughATable) {
  Rng rng(7);
  std::vector<nd::NdRecordBatch> rows;
  std::vector<ChunkAttributes> expected;
  for (int trial = 0; trial < 40; ++trial) {
    const GridCase c = RandomGridCase(rng);
    LND_ASSERT_OK_AND_ASSIGN(ChunkGrid grid, ChunkGrid::Make(c.layout, c.chunk_sizes));
    for (std::uint64_t i = 0; i < std::min<std::uint64_t>(grid.num_chunks(), 3); ++i) {
      nd::Attributes attributes;
      attributes.Set("title", "generated");
      LND_ASSERT_OK(SetChunkAttributes(c.layout, grid.Position(i), &attributes));
      rows.push_back(nd::NdRecordBatch().WithAttributes(attributes));
      expected.push_back({c.layout, grid.Position(i)});
    }
  }
  LND_ASSERT_OK_AND_ASSIGN(Table table, Table::Write(api_testing::MemoryTable(), rows));
  LND_ASSERT_OK_AND_ASSIGN(auto read, table.Scan().Project({}).ReadAll());
  ASSERT_EQ(read.size(), expected.size());
  for (std::size_t r = 0; r < read.size(); ++r) {
    EXPECT_EQ(read[r].attributes().GetString("title"), "generated");
    LND_ASSERT_OK_AND_ASSIGN(auto got, ReadChunkAttributes(read[r].attributes()));
    ASSERT_TRUE(got.has_value()) << "row " << r;
    EXPECT_EQ(got->layout, expected[r].layout) << "row " << r;
    EXPECT_EQ(got->position, expected[r].position) << "row " << r;
  }
}

TEST(ChunkAttributesTest, RowsWithoutChunkDimsAreNotChunkRows) {
  nd::Attributes attributes;
  attributes.Set("id", "plain");
  LND_ASSERT_OK_AND_ASSIGN(auto got, ReadChunkAttributes(attributes));
  EXPECT_FALSE(got.has_value());
}

TEST(ChunkAttributesTest, SettingReplacesEarlierKeys) {
  const DatasetLayout layout{"a", {"t"}, {4}, {}};
  nd::Attributes attributes;
  attributes.Set("id", "old").Set("chunk_index", std::int64_t{9});
  LND_ASSERT_OK(SetChunkAttributes(layout, {{2}, 1, 2}, &attributes));
  EXPECT_EQ(attributes.GetString("id"), "a");
  EXPECT_EQ(attributes.GetInt64("chunk_index"), 1);
  EXPECT_EQ(attributes.size(), 7u);
  LND_EXPECT_ERROR(SetChunkAttributes(layout, {{4}, 0, 1}, &attributes),
                   StatusCode::kInvalidArgument, "chunk offset 4 along 't' of dataset 'a'");
  LND_EXPECT_ERROR(SetChunkAttributes(layout, {{0, 0}, 0, 1}, &attributes),
                   StatusCode::kInvalidArgument, "2 offsets for 1 dimensions");
}

// Each malformation of a valid set of keys is refused, naming the key.
TEST(ChunkAttributesTest, MalformedKeysAreRefusedByName) {
  const DatasetLayout layout{"a", {"t", "x"}, {4, 2}, {"t"}};
  nd::Attributes valid;
  LND_ASSERT_OK(SetChunkAttributes(layout, {{2, 0}, 1, 2}, &valid));
  struct Case {
    std::function<void(nd::Attributes&)> damage;
    std::string message;
  };
  const std::vector<Case> cases = {
      {[](nd::Attributes& a) { a.Remove("chunk_count"); }, "no 'chunk_count'"},
      {[](nd::Attributes& a) { a.Remove("id"); }, "no 'id'"},
      {[](nd::Attributes& a) { a.Set("id", std::int64_t{3}); }, "'id' is int64, expected utf8"},
      {[](nd::Attributes& a) { a.Set("chunk_dims", "t"); }, "'chunk_dims' is utf8"},
      {[](nd::Attributes& a) { a.Set("chunk_offset", std::vector<std::int64_t>{1}); },
       "1 offsets for 2 dimensions"},
      {[](nd::Attributes& a) {
         a.Set("chunk_offset", std::vector<std::int64_t>{-1, 0});
       },
       "'chunk_offset' holds a null or negative number"},
      {[](nd::Attributes& a) { a.Set("dataset_shape", std::vector<std::int64_t>{4}); },
       "2 dimension names but 1 sizes"},
      {[](nd::Attributes& a) {
         a.Set("chunk_offset", std::vector<std::int64_t>{4, 0});
       },
       "chunk offset 4 along 't'"},
      {[](nd::Attributes& a) { a.Set("chunk_index", std::int64_t{2}); },
       "chunk index 2 of dataset 'a' is not below its chunk count 2"},
      {[](nd::Attributes& a) { a.Set("chunk_count", 2.5); },
       "'chunk_count' is float64, expected int64"},
      {[](nd::Attributes& a) { a.Set("unlimited_dims", std::vector<std::string>{"y"}); },
       "unlimited dimension 'y'"},
      {[](nd::Attributes& a) {
         a.Set("chunk_dims", std::vector<std::string>{"t", "t"});
       },
       "repeated dimension name 't'"},
  };
  for (const Case& c : cases) {
    nd::Attributes damaged = valid;
    c.damage(damaged);
    LND_EXPECT_ERROR(ReadChunkAttributes(damaged), StatusCode::kInvalidArgument, c.message);
  }
  // Integers of other widths are accepted (tables written by other tools).
  nd::Attributes narrow = valid;
  narrow.Set("chunk_offset", std::vector<std::uint32_t>{2, 0}).Set("chunk_index", 1);
  LND_ASSERT_OK_AND_ASSIGN(auto got, ReadChunkAttributes(narrow));
  EXPECT_EQ(got->position.offset, (std::vector<std::uint64_t>{2, 0}));
}

TEST(ChunkKeysTest, KnowsTheSevenKeys) {
  for (std::string_view key : {"id", "chunk_dims", "chunk_offset", "dataset_shape",
                               "unlimited_dims", "chunk_index", "chunk_count"}) {
    EXPECT_TRUE(IsChunkKey(key)) << key;
  }
  EXPECT_FALSE(IsChunkKey("title"));
  EXPECT_FALSE(IsChunkKey("chunk"));
}

}  // namespace
}  // namespace lance_nd
