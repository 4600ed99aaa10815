#include <gtest/gtest.h>

#include "lance_nd/array/array_data.h"
#include "lance_nd/array/builder.h"
#include "lance_nd/testing/status_matchers.h"

namespace lance_nd::array {
namespace {

template <typename T>
BufferPtr Buf(std::vector<T> v) {
  return Buffer::Copy(v.data(), static_cast<int64_t>(v.size() * sizeof(T)));
}

TEST(ValidateTest, AcceptsBuiltArrays) {
  LND_EXPECT_OK(Validate(*MakePrimitiveArray<int32_t>(Int32(), {1, std::nullopt})));
  LND_EXPECT_OK(Validate(*MakeStringArray({"é", std::nullopt, "日本"})));
}

TEST(ValidateTest, BufferCount) {
  auto a = MakeArrayData(Int32(), 1, {nullptr, Buf<int32_t>({1}), nullptr});
  LND_EXPECT_ERROR(Validate(*a), StatusCode::kInvalidArgument,
                   "int32 array has 3 buffers, expected 2");
  auto n = MakeArrayData(Null(), 1, {nullptr});
  LND_EXPECT_ERROR(Validate(*n), StatusCode::kInvalidArgument, "has 1 buffers, expected 0");
}

TEST(ValidateTest, ValuesTooSmallForOffsetAndLength) {
  auto a = MakeArrayData(Int32(), 2, {nullptr, Buf<int32_t>({1, 2})}, {}, 0, 1);
  LND_EXPECT_ERROR(Validate(*a), StatusCode::kInvalidArgument,
                   "values buffer has 8 bytes, expected at least 12 for offset 1 + length 2");
  auto b = MakeArrayData(Bool(), 9, {nullptr, Buf<uint8_t>({0xFF})});
  LND_EXPECT_ERROR(Validate(*b), StatusCode::kInvalidArgument, "expected at least 2");
  auto f = MakeArrayData(FixedSizeBinary(3), 2, {nullptr, Buf<uint8_t>({1, 2, 3, 4, 5})});
  LND_EXPECT_ERROR(Validate(*f), StatusCode::kInvalidArgument, "expected at least 6");
  auto neg = MakeArrayData(Int32(), -1, {nullptr, Buf<int32_t>({1})});
  LND_EXPECT_ERROR(Validate(*neg), StatusCode::kInvalidArgument, "negative length -1");
  auto huge = MakeArrayData(Int32(), INT64_MAX, {nullptr, Buf<int32_t>({1})}, {}, 0, 5);
  LND_EXPECT_ERROR(Validate(*huge), StatusCode::kInvalidArgument, "overflows");
}

TEST(ValidateTest, NullCountAgainstBitmap) {
  auto validity = Buf<uint8_t>({0b101});
  auto a = MakeArrayData(Int8(), 3, {validity, Buf<int8_t>({1, 2, 3})}, {}, 2);
  LND_EXPECT_ERROR(Validate(*a), StatusCode::kInvalidArgument,
                   "null count 2 does not match the validity bitmap, which has 1 nulls");
  auto b = MakeArrayData(Int8(), 3, {nullptr, Buf<int8_t>({1, 2, 3})}, {}, 1);
  LND_EXPECT_ERROR(Validate(*b), StatusCode::kInvalidArgument, "no validity bitmap");
  auto c = MakeArrayData(Int8(), 3, {nullptr, Buf<int8_t>({1, 2, 3})}, {}, 4);
  LND_EXPECT_ERROR(Validate(*c), StatusCode::kInvalidArgument, "outside [0, length 3]");
  auto d = MakeArrayData(Int8(), 20, {validity, Buf<int8_t>(std::vector<int8_t>(20))});
  LND_EXPECT_ERROR(Validate(*d), StatusCode::kInvalidArgument, "validity buffer has 1 bytes");
  auto n = MakeArrayData(Null(), 3, {}, {}, 1);
  LND_EXPECT_ERROR(Validate(*n), StatusCode::kInvalidArgument, "expected its length 3");
}

TEST(ValidateTest, BinaryOffsets) {
  auto data = Buf<uint8_t>({'a', 'b', 'c'});
  auto dec = MakeArrayData(Binary(), 2, {nullptr, Buf<int32_t>({0, 2, 1}), data});
  LND_EXPECT_ERROR(Validate(*dec), StatusCode::kInvalidArgument,
                   "offsets are not monotonic: offset 2 (1) is less than offset 1 (2)");
  auto past = MakeArrayData(Binary(), 2, {nullptr, Buf<int32_t>({0, 2, 4}), data});
  LND_EXPECT_ERROR(Validate(*past), StatusCode::kInvalidArgument,
                   "offset 2 (4) exceeds data size 3");
  auto neg = MakeArrayData(LargeBinary(), 1, {nullptr, Buf<int64_t>({-1, 2}), data});
  LND_EXPECT_ERROR(Validate(*neg), StatusCode::kInvalidArgument, "offset 0 (-1) is negative");
  auto short_offsets = MakeArrayData(Utf8(), 2, {nullptr, Buf<int32_t>({0, 1}), data});
  LND_EXPECT_ERROR(Validate(*short_offsets), StatusCode::kInvalidArgument,
                   "offsets buffer has 8 bytes, expected at least 12");
  // An empty array may omit its offsets.
  auto empty = MakeArrayData(Utf8(), 0, {nullptr, nullptr, nullptr}, {}, 0);
  LND_EXPECT_OK(Validate(*empty));
}

TEST(ValidateTest, Utf8) {
  auto bad =
      MakeArrayData(Utf8(), 2, {nullptr, Buf<int32_t>({0, 1, 3}), Buf<uint8_t>({'a', 0xC3, 0x28})});
  LND_EXPECT_ERROR(Validate(*bad), StatusCode::kInvalidArgument,
                   "value 1 is not valid UTF-8 (byte 0 of 2)");
  // The same bytes are fine as binary, and under a null slot.
  auto as_binary = MakeArrayData(Binary(), 2, bad->buffers);
  LND_EXPECT_OK(Validate(*as_binary));
  auto masked = MakeArrayData(Utf8(), 2, {Buf<uint8_t>({0b01}), bad->buffers[1], bad->buffers[2]});
  LND_EXPECT_OK(Validate(*masked));
  // Overlong encodings, surrogates and code points past U+10FFFF are rejected.
  for (std::vector<uint8_t> bytes :
       {std::vector<uint8_t>{0xC0, 0x80}, std::vector<uint8_t>{0xED, 0xA0, 0x80},
        std::vector<uint8_t>{0xF4, 0x90, 0x80, 0x80}, std::vector<uint8_t>{0xE2, 0x82}}) {
    auto a = MakeArrayData(
        LargeUtf8(), 1,
        {nullptr, Buf<int64_t>({0, static_cast<int64_t>(bytes.size())}), Buf<uint8_t>(bytes)});
    LND_EXPECT_ERROR(Validate(*a), StatusCode::kInvalidArgument, "not valid UTF-8");
  }
  // A split multi-byte character across two values is invalid in each.
  auto split =
      MakeArrayData(Utf8(), 2, {nullptr, Buf<int32_t>({0, 1, 2}), Buf<uint8_t>({0xC3, 0xA9})});
  LND_EXPECT_ERROR(Validate(*split), StatusCode::kInvalidArgument, "value 0 is not valid UTF-8");
}

TEST(ValidateTest, ListOffsetsNamePathOfNestedChild) {
  // struct<values: list<float>> whose list offsets run past its child.
  auto floats = MakePrimitiveArray<float>(Float32(), std::vector<std::optional<float>>(12, 1.0f));
  auto list = MakeArrayData(List(Float32()), 3, {nullptr, Buf<int32_t>({0, 4, 8, 17})}, {floats});
  auto type = Struct({MakeField("values", List(Float32()))});
  auto s = MakeArrayData(type, 3, {nullptr}, {list});
  LND_EXPECT_ERROR(Validate(*s), StatusCode::kInvalidArgument,
                   "child 'values' (list<item: float>): offset 3 (17) exceeds child length 12");
}

TEST(ValidateTest, ChildLengthsAndTypes) {
  auto ints = MakePrimitiveArray<int32_t>(Int32(), {1, 2, 3});
  auto fsl = MakeArrayData(FixedSizeList(Int32(), 2), 2, {nullptr}, {ints});
  LND_EXPECT_ERROR(Validate(*fsl), StatusCode::kInvalidArgument,
                   "child 'item' (int32): child has 3 slots, expected at least 4");
  auto st = MakeArrayData(Struct({MakeField("a", Int32())}), 4, {nullptr}, {ints});
  LND_EXPECT_ERROR(Validate(*st), StatusCode::kInvalidArgument, "expected at least 4");
  auto wrong = MakeArrayData(Struct({MakeField("a", Int64())}), 3, {nullptr}, {ints});
  LND_EXPECT_ERROR(Validate(*wrong), StatusCode::kInvalidArgument,
                   "child 'a' (int64): child array has type int32");
  auto missing = MakeArrayData(Struct({MakeField("a", Int32())}), 3, {nullptr}, {});
  LND_EXPECT_ERROR(Validate(*missing), StatusCode::kInvalidArgument, "has 0 children, expected 1");
  // Struct offsets apply to the children: offset 1 + length 3 needs 4 child slots.
  auto sliced = MakeArrayData(Struct({MakeField("a", Int32())}), 3, {nullptr}, {ints}, 0, 1);
  LND_EXPECT_ERROR(Validate(*sliced), StatusCode::kInvalidArgument, "expected at least 4");
}

TEST(ValidateTest, RecursesIntoChildren) {
  auto bad_child = MakeArrayData(Int32(), 3, {nullptr, Buf<int32_t>({1})});
  auto list = MakeArrayData(LargeList(Int32()), 1, {nullptr, Buf<int64_t>({0, 0})}, {bad_child});
  LND_EXPECT_ERROR(Validate(*list), StatusCode::kInvalidArgument,
                   "child 'item' (int32): values buffer has 4 bytes");
}

}  // namespace
}  // namespace lance_nd::array
