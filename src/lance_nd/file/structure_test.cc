#include "lance_nd/file/structure.h"

#include <gtest/gtest.h>

#include <cstring>

#include "lance_nd/testing/random_arrays.h"

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
  page.layers = {pb::REPDEF_ALL_VALID_ITEM, pb::REPDEF_NULL_AND_EMPTY_LIST,
                 pb::REPDEF_NULLABLE_ITEM};
  page.rep = {1, 0, 1, 1, 1};
  page.def = {0, 0, 3, 2, 0};
  page.has_rep = page.has_def = true;
  page.num_entries = 5;
  LND_ASSERT_OK(s.Normalize(&page, "p"));
  EXPECT_EQ(page.def, (LevelVector{0, 0, 4, 3, 0}));
  page.def = {0, 0, 5, 0, 0};
  page.layers = {pb::REPDEF_ALL_VALID_ITEM, pb::REPDEF_NULL_AND_EMPTY_LIST,
                 pb::REPDEF_NULLABLE_ITEM};
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
  LND_EXPECT_ERROR(Unravel(s, lv, 2, "t"), StatusCode::kCorrupt,
                   "continues a list that is not open");
  lv.rep = {1, 0};
  lv.def = {0, 0};
  lv.num_rows = 1;
  LND_EXPECT_ERROR(Unravel(s, lv, 3, "t"), StatusCode::kCorrupt, "levels use 2 values, but 3");
  LND_EXPECT_ERROR(Unravel(s, lv, 1, "t"), StatusCode::kCorrupt, "more than the 1 decoded values");
  lv.num_rows = 2;
  LND_EXPECT_ERROR(Unravel(s, lv, 2, "t"), StatusCode::kCorrupt, "levels hold 1 rows, expected 2");
}

std::vector<int64_t> Offsets64(const LayerArrays& l, PathLayer::Kind kind) {
  std::vector<int64_t> out;
  for (int64_t i = 0; i <= l.length; ++i) {
    if (kind == Kind::kLargeList) {
      int64_t v;
      std::memcpy(&v, l.offsets->data() + i * 8, 8);
      out.push_back(v);
    } else {
      int32_t v;
      std::memcpy(&v, l.offsets->data() + i * 4, 4);
      out.push_back(v);
    }
  }
  return out;
}

// UnravelDense (bulk, all def 0) must give exactly what the general Unravel gives.
TEST(UnravelDenseTest, MatchesGeneralUnravelOnRandomLevels) {
  int lists_seen = 0;
  for (std::uint64_t seed = 0; seed < 300; ++seed) {
    testing::Rng rng(seed);
    std::vector<PathLayer> path;
    const int depth = 1 + static_cast<int>(rng.Below(5));
    for (int i = 0; i < depth - 1; ++i) {
      const auto k = rng.Below(3);
      path.push_back({k == 0 ? Kind::kItem : k == 1 ? Kind::kList : Kind::kLargeList});
    }
    path.push_back({Kind::kItem});
    LevelScheme scheme(path);
    const auto R = static_cast<std::uint16_t>(scheme.num_lists());
    lists_seen += R > 0;
    // Random valid dense levels split into spans at row starts (as pages would be).
    std::vector<std::uint16_t> rep;
    std::uint64_t rows = rng.Below(50);
    const std::uint64_t n_target = rows == 0 ? 0 : rows + rng.Below(300);
    for (std::uint64_t r = 0; r < rows; ++r) {
      rep.push_back(R);
      const std::uint64_t extra = R == 0 ? 0 : rng.Below(2 * n_target / rows + 1);
      for (std::uint64_t i = 0; i < extra; ++i) {
        rep.push_back(static_cast<std::uint16_t>(rng.Below(R)));
      }
    }
    LeafLevels lv;
    lv.num_rows = rows;
    if (R > 0) lv.rep.assign(rep.begin(), rep.end());
    lv.def.assign(rep.size(), 0);
    std::vector<RepSpan> spans;
    std::size_t start = 0;
    for (std::size_t i = 1; i <= rep.size(); ++i) {
      if (i == rep.size() || (rep[i] == R && rng.Chance(0.2))) {
        spans.push_back({R > 0 ? rep.data() + start : nullptr, i - start});
        start = i;
      }
    }
    const std::string what = "seed " + std::to_string(seed);
    LND_ASSERT_OK_AND_ASSIGN(auto want, Unravel(scheme, lv, rep.size(), "t"));
    LND_ASSERT_OK_AND_ASSIGN(auto got, UnravelDense(scheme, spans, rows, rep.size(), "t"));
    ASSERT_EQ(got.size(), want.size()) << what;
    for (std::size_t j = 0; j < got.size(); ++j) {
      EXPECT_EQ(got[j].length, want[j].length) << what << " layer " << j;
      EXPECT_EQ(got[j].null_count, 0) << what;
      EXPECT_EQ(Valid(got[j]), Valid(want[j])) << what << " layer " << j;
      if (path[j].is_list()) {
        EXPECT_EQ(Offsets64(got[j], path[j].kind), Offsets64(want[j], path[j].kind))
            << what << " layer " << j;
      }
    }
    if (::testing::Test::HasFailure()) return;
  }
  EXPECT_GT(lists_seen, 100);
}

