// JSON Lines codec: generated round trips (every dtype, nulls, non-finite floats, scalars,
// empty dims, attributes of every type) and every error the decoder reports.
#include "lance_nd/api/json_lines.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "lance_nd/api/json_values.h"
#include "lance_nd/array/builder.h"
#include "lance_nd/array/view.h"
#include "lance_nd/testing/random_arrays.h"
#include "lance_nd/testing/status_matchers.h"

namespace lance_nd {
namespace {

using array::DataTypePtr;
using array::TimeUnit;
using testing::RandomArray;
using testing::Rng;

/// Every dtype of the contract, plus list<T> of a few of them and a nested list.
std::vector<DataTypePtr> AllDtypes() {
  using namespace array;  // NOLINT
  std::vector<DataTypePtr> t = {Bool(),        Int8(),    Int16(),  Int32(),     Int64(),
                                UInt8(),       UInt16(),  UInt32(), UInt64(),    Float16(),
                                Float32(),     Float64(), Utf8(),   LargeUtf8(), Binary(),
                                LargeBinary(), Date32()};
  for (TimeUnit u : {TimeUnit::kSecond, TimeUnit::kMilli, TimeUnit::kMicro, TimeUnit::kNano}) {
    t.push_back(Timestamp(u));
    t.push_back(Timestamp(u, "UTC"));
    t.push_back(Duration(u));
  }
  const std::size_t leaves = t.size();
  for (std::size_t i = 0; i < leaves; i += 3) t.push_back(List(t[i]));
  t.push_back(List(List(Int16())));
  return t;
}

/// A random one-value attribute of any dtype (lists may hold nulls).
array::ArrayPtr RandomAttribute(Rng& rng) {
  const auto types = AllDtypes();
  const DataTypePtr& type = types[rng.Below(types.size())];
  // Lists may hold null items, but the value itself is never null: draw until it is not.
  while (true) {
    auto value = RandomArray(type, 1, type->is_list_like() ? 0.2 : 0.0, rng.Next());
    if (value->IsValid(0)) return value;
  }
}

nd::Attributes RandomAttributes(Rng& rng) {
  static const std::vector<std::string> kKeys = {"units",      "long_name",        "valid_range",
                                                 "_FillValue", "a \"quoted\" key", "é"};
  nd::Attributes out;
  for (const std::string& key : kKeys) {
    if (rng.Chance(0.3)) {
      const Status s = out.SetValue(key, RandomAttribute(rng));
      EXPECT_TRUE(s.ok()) << s.ToString();
    }
  }
  return out;
}

/// A random row: 0..4 arrays of any dtype on one grid (sizes 0..3, size-1 axes broadcast),
/// ranks 0..3, nulls, attributes, sometimes global attributes.
nd::NdRecordBatch RandomRow(std::uint64_t seed) {
  Rng rng(seed);
  static const std::vector<std::string> kNames = {"temp", "lat", "a.b", "température", "x"};
  static const std::vector<std::string> kDims = {"x", "y", "time", "station"};
  std::vector<uint64_t> grid;
  for (std::size_t d = 0; d < kDims.size(); ++d) grid.push_back(rng.Below(4));
  const auto types = AllDtypes();
  std::vector<std::pair<std::string, nd::NdArrowArray>> arrays;
  for (const std::string& name : kNames) {
    if (!rng.Chance(0.5)) continue;
    std::vector<nd::Dimension> dims;
    for (std::size_t d = 0; d < kDims.size(); ++d) {
      if (rng.Chance(0.4)) dims.push_back({kDims[d], rng.Chance(0.2) ? 1 : grid[d]});
    }
    auto dimensions = nd::Dimensions::Make(std::move(dims));
    EXPECT_TRUE(dimensions.ok());
    const DataTypePtr& type = types[rng.Below(types.size())];
    auto values = RandomArray(type, dimensions->num_elements(), 0.2, rng.Next());
    auto array = nd::NdArrowArray::Make(values, *dimensions, RandomAttributes(rng));
    EXPECT_TRUE(array.ok()) << array.status().ToString();
    arrays.emplace_back(name, std::move(*array));
  }
  nd::Attributes globals = rng.Chance(0.5) ? RandomAttributes(rng) : nd::Attributes();
  auto row = nd::NdRecordBatch::FromArrays(std::move(arrays), std::move(globals));
  EXPECT_TRUE(row.ok()) << row.status().ToString();
  return std::move(*row);
}

TEST(JsonLinesTest, GeneratedRowsRoundTrip) {
  for (std::uint64_t seed = 0; seed < 400; ++seed) {
    const nd::NdRecordBatch row = RandomRow(seed);
    LND_ASSERT_OK_AND_ASSIGN(const std::string line, EncodeJsonLine(row));
    ASSERT_EQ(line.find('\n'), std::string::npos);
    LND_ASSERT_OK_AND_ASSIGN(const nd::NdRecordBatch back, DecodeJsonLine(line));
    ASSERT_TRUE(back.Equals(row)) << "seed " << seed << "\n" << line << "\n" << back.ToString();
    // The same text again: encoding is deterministic, array order kept.
    LND_ASSERT_OK_AND_ASSIGN(const std::string again, EncodeJsonLine(back));
    EXPECT_EQ(again, line) << "seed " << seed;
  }
}

TEST(JsonLinesTest, ShapeLeavesOutAbsentParts) {
  for (std::uint64_t seed = 0; seed < 200; ++seed) {
    const nd::NdRecordBatch row = RandomRow(seed);
    LND_ASSERT_OK_AND_ASSIGN(const std::string line, EncodeJsonLine(row));
    const auto doc = nlohmann::ordered_json::parse(line);
    EXPECT_EQ(doc.contains("global_attrs"), !row.attributes().empty()) << line;
    ASSERT_TRUE(doc["arrays"].is_object());
    ASSERT_EQ(doc["arrays"].size(), static_cast<std::size_t>(row.num_columns()));
    int i = 0;
    for (const auto& [name, spec] : doc["arrays"].items()) {
      const nd::NdArrowArray& column = row.column(i);
      EXPECT_EQ(name, row.column_name(i++));  // column order
      EXPECT_EQ(spec.contains("attrs"), !column.attributes().empty());
      EXPECT_EQ(spec["values"].size(), static_cast<std::size_t>(column.num_elements()));
      EXPECT_EQ(spec["dim_names"].get<std::vector<std::string>>(), column.dimensions().names());
      EXPECT_EQ(spec["dim_sizes"].get<std::vector<uint64_t>>(), column.dimensions().sizes());
      if (spec.contains("attrs")) {
        for (const auto& [key, tv] : spec["attrs"].items()) {
          EXPECT_TRUE(tv.contains("dtype") && tv.contains("value")) << key;
        }
      }
    }
  }
}

TEST(JsonLinesTest, DtypeNamesRoundTrip) {
  for (const DataTypePtr& type : AllDtypes()) {
    LND_ASSERT_OK_AND_ASSIGN(const std::string name, JsonDtypeName(*type));
    LND_ASSERT_OK_AND_ASSIGN(const DataTypePtr back, ParseJsonDtype(name));
    EXPECT_TRUE(back->Equals(*type)) << name;
  }
  LND_ASSERT_OK_AND_ASSIGN(auto ts, ParseJsonDtype("timestamp[ns, tz=UTC]"));
  EXPECT_TRUE(ts->Equals(*array::Timestamp(TimeUnit::kNano, "UTC")));
  for (const char* bad : {"flaot32", "list<flaot32>", "timestamp[h]", "timestamp[ns, zone=UTC]",
                          "duration[]", "list<int8", "", "Float32", "date64"}) {
    LND_EXPECT_ERROR(ParseJsonDtype(bad), StatusCode::kInvalidArgument,
                     "unknown dtype '" + std::string(bad) + "' (expected one of bool, int8");
  }
  const auto unsupported = JsonDtypeName(*array::FixedSizeBinary(3));
  EXPECT_EQ(unsupported.status().code(), StatusCode::kNotImplemented);
  EXPECT_EQ(unsupported.status().kind(), ErrorKind::kNotSupported);
}

/// Slot 0 of `array` as JSON text, read back into a one-slot array of the same type.
array::ArrayPtr ThroughText(const array::ArrayPtr& array, std::string* text = nullptr) {
  std::string out;
  EXPECT_TRUE(json_lines::AppendSlot(out, *array, 0).ok());
  if (text != nullptr) *text = out;
  auto builder = array::MakeBuilder(array->type);
  const Status s =
      json_lines::AppendJson(*builder, *array->type, json_lines::Json::parse(out), "v");
  EXPECT_TRUE(s.ok()) << s.ToString() << " for " << out;
  return *builder->Finish();
}

TEST(JsonLinesTest, EveryFloat16RoundTrips) {
  for (std::uint32_t bits = 0; bits <= 0xFFFF; ++bits) {
    const auto a =
        array::MakePrimitiveArray<uint16_t>(array::Float16(), {static_cast<uint16_t>(bits)});
    std::string text;
    const auto back = ThroughText(a, &text);
    ASSERT_TRUE(array::ArrayEquals(*back, *a)) << std::hex << bits << " as " << text;
  }
}

TEST(JsonLinesTest, HalfRoundingIsToNearestEven) {
  for (std::uint16_t h = 0; h < 0x7BFF; ++h) {  // positive finite, below the largest
    const double lo = json_lines::HalfToDouble(h);
    const double hi = json_lines::HalfToDouble(static_cast<uint16_t>(h + 1));
    const double mid = (lo + hi) / 2;  // exact in double
    const uint16_t even = (h % 2 == 0) ? h : static_cast<uint16_t>(h + 1);
    ASSERT_EQ(json_lines::DoubleToHalf(lo), h);
    ASSERT_EQ(json_lines::DoubleToHalf(mid), even) << h;
    ASSERT_EQ(json_lines::DoubleToHalf(std::nextafter(mid, 0.0)), h) << h;
    ASSERT_EQ(json_lines::DoubleToHalf(std::nextafter(mid, 1e9)), h + 1) << h;
    ASSERT_EQ(json_lines::DoubleToHalf(-lo), h | 0x8000) << h;
  }
  EXPECT_EQ(json_lines::DoubleToHalf(65519.99), 0x7BFF);
  EXPECT_EQ(json_lines::DoubleToHalf(65520.0), 0x7C00);
  EXPECT_EQ(json_lines::DoubleToHalf(1e300), 0x7C00);
}

TEST(JsonLinesTest, FloatsRoundTripBitExactAndShort) {
  Rng rng(7);
  for (int i = 0; i < 200000; ++i) {
    const auto bits = static_cast<std::uint32_t>(rng.Next());
    float f;
    std::memcpy(&f, &bits, sizeof f);
    const auto a = array::MakePrimitiveArray<float>(array::Float32(), {f});
    ASSERT_TRUE(array::ArrayEquals(*ThroughText(a), *a)) << f;
    double d;
    const std::uint64_t dbits = rng.Next();
    std::memcpy(&d, &dbits, sizeof d);
    const auto b = array::MakePrimitiveArray<double>(array::Float64(), {d});
    ASSERT_TRUE(array::ArrayEquals(*ThroughText(b), *b)) << d;
  }
  std::string text;
  ThroughText(array::MakePrimitiveArray<float>(array::Float32(), {0.1f}), &text);
  EXPECT_EQ(text, "0.1");
  ThroughText(array::MakePrimitiveArray<double>(array::Float64(), {-0.0}), &text);
  EXPECT_EQ(text, "-0.0");
  ThroughText(array::MakePrimitiveArray<double>(array::Float64(), {2.0}), &text);
  EXPECT_EQ(text, "2.0");
  ThroughText(array::MakePrimitiveArray<double>(array::Float64(),
                                                {-std::numeric_limits<double>::infinity()}),
              &text);
  EXPECT_EQ(text, "\"-Infinity\"");
}

TEST(JsonLinesTest, IntegerExtremesAreExact) {
  std::string text;
  ThroughText(
      array::MakePrimitiveArray<uint64_t>(array::UInt64(), {std::numeric_limits<uint64_t>::max()}),
      &text);
  EXPECT_EQ(text, "18446744073709551615");
  ThroughText(
      array::MakePrimitiveArray<int64_t>(array::Int64(), {std::numeric_limits<int64_t>::min()}),
      &text);
  EXPECT_EQ(text, "-9223372036854775808");
}

TEST(JsonLinesTest, Base64) {
  Rng rng(3);
  for (int n = 0; n < 64; ++n) {
    const std::string bytes = testing::internal::RandomBytes(rng, n);
    const std::string text = json_lines::Base64Encode(bytes);
    EXPECT_EQ(text.size() % 4, 0u);
    EXPECT_EQ(json_lines::Base64Decode(text), bytes);
  }
  EXPECT_EQ(json_lines::Base64Encode("foobar"), "Zm9vYmFy");
  EXPECT_EQ(json_lines::Base64Encode("fo"), "Zm8=");
  for (const char* bad : {"Zm8", "Zm9=", "Z===", "Zm=8", "Zm8=Zm8=", "Zm 8", "Zm8!"}) {
    EXPECT_FALSE(json_lines::Base64Decode(bad).has_value()) << bad;
  }
}

TEST(JsonLinesTest, BareAttributes) {
  LND_ASSERT_OK_AND_ASSIGN(
      const auto row,
      DecodeJsonLine(R"({"global_attrs": {"s": "K", "i": -3, "big": 9223372036854775807,
          "f": 1.5, "b": true, "li": [1, 2, null], "lf": [1, 2.5], "ls": ["a", "b"]},
          "arrays": {"t": {"dtype": "float32", "values": [1.5]}}})"));
  const nd::Attributes& g = row.attributes();
  EXPECT_TRUE(g.Get("s")->type->Equals(*array::Utf8()));
  EXPECT_TRUE(g.Get("i")->type->Equals(*array::Int64()));
  EXPECT_EQ(g.GetInt64("big"), std::numeric_limits<int64_t>::max());
  EXPECT_TRUE(g.Get("f")->type->Equals(*array::Float64()));
  EXPECT_TRUE(g.Get("b")->type->Equals(*array::Bool()));
  EXPECT_TRUE(g.Get("li")->type->Equals(*array::List(array::Int64())));
  EXPECT_TRUE(g.Get("lf")->type->Equals(*array::List(array::Float64())));
  EXPECT_TRUE(g.Get("ls")->type->Equals(*array::List(array::Utf8())));
  EXPECT_TRUE(row.column(0).dimensions().is_scalar());
  // The same attributes typed give the same row.
  LND_ASSERT_OK_AND_ASSIGN(const std::string line, EncodeJsonLine(row));
  LND_ASSERT_OK_AND_ASSIGN(const auto back, DecodeJsonLine(line));
  EXPECT_TRUE(back.Equals(row));
}

struct BadLine {
  const char* line;
  const char* message;  // a part of the message
};

TEST(JsonLinesTest, MalformedLinesSayWhatAndWhere) {
  const BadLine cases[] = {
      {"{\"arrays\": ", "not valid JSON"},
      {"[1, 2]", "expected a JSON object"},
      {R"({"arrays": {"t": {"dtype": "int8", "values": [1]}, "t": {"dtype": "int8",
          "values": [2]}}})",
       "key 't' appears twice in one object"},
      {R"({"arrays": {"t": {"dtype": "int8", "values": [1], "attrs": {"u": 1, "u": 2}}}})",
       "key 'u' appears twice"},
      {R"({"arrays": {}, "extra": 1})", "unknown key 'extra' (expected global_attrs, arrays)"},
      {R"({"arrays": []})", "expected \"arrays\" to be an object"},
      {R"({"arrays": {"t": {"dtype": "flaot32", "values": [1]}}})",
       "unknown dtype 'flaot32' (expected one of bool, int8"},
      {R"({"arrays": {"t": {"values": [1]}}})", "expected a \"dtype\" string at arrays[\"t\"]"},
      {R"({"arrays": {"t": {"dtype": "int8", "dim_names": ["x"], "dim_sizes": [3],
          "values": [1, 2]}}})",
       "2 values for dim_sizes [x=3] (3 elements"},
      {R"({"arrays": {"t": {"dtype": "int8", "dim_names": ["x", "y"], "dim_sizes": [3],
          "values": [1, 2, 3]}}})",
       "dim_names has 2 names but dim_sizes has 1 sizes at arrays[\"t\"]"},
      {R"({"arrays": {"t": {"dtype": "int8", "dim_names": ["x"], "values": [1]}}})",
       "give both \"dim_names\" and \"dim_sizes\""},
      {R"({"arrays": {"t": {"dtype": "int8", "dim_names": ["x", "x"], "dim_sizes": [1, 1],
          "values": [1]}}})",
       "invalid dimensions"},
      {R"({"arrays": {"t": {"dtype": "int8", "dim_names": ["x"], "dim_sizes": [-1],
          "values": []}}})",
       "expected a size (an integer >= 0), found -1"},
      {R"({"arrays": {"t": {"dtype": "int8", "values": [300]}}})",
       "300 is out of the range of int8 (-128..127) at arrays[\"t\"].values[0]"},
      {R"({"arrays": {"t": {"dtype": "uint64", "values": [-1]}}})", "out of the range of uint64"},
      {R"({"arrays": {"t": {"dtype": "int32", "values": [1.5]}}})",
       "expected an integer, found 1.5"},
      {R"({"arrays": {"t": {"dtype": "float64", "values": ["nan"]}}})",
       "expected a number, \"NaN\", \"Infinity\" or \"-Infinity\", found \"nan\""},
      {R"({"arrays": {"t": {"dtype": "bool", "values": [1]}}})", "expected true or false"},
      {R"({"arrays": {"t": {"dtype": "binary", "values": ["abc"]}}})", "expected base64"},
      {R"({"arrays": {"t": {"dtype": "list<int8>", "values": [[1, "x"]]}}})",
       "at arrays[\"t\"].values[0][1]"},
      {R"({"arrays": {"t": {"dtype": "int8", "values": [1], "dims": []}}})", "unknown key 'dims'"},
      {R"({"arrays": {"__global_attrs__": {"dtype": "int8", "values": [1]}}})",
       "array name '__global_attrs__' is reserved"},
      {R"({"arrays": {"__stats__:t": {"dtype": "int8", "values": [1]}}})",
       "array name '__stats__:t' is reserved"},
      {R"({"global_attrs": {"k": null}})", "expected an attribute value"},
      {R"({"global_attrs": {"k": {"dtype": "int8"}}})", "needs a non-null \"value\""},
      {R"({"global_attrs": {"k": {"dtype": "int8", "value": 1, "x": 2}}})", "unknown key 'x'"},
      {R"({"global_attrs": {"k": []}})", "an empty or all-null list has no type"},
      {R"({"global_attrs": {"k": [1, "a"]}})", "mixes"},
      {R"({"global_attrs": {"k": 18446744073709551615}})", "does not fit int64"},
      {R"({"global_attrs": {"k": {"a": 1}}})", "unknown key 'a'"},
      {R"({"global_attrs": []})", "expected an object {KEY: value, ...}"},
      {R"({"arrays": {"a": {"dtype": "int8", "dim_names": ["x"], "dim_sizes": [2],
          "values": [1, 2]}, "b": {"dtype": "int8", "dim_names": ["x"], "dim_sizes": [3],
          "values": [1, 2, 3]}}})",
       "shape mismatch"},
  };
  for (const BadLine& c : cases) {
    LND_EXPECT_ERROR(DecodeJsonLine(c.line), StatusCode::kInvalidArgument, c.message);
  }
}

