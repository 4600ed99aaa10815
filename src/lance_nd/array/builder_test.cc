#include "lance_nd/array/builder.h"

#include <gtest/gtest.h>

#include "lance_nd/array/view.h"
#include "lance_nd/testing/status_matchers.h"

namespace lance_nd::array {
namespace {

TEST(BuilderTest, Primitive) {
  PrimitiveBuilder<int32_t> b(Int32());
  b.Append(1);
  b.AppendNull();
  const int32_t more[] = {3, 4};
  b.AppendValues(more, 2);
  EXPECT_EQ(b.length(), 4);
  EXPECT_EQ(b.null_count(), 1);
  LND_ASSERT_OK_AND_ASSIGN(auto a, b.Finish());
  LND_ASSERT_OK(Validate(*a));
  EXPECT_EQ(a->length, 4);
  EXPECT_EQ(a->null_count(), 1);
  EXPECT_TRUE(a->IsNull(1));
  PrimitiveView<int32_t> v(*a);
  EXPECT_EQ(v.Value(0), 1);
  EXPECT_EQ(v.Value(3), 4);
  // The builder is reusable and a no-null result has no validity bitmap.
  EXPECT_EQ(b.length(), 0);
  b.Append(9);
  LND_ASSERT_OK_AND_ASSIGN(auto a2, b.Finish());
  EXPECT_EQ(a2->validity(), nullptr);
  EXPECT_EQ(a2->null_count(), 0);
  EXPECT_EQ(PrimitiveView<int32_t>(*a2).Value(0), 9);
}

TEST(BuilderTest, PrimitiveWidthMismatchFails) {
  PrimitiveBuilder<int16_t> b(Int32());
  b.Append(1);
  LND_EXPECT_ERROR(b.Finish(), StatusCode::kInvalidArgument, "cannot build type int32");
}

TEST(BuilderTest, BoolAcrossBytes) {
  BoolBuilder b;
  for (int i = 0; i < 20; ++i) {
    if (i % 7 == 3) {
      b.AppendNull();
    } else {
      b.Append(i % 2 == 0);
    }
  }
  LND_ASSERT_OK_AND_ASSIGN(auto a, b.Finish());
  LND_ASSERT_OK(Validate(*a));
  EXPECT_EQ(a->null_count(), 3);
  BoolView v(*a);
  for (int i = 0; i < 20; ++i) {
    EXPECT_EQ(v.IsNull(i), i % 7 == 3);
    if (i % 7 != 3) {
      EXPECT_EQ(v.Value(i), i % 2 == 0);
    }
  }
}

TEST(BuilderTest, StringsAndLargeBinary) {
  auto s = MakeStringArray({"a", std::nullopt, "", "hello"});
  LND_ASSERT_OK(Validate(*s));
  BinaryView v(*s);
  EXPECT_EQ(v.Value(0), "a");
  EXPECT_TRUE(v.IsNull(1));
  EXPECT_EQ(v.Value(2), "");
  EXPECT_EQ(v.Value(3), "hello");
  EXPECT_EQ(v.Offset(4), 6);
  auto lb = MakeStringArray({"xyz", std::nullopt}, LargeBinary());
  LND_ASSERT_OK(Validate(*lb));
  EXPECT_EQ(lb->buffers[1]->size(), 3 * 8);
  EXPECT_EQ(BinaryView(*lb).Value(0), "xyz");
}

TEST(BuilderTest, FixedSizeBinary) {
  FixedSizeBinaryBuilder b(FixedSizeBinary(3));
  LND_ASSERT_OK(b.Append("abc"));
  LND_EXPECT_ERROR(b.Append("ab"), StatusCode::kInvalidArgument, "has 2 bytes, expected 3");
  b.AppendNull();
  LND_ASSERT_OK_AND_ASSIGN(auto a, b.Finish());
  LND_ASSERT_OK(Validate(*a));
  EXPECT_EQ(a->length, 2);
  EXPECT_EQ(a->buffers[1]->size(), 6);
  EXPECT_EQ(PrettyPrint(*a), "[\"abc\", null]");
}

TEST(BuilderTest, ListOfFloat) {
  ListBuilder b(List(Float32()));
  auto* vb = static_cast<PrimitiveBuilder<float>*>(b.value_builder());
  b.Append();
  vb->Append(1.5f);
  vb->Append(2.5f);
  b.AppendNull();
  b.Append();  // empty
  b.Append();
  vb->AppendNull();
  LND_ASSERT_OK_AND_ASSIGN(auto a, b.Finish());
  LND_ASSERT_OK(Validate(*a));
  EXPECT_EQ(a->length, 4);
  EXPECT_EQ(a->null_count(), 1);
  ListView v(*a);
  EXPECT_EQ(v.ValueOffset(0), 0);
  EXPECT_EQ(v.ValueLength(0), 2);
  EXPECT_EQ(v.ValueLength(1), 0);
  EXPECT_EQ(v.ValueLength(2), 0);
  EXPECT_EQ(v.ValueLength(3), 1);
  EXPECT_EQ(v.values()->length, 3);
  EXPECT_EQ(PrettyPrint(*a), "[[1.5, 2.5], null, [], [null]]");
}

TEST(BuilderTest, FixedSizeListChecksItemCount) {
  FixedSizeListBuilder b(FixedSizeList(Int8(), 2));
  auto* vb = static_cast<PrimitiveBuilder<int8_t>*>(b.value_builder());
  b.Append();
  vb->Append(1);
  vb->Append(2);
  b.AppendNull();
  LND_ASSERT_OK_AND_ASSIGN(auto a, b.Finish());
  LND_ASSERT_OK(Validate(*a));
  EXPECT_EQ(a->children[0]->length, 4);
  EXPECT_EQ(PrettyPrint(*a), "[[1, 2], null]");
  b.Append();
  vb->Append(1);
  LND_EXPECT_ERROR(b.Finish(), StatusCode::kInvalidArgument, "has 1 items, expected 2");
}

TEST(BuilderTest, StructChecksChildLengths) {
  auto type = Struct({MakeField("a", Int32()), MakeField("b", Utf8())});
  StructBuilder b(type);
  ASSERT_EQ(b.num_children(), 2);
  b.Append();
  static_cast<PrimitiveBuilder<int32_t>*>(b.child_builder(0))->Append(5);
  static_cast<BinaryBuilder*>(b.child_builder(1))->Append("x");
  b.AppendNull();
  LND_ASSERT_OK_AND_ASSIGN(auto a, b.Finish());
  LND_ASSERT_OK(Validate(*a));
  EXPECT_EQ(a->length, 2);
  EXPECT_TRUE(a->IsNull(1));
  EXPECT_TRUE(a->children[0]->IsNull(1));
  b.Append();
  static_cast<PrimitiveBuilder<int32_t>*>(b.child_builder(0))->Append(5);
  LND_EXPECT_ERROR(b.Finish(), StatusCode::kInvalidArgument, "child 'b' has 0 slots, expected 1");
}

TEST(BuilderTest, NullBuilder) {
  NullBuilder b;
  b.AppendNulls(3);
  LND_ASSERT_OK_AND_ASSIGN(auto a, b.Finish());
  LND_ASSERT_OK(Validate(*a));
  EXPECT_EQ(a->length, 3);
  EXPECT_EQ(a->null_count(), 3);
  EXPECT_TRUE(a->buffers.empty());
}

TEST(BuilderTest, MakeBuilderCoversEveryType) {
  const std::vector<DataTypePtr> types = {
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
      Struct({MakeField("x", List(Bool())), MakeField("y", FixedSizeBinary(2))})};
  for (const auto& t : types) {
    auto b = MakeBuilder(t);
    ASSERT_NE(b, nullptr) << t->ToString();
    b->AppendNulls(5);
    LND_ASSERT_OK_AND_ASSIGN(auto a, b->Finish());
    EXPECT_TRUE(a->type->Equals(*t)) << t->ToString();
    EXPECT_EQ(a->length, 5);
    EXPECT_EQ(a->null_count(), 5) << t->ToString();
    LND_EXPECT_OK(Validate(*a));
  }
}

TEST(BuilderTest, AppendArraySliceCopiesSlots) {
  auto src = MakePrimitiveArray<int64_t>(Int64(), {1, std::nullopt, 3, 4, 5});
  LND_ASSERT_OK_AND_ASSIGN(auto sliced, Slice(src, 1, 4));
  PrimitiveBuilder<int64_t> b(Int64());
  LND_ASSERT_OK(b.AppendArraySlice(*sliced, 0, 3));
  LND_ASSERT_OK_AND_ASSIGN(auto out, b.Finish());
  EXPECT_TRUE(ArrayEquals(*out, *MakePrimitiveArray<int64_t>(Int64(), {std::nullopt, 3, 4})));
  LND_EXPECT_ERROR(b.AppendArraySlice(*src, 3, 3), StatusCode::kInvalidArgument, "outside");
  auto strs = MakeStringArray({"a"});
  LND_EXPECT_ERROR(b.AppendArraySlice(*strs, 0, 1), StatusCode::kInvalidArgument,
                   "cannot append an array of type string to a builder of type int64");
}

TEST(BuilderTest, MakeHelpers) {
  auto b = MakeBoolArray({true, std::nullopt, false});
  EXPECT_EQ(PrettyPrint(*b), "[true, null, false]");
  auto f = MakePrimitiveArray<double>(Float64(), {0.5, std::nullopt});
  EXPECT_EQ(PrettyPrint(*f), "[0.5, null]");
  auto h = MakePrimitiveArray<uint16_t>(Float16(), {0x3C00, 0xC000});  // 1.0, -2.0
  EXPECT_EQ(PrettyPrint(*h), "[1, -2]");
  auto u = MakePrimitiveArray<uint8_t>(UInt8(), {255});
  EXPECT_EQ(PrettyPrint(*u), "[255]");
}

}  // namespace
}  // namespace lance_nd::array
