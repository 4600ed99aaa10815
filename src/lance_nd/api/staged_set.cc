// StagedSet <-> JSON. Parsing checks every member's presence and type by hand (no exception
// leaves nlohmann), then the field tree (it must rebuild an Arrow schema) and the data files'
// field ids.
#include "lance_nd/api/staged_set.h"

#include <nlohmann/json.hpp>

#include <set>
#include <string>
#include <utility>

#include "lance_nd/api/table.h"
#include "lance_nd/core/internal/untrusted_text.h"

namespace lance_nd::api::internal {
namespace {

using nlohmann::json;

constexpr std::string_view kFormat = "lance-nd.staged";
constexpr int kVersion = 1;

std::string Hex(const std::string& bytes) {
  static const char kDigits[] = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    out += kDigits[c >> 4];
    out += kDigits[c & 15];
  }
  return out;
}

json FieldToJson(const table::LanceField& f) {
  json metadata = json::array();
  for (const auto& [k, v] : f.metadata.entries()) metadata.push_back({k, v});
  return {{"name", f.name},
          {"id", f.id},
          {"parent_id", f.parent_id},
          {"logical_type", f.logical_type},
          {"nullable", f.nullable},
          {"metadata", metadata},
          {"unmodelled", Hex(f.unmodelled_proto)}};
}

json FragmentToJson(const table::Fragment& fragment) {
  json files = json::array();
  for (const table::DataFile& f : fragment.files) {
    files.push_back({{"path", f.path},
                     {"fields", f.fields},
                     {"column_indices", f.column_indices},
                     {"file_major_version", f.file_major_version},
                     {"file_minor_version", f.file_minor_version},
                     {"file_size_bytes", f.file_size_bytes}});
  }
  return {{"physical_rows", fragment.physical_rows}, {"files", files}};
}

// ---- parsing: each reader names the member path it failed on

Status Problem(const std::string& path, const std::string& what) {
  return Status::InvalidArgument("staged fragments JSON: ", path, ": ", what);
}

Result<const json*> Member(const json& object, const std::string& path, const char* key) {
  if (!object.is_object()) return Problem(path, "expected an object");
  auto it = object.find(key);
  if (it == object.end()) return Problem(path, std::string("missing member '") + key + "'");
  return &*it;
}

Result<std::string> String(const json& object, const std::string& path, const char* key) {
  LND_ASSIGN_OR_RETURN(const json* v, Member(object, path, key));
  if (!v->is_string()) return Problem(path + "." + key, "expected a string");
  return v->get<std::string>();
}

Result<std::uint64_t> Unsigned(const json& object, const std::string& path, const char* key) {
  LND_ASSIGN_OR_RETURN(const json* v, Member(object, path, key));
  if (!v->is_number_unsigned()) return Problem(path + "." + key, "expected an unsigned integer");
  return v->get<std::uint64_t>();
}

Result<std::int32_t> Int32(const json& value, const std::string& path) {
  if (!value.is_number_integer()) return Problem(path, "expected an integer");
  const auto x = value.get<std::int64_t>();
  if (x < INT32_MIN || x > INT32_MAX) return Problem(path, "out of the int32 range");
  return static_cast<std::int32_t>(x);
}

Result<const json*> Array(const json& object, const std::string& path, const char* key) {
  LND_ASSIGN_OR_RETURN(const json* v, Member(object, path, key));
  if (!v->is_array()) return Problem(path + "." + key, "expected an array");
  return v;
}

Result<std::vector<std::int32_t>> Int32s(const json& object, const std::string& path,
                                         const char* key) {
  LND_ASSIGN_OR_RETURN(const json* a, Array(object, path, key));
  std::vector<std::int32_t> out;
  for (std::size_t i = 0; i < a->size(); ++i) {
    LND_ASSIGN_OR_RETURN(auto x, Int32((*a)[i], path + "." + key + "[" + std::to_string(i) + "]"));
    out.push_back(x);
  }
  return out;
}

Result<std::string> Unhex(const std::string& hex, const std::string& path) {
  if (hex.size() % 2 != 0) return Problem(path, "odd number of hex digits");
  std::string out;
  for (std::size_t i = 0; i < hex.size(); i += 2) {
    const auto digit = [](char c) {
      return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
    };
    const int hi = digit(hex[i]), lo = digit(hex[i + 1]);
    if (hi < 0 || lo < 0) return Problem(path, "not lowercase hex");
    out += static_cast<char>(hi * 16 + lo);
  }
  return out;
}

Result<array::Metadata> MetadataFrom(const json& object, const std::string& path, const char* key) {
  LND_ASSIGN_OR_RETURN(const json* a, Array(object, path, key));
  std::vector<std::pair<std::string, std::string>> entries;
  for (std::size_t i = 0; i < a->size(); ++i) {
    const json& e = (*a)[i];
    if (!e.is_array() || e.size() != 2 || !e[0].is_string() || !e[1].is_string()) {
      return Problem(path + "." + key + "[" + std::to_string(i) + "]",
                     "expected a [key, value] pair of strings");
    }
    entries.emplace_back(e[0].get<std::string>(), e[1].get<std::string>());
  }
  return array::Metadata(std::move(entries));
}

Result<table::LanceField> FieldFrom(const json& j, const std::string& path) {
  table::LanceField f;
  LND_ASSIGN_OR_RETURN(f.name, String(j, path, "name"));
  LND_ASSIGN_OR_RETURN(const json* id, Member(j, path, "id"));
  LND_ASSIGN_OR_RETURN(f.id, Int32(*id, path + ".id"));
  LND_ASSIGN_OR_RETURN(const json* parent, Member(j, path, "parent_id"));
  LND_ASSIGN_OR_RETURN(f.parent_id, Int32(*parent, path + ".parent_id"));
  LND_ASSIGN_OR_RETURN(f.logical_type, String(j, path, "logical_type"));
  LND_ASSIGN_OR_RETURN(const json* nullable, Member(j, path, "nullable"));
  if (!nullable->is_boolean()) return Problem(path + ".nullable", "expected a boolean");
  f.nullable = nullable->get<bool>();
  LND_ASSIGN_OR_RETURN(f.metadata, MetadataFrom(j, path, "metadata"));
  LND_ASSIGN_OR_RETURN(auto hex, String(j, path, "unmodelled"));
  LND_ASSIGN_OR_RETURN(f.unmodelled_proto, Unhex(hex, path + ".unmodelled"));
  return f;
}

Result<table::DataFile> FileFrom(const json& j, const std::string& path) {
  table::DataFile f;
  LND_ASSIGN_OR_RETURN(f.path, String(j, path, "path"));
  LND_ASSIGN_OR_RETURN(f.fields, Int32s(j, path, "fields"));
  LND_ASSIGN_OR_RETURN(f.column_indices, Int32s(j, path, "column_indices"));
  if (f.fields.size() != f.column_indices.size()) {
    return Problem(path, "'fields' and 'column_indices' differ in length");
  }
  LND_ASSIGN_OR_RETURN(auto major, Unsigned(j, path, "file_major_version"));
  LND_ASSIGN_OR_RETURN(auto minor, Unsigned(j, path, "file_minor_version"));
  f.file_major_version = static_cast<std::uint32_t>(major);
  f.file_minor_version = static_cast<std::uint32_t>(minor);
  LND_ASSIGN_OR_RETURN(f.file_size_bytes, Unsigned(j, path, "file_size_bytes"));
  if (f.path.empty() || f.path.find("..") != std::string::npos || f.path.front() == '/') {
    return Problem(path + ".path", "expected a file name under data/");
  }
  return f;
}

Result<table::Fragment> FragmentFrom(const json& j, const std::string& path) {
  table::Fragment fragment;
  LND_ASSIGN_OR_RETURN(fragment.physical_rows, Unsigned(j, path, "physical_rows"));
  LND_ASSIGN_OR_RETURN(const json* files, Array(j, path, "files"));
  if (files->empty()) return Problem(path + ".files", "a fragment needs a data file");
  for (std::size_t i = 0; i < files->size(); ++i) {
    LND_ASSIGN_OR_RETURN(auto f, FileFrom((*files)[i], path + ".files[" + std::to_string(i) + "]"));
    fragment.files.push_back(std::move(f));
  }
  return fragment;
}

Status CheckFileFieldIds(const StagedSet& set) {
  std::set<std::int32_t> ids;
  for (const auto& f : set.fields) ids.insert(f.id);
  for (std::size_t i = 0; i < set.fragments.size(); ++i) {
    for (const auto& file : set.fragments[i].files) {
      for (std::int32_t id : file.fields) {
        if (id >= 0 && ids.count(id) == 0) {
          return Problem("fragments[" + std::to_string(i) + "]",
                         "data file '" + file.path + "' names field id " + std::to_string(id) +
                             ", which is not in 'fields'");
        }
      }
    }
  }
  return Status::OK();
}

}  // namespace

