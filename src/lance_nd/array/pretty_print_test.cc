#include <gtest/gtest.h>

#include "lance_nd/array/array_data.h"
#include "lance_nd/array/builder.h"
#include "lance_nd/testing/status_matchers.h"

namespace lance_nd::array {
namespace {

TEST(PrettyPrintTest, Scalars) {
  EXPECT_EQ(PrettyPrint(*MakePrimitiveArray<int32_t>(Int32(), {1, std::nullopt, 3})),
            "[1, null, 3]");
  EXPECT_EQ(PrettyPrint(*MakePrimitiveArray<int8_t>(Int8(), {-3})), "[-3]");
  EXPECT_EQ(PrettyPrint(*MakeStringArray({"a\"b", std::nullopt})), "[\"a\\\"b\", null]");
  EXPECT_EQ(PrettyPrint(*MakeStringArray({std::string("\x01\xff", 2)}, Binary())),
            "[\"\\x01\\xff\"]");
  EXPECT_EQ(PrettyPrint(*MakeEmptyArray(Int64())), "[]");
  EXPECT_EQ(PrettyPrint(*MakeArrayOfNulls(Null(), 2)), "[null, null]");
  EXPECT_EQ(PrettyPrint(*MakePrimitiveArray<int32_t>(Int32(), {7}), 4), "    [7]");
}

TEST(PrettyPrintTest, LongArraysAreElided) {
  std::vector<std::optional<int32_t>> v;
  for (int i = 0; i < 30; ++i) v.push_back(i);
  EXPECT_EQ(PrettyPrint(*MakePrimitiveArray<int32_t>(Int32(), v)),
            "[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, ..., 20, 21, 22, 23, 24, 25, 26, 27, 28, 29]");
}

TEST(PrettyPrintTest, Struct) {
  auto type = Struct({MakeField("a", Int32()), MakeField("b", List(Utf8()))});
  StructBuilder b(type);
  b.Append();
  static_cast<PrimitiveBuilder<int32_t>*>(b.child_builder(0))->Append(1);
  auto* lb = static_cast<ListBuilder*>(b.child_builder(1));
  lb->Append();
  static_cast<BinaryBuilder*>(lb->value_builder())->Append("x");
  b.AppendNull();
  LND_ASSERT_OK_AND_ASSIGN(auto a, b.Finish());
  EXPECT_EQ(PrettyPrint(*a),
            "-- is_valid: [true, false]\n"
            "-- child 0 'a' (int32):\n"
            "  [1, null]\n"
            "-- child 1 'b' (list<item: string>):\n"
            "  [[\"x\"], null]");
  auto list_of_struct = MakeArrayData(
      List(type), 1, {nullptr, Buffer::Copy(std::vector<uint8_t>{0, 0, 0, 0, 2, 0, 0, 0})}, {a});
  EXPECT_EQ(PrettyPrint(*list_of_struct), "[[{a: 1, b: [\"x\"]}, null]]");
}

}  // namespace
}  // namespace lance_nd::array
