#include "term_values.h"

#include <utility>

#include "lance_nd/api/json_lines.h"
#include "lance_nd/nd/record_batch.h"
#include "term_text.h"

namespace lance_nd::cli {
namespace {

/// The JSON Lines "values" of `values` (a 1-d array), or nullopt for a type it cannot write.
std::optional<nlohmann::json> ValuesJson(const array::ArrayPtr& values) {
  auto dims = nd::Dimensions::Make({"i"}, {static_cast<std::uint64_t>(values->length)});
  if (!dims.ok()) return std::nullopt;
  auto array = nd::NdArrowArray::Make(values, std::move(*dims));
  if (!array.ok()) return std::nullopt;
  auto row = nd::NdRecordBatch::FromArrays({{"v", std::move(*array)}});
  if (!row.ok()) return std::nullopt;
  auto line = EncodeJsonLine(*row);
  if (!line.ok()) return std::nullopt;
  ReplaceInvalidUtf8(*line);  // nlohmann refuses JSON that is not UTF-8
  return nlohmann::json::parse(*line)["arrays"]["v"]["values"];
}

// A quoted string; a long one shows its start, "…" and its length (a 20 MB history attribute
// must not become a 20 MB line).
std::string StringText(const std::string& s) {
  constexpr std::size_t kMaxBytes = 80;
  if (s.size() <= kMaxBytes) {
    return nlohmann::json(s).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  }
  std::size_t cut = kMaxBytes - 20;
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0u) == 0x80u) --cut;  // whole chars
  const std::string head = nlohmann::json(s.substr(0, cut))
                               .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  return head.substr(0, head.size() - 1) + "…\" (" + std::to_string(s.size()) + " bytes)";
}

std::string Joined(const nlohmann::json& items, bool floating) {
  std::string out;
  for (const auto& item : items) {
    out.append(out.empty() ? "" : ", ").append(ValueText(item, floating));
  }
  return out;
}

}  // namespace

std::string DtypeText(const array::DataType& type) {
  return JsonDtypeName(type).ValueOr(type.ToString());
}

std::string ValueText(const nlohmann::json& value, bool floating) {
  if (value.is_string()) {
    if (floating) return value.get<std::string>();
    return StringText(value.get_ref<const std::string&>());
  }
  if (value.is_array()) {
    std::vector<std::string> items;
    for (const auto& item : value) items.push_back(ValueText(item, floating));
    return "[" + JoinCapped(items, kMaxListedItems) + "]";
  }
  return value.dump();
}

std::string PreviewValues(const array::ArrayPtr& values, std::size_t max_items, bool scalar) {
  const bool floating = values->type->is_floating() ||
                        (values->type->is_list_like() && values->type->value_type()->is_floating());
  const auto length = static_cast<std::size_t>(values->length);
  const std::size_t head = length <= max_items ? length : (max_items + 1) / 2;
  const std::size_t tail = length <= max_items ? 0 : max_items - head;
  const auto part = [&](std::size_t offset, std::size_t n) -> std::optional<nlohmann::json> {
    auto slice = array::Slice(values, static_cast<int64_t>(offset), static_cast<int64_t>(n));
    if (!slice.ok()) return std::nullopt;
    return ValuesJson(*slice);
  };
  const auto first = part(0, head);
  const auto last = part(length - tail, tail);
  if (!first || !last) return "<" + DtypeText(*values->type) + " values>";
  if (scalar && length == 1) return ValueText((*first)[0], floating);
  std::string out = "[" + Joined(*first, floating);
  if (tail > 0) out.append(", …, ").append(Joined(*last, floating));
  return out + "]";
}

nlohmann::ordered_json AttributesJson(const nd::Attributes& attributes) {
  nlohmann::ordered_json out = nlohmann::ordered_json::object();
  for (const auto& [key, value] : attributes.entries()) {
    nd::Attributes one;
    nlohmann::ordered_json typed = {{"dtype", DtypeText(*value->type)}, {"value", nullptr}};
    if (one.SetValue(key, value).ok()) {
      auto line = EncodeJsonLine(nd::NdRecordBatch().WithAttributes(std::move(one)));
      if (line.ok()) {
        ReplaceInvalidUtf8(*line);  // nlohmann refuses JSON that is not UTF-8
        std::string parsed_key = key;
        ReplaceInvalidUtf8(parsed_key);
        typed = nlohmann::ordered_json::parse(*line)["global_attrs"][parsed_key];
      }
    }
    out[key] = std::move(typed);
  }
  return out;
}

std::string AttributesText(const nd::Attributes& attributes) {
  std::string out;
  const nlohmann::ordered_json all = AttributesJson(attributes);
  for (const auto& item : all.items()) {
    const std::string& key = item.key();
    const nlohmann::ordered_json& typed = item.value();
    const bool floating = typed["dtype"].get<std::string>().find("float") != std::string::npos;
    out.append(out.empty() ? "" : ", ").append(key).append("=");
    out.append(typed["value"].is_null() ? "<" + typed["dtype"].get<std::string>() + ">"
                                        : ValueText(typed["value"], floating));
  }
  return out;
}

}  // namespace lance_nd::cli
