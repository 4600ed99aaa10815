// Tag file JSON: written byte-for-byte like Lance 12 (serde_json pretty printer: two-space indent,
// `"key": value`, no trailing newline), read leniently (any key order, unknown keys ignored).
#include <nlohmann/json.hpp>

#include <string>

#include "lance_nd/core/internal/json_string.h"
#include "lance_nd/core/internal/untrusted_text.h"
#include "lance_nd/table/tags.h"

namespace lance_nd::table {
namespace {

// serde_json string escaping (core/internal/json_string.h).
std::string JsonString(const std::string& s) {
  std::string out;
  internal::AppendJsonString(out, s);
  return out;
}

}  // namespace

std::string TagFileJson(const TagInfo& tag) {
  std::string out = "{\n  \"branch\": ";
  out += tag.branch ? JsonString(*tag.branch) : std::string("null");
  out += ",\n  \"version\": " + std::to_string(tag.version);
  out += ",\n  \"createdAt\": " + JsonString(tag.created_at);
  out += ",\n  \"updatedAt\": " + JsonString(tag.updated_at);
  out += ",\n  \"manifestSize\": " + std::to_string(tag.manifest_size);
  out += ",\n  \"metadata\": {}\n}";
  return out;
}

Result<TagInfo> ParseTagFileJson(std::string_view json, const std::string& name,
                                 const std::string& file) {
  const auto bad = [&](const std::string& what) {
    return Status::Corrupt("tag file '" + file + "' " + what +
                           "; expected a JSON object like Lance writes ({\"version\": N, "
                           "\"manifestSize\": N, ...}); delete or rewrite the tag");
  };
  // A tag file is read from disk: bound its nesting before the parser and the parsed document's
  // walkers recurse over it.
  if (!lance_nd::internal::CheckJsonNesting(json, "the tag file").ok()) {
    return bad("nests arrays and objects more than " +
               std::to_string(lance_nd::internal::kMaxJsonNesting) + " levels deep");
  }
  const nlohmann::json doc = nlohmann::json::parse(json, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) return bad("is not valid JSON");
  if (!doc.is_object()) return bad("is not a JSON object");
  TagInfo tag;
  tag.name = name;
  const auto version = doc.find("version");
  if (version == doc.end()) return bad("has no \"version\"");
  if (!version->is_number_unsigned())
    return bad("has a \"version\" that is not an unsigned integer");
  tag.version = version->get<std::uint64_t>();
  if (tag.version == 0) return bad("names version 0, which never exists");
  if (const auto size = doc.find("manifestSize"); size != doc.end() && !size->is_null()) {
    if (!size->is_number_unsigned()) {
      return bad("has a \"manifestSize\" that is not an unsigned integer");
    }
    tag.manifest_size = size->get<std::uint64_t>();
  }
  if (const auto branch = doc.find("branch"); branch != doc.end() && !branch->is_null()) {
    if (!branch->is_string()) return bad("has a \"branch\" that is neither null nor a string");
    tag.branch = branch->get<std::string>();
  }
  for (const auto& [key, out] : {std::pair<const char*, std::string*>{"createdAt", &tag.created_at},
                                 {"updatedAt", &tag.updated_at}}) {
    if (const auto it = doc.find(key); it != doc.end() && !it->is_null()) {
      if (!it->is_string()) return bad(std::string("has a \"") + key + "\" that is not a string");
      *out = it->get<std::string>();
    }
  }
  return tag;
}

}  // namespace lance_nd::table
