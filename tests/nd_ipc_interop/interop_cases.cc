#include "interop_cases.h"

#include <cstdint>
#include <initializer_list>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "lance_nd/array/builder.h"
#include "lance_nd/array/type.h"
#include "lance_nd/nd/attributes.h"
#include "lance_nd/nd/dimensions.h"
#include "lance_nd/nd/nd_array.h"

namespace lance_nd::interop {
namespace {

namespace la = lance_nd::array;
using nd::Attributes;
using nd::Dimensions;
using nd::NdArrowArray;
using nd::NdRecordBatch;

constexpr float kNaN32 = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf32 = std::numeric_limits<float>::infinity();
constexpr double kInf64 = std::numeric_limits<double>::infinity();

template <typename T>
using Opt = std::vector<std::optional<T>>;

/// \brief One array of a row: its name, the array, and the logical field's metadata.
struct Var {
  std::string name;
  NdArrowArray array;
  la::Metadata field_metadata;
};

Result<Dimensions> Dims(std::initializer_list<std::pair<const char*, uint64_t>> axes) {
  std::vector<nd::Dimension> dims;
  for (const auto& [name, size] : axes) dims.push_back(nd::Dimension{name, size});
  return Dimensions::Make(std::move(dims));
}

Result<NdArrowArray> Array(la::ArrayPtr values,
                           std::initializer_list<std::pair<const char*, uint64_t>> axes,
                           Attributes attrs = {}) {
  LND_ASSIGN_OR_RETURN(Dimensions dims, Dims(axes));
  return NdArrowArray::Make(std::move(values), std::move(dims), std::move(attrs));
}

/// \brief A row (nd record batch) with the target inferred from its arrays.
Result<NdRecordBatch> Row(std::vector<Var> vars, Attributes globals, la::Metadata schema_md) {
  std::vector<la::FieldPtr> fields;
  std::vector<NdArrowArray> columns;
  for (Var& v : vars) {
    fields.push_back(la::MakeField(v.name, v.array.value_type(), true, v.field_metadata));
    columns.push_back(std::move(v.array));
  }
  return NdRecordBatch::MakeInferred(la::MakeSchema(std::move(fields), std::move(schema_md)),
                                     std::move(columns), std::move(globals));
}

la::ArrayPtr F32(const Opt<float>& v) { return la::MakePrimitiveArray<float>(la::Float32(), v); }
la::ArrayPtr F64(const Opt<double>& v) { return la::MakePrimitiveArray<double>(la::Float64(), v); }
la::ArrayPtr I16(const Opt<int16_t>& v) { return la::MakePrimitiveArray<int16_t>(la::Int16(), v); }
la::ArrayPtr I32(const Opt<int32_t>& v) { return la::MakePrimitiveArray<int32_t>(la::Int32(), v); }
la::ArrayPtr I64(const Opt<int64_t>& v) { return la::MakePrimitiveArray<int64_t>(la::Int64(), v); }
la::ArrayPtr U16(const Opt<uint16_t>& v) {
  return la::MakePrimitiveArray<uint16_t>(la::UInt16(), v);
}
la::ArrayPtr TsNs(const Opt<int64_t>& v, std::string tz = {}) {
  return la::MakePrimitiveArray<int64_t>(la::Timestamp(la::TimeUnit::kNano, std::move(tz)), v);
}

Result<InteropCase> MixedCase() {
  const la::Metadata schema_md({{"source", "lance-nd interop test"}});
  const la::Metadata temp_md({{"long_name", "air temperature"}});
  InteropCase c{"cpp_mixed", /*stream=*/false, {}};

  // Row 0: rank 2, 1 and 0 arrays on one grid; scalar and list attributes; globals.
  {
    LND_ASSIGN_OR_RETURN(
        NdArrowArray temp,
        Array(F32({271.5F, std::nullopt, 273.25F, -0.5F, kNaN32, 0.0078125F}), {{"y", 2}, {"x", 3}},
              Attributes().Set("units", "K").Set("valid_range", std::vector<double>{200, 330.5})));
    LND_ASSIGN_OR_RETURN(NdArrowArray lat, Array(F64({-45.5, 45.5}), {{"y", 2}},
                                                 Attributes().Set("units", "degrees_north")));
    LND_ASSIGN_OR_RETURN(NdArrowArray lon, Array(F64({0.0, 120.0, 240.0}), {{"x", 3}}));
    LND_ASSIGN_OR_RETURN(NdArrowArray time, Array(TsNs({1700000000123456789LL}), {}));
    LND_ASSIGN_OR_RETURN(
        NdRecordBatch row,
        Row({{"temp", temp, temp_md}, {"lat", lat, {}}, {"lon", lon, {}}, {"time", time, {}}},
            Attributes().Set("title", "row 0").Set("revision", int64_t{3}), schema_md));
    c.rows.push_back(std::move(row));
  }
  // Row 1: other arrays only (temp, lat, lon, time absent); int32, utf8 and bool values.
  {
    LND_ASSIGN_OR_RETURN(
        NdArrowArray pressure,
        Array(I32({1013, std::nullopt, std::numeric_limits<int32_t>::min(),
                   std::numeric_limits<int32_t>::max()}),
              {{"station", 4}},
              Attributes().Set("units", "hPa").Set("flag_values", std::vector<int32_t>{0, 1})));
    LND_ASSIGN_OR_RETURN(
        NdArrowArray label,
        Array(la::MakeStringArray({"north", "", std::nullopt, "\xC3\xBCn\xC3\xAF \xE2\x82\xAC"}),
              {{"station", 4}}));
    LND_ASSIGN_OR_RETURN(
        NdArrowArray ok,
        Array(la::MakeBoolArray({true, false, std::nullopt, true}), {{"station", 4}},
              Attributes().Set("flag_meanings", std::vector<std::string>{"good", "bad"})));
    LND_ASSIGN_OR_RETURN(
        NdRecordBatch row,
        Row({{"pressure", pressure, {}}, {"label", label, {}}, {"ok", ok, {}}},
            Attributes().Set("title", "row 1").Set("tags", std::vector<int32_t>{1, 2, 3}),
            schema_md));
    c.rows.push_back(std::move(row));
  }
  // Row 2: rank 3; int16, uint16, int64 extremes; a timezone; no global attributes.
  {
    LND_ASSIGN_OR_RETURN(NdArrowArray temp, Array(F32({-1.5F, kInf32, -kInf32, 2.25F}),
                                                  {{"t", 2}, {"y", 1}, {"x", 2}}));
    LND_ASSIGN_OR_RETURN(
        NdArrowArray counts,
        Array(I16({std::numeric_limits<int16_t>::min(), std::numeric_limits<int16_t>::max()}),
              {{"t", 2}}));
    LND_ASSIGN_OR_RETURN(NdArrowArray code, Array(U16({uint16_t{65535}}), {}));
    LND_ASSIGN_OR_RETURN(NdArrowArray big,
                         Array(I64({std::numeric_limits<int64_t>::min(), std::nullopt}), {{"t", 2}},
                               Attributes().Set("scale", int64_t{9007199254740993})));
    LND_ASSIGN_OR_RETURN(NdArrowArray stamp,
                         Array(TsNs({-1, 86400000000000LL}, "UTC"), {{"t", 2}}));
    LND_ASSIGN_OR_RETURN(NdRecordBatch row, Row({{"temp", temp, temp_md},
                                                 {"counts", counts, {}},
                                                 {"code", code, {}},
                                                 {"big", big, {}},
                                                 {"stamp_utc", stamp, {}}},
                                                {}, schema_md));
    c.rows.push_back(std::move(row));
  }
  // Row 3: a scalar temp with another value of the same attribute; nulls in timestamps.
  {
    LND_ASSIGN_OR_RETURN(NdArrowArray temp,
                         Array(F32({-3.0F}), {}, Attributes().Set("units", "degC")));
    LND_ASSIGN_OR_RETURN(NdArrowArray time, Array(TsNs({0, std::nullopt, -5}), {{"t", 3}}));
    LND_ASSIGN_OR_RETURN(NdRecordBatch row, Row({{"temp", temp, temp_md}, {"time", time, {}}},
                                                Attributes().Set("title", "row 3"), schema_md));
    c.rows.push_back(std::move(row));
  }
  // Row 4: a single array with a zero-size axis (0 elements); float64 infinities elsewhere.
  {
    LND_ASSIGN_OR_RETURN(NdArrowArray lat, Array(F64({}), {{"y", 0}}));
    LND_ASSIGN_OR_RETURN(NdArrowArray lon, Array(F64({kInf64, -kInf64}), {{"x", 2}}));
    LND_ASSIGN_OR_RETURN(NdRecordBatch row,
                         Row({{"lat", lat, {}}, {"lon", lon, {}}}, {}, schema_md));
    c.rows.push_back(std::move(row));
  }
  return c;
}

/// No attributes and no global attributes anywhere (no attrs child, no __global_attrs__).
Result<InteropCase> PlainCase() {
  InteropCase c{"cpp_plain", /*stream=*/true, {}};
  {
    LND_ASSIGN_OR_RETURN(NdArrowArray v, Array(F64({0.25, -0.125}), {{"x", 1}, {"y", 2}}));
    LND_ASSIGN_OR_RETURN(NdArrowArray w, Array(U16({uint16_t{42}}), {{"x", 1}}));
    LND_ASSIGN_OR_RETURN(NdRecordBatch row, Row({{"v", v, {}}, {"w", w, {}}}, {}, {}));
    c.rows.push_back(std::move(row));
  }
  {
    LND_ASSIGN_OR_RETURN(NdArrowArray w, Array(U16({std::nullopt}), {}));
    LND_ASSIGN_OR_RETURN(NdRecordBatch row, Row({{"w", w, {}}}, {}, {}));
    c.rows.push_back(std::move(row));
  }
  return c;
}

}  // namespace

Result<std::vector<InteropCase>> MakeInteropCases() {
  std::vector<InteropCase> cases;
  LND_ASSIGN_OR_RETURN(InteropCase mixed, MixedCase());
  cases.push_back(std::move(mixed));
  LND_ASSIGN_OR_RETURN(InteropCase plain, PlainCase());
  cases.push_back(std::move(plain));
  return cases;
}

}  // namespace lance_nd::interop