// Unravel takes long runs of list entries 64 at a time; entry by entry must give the same
// layers, or the same error, on generated levels of nd-like columns (a list of nullable values,
// under nullable structs or lists), with nulls at varied densities and, in some cases, a level
// that breaks the scheme.
TEST(UnravelTest, BlocksOfEntriesMatchEntryByEntry) {
  for (std::uint64_t seed = 0; seed < 200; ++seed) {
    testing::Rng rng(seed);
    std::vector<PathLayer> path;
    path.reserve(4);
    const int outer = static_cast<int>(rng.Below(3));
    for (int i = 0; i < outer; ++i) path.push_back({rng.Chance(0.5) ? Kind::kItem : Kind::kList});
    path.push_back({rng.Chance(0.5) ? Kind::kList : Kind::kLargeList});
    path.push_back({Kind::kItem});
    LevelScheme scheme(path);
    const auto lists = static_cast<std::uint16_t>(scheme.num_lists());
    const std::uint16_t leaf_null = scheme.null_level(path.size() - 1);
    const double null_share = rng.Chance(0.3) ? 0.0 : rng.Chance(0.5) ? 0.02 : 0.5;
    LeafLevels lv;
    lv.num_rows = 1 + rng.Below(6);
    for (std::uint64_t r = 0; r < lv.num_rows; ++r) {
      const std::uint64_t len = 1 + rng.Below(rng.Chance(0.5) ? 400 : 3000);
      for (std::uint64_t i = 0; i < len; ++i) {
        lv.rep.push_back(i == 0 ? lists : static_cast<std::uint16_t>(rng.Chance(0.995) ? 0 : 1));
        lv.def.push_back(rng.Chance(null_share) ? leaf_null : 0);
      }
      if (lists > 1 && lv.rep.back() == 1) lv.rep.back() = 0;  // keep outer lists simple
    }
    if (lists == 1) {
      for (auto& r : lv.rep) r = r == 1 ? 1 : 0;
    }
    if (rng.Chance(0.2) && !lv.def.empty()) {  // a level the scheme does not allow
      const std::size_t at = rng.Below(lv.def.size());
      lv.def[at] = static_cast<std::uint16_t>(scheme.max_level() + 1 + rng.Below(3));
    }
    std::uint64_t values = 0;
    for (std::uint16_t d : lv.def) values += d == 0 || d == leaf_null;
    const std::string what = "seed " + std::to_string(seed);
    auto want = UnravelEntryByEntryForTesting(scheme, lv, values, "t");
    auto got = Unravel(scheme, lv, values, "t");
    ASSERT_EQ(got.ok(), want.ok())
        << what << ": " << got.status().ToString() << " / " << want.status().ToString();
    if (!want.ok()) {
      EXPECT_EQ(got.status().ToString(), want.status().ToString()) << what;
      continue;
    }
    ASSERT_EQ(got->size(), want->size()) << what;
    for (std::size_t j = 0; j < got->size(); ++j) {
      EXPECT_EQ((*got)[j].length, (*want)[j].length) << what << " layer " << j;
      EXPECT_EQ((*got)[j].null_count, (*want)[j].null_count) << what << " layer " << j;
      EXPECT_EQ(Valid((*got)[j]), Valid((*want)[j])) << what << " layer " << j;
      if (path[j].is_list()) {
        EXPECT_EQ(Offsets64((*got)[j], path[j].kind), Offsets64((*want)[j], path[j].kind))
            << what << " layer " << j;
      }
    }
    if (::testing::Test::HasFailure()) return;
  }
}

