#include "lance_nd/array/type.h"

#include <gtest/gtest.h>

namespace lance_nd::array {
namespace {

TEST(DataTypeTest, SingletonsAreShared) {
  EXPECT_EQ(Int32().get(), Int32().get());
  EXPECT_EQ(Utf8().get(), Utf8().get());
  EXPECT_NE(Int32().get(), Int64().get());
}

TEST(DataTypeTest, ToStringMatchesArrow) {
  EXPECT_EQ(Null()->ToString(), "null");
  EXPECT_EQ(Bool()->ToString(), "bool");
  EXPECT_EQ(Int8()->ToString(), "int8");
  EXPECT_EQ(UInt64()->ToString(), "uint64");
  EXPECT_EQ(Float16()->ToString(), "halffloat");
  EXPECT_EQ(Float32()->ToString(), "float");
  EXPECT_EQ(Float64()->ToString(), "double");
  EXPECT_EQ(Utf8()->ToString(), "string");
  EXPECT_EQ(LargeUtf8()->ToString(), "large_string");
  EXPECT_EQ(Binary()->ToString(), "binary");
  EXPECT_EQ(LargeBinary()->ToString(), "large_binary");
  EXPECT_EQ(FixedSizeBinary(16)->ToString(), "fixed_size_binary[16]");
  EXPECT_EQ(Date32()->ToString(), "date32[day]");
  EXPECT_EQ(Date64()->ToString(), "date64[ms]");
  EXPECT_EQ(Timestamp(TimeUnit::kNano, "UTC")->ToString(), "timestamp[ns, tz=UTC]");
  EXPECT_EQ(Timestamp(TimeUnit::kMicro)->ToString(), "timestamp[us]");
  EXPECT_EQ(Duration(TimeUnit::kMilli)->ToString(), "duration[ms]");
  EXPECT_EQ(List(Float32())->ToString(), "list<item: float>");
  EXPECT_EQ(LargeList(MakeField("x", Int32(), false))->ToString(), "large_list<x: int32 not null>");
  EXPECT_EQ(FixedSizeList(Float64(), 3)->ToString(), "fixed_size_list<item: double>[3]");
  EXPECT_EQ(Struct({MakeField("a", Int32()), MakeField("b", Utf8(), false)})->ToString(),
            "struct<a: int32, b: string not null>");
}

TEST(DataTypeTest, Widths) {
  EXPECT_EQ(Bool()->byte_width(), 0);
  EXPECT_EQ(Bool()->bit_width(), 1);
  EXPECT_EQ(Int16()->byte_width(), 2);
  EXPECT_EQ(Float16()->byte_width(), 2);
  EXPECT_EQ(Date32()->byte_width(), 4);
  EXPECT_EQ(Timestamp(TimeUnit::kSecond)->byte_width(), 8);
  EXPECT_EQ(FixedSizeBinary(5)->byte_width(), 5);
  EXPECT_EQ(FixedSizeBinary(5)->bit_width(), 40);
  EXPECT_EQ(Utf8()->byte_width(), -1);
  EXPECT_EQ(List(Int8())->bit_width(), -1);
  EXPECT_EQ(Null()->byte_width(), -1);
}

TEST(DataTypeTest, Predicates) {
  EXPECT_TRUE(Int8()->is_signed_integer());
  EXPECT_FALSE(UInt8()->is_signed_integer());
  EXPECT_TRUE(UInt8()->is_unsigned_integer());
  EXPECT_TRUE(Float16()->is_floating());
  EXPECT_TRUE(Float16()->is_numeric());
  EXPECT_FALSE(Bool()->is_numeric());
  EXPECT_TRUE(Timestamp(TimeUnit::kNano)->is_primitive());
  EXPECT_FALSE(Bool()->is_primitive());
  EXPECT_FALSE(FixedSizeBinary(2)->is_primitive());
  EXPECT_TRUE(LargeBinary()->is_binary_like());
  EXPECT_TRUE(FixedSizeList(Int8(), 2)->is_list_like());
  EXPECT_TRUE(Struct({})->is_nested());
  EXPECT_FALSE(Utf8()->is_nested());
  EXPECT_EQ(List(Int16())->value_type()->id(), TypeId::kInt16);
  EXPECT_EQ(List(Int16())->value_field()->name(), "item");
}

TEST(DataTypeTest, Equality) {
  EXPECT_TRUE(List(Int32())->Equals(*List(Int32())));
  EXPECT_FALSE(List(Int32())->Equals(*List(Int64())));
  EXPECT_FALSE(List(Int32())->Equals(*LargeList(Int32())));
  EXPECT_FALSE(List(Int32())->Equals(*List(MakeField("x", Int32()))));
  EXPECT_FALSE(List(Int32())->Equals(*List(MakeField("item", Int32(), false))));
  EXPECT_FALSE(FixedSizeList(Int32(), 2)->Equals(*FixedSizeList(Int32(), 3)));
  EXPECT_FALSE(FixedSizeBinary(2)->Equals(*FixedSizeBinary(3)));
  EXPECT_FALSE(Timestamp(TimeUnit::kNano)->Equals(*Timestamp(TimeUnit::kMicro)));
  EXPECT_FALSE(Timestamp(TimeUnit::kNano)->Equals(*Timestamp(TimeUnit::kNano, "UTC")));
  EXPECT_TRUE(*Timestamp(TimeUnit::kNano, "UTC") == *Timestamp(TimeUnit::kNano, "UTC"));
  EXPECT_FALSE(Duration(TimeUnit::kSecond)->Equals(*Duration(TimeUnit::kMilli)));
  Metadata md({{"k", "v"}});
  auto with_md = List(MakeField("item", Int32(), true, md));
  EXPECT_FALSE(with_md->Equals(*List(Int32())));
  EXPECT_TRUE(with_md->Equals(*List(Int32()), /*check_metadata=*/false));
}

TEST(DataTypeTest, TypeForId) {
  EXPECT_EQ(TypeForId(TypeId::kFloat32).get(), Float32().get());
  EXPECT_EQ(TypeForId(TypeId::kLargeUtf8).get(), LargeUtf8().get());
  EXPECT_EQ(TypeForId(TypeId::kTimestamp), nullptr);
  EXPECT_EQ(TypeForId(TypeId::kStruct), nullptr);
}

TEST(MetadataTest, SetGetRemove) {
  Metadata m({{"a", "1"}, {"b", "2"}, {"a", "3"}});
  EXPECT_EQ(m.size(), 2u);
  EXPECT_EQ(m.Get("a"), "3");
  EXPECT_FALSE(m.Get("c").has_value());
  m.Set("b", "x");
  EXPECT_EQ(m.entries()[1].second, "x");
  m.Set("c", "y");
  EXPECT_EQ(m.entries()[2].first, "c");
  EXPECT_TRUE(m.Remove("a"));
  EXPECT_FALSE(m.Remove("a"));
  EXPECT_FALSE(m.Contains("a"));
  EXPECT_EQ(m.size(), 2u);
  EXPECT_EQ(m, Metadata({{"b", "x"}, {"c", "y"}}));
  EXPECT_NE(m, Metadata({{"c", "y"}, {"b", "x"}}));  // ordered
}

TEST(FieldTest, BasicsAndWith) {
  auto f = MakeField("x", Int32(), false, Metadata({{"k", "v"}}));
  EXPECT_EQ(f->ToString(), "x: int32 not null");
  EXPECT_EQ(f->WithName("y")->name(), "y");
  EXPECT_TRUE(f->WithNullable(true)->nullable());
  EXPECT_EQ(f->WithType(Utf8())->type()->id(), TypeId::kUtf8);
  EXPECT_TRUE(f->WithMetadata({})->metadata().empty());
  EXPECT_FALSE(f->Equals(*f->WithMetadata({})));
  EXPECT_TRUE(f->Equals(*f->WithMetadata({}), false));
  EXPECT_FALSE(f->Equals(*f->WithNullable(true)));
  EXPECT_FALSE(f->Equals(*f->WithName("z")));
}

TEST(SchemaTest, Basics) {
  auto s = MakeSchema({MakeField("a", Int32()), MakeField("b", List(Utf8()), false)},
                      Metadata({{"lance_nd:format", "1"}}));
  EXPECT_EQ(s->num_fields(), 2);
  EXPECT_EQ(s->FieldIndex("b"), 1);
  EXPECT_EQ(s->FieldIndex("zz"), -1);
  EXPECT_EQ(s->GetField("a")->type()->id(), TypeId::kInt32);
  EXPECT_EQ(s->GetField("q"), nullptr);
  EXPECT_EQ(s->ToString(),
            "a: int32\nb: list<item: string> not null\n-- schema metadata --\nlance_nd:format: 1");
  auto s2 = s->WithMetadata({});
  EXPECT_FALSE(s->Equals(*s2));
  EXPECT_TRUE(s->Equals(*s2, false));
  EXPECT_FALSE(s->Equals(*MakeSchema({MakeField("a", Int32())})));
}

TEST(DecimalTest, TypeParameters) {
  const auto d = Decimal128(10, 2);
  EXPECT_EQ(d->ToString(), "decimal128(10, 2)");
  EXPECT_EQ(Decimal256(76, -3)->ToString(), "decimal256(76, -3)");
  EXPECT_EQ(d->byte_width(), 16);
  EXPECT_EQ(Decimal256(40, 0)->byte_width(), 32);
  EXPECT_TRUE(d->is_primitive());
  EXPECT_TRUE(d->is_decimal());
  EXPECT_FALSE(d->is_numeric());
  EXPECT_EQ(*d, *Decimal128(10, 2));
  EXPECT_NE(*d, *Decimal128(10, 3));
  EXPECT_NE(*d, *Decimal128(11, 2));
  EXPECT_NE(*d, *Decimal256(10, 2));
  EXPECT_NE(*d, *FixedSizeBinary(16));
  std::string error;
  EXPECT_EQ(*MakeDecimal(256, 76, 76, &error), *Decimal256(76, 76));
  EXPECT_EQ(MakeDecimal(64, 10, 2, &error), nullptr);
  EXPECT_EQ(error, "decimal bit width 64 is not 128 or 256");
  EXPECT_EQ(MakeDecimal(128, 39, 2, &error), nullptr);
  EXPECT_EQ(error,
            "decimal128 precision 39 and scale 2 are out of range (precision 1..38, scale at most "
            "the precision)");
  EXPECT_EQ(MakeDecimal(128, 5, 6, &error), nullptr);
  EXPECT_EQ(MakeDecimal(128, 0, 0, &error), nullptr);
}

__extension__ typedef __int128 I128;
__extension__ typedef unsigned __int128 U128;

std::string Dec(I128 v, int width, int32_t scale) {
  std::uint8_t bytes[32];
  for (int i = 0; i < width; ++i) {
    bytes[i] =
        static_cast<std::uint8_t>(i < 16 ? static_cast<U128>(v) >> (8 * i) : (v < 0 ? 0xFF : 0));
  }
  return DecimalToString(bytes, width, scale);
}

TEST(DecimalTest, ValuesAsText) {
  EXPECT_EQ(Dec(0, 16, 0), "0");
  EXPECT_EQ(Dec(0, 16, 2), "0.00");
  EXPECT_EQ(Dec(5, 16, 2), "0.05");
  EXPECT_EQ(Dec(-5, 16, 2), "-0.05");
  EXPECT_EQ(Dec(-1234, 16, 2), "-12.34");
  EXPECT_EQ(Dec(1234, 16, 0), "1234");
  EXPECT_EQ(Dec(12, 16, -2), "1200");
  EXPECT_EQ(Dec(-12, 32, -3), "-12000");
  EXPECT_EQ(Dec(123456789, 32, 4), "12345.6789");
  // The extremes of 128 bits.
  const I128 max = static_cast<I128>(~static_cast<U128>(0) >> 1);
  EXPECT_EQ(Dec(max, 16, 0), "170141183460469231731687303715884105727");
  EXPECT_EQ(Dec(-max - 1, 16, 0), "-170141183460469231731687303715884105728");
  EXPECT_EQ(Dec(-max - 1, 32, 10), "-17014118346046923173168730371.5884105728");
  // A 256-bit value above 128 bits: 2^128.
  std::uint8_t big[32] = {};
  big[16] = 1;
  EXPECT_EQ(DecimalToString(big, 32, 0), "340282366920938463463374607431768211456");
}

}  // namespace
}  // namespace lance_nd::array
