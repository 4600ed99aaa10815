#include "lance_nd/file/writer/shred.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "lance_nd/array/type.h"
#include "lance_nd/file/writer/leaf_plan.h"
#include "lance_nd/file/writer/test_arrays.h"
#include "lance_nd/testing/status_matchers.h"

namespace lance_nd::file::internal::writer {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;
namespace a = ::lance_nd::array;
namespace t = testing;

std::vector<float> Floats(const ShreddedPage& page) {
  std::vector<float> out(page.values.num_slots);
  std::memcpy(out.data(), page.values.data().data(), out.size() * 4);
  return out;
}

TEST(ShredTest, StructOfListWithNullStructAndEmptyList) {
  // t: Struct{values: List<Float32>} = [{[1.5,2.5]}, null, {[]}, {[4.0]}]
  // (docs/lance-file-format.md §2.6, §7)
  auto list_type = a::List(a::Float32());
  auto struct_type = a::Struct({a::MakeField("values", list_type)});
  auto schema = a::MakeSchema({a::MakeField("t", struct_type)});
  auto items = t::Prim<float>(a::Float32(), {1.5f, 2.5f, 4.0f});
  auto lists = t::List(list_type, {2, 0, 0, 1}, items);
  auto column = t::Struct(struct_type, {true, false, true, true}, {lists});
  LND_ASSERT_OK_AND_ASSIGN(SchemaPlan plan, PlanSchema(*schema, {}));
  ASSERT_EQ(plan.leaves.size(), 1u);
  LND_ASSERT_OK_AND_ASSIGN(ShreddedPage page, ShredLeaf(plan.leaves[0], std::vector{column}));
  EXPECT_THAT(page.layers,
              ElementsAre(Layer::kAllValidItem, Layer::kNullAndEmptyList, Layer::kNullableItem));
  EXPECT_THAT(page.rep, ElementsAre(1, 0, 1, 1, 1));
  EXPECT_THAT(page.def, ElementsAre(0, 0, 3, 2, 0));
  EXPECT_THAT(Floats(page), ElementsAre(1.5f, 2.5f, 4.0f));
  EXPECT_EQ(page.num_rows, 4u);
  EXPECT_EQ(page.max_visible_def, 0);
  EXPECT_THAT(SlotLevelIndices(page), ElementsAre(0, 1, 4));
}

TEST(ShredTest, NullAndEmptyListsOfNonNullItems) {
  // chunk_offset.item rows: null, [], [20, 21]  (§2.6)
  auto list_type = a::List(a::UInt32());
  auto schema = a::MakeSchema({a::MakeField("c", list_type)});
  auto items = t::Prim<std::uint32_t>(a::UInt32(), {20u, 21u});
  auto lists = t::List(list_type, {std::nullopt, 0, 2}, items);
  LND_ASSERT_OK_AND_ASSIGN(SchemaPlan plan, PlanSchema(*schema, {}));
  LND_ASSERT_OK_AND_ASSIGN(ShreddedPage page, ShredLeaf(plan.leaves[0], std::vector{lists}));
  EXPECT_THAT(page.layers, ElementsAre(Layer::kAllValidItem, Layer::kNullAndEmptyList));
  EXPECT_THAT(page.rep, ElementsAre(1, 1, 1, 0));
  EXPECT_THAT(page.def, ElementsAre(1, 2, 0, 0));
  EXPECT_EQ(page.values.num_slots, 2u);
}

TEST(ShredTest, NestedStructsWithoutListsHaveVisibleNulls) {
  // temperature.attrs.units: def 0 valid, 1 null units, 2 null attrs, 3 null temperature
  auto attrs_type = a::Struct({a::MakeField("units", a::Utf8())});
  auto temp_type = a::Struct({a::MakeField("attrs", attrs_type)});
  auto schema = a::MakeSchema({a::MakeField("temperature", temp_type)});
  auto units = t::Strings(a::Utf8(), {"K", std::nullopt, "x", "y"});
  auto attrs = t::Struct(attrs_type, {true, true, false, true}, {units});
  auto temp = t::Struct(temp_type, {true, true, true, false}, {attrs});
  LND_ASSERT_OK_AND_ASSIGN(SchemaPlan plan, PlanSchema(*schema, {}));
  LND_ASSERT_OK_AND_ASSIGN(ShreddedPage page, ShredLeaf(plan.leaves[0], std::vector{temp}));
  EXPECT_THAT(page.layers,
              ElementsAre(Layer::kNullableItem, Layer::kNullableItem, Layer::kNullableItem));
  EXPECT_THAT(page.rep, IsEmpty());
  EXPECT_THAT(page.def, ElementsAre(0, 1, 2, 3));
  EXPECT_EQ(page.values.num_slots, 4u);
  EXPECT_EQ(page.values.num_valid, 1u);
  EXPECT_THAT(page.values.offsets, ElementsAre(0, 1, 1, 1, 1));
  EXPECT_EQ(page.max_visible_def, 3);
}

TEST(ShredTest, NoNullsNoListsHasNoLevels) {
  auto schema = a::MakeSchema({a::MakeField("x", a::Int32())});
  auto x = t::Prim<std::int32_t>(a::Int32(), {1, 2, 3});
  LND_ASSERT_OK_AND_ASSIGN(SchemaPlan plan, PlanSchema(*schema, {}));
  LND_ASSERT_OK_AND_ASSIGN(ShreddedPage page, ShredLeaf(plan.leaves[0], std::vector{x}));
  EXPECT_THAT(page.layers, ElementsAre(Layer::kAllValidItem));
  EXPECT_FALSE(page.has_rep);
  EXPECT_FALSE(page.has_def);
  EXPECT_EQ(page.num_levels, 0u);
  EXPECT_EQ(page.values.num_valid, 3u);
}

TEST(ShredTest, SlicedArraysFollowOffsets) {
  auto list_type = a::List(a::Int32());
  auto schema = a::MakeSchema({a::MakeField("l", list_type)});
  auto items = t::Prim<std::int32_t>(a::Int32(), {1, 2, 3, 4, 5, 6});
  auto lists = t::List(list_type, {1, 2, 3}, items);
  LND_ASSERT_OK_AND_ASSIGN(auto sliced, a::Slice(lists, 1, 2));
  LND_ASSERT_OK_AND_ASSIGN(SchemaPlan plan, PlanSchema(*schema, {}));
  LND_ASSERT_OK_AND_ASSIGN(ShreddedPage page, ShredLeaf(plan.leaves[0], std::vector{sliced}));
  EXPECT_THAT(page.rep, ElementsAre(1, 0, 1, 0, 0));
  std::vector<std::int32_t> v(5);
  std::memcpy(v.data(), page.values.data().data(), 20);
  EXPECT_THAT(v, ElementsAre(2, 3, 4, 5, 6));
  EXPECT_EQ(page.num_rows, 2u);
}

TEST(ShredTest, GarbageUnderNullListIsDropped) {
  auto list_type = a::List(a::Int32());
  auto schema = a::MakeSchema({a::MakeField("l", list_type)});
  auto items = t::Prim<std::int32_t>(a::Int32(), {1, 99, 98, 2});
  // row 1 is null but spans two garbage items
  auto lists = t::List(list_type, {1, std::nullopt, 1}, items);
  std::vector<std::int32_t> offsets{0, 1, 3, 4};
  auto with_garbage = a::MakeArrayData(
      list_type, 3, {lists->buffers[0], a::Buffer::Copy(offsets.data(), 16)}, {items});
  LND_ASSERT_OK_AND_ASSIGN(SchemaPlan plan, PlanSchema(*schema, {}));
  LND_ASSERT_OK_AND_ASSIGN(ShreddedPage page, ShredLeaf(plan.leaves[0], std::vector{with_garbage}));
  EXPECT_THAT(page.layers, ElementsAre(Layer::kAllValidItem, Layer::kNullableList));
  EXPECT_THAT(page.rep, ElementsAre(1, 1, 1));
  EXPECT_THAT(page.def, ElementsAre(0, 1, 0));
  EXPECT_EQ(page.values.num_slots, 2u);
}

TEST(LeafPlanTest, PreOrderIdsAndLogicalTypes) {
  auto fsl = a::FixedSizeList(a::Float32(), 3);
  auto st = a::Struct({a::MakeField("a", a::List(a::Struct({a::MakeField("b", a::Utf8())}))),
                       a::MakeField("v", fsl)});
  auto schema = a::MakeSchema(
      {a::MakeField("s", st), a::MakeField("ts", a::Timestamp(a::TimeUnit::kMicro, "UTC"))});
  LND_ASSERT_OK_AND_ASSIGN(SchemaPlan plan, PlanSchema(*schema, {}));
  std::vector<std::string> names, types;
  std::vector<int> parents;
  for (const auto& f : plan.fields) {
    names.push_back(f.name);
    types.push_back(f.logical_type);
    parents.push_back(f.parent_id);
  }
  EXPECT_THAT(names, ElementsAre("s", "a", "item", "b", "v", "ts"));
  EXPECT_THAT(types, ElementsAre("struct", "list.struct", "struct", "string",
                                 "fixed_size_list:float:3", "timestamp:us:UTC"));
  EXPECT_THAT(parents, ElementsAre(-1, 0, 1, 2, 0, -1));
  ASSERT_EQ(plan.leaves.size(), 3u);
  EXPECT_EQ(plan.leaves[0].field_id, 3);
  EXPECT_EQ(plan.leaves[1].field_id, 4);
  EXPECT_EQ(plan.leaves[2].field_id, 5);
  EXPECT_EQ(plan.leaves[1].kind, LeafKind::kFixedList);
  EXPECT_EQ(plan.leaves[1].items_per_value, 3);
}

TEST(LeafPlanTest, ExplicitIdsMustCoverEveryField) {
  auto schema = a::MakeSchema({a::MakeField("x", a::List(a::Int32()))});
  const std::vector<std::int32_t> ids{7};
  LND_EXPECT_ERROR(PlanSchema(*schema, ids), StatusCode::kInvalidArgument, "field ids");
  const std::vector<std::int32_t> good{7, 9};
  LND_ASSERT_OK_AND_ASSIGN(SchemaPlan plan, PlanSchema(*schema, good));
  EXPECT_EQ(plan.fields[1].id, 9);
  EXPECT_EQ(plan.fields[1].parent_id, 7);
}

}  // namespace
}  // namespace lance_nd::file::internal::writer

namespace lance_nd::file::internal::writer {
namespace {

TEST(LeafPlanTest, RejectsUnsupportedFixedSizeLists) {
  namespace a = ::lance_nd::array;
  auto nested =
      a::MakeSchema({a::MakeField("x", a::FixedSizeList(a::FixedSizeList(a::Int32(), 2), 3))});
  LND_EXPECT_ERROR(PlanSchema(*nested, {}), StatusCode::kNotImplemented, "nested fixed_size_list");
  auto of_strings = a::MakeSchema({a::MakeField("y", a::FixedSizeList(a::Utf8(), 2))});
  LND_EXPECT_ERROR(PlanSchema(*of_strings, {}), StatusCode::kNotImplemented,
                   "only fixed-width items");
}

}  // namespace
}  // namespace lance_nd::file::internal::writer