// Issue 33: a finite number beyond float32's range was stored as Infinity. It is refused, in
// values and typed attributes alike; the largest finite values and "Infinity" still read.
TEST(JsonLinesTest, FiniteNumbersBeyondTheFloatRangeAreRefused) {
  Rng rng(33);
  for (int i = 0; i < 200; ++i) {
    const double magnitude = std::ldexp(1.0, static_cast<int>(129 + rng.Next() % 890));
    const double v = (rng.Next() % 2 ? 1 : -1) * magnitude *
                     (1.0 + static_cast<double>(rng.Next() % 1000) / 1000);
    char text[64];
    std::snprintf(text, sizeof text, "%.17g", v);
    const std::string line =
        std::string(
            R"({"arrays": {"t": {"dtype": "float32", "dim_names": ["x"], "dim_sizes": [2], "values": [1, )") +
        text + "]}}}";
    LND_EXPECT_ERROR(DecodeJsonLine(line), StatusCode::kInvalidArgument,
                     "is out of the range of float32 (largest 3.4028235e38) at "
                     "arrays[\"t\"].values[1]; use dtype float64");
    const std::string attr =
        std::string(R"({"global_attrs": {"k": {"dtype": "float32", "value": )") + text + "}}}";
    LND_EXPECT_ERROR(DecodeJsonLine(attr), StatusCode::kInvalidArgument,
                     "out of the range of float32");
    const std::string half = std::string(R"({"arrays": {"t": {"dtype": "float16", "values": [)") +
                             std::to_string(65520.0 + static_cast<double>(rng.Next() % 100000)) +
                             "]}}}";
    LND_EXPECT_ERROR(DecodeJsonLine(half), StatusCode::kInvalidArgument,
                     "out of the range of float16");
  }
  LND_ASSERT_OK_AND_ASSIGN(
      auto ok,
      DecodeJsonLine(
          R"({"arrays": {"t": {"dtype": "float32", "dim_names": ["x"], "dim_sizes": [4], "values": [3.4028234663852886e38, -3.4028234663852886e38, "Infinity", 1e-50]}}})"));
  const array::PrimitiveView<float> values(*ok.GetColumn("t")->values());
  EXPECT_EQ(values.Value(0), std::numeric_limits<float>::max());
  EXPECT_EQ(values.Value(1), -std::numeric_limits<float>::max());
  EXPECT_TRUE(std::isinf(values.Value(2)));
  EXPECT_EQ(values.Value(3), 0.0f);
}

