// The struct layers above a list keep the field's nullability on every page, with definition
// bits in full-zip pages too, so that Lance 12 (which misreads a list column whose struct
// layers change between nullable and all-valid from page to page) reads every page alike.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "encodings_v2_1.pb.h"
#include "lance_nd/array/type.h"
#include "lance_nd/file/writer/leaf_plan.h"
#include "lance_nd/file/writer/page_encoder.h"
#include "lance_nd/file/writer/shred.h"
#include "lance_nd/file/writer/test_arrays.h"
#include "lance_nd/testing/status_matchers.h"

namespace lance_nd::file::internal::writer {
namespace {

using ::testing::Each;
using ::testing::ElementsAre;
namespace a = ::lance_nd::array;
namespace t = testing;

// g: Struct{k: List<Utf8>} with valid rows only: [{["x", "y"]}, {["z"]}].
Result<ShreddedPage> ShredValidRows(bool struct_nullable) {
  auto list_type = a::List(a::Utf8());
  auto struct_type = a::Struct({a::MakeField("k", list_type, /*nullable=*/false)});
  auto schema = a::MakeSchema({a::MakeField("g", struct_type, struct_nullable)});
  auto items = t::Strings(a::Utf8(), {"x", "y", "z"});
  auto lists = t::List(list_type, {2, 1}, items);
  auto column = t::Struct(struct_type, {true, true}, {lists});
  LND_ASSIGN_OR_RETURN(SchemaPlan plan, PlanSchema(*schema, {}));
  return ShredLeaf(plan.leaves[0], std::vector{column});
}

TEST(ShredLayersTest, NullableStructAboveAListIsNullableWithoutNulls) {
  LND_ASSERT_OK_AND_ASSIGN(ShreddedPage page, ShredValidRows(/*struct_nullable=*/true));
  EXPECT_THAT(page.layers,
              ElementsAre(Layer::kAllValidItem, Layer::kAllValidList, Layer::kNullableItem));
  // Every def level is 0: the page says so instead of holding them.
  EXPECT_TRUE(page.has_def);
  EXPECT_TRUE(page.def_zero);
  EXPECT_TRUE(page.def.empty());
  EXPECT_EQ(page.num_levels, 3u);
  EXPECT_THAT(AllDefLevels(page), ElementsAre(0, 0, 0));
  EXPECT_THAT(page.rep, ElementsAre(1, 0, 1));
}

TEST(ShredLayersTest, FullZipPageHasDefinitionBitsForANullableLayerWithoutNulls) {
  LND_ASSERT_OK_AND_ASSIGN(ShreddedPage page, ShredValidRows(/*struct_nullable=*/true));
  ColumnOptions options;
  options.structural = ColumnOptions::Structural::kFullZip;
  LND_ASSERT_OK_AND_ASSIGN(EncodedPage encoded, EncodePage(page, options));
  lance::encodings21::PageLayout layout;
  ASSERT_TRUE(layout.ParseFromString(encoded.layout));
  ASSERT_TRUE(layout.has_full_zip_layout());
  EXPECT_EQ(layout.full_zip_layout().bits_def(), 1u);
  EXPECT_EQ(layout.full_zip_layout().bits_rep(), 1u);
}

TEST(ShredLayersTest, NonNullableStructAboveAListStaysAllValid) {
  LND_ASSERT_OK_AND_ASSIGN(ShreddedPage page, ShredValidRows(/*struct_nullable=*/false));
  EXPECT_THAT(page.layers,
              ElementsAre(Layer::kAllValidItem, Layer::kAllValidList, Layer::kAllValidItem));
  EXPECT_TRUE(page.def.empty());
}

// g: Struct{k: List<Utf8>, u: Utf8} with valid rows only; both leaf columns must give the
// struct the same layer, or Lance 12 miscounts the struct's validity.
TEST(ShredLayersTest, SiblingLeavesOfANullableStructAgree) {
  auto list_type = a::List(a::Utf8());
  auto struct_type = a::Struct({a::MakeField("k", list_type, /*nullable=*/false),
                                a::MakeField("u", a::Utf8(), /*nullable=*/false)});
  auto schema = a::MakeSchema({a::MakeField("g", struct_type, /*nullable=*/true)});
  auto lists = t::List(list_type, {2, 1}, t::Strings(a::Utf8(), {"x", "y", "z"}));
  auto plain = t::Strings(a::Utf8(), {"p", "q"});
  auto column = t::Struct(struct_type, {true, true}, {lists, plain});
  LND_ASSERT_OK_AND_ASSIGN(SchemaPlan plan, PlanSchema(*schema, {}));
  ASSERT_EQ(plan.leaves.size(), 2u);
  LND_ASSERT_OK_AND_ASSIGN(ShreddedPage list_leaf, ShredLeaf(plan.leaves[0], std::vector{column}));
  LND_ASSERT_OK_AND_ASSIGN(ShreddedPage plain_leaf, ShredLeaf(plan.leaves[1], std::vector{column}));
  EXPECT_EQ(list_leaf.layers.back(), Layer::kNullableItem);
  EXPECT_THAT(plain_leaf.layers, ElementsAre(Layer::kAllValidItem, Layer::kNullableItem));
  EXPECT_TRUE(plain_leaf.def_zero);
  EXPECT_THAT(AllDefLevels(plain_leaf), ElementsAre(0, 0));
}

// l: List<Struct{u: Utf8}> whose lists are all empty: the struct inside the list stays
// all-valid (Lance 12 misreads a nullable struct layer on a page of only empty lists).
TEST(ShredLayersTest, NullableStructInsideAListIsNotForced) {
  auto struct_type = a::Struct({a::MakeField("u", a::Utf8(), /*nullable=*/false)});
  auto list_type = a::List(a::MakeField("item", struct_type, /*nullable=*/true));
  auto schema = a::MakeSchema({a::MakeField("l", list_type, /*nullable=*/false)});
  auto structs = t::Struct(struct_type, {}, {t::Strings(a::Utf8(), {})});
  auto column = t::List(list_type, {0, 0}, structs);
  LND_ASSERT_OK_AND_ASSIGN(SchemaPlan plan, PlanSchema(*schema, {}));
  LND_ASSERT_OK_AND_ASSIGN(ShreddedPage page, ShredLeaf(plan.leaves[0], std::vector{column}));
  EXPECT_THAT(page.layers,
              ElementsAre(Layer::kAllValidItem, Layer::kAllValidItem, Layer::kEmptyableList));
}

}  // namespace
}  // namespace lance_nd::file::internal::writer
