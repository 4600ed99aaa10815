// Semantics per type: temporal values and literals, integer and float arithmetic, mixed
// signedness, float16, NaN and zeros, strings and binary, casts. Expected rows are worked out
// by hand from the values in each batch.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "lance_nd/array/builder.h"
#include "lance_nd/query/filter.h"
#include "lance_nd/query/test_util.h"
#include "lance_nd/testing/status_matchers.h"

namespace lance_nd::query {
namespace {

using array::MakeField;
using V = std::vector<std::int64_t>;
using testutil::SelectRows;

array::RecordBatchPtr Batch(std::vector<array::FieldPtr> fields,
                            std::vector<array::ArrayPtr> columns) {
  const std::int64_t n = columns.empty() ? 0 : columns[0]->length;
  return std::make_shared<array::RecordBatch>(array::MakeSchema(std::move(fields)), n,
                                              std::move(columns));
}

V Rows(const array::RecordBatch& batch, const std::string& sql) {
  auto rows = SelectRows(batch, sql);
  EXPECT_TRUE(rows.ok()) << sql << ": " << rows.status().ToString();
  return rows.ok() ? *rows : V{-1};
}

TEST(FilterTypes, Temporal) {
  // 2020-01-01T00:00:00Z, 2021-06-01T12:00:00Z, null, 1999-12-31T23:59:59Z (epoch ms).
  auto ts_type = array::Timestamp(array::TimeUnit::kMilli, "UTC");
  auto ts = array::MakePrimitiveArray<std::int64_t>(
      ts_type, {1577836800000, 1622548800000, std::nullopt, 946684799000});
  // 2020-01-01, 2020-01-02, 1970-01-01, null (days).
  auto d =
      array::MakePrimitiveArray<std::int32_t>(array::Date32(), {18262, 18263, 0, std::nullopt});
  auto secs = array::MakePrimitiveArray<std::int64_t>(array::Timestamp(array::TimeUnit::kSecond),
                                                      {1577836800, 1622548801, 0, 946684799});
  auto dur = array::MakePrimitiveArray<std::int64_t>(array::Duration(array::TimeUnit::kMilli),
                                                     {1000, 2000, 3000, 4000});
  auto dur_s = array::MakePrimitiveArray<std::int64_t>(array::Duration(array::TimeUnit::kSecond),
                                                       {1, 1, 4, 4});
  auto b = Batch(
      {MakeField("ts", ts_type), MakeField("d", array::Date32()), MakeField("secs", secs->type),
       MakeField("dur", dur->type), MakeField("dur_s", dur_s->type)},
      {ts, d, secs, dur, dur_s});
  EXPECT_EQ(Rows(*b, "ts > TIMESTAMP '2020-06-01 00:00:00'"), (V{1}));
  EXPECT_EQ(Rows(*b, "ts >= '2020-01-01'"), (V{0, 1}));  // the string is read as a timestamp
  EXPECT_EQ(Rows(*b, "ts = '2020-01-01T00:00:00Z'"), (V{0}));
  EXPECT_EQ(Rows(*b, "ts = '2020-01-01 01:00:00+01:00'"), (V{0}));
  EXPECT_EQ(Rows(*b, "ts < DATE '2000-01-01'"), (V{3}));
  EXPECT_EQ(Rows(*b, "d = DATE '2020-01-02'"), (V{1}));
  EXPECT_EQ(Rows(*b, "d = '2020-01-02'"), (V{1}));
  EXPECT_EQ(Rows(*b, "d < ts"), (V{1}));  // 2020-01-01 is 2020-01-01T00:00; 2020-01-02 < 2021
  EXPECT_EQ(Rows(*b, "d <= ts"), (V{0, 1}));
  EXPECT_EQ(Rows(*b, "secs > ts"), (V{1}));  // seconds meet milliseconds in milliseconds
  EXPECT_EQ(Rows(*b, "secs = ts"), (V{0, 3}));
  EXPECT_EQ(Rows(*b, "dur > dur_s"), (V{1}));  // 2000 ms > 1 s
  EXPECT_EQ(Rows(*b, "dur = dur_s"), (V{0, 3}));
  EXPECT_EQ(Rows(*b, "CAST(ts AS DATE) = DATE '2021-06-01'"), (V{1}));
  EXPECT_EQ(Rows(*b, "CAST(d AS TIMESTAMP(0)) = secs"), (V{0, 2}));
  EXPECT_EQ(Rows(*b, "CAST(d AS STRING) = '1970-01-01'"), (V{2}));
  LND_EXPECT_ERROR(SelectRows(*b, "ts > 'yesterday'"), StatusCode::kInvalidArgument, "'yesterday'");
}

TEST(FilterTypes, IntegerArithmetic) {
  const auto i64_min = std::numeric_limits<std::int64_t>::min();
  auto i = array::MakePrimitiveArray<std::int64_t>(array::Int64(), {-7, 7, 0, i64_min});
  auto i32 =
      array::MakePrimitiveArray<std::int32_t>(array::Int32(), {2147483647, -2147483647 - 1, 5, 1});
  auto i8 = array::MakePrimitiveArray<std::int8_t>(array::Int8(), {127, -128, 3, std::nullopt});
  auto u64 = array::MakePrimitiveArray<std::uint64_t>(
      array::UInt64(), {std::numeric_limits<std::uint64_t>::max(), 0, 7, 1});
  auto b = Batch({MakeField("i", array::Int64()), MakeField("i32", array::Int32()),
                  MakeField("i8", array::Int8()), MakeField("u64", array::UInt64())},
                 {i, i32, i8, u64});
  EXPECT_EQ(Rows(*b, "i / 2 = -3"), (V{0}));     // truncates toward zero
  EXPECT_EQ(Rows(*b, "i % 2 = -1"), (V{0}));     // the sign of the dividend
  EXPECT_EQ(Rows(*b, "i32 + i32 < 0"), (V{0}));  // int32 + int32 wraps at 32 bits
  EXPECT_EQ(Rows(*b, "i32 + 1 < 0"), (V{1}));    // int32 + int64 literal: 64 bits
  EXPECT_EQ(Rows(*b, "i8 + i8 = -2"), (V{0}));   // 254 wraps to -2 in int8
  EXPECT_EQ(Rows(*b, "-i8 = -128"), (V{1}));     // -(-128) wraps in int8
  EXPECT_EQ(Rows(*b, "u64 > i"), (V{0, 2, 3}));
  EXPECT_EQ(Rows(*b, "u64 > -1"), (V{0, 1, 2, 3}));           // mixed signedness compares exactly
  EXPECT_EQ(Rows(*b, "u64 = 18446744073709551615"), (V{0}));  // a float literal (past int64)
  EXPECT_EQ(Rows(*b, "i = -9223372036854775808"), (V{3}));
  EXPECT_EQ(Rows(*b, "abs(i) = 7"), (V{0, 1}));
  LND_EXPECT_ERROR(SelectRows(*b, "i / (i - i) = 1"), StatusCode::kInvalidArgument,
                   "divide by zero");
  LND_EXPECT_ERROR(SelectRows(*b, "i % 0 = 1"), StatusCode::kInvalidArgument, "divide by zero");
  LND_EXPECT_ERROR(SelectRows(*b, "i / -1 = 1"), StatusCode::kInvalidArgument, "overflow");
  EXPECT_EQ(Rows(*b, "i8 / NULL IS NULL"), (V{0, 1, 2, 3}));  // nothing is divided by a null
}

TEST(FilterTypes, FloatsNaNAndZeros) {
  auto f = array::MakePrimitiveArray<double>(array::Float64(), {NAN, 0.0, -0.0, 5.5, -INFINITY});
  auto f32 = array::MakePrimitiveArray<float>(array::Float32(), {0.1f, 1.5f, NAN, -2.0f, 0.0f});
  // float16 bits: 1.5 = 0x3E00, -2 = 0xC000, inf = 0x7C00, NaN = 0x7E00, 0x0001 = 2^-24.
  auto h = array::MakePrimitiveArray<std::uint16_t>(array::Float16(),
                                                    {0x3E00, 0xC000, 0x7C00, 0x7E00, 0x0001});
  auto b = Batch({MakeField("f", array::Float64()), MakeField("f32", array::Float32()),
                  MakeField("h", array::Float16())},
                 {f, f32, h});
  EXPECT_EQ(Rows(*b, "f = f"), (V{0, 1, 2, 3, 4}));  // NaN equals NaN
  EXPECT_EQ(Rows(*b, "f > 1e308"), (V{0}));          // NaN is above every number
  EXPECT_EQ(Rows(*b, "f = 0.0"), (V{1, 2}));         // -0 equals 0
  EXPECT_EQ(Rows(*b, "f < 0"), (V{4}));
  EXPECT_EQ(Rows(*b, "f < -f"), (V{2, 4}));  // no literal: -0 is below +0 (total order)
  EXPECT_EQ(Rows(*b, "f = CAST('NaN' AS DOUBLE)"), (V{0}));
  EXPECT_EQ(Rows(*b, "f / 0 > 1e308"), (V{0, 3}));  // 5.5 / 0 = inf, NaN / 0 = NaN
  EXPECT_EQ(Rows(*b, "f32 = 1.5"), (V{1}));
  EXPECT_EQ(Rows(*b, "f32 = 0.1"), (V{}));  // float32 0.1 is not double 0.1
  EXPECT_EQ(Rows(*b, "f32 = CAST(0.1 AS FLOAT)"), (V{0}));
  EXPECT_EQ(Rows(*b, "h = 1.5 OR h = -2"), (V{0, 1}));
  EXPECT_EQ(Rows(*b, "h > 65504"), (V{2, 3}));
  EXPECT_EQ(Rows(*b, "h = 5.9604644775390625e-08"), (V{4}));
  EXPECT_EQ(Rows(*b, "f % 2 = 1.5"), (V{3}));
}

TEST(FilterTypes, StringsAndBinary) {
  auto s =
      array::MakeStringArray({"apple", "Banana", "", std::nullopt, "a_b%c"}, array::LargeUtf8());
  auto bin = array::MakeStringArray({"\x01\x02", "abc", "", "abc", std::nullopt}, array::Binary());
  auto b = Batch({MakeField("s", array::LargeUtf8()), MakeField("bin", array::Binary())}, {s, bin});
  EXPECT_EQ(Rows(*b, "s = 'apple'"), (V{0}));
  EXPECT_EQ(Rows(*b, "s < 'b'"), (V{0, 1, 2, 4}));  // byte order: 'B' < 'a'
  EXPECT_EQ(Rows(*b, "s LIKE 'a%'"), (V{0, 4}));
  EXPECT_EQ(Rows(*b, "s ILIKE 'b%'"), (V{1}));
  EXPECT_EQ(Rows(*b, "s LIKE '%'"), (V{0, 1, 2, 4}));
  EXPECT_EQ(Rows(*b, "s LIKE 'a!_b!%c' ESCAPE '!'"), (V{4}));
  EXPECT_EQ(Rows(*b, "s LIKE '_____'"), (V{0, 4}));
  EXPECT_EQ(Rows(*b, "s NOT LIKE '%a%'"), (V{2}));
  EXPECT_EQ(Rows(*b, "bin = 'abc'"), (V{1, 3}));
  EXPECT_EQ(Rows(*b, "s IN ('apple', 'Banana')"), (V{0, 1}));
}

TEST(FilterTypes, Casts) {
  auto s = array::MakeStringArray({"12", "-3", "x", std::nullopt});
  auto i = array::MakePrimitiveArray<std::int32_t>(array::Int32(), {300, -1, 2, 0});
  auto f = array::MakePrimitiveArray<double>(array::Float64(), {2.9, -2.9, 1e20, NAN});
  auto b = Batch({MakeField("s", array::Utf8()), MakeField("i", array::Int32()),
                  MakeField("f", array::Float64())},
                 {s, i, f});
  EXPECT_EQ(Rows(*b, "CAST(i AS STRING) = '300'"), (V{0}));
  EXPECT_EQ(Rows(*b, "CAST(i AS BOOLEAN)"), (V{0, 1, 2}));
  EXPECT_EQ(Rows(*b, "CAST(i AS DOUBLE) / 4 = 75"), (V{0}));
  LND_EXPECT_ERROR(SelectRows(*b, "CAST(s AS INT) = 12"), StatusCode::kInvalidArgument, "'x'");
  LND_EXPECT_ERROR(SelectRows(*b, "CAST(i AS TINYINT) = 1"), StatusCode::kInvalidArgument, "300");
  LND_EXPECT_ERROR(SelectRows(*b, "CAST(i AS INT UNSIGNED) = 1"), StatusCode::kInvalidArgument,
                   "-1");
  LND_EXPECT_ERROR(SelectRows(*b, "CAST(f AS BIGINT) = 1"), StatusCode::kInvalidArgument,
                   "out of range");
  EXPECT_EQ(Rows(*b, "CAST(CAST(s AS STRING) AS STRING) = '12'"), (V{0}));
  // A string meeting a number is read as a number of the number's type.
  EXPECT_EQ(Rows(*b, "i = '300'"), (V{0}));
  EXPECT_EQ(Rows(*b, "abs(i) < '10'"), (V{1, 2, 3}));  // as numbers: 10 is not below 2 as text
  EXPECT_EQ(Rows(*b, "f > '2'"), (V{0, 2, 3}));        // NaN is above every number
  LND_EXPECT_ERROR(SelectRows(*b, "i = '2.5'"), StatusCode::kInvalidArgument, "not an integer");
  LND_EXPECT_ERROR(SelectRows(*b, "CAST('300' AS TINYINT) = 1"), StatusCode::kInvalidArgument,
                   "out of range");
  LND_EXPECT_ERROR(SelectRows(*b, "CAST('-1' AS INT UNSIGNED) = 1"), StatusCode::kInvalidArgument,
                   "out of range");
  EXPECT_EQ(Rows(*b, "CAST('18446744073709551615' AS BIGINT UNSIGNED) > i"), (V{0, 1, 2, 3}));
  LND_EXPECT_ERROR(SelectRows(*b, "i = s"), StatusCode::kInvalidArgument, "'x'");
  EXPECT_EQ(
      Rows(*b,
           "CAST('12' AS INT) = 12 AND CAST('2.5' AS DOUBLE) = 2.5 AND CAST('true' AS BOOLEAN)"),
      (V{0, 1, 2, 3}));
}

}  // namespace
}  // namespace lance_nd::query