/// `depth` nested JSON arrays around 1, cut off after the opening brackets when `closed` is false.
std::string NestedArrays(std::size_t depth, bool closed) {
  std::string out(depth, '[');
  if (closed) out += "1" + std::string(depth, ']');
  return out;
}

// Issue 33: a value nested 80,000 arrays deep crashed the decoder (recursion in the printer of
// the error message). Nesting is bounded before parsing, wherever the deep value sits.
TEST(JsonLinesTest, DeepNestingIsRefusedBeforeParsing) {
  for (std::uint64_t seed = 0; seed < 60; ++seed) {
    Rng rng(seed);
    const std::size_t depth = rng.Chance(0.2) ? 80000 : static_cast<std::size_t>(rng.Range(1, 600));
    const bool closed = rng.Chance(0.7);
    const std::string deep = NestedArrays(depth, closed);
    std::string line;
    std::size_t around = 0;  // the objects and arrays around the deep value
    switch (rng.Below(3)) {
      case 0:
        line = R"({"global_attrs":{"id":"x"},"arrays":{"t":{"dtype":"float32","values":)" + deep;
        around = 3;
        break;
      case 1:
        line = R"({"global_attrs":{"id":)" + deep;
        around = 2;
        break;
      default:
        line = R"({"arrays":{"t":{"dtype":"float32","values":[1],"attrs":{"u":)" + deep;
        around = 4;
    }
    if (closed) line += std::string(around, '}');
    SCOPED_TRACE("seed " + std::to_string(seed) + ", depth " + std::to_string(depth));
    const auto row = DecodeJsonLine(line);
    if (depth + around > 512) {
      LND_EXPECT_ERROR(row, StatusCode::kInvalidArgument,
                       "the JSON line nests arrays and objects more than 512 levels deep (level "
                       "513 opens at byte ");
      LND_EXPECT_ERROR(row, StatusCode::kInvalidArgument,
                       "nest at most 512 levels, e.g. by flattening the nested lists");
    } else if (!row.ok()) {
      EXPECT_EQ(row.status().message().find("levels deep"), std::string::npos)
          << row.status().ToString();
      EXPECT_LT(row.status().message().size(), 400U) << row.status().ToString();
    }
  }
}