std::string StagedSetToJson(const StagedSet& set) {
  json fields = json::array();
  for (const auto& f : set.fields) fields.push_back(FieldToJson(f));
  json fragments = json::array();
  for (const auto& f : set.fragments) fragments.push_back(FragmentToJson(f));
  json metadata = json::array();
  for (const auto& [k, v] : set.schema_metadata.entries()) metadata.push_back({k, v});
  const json doc = {
      {"format", kFormat},        {"version", kVersion}, {"read_version", set.read_version},
      {"num_rows", set.num_rows}, {"fields", fields},    {"schema_metadata", metadata},
      {"fragments", fragments}};
  return doc.dump();
}

Result<StagedSet> StagedSetFromJson(std::string_view text) {
  LND_RETURN_NOT_OK(lance_nd::internal::CheckJsonNesting(text, "staged fragments JSON"));
  const json doc = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) return Problem("(document)", "not valid JSON");
  StagedSet set;
  LND_ASSIGN_OR_RETURN(auto format, String(doc, "(document)", "format"));
  if (format != kFormat) {
    return Problem("format", "found '" + lance_nd::internal::TextPreview(format) + "', expected '" +
                                 std::string(kFormat) + "'");
  }
  LND_ASSIGN_OR_RETURN(auto version, Unsigned(doc, "(document)", "version"));
  if (version != kVersion) {
    return Problem("version", "found " + std::to_string(version) + ", this lance-nd reads 1");
  }
  LND_ASSIGN_OR_RETURN(set.read_version, Unsigned(doc, "(document)", "read_version"));
  LND_ASSIGN_OR_RETURN(set.num_rows, Unsigned(doc, "(document)", "num_rows"));
  LND_ASSIGN_OR_RETURN(set.schema_metadata, MetadataFrom(doc, "(document)", "schema_metadata"));
  LND_ASSIGN_OR_RETURN(const json* fields, Array(doc, "(document)", "fields"));
  for (std::size_t i = 0; i < fields->size(); ++i) {
    LND_ASSIGN_OR_RETURN(auto f, FieldFrom((*fields)[i], "fields[" + std::to_string(i) + "]"));
    set.fields.push_back(std::move(f));
  }
  LND_ASSIGN_OR_RETURN(const json* fragments, Array(doc, "(document)", "fragments"));
  std::uint64_t rows = 0;
  for (std::size_t i = 0; i < fragments->size(); ++i) {
    LND_ASSIGN_OR_RETURN(auto f,
                         FragmentFrom((*fragments)[i], "fragments[" + std::to_string(i) + "]"));
    rows += f.physical_rows;
    set.fragments.push_back(std::move(f));
  }
  if (rows != set.num_rows) {
    return Problem("num_rows", "found " + std::to_string(set.num_rows) +
                                   " but the fragments hold " + std::to_string(rows) + " rows");
  }
  auto schema = StagedSchema(set);
  if (!schema.ok()) return Problem("fields", std::string(schema.status().message()));
  LND_RETURN_NOT_OK(CheckFileFieldIds(set));
  return set;
}

Result<array::SchemaPtr> StagedSchema(const StagedSet& set) {
  return table::SchemaFromFields(set.fields, set.schema_metadata);
}

Result<std::optional<table::Dataset>> OpenLatestIfAny(const table::TableLocation& location) {
  auto ds = table::Dataset::Open(location);
  if (ds.status().IsNotFound()) return std::optional<table::Dataset>{};
  LND_RETURN_NOT_OK(ds.status());
  LND_RETURN_NOT_OK(CheckFormat(*ds->schema()));
  return std::optional<table::Dataset>(std::move(ds).value());
}

Status TableExistsError(const table::TableLocation& location) {
  return Status::AlreadyExists("a table exists at ", location.root(),
                               "; stage and commit with mode append or overwrite to write to it")
      .WithKind(ErrorKind::kTableExists);
}

}  // namespace lance_nd::api::internal
