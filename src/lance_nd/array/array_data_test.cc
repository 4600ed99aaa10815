#include "lance_nd/array/array_data.h"

#include <gtest/gtest.h>

#include <optional>
#include <random>

#include "lance_nd/array/builder.h"
#include "lance_nd/array/view.h"
#include "lance_nd/testing/status_matchers.h"

namespace lance_nd::array {
namespace {

const std::vector<DataTypePtr>& AllTypes() {
  static const std::vector<DataTypePtr> kTypes = {
      Null(),
      Bool(),
      Int8(),
      Int16(),
      Int32(),
      Int64(),
      UInt8(),
      UInt16(),
      UInt32(),
      UInt64(),
      Float16(),
      Float32(),
      Float64(),
      Utf8(),
      LargeUtf8(),
      Binary(),
      LargeBinary(),
      FixedSizeBinary(4),
      Date32(),
      Date64(),
      Timestamp(TimeUnit::kMilli, "UTC"),
      Duration(TimeUnit::kNano),
      List(Int8()),
      LargeList(Utf8()),
      FixedSizeList(Float32(), 3),
      Struct({MakeField("x", List(Bool())), MakeField("y", FixedSizeBinary(2)),
              MakeField("z", FixedSizeList(Struct({MakeField("q", Int8())}), 2))})};
  return kTypes;
}

TEST(ArrayDataTest, NullCountLazyAndHint) {
  auto a = MakePrimitiveArray<int32_t>(Int32(), {1, std::nullopt, std::nullopt, 4});
  auto lazy = MakeArrayData(a->type, a->length, a->buffers);
  EXPECT_EQ(lazy->null_count_hint, ArrayData::kUnknownNullCount);
  EXPECT_EQ(lazy->null_count(), 2);
  EXPECT_TRUE(lazy->IsValid(0));
  EXPECT_FALSE(lazy->IsValid(1));
  auto no_bitmap = MakeArrayData(Int32(), 4, {nullptr, a->buffers[1]});
  EXPECT_EQ(no_bitmap->null_count(), 0);
  EXPECT_TRUE(no_bitmap->IsValid(2));
  auto nulls = MakeArrayData(Null(), 7, {});
  EXPECT_EQ(nulls->null_count(), 7);
  EXPECT_TRUE(nulls->IsNull(0));
}

// AllValid over every range of generated arrays (sliced too) agrees with IsValid slot by slot.
TEST(ArrayDataTest, AllValidAgreesWithIsValidOnEveryRange) {
  std::mt19937_64 rng(21);
  for (int trial = 0; trial < 40; ++trial) {
    std::vector<std::optional<int32_t>> v(static_cast<std::size_t>(rng() % 90));
    const bool with_nulls = trial % 4 != 0;  // some arrays keep a bitmap without nulls
    for (auto& x : v) {
      if (!with_nulls || rng() % 6 != 0) x = static_cast<int32_t>(rng() % 100);
    }
    ArrayPtr a = MakePrimitiveArray<int32_t>(Int32(), v);
    if (trial % 2 == 1 && a->length > 3) {
      LND_ASSERT_OK_AND_ASSIGN(a, Slice(a, 3, a->length - 3));
    }
    for (int64_t b = 0; b <= a->length; ++b) {
      for (int64_t e = b; e <= a->length; ++e) {
        bool want = true;
        for (int64_t i = b; i < e; ++i) want = want && a->IsValid(i);
        ASSERT_EQ(a->AllValid(b, e - b), want)
            << "trial " << trial << " [" << b << ", " << e << ")";
      }
    }
  }
}

TEST(ArrayDataTest, SliceAdjustsOffsetAndNullCount) {
  auto a = MakePrimitiveArray<int32_t>(Int32(), {1, std::nullopt, 3, 4, std::nullopt, 6});
  LND_ASSERT_OK_AND_ASSIGN(auto s, Slice(a, 2, 3));
  EXPECT_EQ(s->offset, 2);
  EXPECT_EQ(s->length, 3);
  EXPECT_EQ(s->null_count(), 1);
  EXPECT_EQ(PrimitiveView<int32_t>(*s).Value(0), 3);
  EXPECT_TRUE(s->IsNull(2));
  LND_ASSERT_OK_AND_ASSIGN(auto s2, Slice(s, 1, 1));
  EXPECT_EQ(s2->offset, 3);
  EXPECT_EQ(PrimitiveView<int32_t>(*s2).Value(0), 4);
  EXPECT_EQ(s2->null_count(), 0);
  LND_EXPECT_OK(Validate(*s2));
  LND_EXPECT_ERROR(Slice(a, 4, 3), StatusCode::kInvalidArgument, "outside the array of length 6");
  LND_EXPECT_ERROR(Slice(a, -1, 1), StatusCode::kInvalidArgument, "outside");
  LND_ASSERT_OK_AND_ASSIGN(auto empty, Slice(a, 6, 0));
  EXPECT_EQ(empty->length, 0);
}

TEST(ArrayDataTest, NullsAndEmptyForEveryType) {
  for (const auto& t : AllTypes()) {
    auto nulls = MakeArrayOfNulls(t, 5);
    EXPECT_EQ(nulls->length, 5);
    EXPECT_EQ(nulls->null_count(), 5) << t->ToString();
    for (int64_t i = 0; i < 5; ++i) EXPECT_TRUE(nulls->IsNull(i));
    LND_EXPECT_OK(Validate(*nulls));
    auto empty = MakeEmptyArray(t);
    EXPECT_EQ(empty->length, 0);
    EXPECT_EQ(empty->null_count(), 0);
    LND_EXPECT_OK(Validate(*empty));
    auto zero_nulls = MakeArrayOfNulls(t, 0);
    LND_EXPECT_OK(Validate(*zero_nulls));
    EXPECT_TRUE(ArrayEquals(*zero_nulls, *empty)) << t->ToString();
  }
}

TEST(ArrayDataTest, NullListsHaveZeroOffsetsAndEmptyChild) {
  auto a = MakeArrayOfNulls(List(Int32()), 3);
  ListView v(*a);
  for (int64_t i = 0; i < 3; ++i) EXPECT_EQ(v.ValueLength(i), 0);
  EXPECT_EQ(v.values()->length, 0);
  auto fsl = MakeArrayOfNulls(FixedSizeList(Int32(), 4), 3);
  EXPECT_EQ(fsl->children[0]->length, 12);
}

TEST(ArrayDataTest, ValuesPointerIsNullForAbsentBuffer) {
  auto a = MakeArrayData(Int32(), 0, {nullptr, nullptr}, {}, 0);
  EXPECT_EQ(a->values<int32_t>(1), nullptr);
  EXPECT_EQ(a->values<int32_t>(5), nullptr);
  LND_EXPECT_OK(Validate(*a));
  PrimitiveView<int32_t> v(*a);
  EXPECT_EQ(v.length(), 0);
}

}  // namespace
}  // namespace lance_nd::array
