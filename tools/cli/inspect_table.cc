// `lance-nd inspect TABLE`: see inspect_table.h.
#include "inspect_table.h"

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "lance_nd/io/file_system.h"
#include "lance_nd/table/dataset.h"
#include "lance_nd/table/location.h"
#include "lance_nd/table/manifest.h"
#include "lance_nd/table/tags.h"

namespace lance_nd::cli {
namespace {

using nlohmann::json;
using table::Dataset;
using table::LanceField;
using table::Manifest;

std::string OperationText(const std::optional<table::Transaction>& txn) {
  if (!txn.has_value()) return "(no transaction)";
  switch (txn->type()) {
    case table::OperationType::kAppend:
      return "Append";
    case table::OperationType::kDelete:
      return "Delete";
    case table::OperationType::kOverwrite:
      return "Overwrite";
    case table::OperationType::kMerge:
      return "Merge";
    case table::OperationType::kRestore:
      return "Restore";
    case table::OperationType::kReserveFragments:
      return "ReserveFragments";
    case table::OperationType::kProject:
      return "Project";
    case table::OperationType::kUnknown:
      return "Unknown";
    default:
      break;
  }
  return "Other(" + std::to_string(static_cast<int>(txn->type())) + ")";
}

// The transaction of `ds` (inline or from its .txn file) and the text of its operation; an
// unreadable .txn file is reported in the text.
struct TxnView {
  std::optional<table::Transaction> txn;
  std::string operation;
};

TxnView TransactionOf(const Dataset& ds) {
  auto txn = ds.ReadTransaction();
  if (!txn.ok()) return {std::nullopt, "(unreadable transaction: " + txn.status().ToString() + ")"};
  return {*txn, OperationText(*txn)};
}

std::string Timestamp(std::int64_t seconds, std::int32_t nanos) {
  const std::time_t t = static_cast<std::time_t>(seconds);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%09dZ", tm.tm_year + 1900,
                tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, nanos);
  return buf;
}

json PairsJson(const std::vector<std::pair<std::string, std::string>>& pairs) {
  json out = json::object();
  for (const auto& [k, v] : pairs) out[k] = v;
  return out;
}

json MetadataJson(const array::Metadata& m) { return PairsJson(m.entries()); }

std::string Join(const std::vector<std::int32_t>& v) {
  std::string s = "[";
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

std::string DeletionTypeName(table::DeletionFileType t) {
  return t == table::DeletionFileType::kBitmap ? "bitmap" : "arrow";
}

// The table's tags through the table layer. A tag file it cannot read is reported in the
// listing (as the error) rather than aborting the whole description.
std::vector<table::TagInfo> ReadTags(const Dataset& ds, std::vector<std::string>& problems) {
  auto tags = table::ListTags(ds.location());
  if (!tags.ok()) {
    problems.push_back(tags.status().ToString());
    return {};
  }
  return std::move(*tags);
}

struct VersionRow {
  std::uint64_t version = 0;
  std::string timestamp;
  std::string operation;
  std::string error;  // when the manifest could not be read
};

int Fail(const std::string& what) {
  std::cerr << "lance-nd inspect: " << what << "\n";
  return 1;
}

// Depth of each field (0 = top level) from the parent chain.
std::vector<int> Depths(const std::vector<LanceField>& fields) {
  std::map<std::int32_t, int> depth_of;
  std::vector<int> out;
  for (const auto& f : fields) {
    auto it = depth_of.find(f.parent_id);
    const int d = it == depth_of.end() ? 0 : it->second + 1;
    depth_of[f.id] = d;
    out.push_back(d);
  }
  return out;
}

json ManifestJson(const Dataset& ds) {
  const Manifest& m = ds.manifest();
  json j;
  j["version"] = m.version;
  j["manifest_path"] = ds.manifest_path();
  j["timestamp"] = Timestamp(m.timestamp_seconds, m.timestamp_nanos);
  const TxnView txn = TransactionOf(ds);
  j["operation"] = txn.operation;
  if (txn.txn.has_value()) j["read_version"] = txn.txn->read_version;
  j["transaction_file"] = m.transaction_file;
  j["writer"] = {{"library", m.writer_library}, {"version", m.writer_version}};
  j["data_format"] = {{"file_format", m.data_format_file_format},
                      {"version", m.data_format_version}};
  j["reader_feature_flags"] = m.reader_feature_flags;
  j["writer_feature_flags"] = m.writer_feature_flags;
  j["max_fragment_id"] = m.max_fragment_id.has_value() ? json(*m.max_fragment_id) : json(nullptr);
  j["next_row_id"] = m.next_row_id;
  j["config"] = PairsJson(m.config);
  j["table_metadata"] = PairsJson(m.table_metadata);
  j["schema_metadata"] = MetadataJson(m.schema_metadata);
  j["num_rows"] = m.num_rows();
  j["fields"] = json::array();
  for (const auto& f : m.fields) {
    j["fields"].push_back({{"name", f.name},
                           {"id", f.id},
                           {"parent_id", f.parent_id},
                           {"logical_type", f.logical_type},
                           {"nullable", f.nullable},
                           {"metadata", MetadataJson(f.metadata)}});
  }
  j["fragments"] = json::array();
  for (const auto& frag : m.fragments) {
    json jf = {
        {"id", frag.id}, {"physical_rows", frag.physical_rows}, {"num_rows", frag.num_rows()}};
    jf["files"] = json::array();
    for (const auto& f : frag.files) {
      jf["files"].push_back({{"path", f.path},
                             {"fields", f.fields},
                             {"column_indices", f.column_indices},
                             {"file_version", std::to_string(f.file_major_version) + "." +
                                                  std::to_string(f.file_minor_version)},
                             {"size", f.file_size_bytes}});
    }
    if (frag.deletion_file.has_value()) {
      const auto& d = *frag.deletion_file;
      jf["deletion_file"] = {{"path", d.RelativePath(frag.id)},
                             {"type", DeletionTypeName(d.file_type)},
                             {"read_version", d.read_version},
                             {"id", d.id},
                             {"num_deleted_rows", d.num_deleted_rows}};
    }
    j["fragments"].push_back(jf);
  }
  return j;
}

void PrintText(const std::string& path, const std::vector<VersionRow>& versions, const Dataset& ds,
               const std::vector<table::TagInfo>& tags,
               const std::vector<std::string>& tag_problems) {
  const Manifest& m = ds.manifest();
  std::cout << "table " << path << "\n";
  std::cout << "versions: " << versions.size() << " ("
            << (ds.versions().naming == table::ManifestNaming::kV2 ? "V2" : "V1")
            << " manifest names)\n";
  for (const auto& v : versions) {
    std::cout << "  version " << v.version << "  ";
    if (!v.error.empty()) {
      std::cout << "error: " << v.error << "\n";
      continue;
    }
    std::cout << v.timestamp << "  " << v.operation << "\n";
  }
  std::cout << "version " << m.version
            << (m.version == ds.versions().versions.back() ? " (latest)" : "") << "\n";
  std::cout << "  manifest: " << ds.manifest_path() << "\n";
  std::cout << "  timestamp: " << Timestamp(m.timestamp_seconds, m.timestamp_nanos) << "\n";
  const TxnView txn = TransactionOf(ds);
  std::cout << "  operation: " << txn.operation;
  if (txn.txn.has_value()) std::cout << " (read version " << txn.txn->read_version << ")";
  std::cout << "\n  transaction file: " << m.transaction_file << "\n";
  std::cout << "  writer: " << m.writer_library << " " << m.writer_version << "\n";
  std::cout << "  data format: " << m.data_format_file_format << " " << m.data_format_version
            << "\n";
  std::cout << "  feature flags: reader " << m.reader_feature_flags << ", writer "
            << m.writer_feature_flags << "\n";
  std::cout << "  max fragment id: "
            << (m.max_fragment_id.has_value() ? std::to_string(*m.max_fragment_id) : "none")
            << "\n";
  if (m.next_row_id != 0) std::cout << "  next row id: " << m.next_row_id << "\n";
  auto print_pairs = [](const char* title, const auto& pairs) {
    if (pairs.empty()) return;
    std::cout << "  " << title << ":\n";
    for (const auto& [k, v] : pairs) std::cout << "    " << k << " = " << v << "\n";
  };
  print_pairs("config", m.config);
  print_pairs("table metadata", m.table_metadata);
  print_pairs("schema metadata", m.schema_metadata.entries());
  std::cout << "schema:\n";
  const std::vector<int> depths = Depths(m.fields);
  for (std::size_t i = 0; i < m.fields.size(); ++i) {
    const LanceField& f = m.fields[i];
    const std::string indent(static_cast<std::size_t>(depths[i]) * 2 + 2, ' ');
    std::cout << indent << f.name << ": " << f.logical_type << (f.nullable ? "" : " not null")
              << "  [id " << f.id << ", parent " << f.parent_id << "]\n";
    for (const auto& [k, v] : f.metadata.entries()) {
      std::cout << indent << "    " << k << " = " << v << "\n";
    }
  }
  std::uint64_t physical = 0;
  for (const auto& frag : m.fragments) physical += frag.physical_rows;
  std::cout << "fragments: " << m.fragments.size() << ", " << m.num_rows() << " rows (" << physical
            << " physical)\n";
  for (const auto& frag : m.fragments) {
    std::cout << "  fragment " << frag.id << ": " << frag.num_rows() << " rows ("
              << frag.physical_rows << " physical)\n";
    for (const auto& f : frag.files) {
      std::cout << "    data file " << f.path << ": fields " << Join(f.fields) << ", columns "
                << Join(f.column_indices) << ", " << f.file_size_bytes << " bytes, format "
                << f.file_major_version << "." << f.file_minor_version << "\n";
    }
    if (frag.deletion_file.has_value()) {
      const auto& d = *frag.deletion_file;
      std::cout << "    deletion file " << d.RelativePath(frag.id) << ": "
                << DeletionTypeName(d.file_type) << ", " << d.num_deleted_rows << " deleted rows\n";
    }
  }
  std::cout << "tags: " << tags.size() << "\n";
  for (const auto& t : tags) {
    std::cout << "  " << t.name << " -> version " << t.version;
    if (!t.created_at.empty()) std::cout << " (created " << t.created_at << ")";
    std::cout << "\n";
  }
  for (const auto& p : tag_problems) std::cout << "  error: " << p << "\n";
}

}  // namespace

bool IsTableDirectory(const std::string& path) {
  std::error_code ec;
  return std::filesystem::is_directory(table::TableLocation::Local(path).VersionsDir(), ec);
}

int InspectTable(const std::string& path, std::optional<std::uint64_t> version, bool as_json) {
  const table::TableLocation location = table::TableLocation::Local(path);
  auto ds = Dataset::Open(location, version);
  if (!ds.ok()) return Fail(ds.status().ToString());
  std::vector<VersionRow> versions;
  for (std::uint64_t v : ds->versions().versions) {
    VersionRow row;
    row.version = v;
    if (v == ds->version()) {
      row.timestamp = Timestamp(ds->manifest().timestamp_seconds, ds->manifest().timestamp_nanos);
      row.operation = TransactionOf(*ds).operation;
    } else {
      auto other = Dataset::Open(location, v);
      if (other.ok()) {
        row.timestamp =
            Timestamp(other->manifest().timestamp_seconds, other->manifest().timestamp_nanos);
        row.operation = TransactionOf(*other).operation;
      } else {
        row.error = other.status().ToString();
      }
    }
    versions.push_back(std::move(row));
  }
  std::vector<std::string> tag_problems;
  const std::vector<table::TagInfo> tags = ReadTags(*ds, tag_problems);
  if (!as_json) {
    PrintText(path, versions, *ds, tags, tag_problems);
    return 0;
  }
  json j;
  j["path"] = path;
  j["naming"] = ds->versions().naming == table::ManifestNaming::kV2 ? "V2" : "V1";
  j["versions"] = json::array();
  for (const auto& v : versions) {
    json jv = {{"version", v.version}};
    if (v.error.empty()) {
      jv["timestamp"] = v.timestamp;
      jv["operation"] = v.operation;
    } else {
      jv["error"] = v.error;
    }
    j["versions"].push_back(jv);
  }
  j["manifest"] = ManifestJson(*ds);
  j["tags"] = json::array();
  for (const auto& t : tags) {
    j["tags"].push_back({{"name", t.name},
                         {"version", t.version},
                         {"manifest_size", t.manifest_size},
                         {"created_at", t.created_at}});
  }
  if (!tag_problems.empty()) j["tag_errors"] = tag_problems;
  std::cout << j.dump(2) << "\n";
  return 0;
}

}  // namespace lance_nd::cli
