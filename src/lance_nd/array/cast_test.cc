#include "lance_nd/array/cast.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "lance_nd/array/builder.h"
#include "lance_nd/array/view.h"
#include "lance_nd/testing/status_matchers.h"

namespace lance_nd::array {
namespace {

TEST(CanRepresentAllTest, Numbers) {
  EXPECT_TRUE(CanRepresentAll(*UInt16(), *Int32()));
  EXPECT_TRUE(CanRepresentAll(*Int32(), *Float64()));
  EXPECT_FALSE(CanRepresentAll(*Int64(), *Float64()));
  EXPECT_TRUE(CanRepresentAll(*Float32(), *Float64()));
  EXPECT_FALSE(CanRepresentAll(*Float64(), *Float32()));
  EXPECT_FALSE(CanRepresentAll(*Int8(), *UInt8()));
  EXPECT_FALSE(CanRepresentAll(*UInt8(), *Int8()));
  EXPECT_TRUE(CanRepresentAll(*UInt8(), *Int16()));
  EXPECT_FALSE(CanRepresentAll(*UInt32(), *Int32()));
  EXPECT_TRUE(CanRepresentAll(*Int8(), *Int64()));
  EXPECT_FALSE(CanRepresentAll(*Int64(), *Int32()));
  EXPECT_TRUE(CanRepresentAll(*Int8(), *Float16()));
  EXPECT_TRUE(CanRepresentAll(*UInt8(), *Float16()));
  EXPECT_FALSE(CanRepresentAll(*Int16(), *Float16()));
  EXPECT_TRUE(CanRepresentAll(*UInt16(), *Float32()));
  EXPECT_FALSE(CanRepresentAll(*Int32(), *Float32()));
  EXPECT_TRUE(CanRepresentAll(*UInt32(), *Float64()));
  EXPECT_TRUE(CanRepresentAll(*Float16(), *Float32()));
  EXPECT_FALSE(CanRepresentAll(*Float32(), *Int64()));
  EXPECT_TRUE(CanRepresentAll(*Bool(), *UInt8()));
  EXPECT_TRUE(CanRepresentAll(*Bool(), *Float16()));
  EXPECT_FALSE(CanRepresentAll(*UInt8(), *Bool()));
  EXPECT_TRUE(CanRepresentAll(*Int32(), *Int32()));
}

TEST(CanRepresentAllTest, OtherTypes) {
  EXPECT_TRUE(CanRepresentAll(*Null(), *List(Utf8())));
  EXPECT_FALSE(CanRepresentAll(*Int32(), *Null()));
  EXPECT_TRUE(CanRepresentAll(*Date32(), *Date64()));
  EXPECT_FALSE(CanRepresentAll(*Date64(), *Date32()));
  EXPECT_TRUE(CanRepresentAll(*Timestamp(TimeUnit::kNano), *Timestamp(TimeUnit::kNano)));
  EXPECT_FALSE(CanRepresentAll(*Timestamp(TimeUnit::kSecond), *Timestamp(TimeUnit::kNano)));
  EXPECT_FALSE(CanRepresentAll(*Timestamp(TimeUnit::kNano, "UTC"), *Timestamp(TimeUnit::kNano)));
  EXPECT_TRUE(CanRepresentAll(*Utf8(), *LargeUtf8()));
  EXPECT_TRUE(CanRepresentAll(*Utf8(), *Binary()));
  EXPECT_FALSE(CanRepresentAll(*Binary(), *Utf8()));
  EXPECT_FALSE(CanRepresentAll(*LargeUtf8(), *Utf8()));
  EXPECT_TRUE(CanRepresentAll(*List(Int16()), *LargeList(Int32())));
  EXPECT_FALSE(CanRepresentAll(*List(Int32()), *List(Int16())));
  EXPECT_FALSE(CanRepresentAll(*LargeList(Int8()), *List(Int8())));
  EXPECT_TRUE(CanRepresentAll(*FixedSizeList(Float32(), 3), *FixedSizeList(Float64(), 3)));
  EXPECT_FALSE(CanRepresentAll(*FixedSizeList(Float32(), 3), *FixedSizeList(Float64(), 2)));
  EXPECT_TRUE(CanRepresentAll(*FixedSizeList(Float32(), 3), *List(Float32())));
  EXPECT_FALSE(CanRepresentAll(*List(Float32()), *FixedSizeList(Float32(), 3)));
  auto s1 = Struct({MakeField("a", Int8()), MakeField("b", Float32())});
  auto s2 = Struct({MakeField("a", Int16()), MakeField("b", Float64())});
  auto s3 = Struct({MakeField("b", Int16()), MakeField("a", Float64())});
  EXPECT_TRUE(CanRepresentAll(*s1, *s2));
  EXPECT_FALSE(CanRepresentAll(*s2, *s1));
  EXPECT_FALSE(CanRepresentAll(*s1, *s3));
  EXPECT_FALSE(CanRepresentAll(*Utf8(), *Int32()));
  EXPECT_TRUE(CanCast(*Int64(), *Int8(), CastMode::kSameKind));
  EXPECT_FALSE(CanCast(*Int64(), *UInt64(), CastMode::kSameKind));
  EXPECT_FALSE(CanCast(*Float32(), *Int64(), CastMode::kSameKind));
  EXPECT_TRUE(CanCast(*UInt64(), *Float16(), CastMode::kSameKind));
  EXPECT_FALSE(CanCast(*Int8(), *Bool(), CastMode::kSameKind));
}

TEST(CastTest, SafeWidening) {
  auto a = MakePrimitiveArray<uint16_t>(UInt16(), {1, std::nullopt, 65535});
  LND_ASSERT_OK_AND_ASSIGN(auto out, Cast(a, Int32()));
  LND_ASSERT_OK(Validate(*out));
  EXPECT_TRUE(ArrayEquals(*out, *MakePrimitiveArray<int32_t>(Int32(), {1, std::nullopt, 65535})));
  LND_ASSERT_OK_AND_ASSIGN(auto f,
                           Cast(MakePrimitiveArray<int32_t>(Int32(), {-7, 1 << 30}), Float64()));
  EXPECT_TRUE(ArrayEquals(*f, *MakePrimitiveArray<double>(Float64(), {-7.0, 1073741824.0})));
  LND_ASSERT_OK_AND_ASSIGN(auto b, Cast(MakeBoolArray({true, false, std::nullopt}), Float16()));
  EXPECT_TRUE(ArrayEquals(*b, *MakePrimitiveArray<uint16_t>(Float16(), {0x3C00, 0, std::nullopt})));
  LND_ASSERT_OK_AND_ASSIGN(
      auto h, Cast(MakePrimitiveArray<uint16_t>(Float16(), {0x3555, 0xFC00}), Float64()));
  PrimitiveView<double> hv(*h);
  EXPECT_DOUBLE_EQ(hv.Value(0), 0.333251953125);
  EXPECT_EQ(hv.Value(1), -std::numeric_limits<double>::infinity());
}

TEST(CastTest, SafeRejectsLossyCasts) {
  auto a = MakePrimitiveArray<int64_t>(Int64(), {1});
  LND_EXPECT_ERROR(Cast(a, Float64()), StatusCode::kInvalidArgument,
                   "cannot cast int64 to double: not every value is representable");
  LND_EXPECT_ERROR(Cast(a, Utf8(), CastMode::kSameKind), StatusCode::kInvalidArgument,
                   "cannot cast int64 to string: the types are of different kinds");
  LND_EXPECT_ERROR(Cast(MakePrimitiveArray<float>(Float32(), {1.0f}), Int32(), CastMode::kSameKind),
                   StatusCode::kInvalidArgument, "different kinds");
  LND_EXPECT_ERROR(Cast(MakePrimitiveArray<int8_t>(Int8(), {1}), UInt8(), CastMode::kSameKind),
                   StatusCode::kInvalidArgument, "cannot cast int8 to uint8");
}

TEST(CastTest, SameKindNarrowingIsChecked) {
  auto a = MakePrimitiveArray<int64_t>(Int64(), {1, std::nullopt, -128, 127});
  LND_ASSERT_OK_AND_ASSIGN(auto ok, Cast(a, Int8(), CastMode::kSameKind));
  EXPECT_TRUE(ArrayEquals(*ok, *MakePrimitiveArray<int8_t>(Int8(), {1, std::nullopt, -128, 127})));
  auto bad = MakePrimitiveArray<int64_t>(Int64(), {1, 2, 3, 4, 5, 300});
  LND_EXPECT_ERROR(Cast(bad, UInt8(), CastMode::kSameKind), StatusCode::kInvalidArgument,
                   "different kinds");
  LND_EXPECT_ERROR(Cast(bad, Int8(), CastMode::kSameKind), StatusCode::kInvalidArgument,
                   "cannot cast int64 to int8: value 300 at row 5 is out of range");
  auto u = MakePrimitiveArray<uint64_t>(UInt64(), {std::numeric_limits<uint64_t>::max()});
  LND_EXPECT_ERROR(Cast(u, Int64(), CastMode::kSameKind), StatusCode::kInvalidArgument,
                   "value 18446744073709551615 at row 0 is out of range");
  LND_ASSERT_OK_AND_ASSIGN(auto uf, Cast(u, Float32(), CastMode::kSameKind));
  EXPECT_EQ(PrimitiveView<float>(*uf).Value(0), 18446744073709551616.0f);
  LND_EXPECT_ERROR(
      Cast(MakePrimitiveArray<int32_t>(Int32(), {65504, 65520}), Float16(), CastMode::kSameKind),
      StatusCode::kInvalidArgument, "value 65520 at row 1 is out of range");
  LND_EXPECT_ERROR(
      Cast(MakePrimitiveArray<double>(Float64(), {1e39}), Float32(), CastMode::kSameKind),
      StatusCode::kInvalidArgument, "value 1e+39 at row 0 is out of range");
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  LND_ASSERT_OK_AND_ASSIGN(
      auto special,
      Cast(MakePrimitiveArray<double>(Float64(), {inf, nan, 0.1}), Float32(), CastMode::kSameKind));
  EXPECT_TRUE(ArrayEquals(
      *special, *MakePrimitiveArray<float>(
                    Float32(), {static_cast<float>(inf), static_cast<float>(nan), 0.1f})));
}

TEST(CastTest, ValuesUnderNullsAreNotChecked) {
  std::vector<int64_t> values = {1, 1000, 2};
  auto validity = Buffer::Copy(std::vector<std::uint8_t>{0b101});
  auto a = MakeArrayData(Int64(), 3, {validity, Buffer::Copy(values.data(), 24)});
  LND_ASSERT_OK_AND_ASSIGN(auto out, Cast(a, Int8(), CastMode::kSameKind));
  EXPECT_TRUE(ArrayEquals(*out, *MakePrimitiveArray<int8_t>(Int8(), {1, std::nullopt, 2})));
}

TEST(CastTest, SlicedInput) {
  auto a = MakePrimitiveArray<int32_t>(Int32(), {100000, std::nullopt, 5, 6});
  LND_ASSERT_OK_AND_ASSIGN(auto s, Slice(a, 1, 3));
  LND_ASSERT_OK_AND_ASSIGN(auto out, Cast(s, Int16(), CastMode::kSameKind));
  LND_ASSERT_OK(Validate(*out));
  EXPECT_EQ(out->offset, 0);
  EXPECT_TRUE(ArrayEquals(*out, *MakePrimitiveArray<int16_t>(Int16(), {std::nullopt, 5, 6})));
}

TEST(CastTest, Float16RoundsToNearestEven) {
  // 2049 lies halfway between 2048 and 2050: ties go to the even significand, 2048.
  LND_ASSERT_OK_AND_ASSIGN(auto h, Cast(MakePrimitiveArray<int32_t>(Int32(), {2049, 2051, -3}),
                                        Float16(), CastMode::kSameKind));
  EXPECT_TRUE(ArrayEquals(*h, *MakePrimitiveArray<uint16_t>(Float16(), {0x6800, 0x6802, 0xC200})));
  LND_ASSERT_OK_AND_ASSIGN(
      auto tiny, Cast(MakePrimitiveArray<double>(Float64(), {5.960464477539063e-08, 1e-9}),
                      Float16(), CastMode::kSameKind));
  EXPECT_TRUE(ArrayEquals(*tiny, *MakePrimitiveArray<uint16_t>(Float16(), {0x0001, 0x0000})));
}

TEST(CastTest, Timestamps) {
  auto s = MakePrimitiveArray<int64_t>(Timestamp(TimeUnit::kSecond), {1, std::nullopt, -2});
  LND_EXPECT_ERROR(Cast(s, Timestamp(TimeUnit::kNano)), StatusCode::kInvalidArgument,
                   "not every value is representable");
  LND_ASSERT_OK_AND_ASSIGN(auto ns, Cast(s, Timestamp(TimeUnit::kNano), CastMode::kSameKind));
  EXPECT_TRUE(
      ArrayEquals(*ns, *MakePrimitiveArray<int64_t>(Timestamp(TimeUnit::kNano),
                                                    {1000000000, std::nullopt, -2000000000})));
  LND_ASSERT_OK_AND_ASSIGN(auto back, Cast(ns, Timestamp(TimeUnit::kSecond), CastMode::kSameKind));
  EXPECT_TRUE(ArrayEquals(*back, *s));
  auto frac = MakePrimitiveArray<int64_t>(Timestamp(TimeUnit::kMilli), {1000, 1500});
  LND_EXPECT_ERROR(Cast(frac, Timestamp(TimeUnit::kSecond), CastMode::kSameKind),
                   StatusCode::kInvalidArgument, "value 1500 at row 1 is not a whole number of s");
  auto big = MakePrimitiveArray<int64_t>(Duration(TimeUnit::kSecond),
                                         {std::numeric_limits<int64_t>::max() / 10});
  LND_EXPECT_ERROR(Cast(big, Duration(TimeUnit::kMilli), CastMode::kSameKind),
                   StatusCode::kInvalidArgument, "overflows int64 in the finer unit");
  auto d = MakePrimitiveArray<int32_t>(Date32(), {1, std::nullopt});
  LND_ASSERT_OK_AND_ASSIGN(auto d64, Cast(d, Date64()));
  EXPECT_TRUE(ArrayEquals(*d64, *MakePrimitiveArray<int64_t>(Date64(), {86400000, std::nullopt})));
}

TEST(CastTest, Strings) {
  auto s = MakeStringArray({"ab", std::nullopt, "é"});
  LND_ASSERT_OK_AND_ASSIGN(auto large, Cast(s, LargeUtf8()));
  LND_ASSERT_OK(Validate(*large));
  EXPECT_TRUE(ArrayEquals(*large, *MakeStringArray({"ab", std::nullopt, "é"}, LargeUtf8())));
  LND_ASSERT_OK_AND_ASSIGN(auto bin, Cast(s, Binary()));
  EXPECT_EQ(bin->buffers[1], s->buffers[1]);  // zero-copy
  LND_ASSERT_OK_AND_ASSIGN(auto back, Cast(large, Utf8(), CastMode::kSameKind));
  EXPECT_TRUE(ArrayEquals(*back, *s));
  auto bad = MakeStringArray({"ok", std::string("\xff")}, Binary());
  LND_EXPECT_ERROR(Cast(bad, Utf8(), CastMode::kSameKind), StatusCode::kInvalidArgument,
                   "value at row 1 is not valid UTF-8");
}

TEST(CastTest, ListsCastTheirValues) {
  ListBuilder b(List(Int32()));
  auto* vb = static_cast<PrimitiveBuilder<int32_t>*>(b.value_builder());
  b.Append();
  vb->Append(1000);
  b.Append();
  vb->Append(1);
  vb->AppendNull();
  b.AppendNull();
  b.Append();
  LND_ASSERT_OK_AND_ASSIGN(auto a, b.Finish());
  LND_ASSERT_OK_AND_ASSIGN(auto large, Cast(a, LargeList(Float64())));
  LND_ASSERT_OK(Validate(*large));
  EXPECT_EQ(PrettyPrint(*large), "[[1000], [1, null], null, []]");
  LND_EXPECT_ERROR(Cast(a, List(Int8()), CastMode::kSameKind), StatusCode::kInvalidArgument,
                   "list values: cannot cast int32 to int8: value 1000 at row 0 is out of range");
  // Only the items in the slice are cast.
  LND_ASSERT_OK_AND_ASSIGN(auto tail, Slice(a, 1, 3));
  LND_ASSERT_OK_AND_ASSIGN(auto narrow, Cast(tail, List(Int8()), CastMode::kSameKind));
  LND_ASSERT_OK(Validate(*narrow));
  EXPECT_EQ(PrettyPrint(*narrow), "[[1, null], null, []]");
  LND_EXPECT_ERROR(Cast(large, List(Int32()), CastMode::kSameKind), StatusCode::kInvalidArgument,
                   "different kinds");
  // An empty slice whose offsets do not start at 0.
  LND_ASSERT_OK_AND_ASSIGN(auto empty, Slice(a, 2, 0));
  LND_ASSERT_OK_AND_ASSIGN(auto empty_cast, Cast(empty, LargeList(Int64())));
  LND_ASSERT_OK(Validate(*empty_cast));
  EXPECT_EQ(empty_cast->length, 0);
  LND_ASSERT_OK_AND_ASSIGN(auto wide, Cast(a, LargeList(Int64())));
  LND_ASSERT_OK_AND_ASSIGN(auto back, Cast(wide, List(Int32()), CastMode::kSameKind));
  EXPECT_TRUE(ArrayEquals(*back, *a));
}

TEST(CastTest, FixedSizeListAndStruct) {
  FixedSizeListBuilder b(FixedSizeList(Float32(), 2));
  auto* vb = static_cast<PrimitiveBuilder<float>*>(b.value_builder());
  b.Append();
  vb->Append(1.5f);
  vb->Append(2.5f);
  b.AppendNull();
  b.Append();
  vb->Append(3.0f);
  vb->AppendNull();
  LND_ASSERT_OK_AND_ASSIGN(auto a, b.Finish());
  LND_ASSERT_OK_AND_ASSIGN(auto s, Slice(a, 1, 2));
  LND_ASSERT_OK_AND_ASSIGN(auto f64, Cast(s, FixedSizeList(Float64(), 2)));
  LND_ASSERT_OK(Validate(*f64));
  EXPECT_EQ(PrettyPrint(*f64), "[null, [3, null]]");
  LND_ASSERT_OK_AND_ASSIGN(auto as_list, Cast(s, LargeList(Float32())));
  LND_ASSERT_OK(Validate(*as_list));
  EXPECT_EQ(PrettyPrint(*as_list), "[null, [3, null]]");

  auto st = Struct({MakeField("x", Int8()), MakeField("y", List(UInt8()))});
  auto st2 = Struct({MakeField("x", Int64()), MakeField("y", List(Int16()))});
  StructBuilder sb(st);
  sb.Append();
  static_cast<PrimitiveBuilder<int8_t>*>(sb.child_builder(0))->Append(-1);
  auto* lb = static_cast<ListBuilder*>(sb.child_builder(1));
  lb->Append();
  static_cast<PrimitiveBuilder<uint8_t>*>(lb->value_builder())->Append(200);
  sb.AppendNull();
  LND_ASSERT_OK_AND_ASSIGN(auto sa, sb.Finish());
  LND_ASSERT_OK_AND_ASSIGN(auto cast, Cast(sa, st2));
  LND_ASSERT_OK(Validate(*cast));
  EXPECT_EQ(PrettyPrint(*cast),
            "-- is_valid: [true, false]\n-- child 0 'x' (int64):\n  [-1, null]\n"
            "-- child 1 'y' (list<item: int16>):\n  [[200], null]");
  auto st3 = Struct({MakeField("x", Int8()), MakeField("y", List(Int8()))});
  LND_EXPECT_ERROR(Cast(cast, st3, CastMode::kSameKind), StatusCode::kInvalidArgument,
                   "field 'y': list values: cannot cast int16 to int8: value 200 at row 0");
}

TEST(CastTest, NullAndIdentity) {
  LND_ASSERT_OK_AND_ASSIGN(auto n, Cast(MakeArrayOfNulls(Null(), 3), List(Utf8())));
  LND_ASSERT_OK(Validate(*n));
  EXPECT_EQ(n->null_count(), 3);
  auto a = MakePrimitiveArray<int32_t>(Int32(), {1});
  LND_ASSERT_OK_AND_ASSIGN(auto same, Cast(a, Int32()));
  EXPECT_EQ(same, a);
  LND_EXPECT_ERROR(Cast(nullptr, Int32()), StatusCode::kInvalidArgument, "null array");
}

}  // namespace
}  // namespace lance_nd::array
