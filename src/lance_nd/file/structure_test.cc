#include "lance_nd/file/structure.h"

#include <gtest/gtest.h>

#include <cstring>

#include "encodings_v2_1.pb.h"
#include "lance_nd/testing/status_matchers.h"

namespace lance_nd::file::internal {
namespace {

namespace pb = ::lance::encodings21;
using Kind = PathLayer::Kind;

std::vector<int32_t> Offsets(const LayerArrays& l) {
  std::vector<int32_t> out(static_cast<std::size_t>(l.length) + 1);
  std::memcpy(out.data(), l.offsets->data(), out.size() * 4);
  return out;
}
std::vector<bool> Valid(const LayerArrays& l) {
  std::vector<bool> out;
  for (int64_t i = 0; i < l.length; ++i) {
    out.push_back(!l.validity || ((l.validity->data()[i >> 3] >> (i & 7)) & 1));
  }
  return out;
}

TEST(LevelSchemeTest, CanonicalNumbering) {
  // struct<list<item>>: item null 1, list null 2 / empty 3, struct null 4.
  LevelScheme s({{Kind::kItem}, {Kind::kList}, {Kind::kItem}});
  EXPECT_EQ(s.null_level(2), 1);
  EXPECT_EQ(s.null_level(1), 2);
  EXPECT_EQ(s.empty_level(1), 3);
  EXPECT_EQ(s.null_level(0), 4);
  EXPECT_EQ(s.max_visible(), 1);
  EXPECT_EQ(s.num_lists(), 1);
}

TEST(LevelSchemeTest, NormalizeMapsPageLevels) {
  LevelScheme s({{Kind::kItem}, {Kind::kList}, {Kind::kItem}});
  DecodedPage page;
  // Page layers (innermost first): ALL_VALID_ITEM, NULL_AND_EMPTY_LIST, NULLABLE_ITEM:
  // page def 1 = null list, 2 = empty list, 3 = null struct.
  page.layers = {pb::REPDEF_ALL_VALID_ITEM, pb::REPDEF_NULL_AND_EMPTY_LIST, pb::REPDEF_NULLABLE_ITEM};
  page.rep = {1, 0, 1, 1, 1};
  page.def = {0, 0, 3, 2, 0};
  page.has_rep = page.has_def = true;
  page.num_entries = 5;
  LND_ASSERT_OK(s.Normalize(&page, "p"));
  EXPECT_EQ(page.def, (std::vector<std::uint16_t>{0, 0, 4, 3, 0}));
  page.def = {0, 0, 5, 0, 0};
  page.layers = {pb::REPDEF_ALL_VALID_ITEM, pb::REPDEF_NULL_AND_EMPTY_LIST, pb::REPDEF_NULLABLE_ITEM};
  LND_EXPECT_ERROR(s.Normalize(&page, "p"), StatusCode::kCorrupt, "def level 5 exceeds");
  page.layers = {pb::REPDEF_ALL_VALID_ITEM, pb::REPDEF_NULLABLE_ITEM, pb::REPDEF_NULLABLE_ITEM};
  LND_EXPECT_ERROR(s.Normalize(&page, "p"), StatusCode::kCorrupt, "schema has a list there");
}

TEST(UnravelTest, StructListExample) {
  LevelScheme s({{Kind::kItem}, {Kind::kList}, {Kind::kItem}});
  LeafLevels lv;
  lv.rep = {1, 0, 1, 1, 1};
  lv.def = {0, 0, 4, 3, 0};
  lv.num_rows = 4;
  LND_ASSERT_OK_AND_ASSIGN(auto layers, Unravel(s, lv, 3, "t"));
  ASSERT_EQ(layers.size(), 3u);
  EXPECT_EQ(Valid(layers[0]), (std::vector<bool>{true, false, true, true}));
  EXPECT_EQ(Offsets(layers[1]), (std::vector<int32_t>{0, 2, 2, 2, 3}));
  EXPECT_EQ(Valid(layers[1]), (std::vector<bool>{true, false, true, true}));
  EXPECT_EQ(layers[2].length, 3);
  EXPECT_EQ(layers[2].null_count, 0);
}

TEST(UnravelTest, NestedListsAndVisibleNulls) {
  // list<list<item>>: rows [[1, null], [], null-inner], [] , null
  //   item null 1, inner null 2 / empty 3, outer null 4 / empty 5; R = 2.
  LevelScheme s({{Kind::kList}, {Kind::kList}, {Kind::kItem}});
  LeafLevels lv;
  lv.rep = {2, 0, 1, 1, 2, 2};
  lv.def = {0, 1, 3, 2, 5, 4};
  lv.num_rows = 3;
  LND_ASSERT_OK_AND_ASSIGN(auto layers, Unravel(s, lv, 2, "t"));
  EXPECT_EQ(Offsets(layers[0]), (std::vector<int32_t>{0, 3, 3, 3}));
  EXPECT_EQ(Valid(layers[0]), (std::vector<bool>{true, true, false}));
  EXPECT_EQ(Offsets(layers[1]), (std::vector<int32_t>{0, 2, 2, 2}));
  EXPECT_EQ(Valid(layers[1]), (std::vector<bool>{true, true, false}));
  EXPECT_EQ(Valid(layers[2]), (std::vector<bool>{true, false}));
}

TEST(UnravelTest, Errors) {
  LevelScheme s({{Kind::kList}, {Kind::kItem}});
  LeafLevels lv;
  lv.rep = {1, 1, 0};
  lv.def = {0, 2, 0};  // row 2 is a null list, then an entry continues it
  lv.num_rows = 2;
  LND_EXPECT_ERROR(Unravel(s, lv, 2, "t"), StatusCode::kCorrupt, "continues a list that is not open");
  lv.rep = {1, 0};
  lv.def = {0, 0};
  lv.num_rows = 1;
  LND_EXPECT_ERROR(Unravel(s, lv, 3, "t"), StatusCode::kCorrupt, "levels use 2 values, but 3");
  LND_EXPECT_ERROR(Unravel(s, lv, 1, "t"), StatusCode::kCorrupt, "more than the 1 decoded values");
  lv.num_rows = 2;
  LND_EXPECT_ERROR(Unravel(s, lv, 2, "t"), StatusCode::kCorrupt, "levels hold 1 rows, expected 2");
}

}  // namespace
}  // namespace lance_nd::file::internal