TEST(UnravelDenseTest, Errors) {
  LevelScheme s({{Kind::kList}, {Kind::kItem}});
  std::vector<std::uint16_t> rep = {1, 0, 2, 0};
  std::vector<RepSpan> spans{{rep.data(), 4}};
  LND_EXPECT_ERROR(UnravelDense(s, spans, 2, 4, "t"), StatusCode::kCorrupt,
                   "rep level 2 exceeds 1");
  rep = {1, 0, 1, 0};
  LND_EXPECT_ERROR(UnravelDense(s, spans, 2, 5, "t"), StatusCode::kCorrupt,
                   "levels use 4 values, but 5");
  LND_EXPECT_ERROR(UnravelDense(s, spans, 3, 4, "t"), StatusCode::kCorrupt,
                   "levels hold 2 rows, expected 3");
  rep = {0, 0, 1, 0};
  LND_EXPECT_ERROR(UnravelDense(s, spans, 1, 4, "t"), StatusCode::kCorrupt,
                   "does not start with rep level 1");
  LevelScheme flat({{Kind::kItem}});
  std::vector<RepSpan> no_rep{{nullptr, 3}};
  LND_EXPECT_ERROR(UnravelDense(flat, no_rep, 2, 3, "t"), StatusCode::kCorrupt,
                   "expected all equal");
}

// Pages whose def levels are all 0 keep no def vector; the row index then equals the one built
// from explicit zeros.
TEST(RowIndexTest, DefZeroPagesMatchExplicitZeros) {
  LevelScheme s({{Kind::kItem}, {Kind::kList}, {Kind::kItem}});
  for (std::uint64_t seed = 0; seed < 50; ++seed) {
    testing::Rng rng(seed);
    DecodedPage page;
    page.layers = {pb::REPDEF_ALL_VALID_ITEM, pb::REPDEF_NULLABLE_LIST, pb::REPDEF_ALL_VALID_ITEM};
    const std::uint64_t rows = 1 + rng.Below(40);
    for (std::uint64_t r = 0; r < rows; ++r) {
      page.rep.push_back(1);
      const std::uint64_t extra = rng.Below(200);
      for (std::uint64_t i = 0; i < extra; ++i) page.rep.push_back(0);
    }
    page.has_rep = true;
    page.has_def = true;
    page.def.assign(page.rep.size(), 0);  // as stored: all valid
    page.num_entries = page.rep.size();
    page.num_rows = rows;
    page.num_values = page.rep.size();
    DecodedPage explicit_zeros = page;
    LND_ASSERT_OK(s.Normalize(&page, "p"));
    EXPECT_TRUE(page.def_zero);
    EXPECT_TRUE(page.def.empty());
    LND_ASSERT_OK_AND_ASSIGN(RowIndex fast, BuildRowIndex(page, s, "p"));
    // The general path: force a non-zero def somewhere else then compare rows before it.
    explicit_zeros.def_zero = false;
    explicit_zeros.def.assign(explicit_zeros.num_entries, 0);
    LND_ASSERT_OK_AND_ASSIGN(RowIndex slow, [&]() -> Result<RowIndex> {
      DecodedPage q = explicit_zeros;  // canonical already (zeros), skip Normalize
      return BuildRowIndex(q, s, "p");
    }());
    for (std::uint64_t r = 0; r <= rows; ++r) {
      ASSERT_EQ(fast.Entry(r), slow.Entry(r)) << r;
      ASSERT_EQ(fast.Value(r), slow.Value(r)) << r;
    }
    LeafLevels a, b;
    AppendRowLevels(page, fast, 0, rows, true, &a);
    AppendRowLevels(explicit_zeros, slow, 0, rows, true, &b);
    EXPECT_EQ(a.rep, b.rep);
    EXPECT_EQ(a.def, b.def);
  }
}

