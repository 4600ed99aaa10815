// Seeded property tests over random types and arrays (src/lance_nd/testing/random_arrays.h).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "lance_nd/array/builder.h"
#include "lance_nd/array/cast.h"
#include "lance_nd/array/view.h"
#include "lance_nd/testing/random_arrays.h"
#include "lance_nd/testing/status_matchers.h"

namespace lance_nd::array {
namespace {

using lance_nd::testing::RandomArray;
using lance_nd::testing::RandomArrayOptions;
using lance_nd::testing::RandomType;
using lance_nd::testing::RandomTypeOptions;
using lance_nd::testing::Rng;

constexpr int kIterations = 300;

TEST(RandomArraysTest, DeterministicAndValid) {
  for (std::uint64_t seed = 0; seed < kIterations; ++seed) {
    auto type = RandomType(seed, 3, RandomTypeOptions{.null_type = true});
    ASSERT_TRUE(type->Equals(*RandomType(seed, 3, RandomTypeOptions{.null_type = true})));
    const bool sliced = seed % 2 == 1;
    auto a = RandomArray(type, static_cast<int64_t>(seed % 40), 0.25, seed,
                         RandomArrayOptions{.sliced = sliced});
    ASSERT_NE(a, nullptr) << type->ToString();
    auto b = RandomArray(type, static_cast<int64_t>(seed % 40), 0.25, seed,
                         RandomArrayOptions{.sliced = sliced});
    LND_ASSERT_OK(Validate(*a));
    EXPECT_EQ(a->length, static_cast<int64_t>(seed % 40));
    EXPECT_TRUE(ArrayEquals(*a, *b)) << type->ToString();
    EXPECT_EQ(PrettyPrint(*a), PrettyPrint(*b));
    if (sliced) {
      EXPECT_GT(a->offset, 0);
    }
  }
}

TEST(RandomArraysTest, ProducesEdgeCases) {
  int empty_lists = 0, null_lists = 0, nans = 0, multibyte = 0;
  auto lists = RandomArray(List(Int32()), 500, 0.2, 1);
  ListView lv(*lists);
  for (int64_t i = 0; i < lists->length; ++i) {
    if (lists->IsNull(i)) {
      ++null_lists;
    } else if (lv.ValueLength(i) == 0) {
      ++empty_lists;
    }
  }
  auto floats = RandomArray(Float64(), 500, 0.0, 2);
  PrimitiveView<double> fv(*floats);
  for (int64_t i = 0; i < floats->length; ++i) nans += std::isnan(fv.Value(i)) ? 1 : 0;
  auto strs = RandomArray(Utf8(), 200, 0.0, 3);
  BinaryView sv(*strs);
  for (int64_t i = 0; i < strs->length; ++i) {
    for (char c : sv.Value(i)) multibyte += (static_cast<unsigned char>(c) >= 0x80) ? 1 : 0;
  }
  EXPECT_GT(empty_lists, 10);
  EXPECT_GT(null_lists, 10);
  EXPECT_GT(nans, 5);
  EXPECT_GT(multibyte, 50);
  // Not-nullable fields get no nulls.
  auto st = Struct({MakeField("a", Int8(), false), MakeField("b", Int8())});
  auto s = RandomArray(st, 300, 0.5, 4);
  EXPECT_EQ(s->children[0]->null_count(), 0);
  EXPECT_GT(s->children[1]->null_count(), 0);
}

TEST(PropertyTest, SlicesConcatenationAndBuilders) {
  for (std::uint64_t seed = 0; seed < kIterations; ++seed) {
    Rng rng(seed);
    auto type = RandomType(seed, 3, RandomTypeOptions{.null_type = true});
    const int64_t len = rng.Range(0, 50);
    auto a = RandomArray(type, len, 0.3, seed, RandomArrayOptions{.sliced = (seed & 1) != 0});
    const int64_t cut = rng.Range(0, len);
    LND_ASSERT_OK_AND_ASSIGN(auto head, Slice(a, 0, cut));
    LND_ASSERT_OK_AND_ASSIGN(auto tail, Slice(a, cut, len - cut));
    LND_ASSERT_OK(Validate(*head));
    LND_ASSERT_OK(Validate(*tail));
    LND_ASSERT_OK_AND_ASSIGN(auto joined, Concatenate({head, tail}));
    LND_ASSERT_OK(Validate(*joined));
    ASSERT_TRUE(ArrayEquals(*joined, *a)) << type->ToString() << "\n" << PrettyPrint(*a);
    EXPECT_EQ(joined->null_count(), a->null_count());
    // Slicing the concatenation gives the parts back.
    LND_ASSERT_OK_AND_ASSIGN(auto tail2, Slice(joined, cut, len - cut));
    EXPECT_TRUE(ArrayEquals(*tail2, *tail));
    // Builders copy slices slot by slot in any chunking.
    auto b = MakeBuilder(type);
    for (int64_t i = 0; i < len;) {
      const int64_t n = std::min<int64_t>(rng.Range(1, 7), len - i);
      LND_ASSERT_OK(b->AppendArraySlice(*a, i, n));
      i += n;
    }
    LND_ASSERT_OK_AND_ASSIGN(auto rebuilt, b->Finish());
    EXPECT_TRUE(ArrayEquals(*rebuilt, *a));
    // A null array of the type equals itself and validates.
    auto nulls = MakeArrayOfNulls(type, len);
    LND_ASSERT_OK(Validate(*nulls));
    EXPECT_EQ(nulls->null_count(), len);
    if (a->null_count() < len) {
      EXPECT_FALSE(ArrayEquals(*nulls, *a)) << type->ToString();
    }
  }
}

TEST(PropertyTest, EqualityDetectsAChangedValue) {
  const std::vector<DataTypePtr> types = {
      Int8(),    UInt16(),  Int32(),  Int64(),
      Float32(), Float64(), Date32(), Timestamp(TimeUnit::kNano)};
  for (std::uint64_t seed = 0; seed < kIterations; ++seed) {
    Rng rng(seed);
    const auto& type = types[rng.Below(types.size())];
    auto a = RandomArray(type, 30, 0.3, seed);
    // Pick a valid slot and flip its lowest value bit.
    std::vector<int64_t> valid;
    for (int64_t i = 0; i < a->length; ++i) {
      if (a->IsValid(i)) valid.push_back(i);
    }
    if (valid.empty()) continue;
    const int64_t row = valid[rng.Below(valid.size())];
    const int64_t w = type->byte_width();
    std::vector<std::uint8_t> bytes(a->buffers[1]->data(), a->buffers[1]->data() + a->length * w);
    bytes[static_cast<std::size_t>(row * w)] ^= 1;
    auto b = MakeArrayData(type, a->length, {a->buffers[0], Buffer::Copy(bytes)});
    // Flipping the low mantissa bit of a NaN leaves a NaN (equal by definition).
    double v = 0;
    if (type->id() == TypeId::kFloat64) v = PrimitiveView<double>(*a).Value(row);
    if (type->id() == TypeId::kFloat32) v = PrimitiveView<float>(*a).Value(row);
    if (std::isnan(v)) continue;
    EXPECT_FALSE(ArrayEquals(*a, *b)) << type->ToString() << " row " << row;
    // Changing the validity of a slot changes equality too.
    auto no_nulls = MakeArrayData(type, a->length, {nullptr, a->buffers[1]});
    EXPECT_EQ(ArrayEquals(*a, *no_nulls), a->null_count() == 0);
  }
}

// Reference value of numeric slot i as long double (exact for every integer type).
long double Ref(const ArrayData& a, int64_t i) {
  switch (a.type->id()) {
    case TypeId::kInt8:
      return PrimitiveView<int8_t>(a).Value(i);
    case TypeId::kInt16:
      return PrimitiveView<int16_t>(a).Value(i);
    case TypeId::kInt32:
      return PrimitiveView<int32_t>(a).Value(i);
    case TypeId::kInt64:
      return static_cast<long double>(PrimitiveView<int64_t>(a).Value(i));
    case TypeId::kUInt8:
      return PrimitiveView<uint8_t>(a).Value(i);
    case TypeId::kUInt16:
      return PrimitiveView<uint16_t>(a).Value(i);
    case TypeId::kUInt32:
      return PrimitiveView<uint32_t>(a).Value(i);
    case TypeId::kUInt64:
      return static_cast<long double>(PrimitiveView<uint64_t>(a).Value(i));
    case TypeId::kFloat32:
      return PrimitiveView<float>(a).Value(i);
    case TypeId::kFloat64:
      return PrimitiveView<double>(a).Value(i);
    case TypeId::kBool:
      return BoolView(a).Value(i) ? 1 : 0;
    default:
      return 0;
  }
}

bool InIntRange(TypeId id, long double v) {
  switch (id) {
    case TypeId::kInt8:
      return v >= -128 && v <= 127;
    case TypeId::kInt16:
      return v >= -32768 && v <= 32767;
    case TypeId::kInt32:
      return v >= -2147483648.0L && v <= 2147483647.0L;
    case TypeId::kInt64:
      return v >= -9223372036854775808.0L && v <= 9223372036854775807.0L;
    case TypeId::kUInt8:
      return v >= 0 && v <= 255;
    case TypeId::kUInt16:
      return v >= 0 && v <= 65535;
    case TypeId::kUInt32:
      return v >= 0 && v <= 4294967295.0L;
    case TypeId::kUInt64:
      return v >= 0 && v <= 18446744073709551615.0L;
    default:
      return true;
  }
}

TEST(PropertyTest, NumericCasts) {
  const std::vector<DataTypePtr> types = {Bool(),   Int8(),    Int16(),  Int32(),
                                          Int64(),  UInt8(),   UInt16(), UInt32(),
                                          UInt64(), Float32(), Float64()};
  int succeeded_narrowing = 0, failed_narrowing = 0;
  for (std::uint64_t seed = 0; seed < 3 * kIterations; ++seed) {
    Rng rng(seed);
    const auto& from = types[rng.Below(types.size())];
    const auto& to = types[rng.Below(types.size())];
    auto a = RandomArray(from, rng.Range(0, 6), 0.3, seed, RandomArrayOptions{.sliced = true});
    const bool safe = CanRepresentAll(*from, *to);
    const bool same_kind = CanCast(*from, *to, CastMode::kSameKind);
    EXPECT_TRUE(!safe || same_kind);
    auto r = Cast(a, to, CastMode::kSameKind);
    if (!same_kind) {
      LND_EXPECT_ERROR(r, StatusCode::kInvalidArgument, "cannot cast");
      continue;
    }
    // Expected outcome: every valid value fits (integers: exact range; floats: finite stays
    // finite).
    bool fits = true;
    for (int64_t i = 0; i < a->length; ++i) {
      if (!a->IsValid(i)) continue;
      const long double v = Ref(*a, i);
      if (to->is_integer() && !InIntRange(to->id(), v)) fits = false;
      if (to->id() == TypeId::kFloat32 && std::isfinite(v) &&
          std::fabs(v) > static_cast<long double>(std::numeric_limits<float>::max())) {
        fits = false;
      }
    }
    ASSERT_EQ(r.ok(), fits) << from->ToString() << " -> " << to->ToString() << " "
                            << r.status().ToString() << "\n"
                            << PrettyPrint(*a);
    if (safe) {
      ASSERT_TRUE(r.ok());
    }
    if (!r.ok()) {
      ++failed_narrowing;
      LND_EXPECT_ERROR(r, StatusCode::kInvalidArgument, "is out of range");
      continue;
    }
    if (!safe) ++succeeded_narrowing;
    const ArrayData& out = **r;
    LND_ASSERT_OK(Validate(out));
    ASSERT_EQ(out.length, a->length);
    for (int64_t i = 0; i < a->length; ++i) {
      ASSERT_EQ(out.IsValid(i), a->IsValid(i));
      if (!a->IsValid(i)) continue;
      const long double v = Ref(*a, i), w = Ref(out, i);
      if (std::isnan(v)) {
        EXPECT_TRUE(std::isnan(w));
      } else if (to->is_integer() || safe) {
        EXPECT_EQ(v, w) << from->ToString() << " -> " << to->ToString() << " row " << i;
      }
    }
    // Safe casts round-trip.
    if (safe && CanCast(*to, *from, CastMode::kSameKind)) {
      LND_ASSERT_OK_AND_ASSIGN(auto back, Cast(*r, from, CastMode::kSameKind));
      EXPECT_TRUE(ArrayEquals(*back, *a)) << from->ToString() << " -> " << to->ToString();
    }
  }
  EXPECT_GT(succeeded_narrowing, 10);
  EXPECT_GT(failed_narrowing, 10);
}

TEST(PropertyTest, NestedSafeCastsRoundTrip) {
  for (std::uint64_t seed = 0; seed < kIterations; ++seed) {
    Rng rng(seed);
    auto inner_from = rng.Below(2) ? Int16() : Float32();
    auto inner_to = inner_from->id() == TypeId::kInt16 ? Int64() : Float64();
    DataTypePtr from, to;
    switch (rng.Below(4)) {
      case 0:
        from = List(inner_from);
        to = LargeList(inner_to);
        break;
      case 1:
        from = FixedSizeList(inner_from, 3);
        to = FixedSizeList(inner_to, 3);
        break;
      case 2:
        from = LargeList(List(inner_from));
        to = LargeList(LargeList(inner_to));
        break;
      default:
        from = Struct({MakeField("a", List(inner_from)), MakeField("b", Utf8())});
        to = Struct({MakeField("a", List(inner_to)), MakeField("b", LargeUtf8())});
    }
    ASSERT_TRUE(CanRepresentAll(*from, *to)) << from->ToString() << " -> " << to->ToString();
    auto a = RandomArray(from, rng.Range(0, 20), 0.3, seed, RandomArrayOptions{.sliced = true});
    LND_ASSERT_OK_AND_ASSIGN(auto wide, Cast(a, to));
    LND_ASSERT_OK(Validate(*wide));
    LND_ASSERT_OK_AND_ASSIGN(auto back, Cast(wide, from, CastMode::kSameKind));
    LND_ASSERT_OK(Validate(*back));
    EXPECT_TRUE(ArrayEquals(*back, *a)) << from->ToString();
  }
}

TEST(PropertyTest, ValidateNeverCrashesOnCorruptedOffsets) {
  // Overwrite random bytes of offsets / validity buffers; Validate must report or accept,
  // and whatever it accepts must be readable (ArrayEquals / PrettyPrint walk every slot).
  int rejected = 0;
  for (std::uint64_t seed = 0; seed < kIterations; ++seed) {
    Rng rng(seed);
    auto type = rng.Below(2) ? List(Utf8()) : LargeList(Binary());
    auto a = RandomArray(type, rng.Range(1, 10), 0.2, seed);
    auto child = a->children[0];
    std::vector<std::uint8_t> offs(a->buffers[1]->data(),
                                   a->buffers[1]->data() + a->buffers[1]->size());
    std::vector<std::uint8_t> child_offs(child->buffers[1]->data(),
                                         child->buffers[1]->data() + child->buffers[1]->size());
    auto& target = rng.Below(2) ? offs : child_offs;
    target[rng.Below(target.size())] = static_cast<std::uint8_t>(rng.Next());
    auto bad_child =
        MakeArrayData(child->type, child->length,
                      {child->buffers[0], Buffer::Copy(child_offs), child->buffers[2]});
    auto bad = MakeArrayData(type, a->length, {a->buffers[0], Buffer::Copy(offs)}, {bad_child});
    const Status st = Validate(*bad);
    if (st.ok()) {
      EXPECT_TRUE(ArrayEquals(*bad, *bad));
      EXPECT_FALSE(PrettyPrint(*bad).empty());
    } else {
      ++rejected;
      EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
    }
  }
  EXPECT_GT(rejected, kIterations / 4);
}

}  // namespace
}  // namespace lance_nd::array
