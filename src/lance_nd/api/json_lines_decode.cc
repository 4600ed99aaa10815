// One JSON line -> one nd record batch.
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "lance_nd/api/json_lines.h"
#include "lance_nd/api/json_values.h"
#include "lance_nd/core/internal/untrusted_text.h"
#include "lance_nd/nd/format.h"

namespace lance_nd {
namespace {

using json_lines::Json;

/// `parent["key"]`, for messages (a long key cut short).
std::string Member(const std::string& parent, std::string_view key) {
  std::string out = parent + "[";
  json_lines::AppendJsonString(out, internal::TextPreview(key));
  return out + "]";
}

Status CheckKeys(const Json& object, std::initializer_list<std::string_view> allowed,
                 const std::string& where) {
  for (const auto& [key, value] : object.items()) {
    bool known = false;
    for (std::string_view a : allowed) known = known || a == key;
    if (known) continue;
    std::string names;
    for (std::string_view a : allowed) names.append(names.empty() ? "" : ", ").append(a);
    return Status::InvalidArgument("unknown key '", internal::TextPreview(key), "' (expected ",
                                   names, ") at ", where);
  }
  return Status::OK();
}

/// The keys seen in each open object: a repeated key would otherwise silently replace the
/// first value.
struct DuplicateKeys {
  std::vector<std::set<std::string, std::less<>>> open;
  std::optional<std::string> first;
  bool operator()(int /*depth*/, Json::parse_event_t event, Json& parsed) {
    using Event = Json::parse_event_t;
    if (event == Event::object_start) open.emplace_back();
    if (event == Event::object_end && !open.empty()) open.pop_back();
    if (event == Event::key && !open.empty() && parsed.is_string() &&
        !open.back().insert(parsed.get<std::string>()).second && !first) {
      first = parsed.get<std::string>();
    }
    return true;
  }
};

Result<Json> Parse(std::string_view line) {
  LND_RETURN_NOT_OK(internal::CheckJsonNesting(line, "the JSON line"));
  try {
    auto duplicates = std::make_shared<DuplicateKeys>();
    Json doc = Json::parse(line, [duplicates](int depth, Json::parse_event_t event, Json& parsed) {
      return (*duplicates)(depth, event, parsed);
    });
    if (duplicates->first) {
      return Status::InvalidArgument("key '", internal::TextPreview(*duplicates->first),
                                     "' appears twice in one object (give each key once)");
    }
    return doc;
  } catch (const Json::exception& e) {
    std::string what = e.what();
    if (const auto bracket = what.find("] ");
        what.starts_with("[") && bracket != std::string::npos) {
      what = what.substr(bracket + 2);
    }
    // One line is one JSON text: its "line 1, " says nothing.
    if (const auto at = what.find("at line 1, "); at != std::string::npos) what.erase(at + 3, 8);
    // nlohmann quotes the whole token it stopped in ("last read: ..."): cut it short.
    return Status::InvalidArgument("not valid JSON: ", internal::TextPreview(what));
  }
}

Result<array::DataTypePtr> Dtype(const Json& spec, const std::string& where) {
  const auto it = spec.find("dtype");
  if (it == spec.end() || !it->is_string()) {
    return Status::InvalidArgument("expected a \"dtype\" string at ", where);
  }
  auto type = ParseJsonDtype(it->get_ref<const std::string&>());
  if (!type.ok()) return Status::InvalidArgument(type.status().message(), " at ", where);
  return type;
}

/// The type of a bare attribute value: string -> utf8, integer -> int64, other number ->
/// float64, bool -> bool, array -> list of one of those (integers and numbers mixed: float64).
Result<array::DataTypePtr> BareType(const Json& v, bool in_list, const std::string& where) {
  if (v.is_string()) return array::Utf8();
  if (v.is_boolean()) return array::Bool();
  if (v.is_number_float()) return array::Float64();
  if (v.is_number_integer()) {
    if (v.is_number_unsigned() &&
        v.get<std::uint64_t>() > static_cast<std::uint64_t>(std::numeric_limits<int64_t>::max())) {
      return Status::InvalidArgument(
          json_lines::ShortJson(v),
          " does not fit int64: give it as {\"dtype\": \"uint64\", \"value\": ...} at ", where);
    }
    return array::Int64();
  }
  if (v.is_array() && !in_list) {
    array::DataTypePtr item;
    for (std::size_t k = 0; k < v.size(); ++k) {
      if (v[k].is_null()) continue;
      LND_ASSIGN_OR_RETURN(array::DataTypePtr t, BareType(v[k], true, where));
      const bool numbers = item && item->is_numeric() && t->is_numeric();
      if (item && !item->Equals(*t) && !numbers) {
        return Status::InvalidArgument("a list attribute mixes ", item->ToString(), " and ",
                                       t->ToString(), " values: give a typed value at ", where);
      }
      if (!item || numbers) item = item && item->is_floating() ? item : t;
    }
    if (!item) {
      return Status::InvalidArgument(
          "an empty or all-null list has no type: give it as {\"dtype\": \"list<T>\", "
          "\"value\": [...]} at ",
          where);
    }
    return array::List(item);
  }
  return Status::InvalidArgument(
      "expected an attribute value (a typed value {\"dtype\": T, "
      "\"value\": V}, a string, number, bool or list), found ",
      json_lines::ShortJson(v), " at ", where);
}

Result<array::ArrayPtr> BuildArray(const array::DataTypePtr& type, const Json& values,
                                   const std::string& where) {
  std::unique_ptr<array::ArrayBuilder> builder = array::MakeBuilder(type);
  for (std::size_t i = 0; i < values.size(); ++i) {
    LND_RETURN_NOT_OK(
        json_lines::AppendJson(*builder, *type, values[i], where + "[" + std::to_string(i) + "]"));
  }
  return builder->Finish();
}

Result<array::ArrayPtr> AttributeValue(const Json& v, const std::string& where) {
  array::DataTypePtr type;
  const Json* value = &v;
  if (v.is_object()) {
    LND_RETURN_NOT_OK(CheckKeys(v, {"dtype", "value"}, where));
    LND_ASSIGN_OR_RETURN(type, Dtype(v, where));
    if (!v.contains("value") || v["value"].is_null()) {
      return Status::InvalidArgument("an attribute needs a non-null \"value\" at ", where);
    }
    value = &v["value"];
  } else {
    LND_ASSIGN_OR_RETURN(type, BareType(v, false, where));
  }
  return BuildArray(type, Json::array({*value}), where + ".value");
}

Result<nd::Attributes> AttributesFrom(const Json& object, const std::string& where) {
  if (!object.is_object()) {
    return Status::InvalidArgument("expected an object {KEY: value, ...}, found ",
                                   json_lines::ShortJson(object), " at ", where);
  }
  nd::Attributes out;
  for (const auto& [key, value] : object.items()) {
    const std::string at = Member(where, key);
    LND_ASSIGN_OR_RETURN(array::ArrayPtr array, AttributeValue(value, at));
    const Status set = out.SetValue(key, std::move(array));
    if (!set.ok()) return Status::InvalidArgument(set.message(), " at ", at);
  }
  return out;
}

Result<std::vector<std::string>> DimNames(const Json& v, const std::string& where) {
  std::vector<std::string> out;
  if (!v.is_array()) return Status::InvalidArgument("expected a list of names at ", where);
  for (const Json& name : v) {
    if (!name.is_string()) {
      return Status::InvalidArgument("expected a name, found ", json_lines::ShortJson(name), " at ",
                                     where);
    }
    out.push_back(name.get<std::string>());
  }
  return out;
}

Result<std::vector<uint64_t>> DimSizes(const Json& v, const std::string& where) {
  std::vector<uint64_t> out;
  if (!v.is_array()) return Status::InvalidArgument("expected a list of sizes at ", where);
  for (const Json& size : v) {
    if (!size.is_number_unsigned()) {
      return Status::InvalidArgument("expected a size (an integer >= 0), found ",
                                     json_lines::ShortJson(size), " at ", where);
    }
    out.push_back(size.get<uint64_t>());
  }
  return out;
}

Result<nd::Dimensions> DimensionsFrom(const Json& spec, const std::string& where) {
  const bool has_names = spec.contains("dim_names");
  if (has_names != spec.contains("dim_sizes")) {
    return Status::InvalidArgument(
        "give both \"dim_names\" and \"dim_sizes\" (or neither, for a "
        "scalar) at ",
        where);
  }
  if (!has_names) return nd::Dimensions();
  LND_ASSIGN_OR_RETURN(auto names, DimNames(spec["dim_names"], where + ".dim_names"));
  LND_ASSIGN_OR_RETURN(auto sizes, DimSizes(spec["dim_sizes"], where + ".dim_sizes"));
  if (names.size() != sizes.size()) {
    return Status::InvalidArgument("dim_names has ", names.size(), " names but dim_sizes has ",
                                   sizes.size(), " sizes at ", where);
  }
  auto dims = nd::Dimensions::Make(names, sizes);
  if (!dims.ok()) return Status::InvalidArgument(dims.status().message(), " at ", where);
  return dims;
}

Result<nd::NdArrowArray> ArrayFrom(const Json& spec, const std::string& where) {
  if (!spec.is_object()) {
    return Status::InvalidArgument(
        "expected an array object {\"dtype\": ..., \"dim_names\": ..., "
        "\"dim_sizes\": ..., \"values\": ...}, found ",
        json_lines::ShortJson(spec), " at ", where);
  }
  LND_RETURN_NOT_OK(CheckKeys(spec, {"dtype", "dim_names", "dim_sizes", "values", "attrs"}, where));
  LND_ASSIGN_OR_RETURN(array::DataTypePtr type, Dtype(spec, where));
  LND_ASSIGN_OR_RETURN(nd::Dimensions dims, DimensionsFrom(spec, where));
  const auto values = spec.find("values");
  if (values == spec.end() || !values->is_array()) {
    return Status::InvalidArgument("expected a \"values\" list at ", where);
  }
  if (static_cast<int64_t>(values->size()) != dims.num_elements()) {
    return Status::InvalidArgument(values->size(), " values for dim_sizes ", dims.ToString(), " (",
                                   dims.num_elements(),
                                   " elements; give one value per element, "
                                   "in C order) at ",
                                   where);
  }
  LND_ASSIGN_OR_RETURN(array::ArrayPtr array, BuildArray(type, *values, where + ".values"));
  nd::Attributes attrs;
  if (const auto it = spec.find("attrs"); it != spec.end()) {
    LND_ASSIGN_OR_RETURN(attrs, AttributesFrom(*it, where + ".attrs"));
  }
  return nd::NdArrowArray::Make(std::move(array), std::move(dims), std::move(attrs));
}

Result<nd::NdRecordBatch> RowFrom(const Json& doc) {
  if (!doc.is_object()) {
    return Status::InvalidArgument(
        "expected a JSON object {\"arrays\": {...}, \"global_attrs\": "
        "{...}}, found ",
        json_lines::ShortJson(doc));
  }
  LND_RETURN_NOT_OK(CheckKeys(doc, {"global_attrs", "arrays"}, "the top level"));
  std::vector<std::pair<std::string, nd::NdArrowArray>> arrays;
  if (const auto it = doc.find("arrays"); it != doc.end()) {
    if (!it->is_object()) {
      return Status::InvalidArgument(
          "expected \"arrays\" to be an object {NAME: array, ...}, "
          "found ",
          json_lines::ShortJson(*it));
    }
    for (const auto& [name, spec] : it->items()) {
      const std::string where = Member("arrays", name);
      if (nd::IsReservedName(name)) {
        return Status::InvalidArgument("array name '", internal::TextPreview(name),
                                       "' is reserved by the table format (",
                                       nd::kGlobalAttributesField, " and names starting with ",
                                       nd::kStatsPrefix, "): rename it at ", where);
      }
      LND_ASSIGN_OR_RETURN(nd::NdArrowArray array, ArrayFrom(spec, where));
      arrays.emplace_back(name, std::move(array));
    }
  }
  nd::Attributes globals;
  if (const auto it = doc.find("global_attrs"); it != doc.end()) {
    LND_ASSIGN_OR_RETURN(globals, AttributesFrom(*it, "global_attrs"));
  }
  return nd::NdRecordBatch::FromArrays(std::move(arrays), std::move(globals));
}

}  // namespace

Result<nd::NdRecordBatch> DecodeJsonLine(std::string_view line) {
  LND_ASSIGN_OR_RETURN(const Json doc, Parse(line));
  try {
    return RowFrom(doc);
  } catch (const std::exception& e) {  // a JSON access that should not throw; never escapes
    return Status::Internal("decoding a JSON line: ", e.what());
  }
}

Result<std::optional<nd::NdRecordBatch>> JsonLinesReader::Next() {
  std::string line;
  while (std::getline(*in_, line)) {
    ++line_number_;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    auto row = DecodeJsonLine(line);
    if (!row.ok()) return row.status().WithContext("line ", line_number_);
    return std::optional<nd::NdRecordBatch>(std::move(*row));
  }
  if (in_->bad()) return Status::IOError("reading line ", line_number_ + 1, " failed");
  return std::optional<nd::NdRecordBatch>();
}

}  // namespace lance_nd
