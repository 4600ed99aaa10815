// Dimensions, Attributes, NdArrowArray, the error helpers and the format names.
#include <gtest/gtest.h>

#include <limits>

#include "lance_nd/array/view.h"
#include "lance_nd/nd/errors.h"
#include "lance_nd/nd/format.h"
#include "lance_nd/testing/nd_test_util.h"
#include "lance_nd/testing/status_matchers.h"

namespace lance_nd::nd {
namespace {

using testing::Dims;
using testing::F32;
using testing::F64;
using testing::I32;
using testing::Iota32;
using testing::Nd;
using testing::Str;

// ---- errors ----

TEST(NdErrors, KindsAndPrefixes) {
  EXPECT_EQ(InvalidDimensions("x").code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(InvalidDimensions("x").message(), "invalid dimensions: x");
  EXPECT_EQ(ShapeMismatch("x").code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(ShapeMismatch("x").message(), "shape mismatch: x");
  EXPECT_EQ(InvalidAttribute("x").code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(InvalidAttribute("x").message(), "invalid attribute: x");
  EXPECT_EQ(InvalidEncoding("x").code(), StatusCode::kCorrupt);
  EXPECT_EQ(InvalidEncoding("x").message(), "invalid nd encoding: x");
  EXPECT_EQ(SchemaMismatch("x").code(), StatusCode::kSchemaMismatch);
  EXPECT_EQ(SchemaMismatch("x").message(), "schema mismatch: x");
  EXPECT_EQ(InvalidArgument("x").message(), "invalid argument: x");
  EXPECT_EQ(NotSupported("x").code(), StatusCode::kNotImplemented);
  EXPECT_EQ(NotSupported("x").message(), "not supported: x");
  // Callers branch on the typed kind, not on the prefix.
  EXPECT_EQ(InvalidDimensions("x").kind(), ErrorKind::kInvalidDimensions);
  EXPECT_EQ(ShapeMismatch("x").kind(), ErrorKind::kShapeMismatch);
  EXPECT_EQ(InvalidAttribute("x").kind(), ErrorKind::kInvalidAttribute);
  EXPECT_EQ(InvalidEncoding("x").kind(), ErrorKind::kInvalidEncoding);
  EXPECT_EQ(SchemaMismatch("x").kind(), ErrorKind::kSchemaMismatch);
  EXPECT_EQ(NotSupported("x").kind(), ErrorKind::kNotSupported);
  EXPECT_EQ(InvalidArgument("x").kind(), ErrorKind::kUnspecified);
  EXPECT_EQ(ShapeMismatch("x").WithContext("array 'a'").kind(), ErrorKind::kShapeMismatch);
}

// ---- format names ----

TEST(NdFormat, StatsColumnNames) {
  EXPECT_EQ(StatsColumn("sst"), "__stats__:sst");
  EXPECT_EQ(StatsVariable("__stats__:sst"), std::optional<std::string_view>("sst"));
  EXPECT_EQ(StatsVariable("__stats__:a.b"), std::optional<std::string_view>("a.b"));
  EXPECT_EQ(StatsVariable("sst"), std::nullopt);
  EXPECT_EQ(StatsVariable("__stats__"), std::nullopt);
}

TEST(NdFormat, ReservedNamesAndTableKeys) {
  EXPECT_TRUE(IsReservedName("__global_attrs__"));
  EXPECT_TRUE(IsReservedName("__stats__"));
  EXPECT_TRUE(IsReservedName("__stats__x"));
  EXPECT_TRUE(IsReservedName("__stats__:x"));
  EXPECT_FALSE(IsReservedName("__global_attrs"));
  EXPECT_FALSE(IsReservedName("stats"));
  EXPECT_FALSE(IsReservedName("_stats__"));
  EXPECT_TRUE(IsTableMetadataKey("lance_nd:format"));
  EXPECT_TRUE(IsTableMetadataKey("lance_nd:stats"));
  EXPECT_TRUE(IsTableMetadataKey("lance_nd.column_defaults.lance-encoding:compression"));
  EXPECT_FALSE(IsTableMetadataKey("title"));
  EXPECT_EQ(kFormatMetadataKey, "lance_nd:format");
  EXPECT_EQ(kFormatVersion, "1");
  EXPECT_EQ(kExtensionMetadataValue, "{\"version\":1}");
}

// ---- Dimensions ----

TEST(Dimensions, ScalarHasOneElement) {
  Dimensions d;
  EXPECT_EQ(d.rank(), 0u);
  EXPECT_TRUE(d.is_scalar());
  EXPECT_EQ(d.num_elements(), 1);
  EXPECT_EQ(d.ToString(), "[]");
  LND_ASSERT_OK_AND_ASSIGN(Dimensions e, Dimensions::Make(std::vector<Dimension>{}));
  EXPECT_EQ(e.num_elements(), 1);
  EXPECT_EQ(d, e);
}

TEST(Dimensions, OrderedNamesAndSizes) {
  LND_ASSERT_OK_AND_ASSIGN(Dimensions d, Dimensions::Make({{"time", 2}, {"lat", 3}}));
  EXPECT_EQ(d.rank(), 2u);
  EXPECT_EQ(d.num_elements(), 6);
  EXPECT_EQ(d.names(), (std::vector<std::string>{"time", "lat"}));
  EXPECT_EQ(d.sizes(), (std::vector<uint64_t>{2, 3}));
  EXPECT_EQ(d.IndexOf("lat"), std::optional<std::size_t>(1));
  EXPECT_EQ(d.IndexOf("lon"), std::nullopt);
  EXPECT_EQ(d.SizeOf("time"), std::optional<uint64_t>(2));
  EXPECT_EQ(d.ToString(), "[time=2, lat=3]");
  EXPECT_EQ(d[1].name, "lat");
  LND_ASSERT_OK_AND_ASSIGN(Dimensions swapped, Dimensions::Make({{"lat", 3}, {"time", 2}}));
  EXPECT_FALSE(d == swapped);
}

TEST(Dimensions, ZeroSizeAxisGivesNoElements) {
  LND_ASSERT_OK_AND_ASSIGN(Dimensions d, Dimensions::Make({{"x", 5}, {"y", 0}}));
  EXPECT_EQ(d.num_elements(), 0);
}

TEST(Dimensions, ParallelLists) {
  LND_ASSERT_OK_AND_ASSIGN(Dimensions d, Dimensions::Make(std::vector<std::string>{"a", "b"},
                                                          std::vector<uint64_t>{4, 5}));
  EXPECT_EQ(d.num_elements(), 20);
  LND_EXPECT_ERROR(Dimensions::Make(std::vector<std::string>{"a"}, std::vector<uint64_t>{1, 2}),
                   StatusCode::kInvalidArgument, "invalid dimensions: 1 names but 2 sizes");
}

TEST(Dimensions, RejectsEmptyName) {
  LND_EXPECT_ERROR(Dimensions::Make({{"x", 1}, {"", 2}}), StatusCode::kInvalidArgument,
                   "invalid dimensions: axis 1 has an empty name");
}

TEST(Dimensions, RejectsDuplicateName) {
  LND_EXPECT_ERROR(Dimensions::Make({{"x", 1}, {"x", 2}}), StatusCode::kInvalidArgument,
                   "invalid dimensions: dimension name 'x' appears more than once");
}

// Few axes are checked by a scan of the earlier names, many by hashing: both name the first
// repeated name, whatever the rank and wherever the repeat is.
TEST(Dimensions, RepeatedNamesAreFoundAtEveryRank) {
  for (std::size_t rank = 2; rank <= 40; ++rank) {
    std::vector<Dimension> unique;
    for (std::size_t i = 0; i < rank; ++i) unique.push_back({"d" + std::to_string(i), 1});
    SCOPED_TRACE(rank);
    LND_EXPECT_OK(Dimensions::Make(unique));
    for (std::size_t later = 1; later < rank; ++later) {
      const std::size_t earlier = (later * 7 + rank) % later;  // some axis before `later`
      SCOPED_TRACE("axis " + std::to_string(later) + " repeats axis " + std::to_string(earlier));
      std::vector<Dimension> dims = unique;
      dims[later].name = dims[earlier].name;
      LND_EXPECT_ERROR(Dimensions::Make(dims), StatusCode::kInvalidArgument,
                       "dimension name '" + dims[earlier].name + "' appears more than once");
    }
  }
}

TEST(Dimensions, RejectsSizeAboveUInt32) {
  const uint64_t max = std::numeric_limits<uint32_t>::max();
  LND_EXPECT_OK(Dimensions::Make({{"x", max}}));
  LND_EXPECT_ERROR(Dimensions::Make({{"x", max + 1}}), StatusCode::kInvalidArgument,
                   "invalid dimensions: dimension 'x' has size 4294967296");
}

TEST(Dimensions, RejectsElementCountOverflow) {
  const uint64_t max = std::numeric_limits<uint32_t>::max();
  LND_EXPECT_ERROR(Dimensions::Make({{"a", max}, {"b", max}, {"c", max}}),
                   StatusCode::kInvalidArgument, "overflows a 64-bit integer");
  // A zero-size axis after the overflow still gives 0 elements.
  LND_ASSERT_OK_AND_ASSIGN(Dimensions d,
                           Dimensions::Make({{"a", max}, {"b", max}, {"c", max}, {"d", 0}}));
  EXPECT_EQ(d.num_elements(), 0);
}

// ---- Attributes ----

TEST(Attributes, ConvenienceSettersMakeLengthOneValues) {
  Attributes a;
  a.Set("units", "K")
      .Set("name", std::string("temp"))
      .Set("ok", true)
      .Set("i8", int8_t{-1})
      .Set("i16", int16_t{-2})
      .Set("i32", int32_t{-3})
      .Set("i64", int64_t{-4})
      .Set("u8", uint8_t{1})
      .Set("u16", uint16_t{2})
      .Set("u32", uint32_t{3})
      .Set("u64", uint64_t{4})
      .Set("f32", 1.5f)
      .Set("f64", 2.5);
  EXPECT_EQ(a.size(), 13u);
  const std::vector<std::pair<std::string, array::TypeId>> expected = {
      {"units", array::TypeId::kUtf8}, {"name", array::TypeId::kUtf8},
      {"ok", array::TypeId::kBool},    {"i8", array::TypeId::kInt8},
      {"i16", array::TypeId::kInt16},  {"i32", array::TypeId::kInt32},
      {"i64", array::TypeId::kInt64},  {"u8", array::TypeId::kUInt8},
      {"u16", array::TypeId::kUInt16}, {"u32", array::TypeId::kUInt32},
      {"u64", array::TypeId::kUInt64}, {"f32", array::TypeId::kFloat32},
      {"f64", array::TypeId::kFloat64}};
  for (std::size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(a.entries()[i].first, expected[i].first);
    EXPECT_EQ(a.entries()[i].second->type->id(), expected[i].second) << expected[i].first;
    EXPECT_EQ(a.entries()[i].second->length, 1);
  }
  EXPECT_EQ(a.GetString("units"), std::optional<std::string>("K"));
  EXPECT_EQ(a.GetBool("ok"), std::optional<bool>(true));
  EXPECT_EQ(a.GetInt64("i8"), std::optional<int64_t>(-1));
  EXPECT_EQ(a.GetInt64("u64"), std::optional<int64_t>(4));
  EXPECT_EQ(a.GetDouble("f32"), std::optional<double>(1.5));
  EXPECT_EQ(a.GetDouble("i32"), std::optional<double>(-3.0));
  EXPECT_EQ(a.GetString("i32"), std::nullopt);
  EXPECT_EQ(a.GetInt64("units"), std::nullopt);
  EXPECT_EQ(a.Get("missing"), nullptr);
}

TEST(Attributes, VectorSettersMakeOneElementLists) {
  Attributes a;
  a.Set("valid_range", std::vector<double>{0.0, 100.0})
      .Set("flags", std::vector<std::string>{"a", "b", "c"})
      .Set("bits", std::vector<bool>{true, false})
      .Set("codes", std::vector<uint16_t>{7})
      .Set("empty", std::vector<int32_t>{});
  const array::ArrayPtr range = a.Get("valid_range");
  ASSERT_NE(range, nullptr);
  EXPECT_EQ(range->length, 1);
  EXPECT_EQ(range->type->ToString(), array::List(array::Float64())->ToString());
  const array::ListView view(*range);
  EXPECT_EQ(view.ValueLength(0), 2);
  EXPECT_TRUE(array::ArrayEquals(*range->children[0], *F64({0.0, 100.0})));
  EXPECT_TRUE(a.Get("flags")->type->Equals(*array::List(array::Utf8())));
  EXPECT_TRUE(a.Get("bits")->type->Equals(*array::List(array::Bool())));
  EXPECT_TRUE(a.Get("codes")->type->Equals(*array::List(array::UInt16())));
  EXPECT_EQ(array::ListView(*a.Get("empty")).ValueLength(0), 0);
}

TEST(Attributes, SetReplacesInPlace) {
  Attributes a;
  a.Set("a", 1).Set("b", 2).Set("a", "x");
  ASSERT_EQ(a.size(), 2u);
  EXPECT_EQ(a.entries()[0].first, "a");
  EXPECT_EQ(a.GetString("a"), std::optional<std::string>("x"));
  EXPECT_TRUE(a.Remove("a"));
  EXPECT_FALSE(a.Remove("a"));
  EXPECT_EQ(a.size(), 1u);
}

TEST(Attributes, SetValueValidates) {
  Attributes a;
  LND_EXPECT_OK(a.SetValue("units", Str({"K"})));
  LND_EXPECT_ERROR(a.SetValue("", Str({"K"})), StatusCode::kInvalidArgument,
                   "invalid attribute: an attribute key is empty");
  LND_EXPECT_ERROR(a.SetValue("k", nullptr), StatusCode::kInvalidArgument,
                   "invalid attribute: attribute 'k' has no value");
  LND_EXPECT_ERROR(a.SetValue("k", Str({"a", "b"})), StatusCode::kInvalidArgument,
                   "invalid attribute: attribute 'k' holds 2 values");
  LND_EXPECT_ERROR(a.SetValue("k", Str({})), StatusCode::kInvalidArgument, "holds 0 values");
  LND_EXPECT_ERROR(a.SetValue("k", Str({std::nullopt})), StatusCode::kInvalidArgument,
                   "invalid attribute: attribute 'k' is null");
  EXPECT_EQ(a.size(), 1u);
}

TEST(Attributes, MakeRejectsRepeatedKeys) {
  LND_ASSERT_OK_AND_ASSIGN(Attributes a, Attributes::Make({{"x", I32({1})}, {"y", I32({2})}}));
  EXPECT_EQ(a.size(), 2u);
  LND_EXPECT_ERROR(Attributes::Make({{"x", I32({1})}, {"x", I32({2})}}),
                   StatusCode::kInvalidArgument, "invalid attribute: key 'x' appears more");
}

TEST(Attributes, EqualityIgnoresOrderButNotTypesOrValues) {
  Attributes a, b, c, d;
  a.Set("x", 1).Set("y", "s");
  b.Set("y", "s").Set("x", 1);
  c.Set("x", int64_t{1}).Set("y", "s");
  d.Set("x", 2).Set("y", "s");
  EXPECT_EQ(a, b);
  EXPECT_FALSE(a == c);
  EXPECT_FALSE(a == d);
  Attributes e = a;
  e.Set("z", 0.5);
  EXPECT_FALSE(a == e);
  EXPECT_FALSE(e == a);
}

// ---- NdArrowArray ----

TEST(NdArrowArray, ValidatesLength) {
  LND_ASSERT_OK_AND_ASSIGN(NdArrowArray a,
                           NdArrowArray::Make(Iota32(6), Dims({{"t", 2}, {"lat", 3}})));
  EXPECT_EQ(a.rank(), 2u);
  EXPECT_EQ(a.num_elements(), 6);
  EXPECT_EQ(a.shape(), (std::vector<uint64_t>{2, 3}));
  EXPECT_TRUE(a.value_type()->Equals(*array::Float32()));
  LND_EXPECT_ERROR(NdArrowArray::Make(Iota32(5), Dims({{"t", 2}, {"lat", 3}})),
                   StatusCode::kInvalidArgument,
                   "shape mismatch: values length 5 does not match dimensions [t=2, lat=3] "
                   "(6 elements)");
}

TEST(NdArrowArray, ScalarNeedsExactlyOneValue) {
  LND_EXPECT_OK(NdArrowArray::Make(Iota32(1), Dimensions()));
  LND_EXPECT_ERROR(NdArrowArray::Make(Iota32(0), Dimensions()), StatusCode::kInvalidArgument,
                   "values length 0 does not match dimensions [] (1 elements)");
  LND_EXPECT_ERROR(NdArrowArray::Make(nullptr, Dimensions()), StatusCode::kInvalidArgument,
                   "invalid argument: an nd array needs a values array");
}

TEST(NdArrowArray, ZeroSizeAxisNeedsNoValues) {
  LND_EXPECT_OK(NdArrowArray::Make(Iota32(0), Dims({{"x", 0}, {"y", 3}})));
  LND_EXPECT_ERROR(NdArrowArray::Make(Iota32(1), Dims({{"x", 0}})), StatusCode::kInvalidArgument,
                   "(0 elements)");
}

TEST(NdArrowArray, NullsAreMissingElements) {
  LND_ASSERT_OK_AND_ASSIGN(NdArrowArray a,
                           NdArrowArray::Make(F32({1.0f, std::nullopt}), Dims({{"x", 2}})));
  EXPECT_EQ(a.values()->null_count(), 1);
}

TEST(NdArrowArray, Equality) {
  Attributes units;
  units.Set("units", "K");
  const NdArrowArray a = Nd(Iota32(2), {{"x", 2}}, units);
  EXPECT_EQ(a, Nd(Iota32(2), {{"x", 2}}, units));
  EXPECT_FALSE(a == Nd(Iota32(2), {{"x", 2}}));
  EXPECT_FALSE(a == Nd(Iota32(2), {{"y", 2}}, units));
  EXPECT_FALSE(a == Nd(F32({0.0f, 2.0f}), {{"x", 2}}, units));
  EXPECT_FALSE(a == Nd(F64({0.0, 1.0}), {{"x", 2}}, units));
  EXPECT_EQ(a.WithAttributes({}), Nd(Iota32(2), {{"x", 2}}));
  EXPECT_NE(a.ToString().find("[x=2]"), std::string::npos) << a.ToString();
}

}  // namespace
}  // namespace lance_nd::nd