// Issue 33: "list<" repeated 30,000 times crashed the dtype parser (one recursion per level).
TEST(JsonLinesTest, DtypeListNestingIsBounded) {
  const DataTypePtr leaves[] = {array::Int8(), array::Float32(), array::Utf8(),
                                array::Timestamp(TimeUnit::kNano, "UTC")};
  for (std::uint64_t seed = 0; seed < 200; ++seed) {
    Rng rng(seed);
    const int depth = static_cast<int>(rng.Range(0, 70));
    DataTypePtr type = leaves[rng.Below(std::size(leaves))];
    for (int i = 0; i < depth; ++i) type = array::List(type);
    LND_ASSERT_OK_AND_ASSIGN(const std::string name, JsonDtypeName(*type));
    SCOPED_TRACE("seed " + std::to_string(seed) + ": " + name);
    const auto parsed = ParseJsonDtype(name);
    if (depth <= 64) {
      ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
      EXPECT_TRUE((*parsed)->Equals(*type));
    } else {
      LND_EXPECT_ERROR(parsed, StatusCode::kInvalidArgument,
                       "' nests list<...> more than 64 levels deep; use at most 64");
    }
  }
  std::string deep;
  for (int i = 0; i < 30000; ++i) deep += "list<";
  const auto parsed = ParseJsonDtype(deep + "float32" + std::string(30000, '>'));
  LND_EXPECT_ERROR(parsed, StatusCode::kInvalidArgument,
                   "... (180007 bytes in all)' nests list<...> more than 64 levels deep");
  EXPECT_LT(parsed.status().message().size(), 500U);
  // Unclosed lists are an unknown dtype, quoted short.
  LND_EXPECT_ERROR(ParseJsonDtype(std::string(60, 'x') + deep), StatusCode::kInvalidArgument,
                   "unknown dtype '" + std::string(60, 'x') + "list<list<");
  LND_EXPECT_ERROR(ParseJsonDtype(std::string(60, 'x') + deep), StatusCode::kInvalidArgument,
                   "... (150060 bytes in all)' (expected one of bool");
  const std::string line = R"({"arrays":{"t":{"dtype":")" + deep + "int8" +
                           std::string(30000, '>') + R"(","values":[]}}})";
  LND_EXPECT_ERROR(DecodeJsonLine(line), StatusCode::kInvalidArgument,
                   "more than 64 levels deep; use at most 64 (flatten the values into fewer list "
                   "levels) at arrays[\"t\"]");
}