// Pages with nulls and empty or null lists: each row's first entry and first value slot, as a
// plain walk over the canonical levels finds them.
TEST(RowIndexTest, RowsAndValueSlotsOfPagesWithNulls) {
  LevelScheme s({{Kind::kItem}, {Kind::kList}, {Kind::kItem}});
  const std::uint16_t maxvis = s.max_visible();
  for (std::uint64_t seed = 0; seed < 60; ++seed) {
    testing::Rng rng(seed);
    DecodedPage page;
    page.has_rep = true;
    page.has_def = true;
    const std::uint64_t rows = 1 + rng.Below(30);
    for (std::uint64_t r = 0; r < rows; ++r) {
      page.rep.push_back(1);
      page.def.push_back(static_cast<std::uint16_t>(rng.Below(s.max_level() + 1)));
      const std::uint64_t extra = page.def.back() > maxvis ? 0 : rng.Below(300);
      for (std::uint64_t i = 0; i < extra; ++i) {
        page.rep.push_back(0);
        page.def.push_back(rng.Chance(0.3) ? s.null_level(2) : 0);
      }
    }
    std::vector<std::uint64_t> entry, value;
    std::uint64_t v = 0;
    for (std::uint64_t e = 0; e < page.rep.size(); ++e) {
      if (page.rep[e] == 1) {
        entry.push_back(e);
        value.push_back(v);
      }
      v += page.def[e] <= maxvis ? 1 : 0;
    }
    entry.push_back(page.rep.size());
    value.push_back(v);
    page.num_entries = page.rep.size();
    page.num_rows = rows;
    page.num_values = v;
    LND_ASSERT_OK_AND_ASSIGN(RowIndex index, BuildRowIndex(page, s, "p"));
    for (std::uint64_t r = 0; r <= rows; ++r) {
      ASSERT_EQ(index.Entry(r), entry[r]) << "seed " << seed << " row " << r;
      ASSERT_EQ(index.Value(r), value[r]) << "seed " << seed << " row " << r;
    }
    page.rep.push_back(2);  // a level above the scheme's
    page.def.push_back(0);
    ++page.num_entries;
    ++page.num_values;
    LND_EXPECT_ERROR(BuildRowIndex(page, s, "p").status(), StatusCode::kCorrupt,
                     "rep level 2 exceeds 1");
  }
}

TEST(RowIndexTest, NormalizeKeepsNonZeroDefAndChecksCounts) {
  LevelScheme s({{Kind::kList}, {Kind::kItem}});
  DecodedPage page;
  page.layers = {pb::REPDEF_NULLABLE_ITEM, pb::REPDEF_NULLABLE_LIST};
  page.rep = {1, 0, 1};
  page.def = {0, 1, 2};
  page.has_rep = page.has_def = true;
  page.num_entries = 3;
  LND_ASSERT_OK(s.Normalize(&page, "p"));
  EXPECT_FALSE(page.def_zero);
  EXPECT_EQ(page.def, (LevelVector{0, 1, 2}));
  page.def = {0, 1};
  page.def_zero = false;
  LND_EXPECT_ERROR(s.Normalize(&page, "p"), StatusCode::kCorrupt, "2 def levels for 3 entries");
  // Without lists the index is the identity and stores nothing.
  LevelScheme flat({{Kind::kItem}});
  DecodedPage f;
  f.layers = {pb::REPDEF_ALL_VALID_ITEM};
  f.num_entries = f.num_rows = f.num_values = 1000;
  LND_ASSERT_OK(flat.Normalize(&f, "f"));
  LND_ASSERT_OK_AND_ASSIGN(RowIndex idx, BuildRowIndex(f, flat, "f"));
  EXPECT_TRUE(idx.identity);
  EXPECT_TRUE(idx.entry.empty());
  EXPECT_EQ(idx.Value(1000), 1000u);
  f.num_values = 999;
  LND_EXPECT_ERROR(BuildRowIndex(f, flat, "f"), StatusCode::kCorrupt, "999 values for 1000 rows");
}

}  // namespace
}  // namespace lance_nd::file::internal
