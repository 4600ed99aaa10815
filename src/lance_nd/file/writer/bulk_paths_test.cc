// The writer's bulk fast paths against the per-value reference: shredding runs of leaf values
// at once (ShredMode::kBulk) must give the same levels, slots and encoded page bytes as visiting
// every value (ShredMode::kPerValue), on random types and arrays.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "lance_nd/array/type.h"
#include "lance_nd/file/writer/leaf_plan.h"
#include "lance_nd/file/writer/page_encoder.h"
#include "lance_nd/file/writer/shred.h"
#include "lance_nd/testing/random_arrays.h"
#include "lance_nd/testing/status_matchers.h"

namespace lance_nd::file::internal::writer {
namespace {

namespace a = ::lance_nd::array;
namespace lt = ::lance_nd::testing;

void ExpectSameShred(const ShreddedPage& bulk, const ShreddedPage& ref, const std::string& what) {
  SCOPED_TRACE(what);
  EXPECT_EQ(bulk.layers, ref.layers);
  EXPECT_EQ(bulk.has_rep, ref.has_rep);
  EXPECT_EQ(bulk.has_def, ref.has_def);
  EXPECT_EQ(bulk.rep, ref.rep);
  EXPECT_EQ(bulk.def, ref.def);
  EXPECT_EQ(bulk.def_zero, ref.def_zero);
  EXPECT_EQ(bulk.num_levels, ref.num_levels);
  EXPECT_EQ(bulk.max_rep, ref.max_rep);
  EXPECT_EQ(bulk.max_visible_def, ref.max_visible_def);
  EXPECT_EQ(bulk.num_rows, ref.num_rows);
  EXPECT_EQ(SlotLevelIndices(bulk), SlotLevelIndices(ref));
  const SlotValues& b = bulk.values;
  const SlotValues& r = ref.values;
  EXPECT_EQ(b.num_slots, r.num_slots);
  EXPECT_EQ(b.num_valid, r.num_valid);
  EXPECT_TRUE(std::equal(b.data().begin(), b.data().end(), r.data().begin(), r.data().end()));
  EXPECT_EQ(b.offsets, r.offsets);
  EXPECT_EQ(b.max_value_bytes, r.max_value_bytes);
  EXPECT_EQ(b.slot_bytes, r.slot_bytes);
  ASSERT_EQ(b.fsl_layers.size(), r.fsl_layers.size());
  for (std::size_t i = 0; i < b.fsl_layers.size(); ++i) {
    EXPECT_EQ(b.fsl_layers[i].bitmap, r.fsl_layers[i].bitmap);
    EXPECT_EQ(b.fsl_layers[i].num_bits, r.fsl_layers[i].num_bits);
    EXPECT_EQ(b.fsl_layers[i].any_null, r.fsl_layers[i].any_null);
  }
}

void ExpectSamePage(const EncodedPage& bulk, const EncodedPage& ref, const std::string& what) {
  SCOPED_TRACE(what);
  EXPECT_EQ(bulk.layout, ref.layout);
  EXPECT_EQ(bulk.num_rows, ref.num_rows);
  ASSERT_EQ(bulk.buffers.size(), ref.buffers.size());
  for (std::size_t i = 0; i < bulk.buffers.size(); ++i) {
    EXPECT_TRUE(bulk.buffers[i]->Equals(*ref.buffers[i])) << "buffer " << i;
  }
}

// Shreds every leaf of `field` over `arrays` both ways and compares shreds and encoded pages
// (default encodings and zstd). Returns how many leaves were compared.
int CompareLeaves(const a::FieldPtr& field, const std::vector<a::ArrayPtr>& arrays,
                  const std::string& what) {
  auto schema = a::MakeSchema({field});
  auto plan = PlanSchema(*schema, {});
  if (!plan.ok()) return 0;  // types the writer refuses are not this test's business
  int compared = 0;
  for (const LeafColumn& leaf : plan->leaves) {
    auto bulk = ShredLeaf(leaf, arrays, ShredMode::kBulk);
    auto ref = ShredLeaf(leaf, arrays, ShredMode::kPerValue);
    EXPECT_EQ(bulk.ok(), ref.ok()) << what;
    if (!bulk.ok() || !ref.ok()) continue;
    ExpectSameShred(*bulk, *ref, what + " leaf " + std::to_string(leaf.field_id));
    for (const char* compression : {"", "zstd"}) {
      a::Metadata md = leaf.leaf_field->metadata();
      if (*compression != '\0') md.Set("lance-encoding:compression", compression);
      auto leaf_field = leaf.leaf_field->WithMetadata(md);
      auto options = ColumnOptions::FromField(*leaf_field, FileVersion::kV2_2);
      if (!options.ok()) {
        ADD_FAILURE() << what << ": " << options.status().ToString();
        continue;
      }
      auto page_bulk = EncodePage(*bulk, *options);
      auto page_ref = EncodePage(*ref, *options);
      EXPECT_EQ(page_bulk.ok(), page_ref.ok()) << what;
      if (page_bulk.ok() && page_ref.ok()) {
        ExpectSamePage(*page_bulk, *page_ref, what + " " + compression);
      }
    }
    ++compared;
  }
  return compared;
}

TEST(WriterBulkPathsTest, ListsOfFixedAndStringsWithAndWithoutNulls) {
  // The shapes the bulk path handles: flat leaves and leaves directly below a list, with and
  // without leaf nulls, plain and sliced.
  std::vector<a::FieldPtr> fields = {
      a::MakeField("f", a::Float32(), false),
      a::MakeField("f", a::Float32(), true),
      a::MakeField("s", a::Utf8(), true),
      a::MakeField("s", a::LargeBinary(), false),
      a::MakeField("l", a::List(a::MakeField("item", a::Float32(), false)), false),
      a::MakeField("l", a::List(a::MakeField("item", a::Int16(), true)), true),
      a::MakeField("l", a::LargeList(a::MakeField("item", a::Utf8(), true)), true),
      a::MakeField("l", a::List(a::MakeField("item", a::Utf8(), false)), true),
      a::MakeField(
          "nd",
          a::Struct(
              {a::MakeField("values", a::List(a::MakeField("item", a::Float32(), false)), false),
               a::MakeField("dim_names", a::List(a::MakeField("item", a::Utf8(), false)), false),
               a::MakeField("dim_sizes", a::List(a::MakeField("item", a::UInt32(), false)),
                            false)}),
          true),
      a::MakeField(
          "ll",
          a::List(a::MakeField("item", a::List(a::MakeField("item", a::UInt8(), true)), true)),
          true),
  };
  std::uint64_t seed = 1;
  int compared = 0;
  for (const auto& field : fields) {
    for (bool sliced : {false, true}) {
      lt::RandomArrayOptions ro;
      ro.sliced = sliced;
      ro.max_list_length = 40;
      std::vector<a::ArrayPtr> arrays;
      for (int k = 0; k < 3; ++k) {
        arrays.push_back(lt::RandomArray(field->type(), 300 + 50 * k, field->nullable() ? 0.1 : 0.0,
                                         seed++, ro));
        ASSERT_NE(arrays.back(), nullptr);
      }
      compared +=
          CompareLeaves(field, arrays, field->type()->ToString() + (sliced ? " sliced" : ""));
    }
  }
  EXPECT_GE(compared, 2 * 12);
}

TEST(WriterBulkPathsTest, RandomTypes) {
  int compared = 0;
  for (std::uint64_t seed = 1; seed <= 150; ++seed) {
    auto type = lt::RandomType(seed, 3);
    lt::RandomArrayOptions ro;
    ro.sliced = seed % 2 == 0;
    std::vector<a::ArrayPtr> arrays;
    for (int k = 0; k < 2; ++k) {
      arrays.push_back(lt::RandomArray(type, 200, seed % 3 == 0 ? 0.0 : 0.2,
                                       seed * 7 + static_cast<std::uint64_t>(k), ro));
      ASSERT_NE(arrays.back(), nullptr);
    }
    compared += CompareLeaves(a::MakeField("c", type, seed % 4 != 0), arrays,
                              "seed " + std::to_string(seed) + " " + type->ToString());
  }
  EXPECT_GE(compared, 100);
}

// Leaf values whose array has a validity bitmap without nulls (as Arrow IPC readers often give)
// are viewed, not copied, when the page's slices follow each other in one buffer; a null in a
// later slice makes the page copy them. Both must equal the per-value reference.
TEST(WriterBulkPathsTest, AllValidBitmapsAreViewedAndANullCopies) {
  const auto type = a::List(a::MakeField("item", a::Float32(), true));
  const auto field = a::MakeField("l", type, true);
  auto plan = PlanSchema(*a::MakeSchema({field}), {});
  ASSERT_TRUE(plan.ok());
  const LeafColumn& leaf = plan->leaves.at(0);
  for (int null_at : {-1, 5, 3000}) {
    SCOPED_TRACE("null at " + std::to_string(null_at));
    const int rows = 1000, per_row = 4, n = rows * per_row;
    std::vector<std::uint8_t> values(static_cast<std::size_t>(n) * 4), bits((n + 7) / 8, 0xFF);
    for (int i = 0; i < n; ++i) {
      const float f = static_cast<float>(i) * 0.5F;
      std::memcpy(values.data() + static_cast<std::size_t>(i) * 4, &f, 4);
    }
    if (null_at >= 0) {
      bits[static_cast<std::size_t>(null_at / 8)] &=
          static_cast<std::uint8_t>(~(1u << (null_at % 8)));
    }
    std::vector<std::uint8_t> offsets(static_cast<std::size_t>(rows + 1) * 4);
    for (int r = 0; r <= rows; ++r) {
      const std::int32_t o = r * per_row;
      std::memcpy(offsets.data() + static_cast<std::size_t>(r) * 4, &o, 4);
    }
    auto items = a::MakeArrayData(a::Float32(), n,
                                  {a::Buffer::FromVector(bits), a::Buffer::FromVector(values)}, {},
                                  null_at >= 0 ? 1 : 0);
    auto list = a::MakeArrayData(type, rows, {nullptr, a::Buffer::FromVector(offsets)}, {items}, 0);
    std::vector<a::ArrayPtr> slices;
    for (int start = 0; start < rows; start += 250) {
      LND_ASSERT_OK_AND_ASSIGN(a::ArrayPtr slice, a::Slice(list, start, 250));
      slices.push_back(slice);
    }
    LND_ASSERT_OK_AND_ASSIGN(ShreddedPage bulk, ShredLeaf(leaf, slices, ShredMode::kBulk));
    EXPECT_EQ(bulk.values.external != nullptr, null_at < 0);
    EXPECT_EQ(CompareLeaves(field, slices, "all-valid bitmap"), 1);
  }
}

// A page whose def levels are all 0 keeps only that fact (def_zero): it must encode to the same
// bytes as the page holding the zeros, in every layout (generated nullable columns without
// nulls, as the nd encoding's nullable structs are).
TEST(WriterBulkPathsTest, ZeroDefLevelsEncodeAsTheMaterialisedLevels) {
  int zero_pages = 0;
  for (std::uint64_t seed = 1; seed <= 600; ++seed) {
    auto type = lt::RandomType(seed, 3);
    auto field = a::MakeField("c", type, /*nullable=*/true);
    auto plan = PlanSchema(*a::MakeSchema({field}), {});
    if (!plan.ok()) continue;
    lt::RandomArrayOptions ro;
    ro.sliced = seed % 2 == 0;
    std::vector<a::ArrayPtr> arrays{lt::RandomArray(type, 300, 0.0, seed, ro)};
    ASSERT_NE(arrays.back(), nullptr);
    for (const LeafColumn& leaf : plan->leaves) {
      auto page = ShredLeaf(leaf, arrays);
      if (!page.ok() || !page->def_zero) continue;
      ++zero_pages;
      ShreddedPage held = *page;
      held.def = AllDefLevels(*page);
      held.def_zero = false;
      for (auto structural :
           {ColumnOptions::Structural::kMiniBlock, ColumnOptions::Structural::kFullZip}) {
        for (const char* compression : {"", "zstd"}) {
          a::Metadata md = leaf.leaf_field->metadata();
          if (*compression != '\0') md.Set("lance-encoding:compression", compression);
          auto options =
              ColumnOptions::FromField(*leaf.leaf_field->WithMetadata(md), FileVersion::kV2_2);
          ASSERT_TRUE(options.ok());
          options->structural = structural;
          auto zero = EncodePage(*page, *options);
          auto materialised = EncodePage(held, *options);
          ASSERT_EQ(zero.ok(), materialised.ok());
          if (zero.ok()) ExpectSamePage(*zero, *materialised, "seed " + std::to_string(seed));
        }
      }
    }
  }
  EXPECT_GE(zero_pages, 30);
}

TEST(WriterBulkPathsTest, LargePageWithManyChunks) {
  // Enough chunks for the parallel chunk layout and compression (both threads busy).
  auto field = a::MakeField("l", a::List(a::MakeField("item", a::Float32(), false)), false);
  lt::RandomArrayOptions ro;
  ro.max_list_length = 2000;
  std::vector<a::ArrayPtr> arrays = {lt::RandomArray(field->type(), 400, 0.0, 99, ro),
                                     lt::RandomArray(field->type(), 300, 0.0, 98, ro)};
  EXPECT_EQ(CompareLeaves(field, arrays, "large"), 1);
}

}  // namespace
}  // namespace lance_nd::file::internal::writer