// A huge token becomes a short message: the first 200 bytes and the token's length.
TEST(JsonLinesTest, LongTokensAreQuotedShort) {
  const std::string huge(1'000'000, 'k');
  const std::string bad_dtype = R"({"arrays":{"t":{"dtype":")" + huge + R"(","values":[]}}})";
  const std::string unknown_key = R"({"arrays":{}, ")" + huge + R"(":1})";
  const std::string reserved = R"({"arrays":{"__stats__:)" + huge + R"(":{}}})";
  const std::string unterminated = R"({"arrays":{"t":")" + huge;
  const std::string bad_value = R"({"arrays":{"t":{"dtype":"int8","values":[")" + huge + R"("]}}})";
  const std::string long_name = R"({"arrays":{")" + huge + R"(":{"dtype":"int8","values":["x"]}}})";
  for (const std::string* line :
       {&bad_dtype, &unknown_key, &reserved, &unterminated, &bad_value, &long_name}) {
    const auto row = DecodeJsonLine(*line);
    ASSERT_FALSE(row.ok());
    EXPECT_EQ(row.status().code(), StatusCode::kInvalidArgument);
    EXPECT_LT(row.status().message().size(), 1000U) << row.status().message().substr(0, 2000);
  }
  LND_EXPECT_ERROR(DecodeJsonLine(bad_dtype), StatusCode::kInvalidArgument,
                   "unknown dtype '" + std::string(200, 'k') + "... (1000000 bytes in all)'");
  LND_EXPECT_ERROR(DecodeJsonLine(unknown_key), StatusCode::kInvalidArgument,
                   "unknown key '" + std::string(200, 'k') + "... (1000000 bytes in all)'");
  LND_EXPECT_ERROR(DecodeJsonLine(unterminated), StatusCode::kInvalidArgument,
                   "not valid JSON: parse error at column 1000017: syntax error while parsing "
                   "value - invalid string: missing closing quote; last read: '\"kkkk");
  LND_EXPECT_ERROR(DecodeJsonLine(unterminated), StatusCode::kInvalidArgument,
                   "kkk... (1000119 bytes in all)");
  LND_EXPECT_ERROR(DecodeJsonLine(bad_value), StatusCode::kInvalidArgument,
                   "expected an integer, found \"kkkkkkkk");
  LND_EXPECT_ERROR(DecodeJsonLine(long_name), StatusCode::kInvalidArgument,
                   "at arrays[\"" + std::string(200, 'k') + "... (1000000 bytes in all)\"]");
}

TEST(JsonLinesTest, ReaderNumbersLinesAndSkipsBlankOnes) {
  std::string text;
  for (std::uint64_t seed = 0; seed < 5; ++seed) {
    text += *EncodeJsonLine(RandomRow(seed)) + "\n";
    if (seed == 2) text += "   \r\n\n";
  }
  text += "{\"arrays\": {\"t\": {\"dtype\": \"flaot32\", \"values\": []}}}\n";
  std::istringstream in(text);
  JsonLinesReader reader(in);
  for (std::uint64_t seed = 0; seed < 5; ++seed) {
    LND_ASSERT_OK_AND_ASSIGN(auto row, reader.Next());
    ASSERT_TRUE(row.has_value());
    EXPECT_TRUE(row->Equals(RandomRow(seed)));
  }
  const auto bad = reader.Next();
  LND_EXPECT_ERROR(bad, StatusCode::kInvalidArgument, "line 8: unknown dtype 'flaot32'");
  std::istringstream empty("\n\n");
  JsonLinesReader none(empty);
  LND_ASSERT_OK_AND_ASSIGN(auto end, none.Next());
  EXPECT_FALSE(end.has_value());
}

}  // namespace
}  // namespace lance_nd
