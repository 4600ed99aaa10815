// `lance-nd inspect FILE.lance`: describe a Lance 2.1/2.2 data file.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>

#include "commands.h"
#include "inspect_table.h"
#include "lance_nd/file/reader.h"
#include "lance_nd/io/file_system.h"

namespace lance_nd::cli {
namespace {

using file::FileDescription;
using nlohmann::json;

std::string Bytes(std::uint64_t n) {
  char buf[64];
  if (n < 1024) {
    std::snprintf(buf, sizeof buf, "%llu B", static_cast<unsigned long long>(n));
  } else if (n < 1024 * 1024) {
    std::snprintf(buf, sizeof buf, "%.1f KiB", static_cast<double>(n) / 1024.0);
  } else if (n < 1024ull * 1024 * 1024) {
    std::snprintf(buf, sizeof buf, "%.1f MiB", static_cast<double>(n) / (1024.0 * 1024.0));
  } else {
    std::snprintf(buf, sizeof buf, "%.2f GiB", static_cast<double>(n) / (1024.0 * 1024.0 * 1024.0));
  }
  return buf;
}

json MetadataJson(const array::Metadata& m) {
  json out = json::object();
  for (const auto& [k, v] : m.entries()) out[k] = v;
  return out;
}

json ToJson(const std::string& path, const FileDescription& d) {
  json j;
  j["path"] = path;
  j["version"] = d.version.ToString();
  j["file_size"] = d.file_size;
  j["num_rows"] = d.num_rows;
  j["footer"] = {{"column_meta_start", d.column_meta_start},
                 {"cmo_table_start", d.cmo_table_start},
                 {"gbo_table_start", d.gbo_table_start},
                 {"num_columns", d.columns.size()},
                 {"num_global_buffers", d.global_buffers.size()}};
  j["global_buffers"] = json::array();
  for (const auto& [pos, size] : d.global_buffers)
    j["global_buffers"].push_back({{"position", pos}, {"size", size}});
  j["schema_metadata"] = MetadataJson(d.schema_metadata);
  j["fields"] = json::array();
  for (const auto& f : d.fields) {
    json jf = {{"id", f.id},
               {"parent_id", f.parent_id},
               {"path", f.path},
               {"logical_type", f.logical_type},
               {"nullable", f.nullable},
               {"metadata", MetadataJson(f.metadata)}};
    if (f.column >= 0) jf["column"] = f.column;
    if (!f.unsupported.empty()) jf["unsupported"] = f.unsupported;
    j["fields"].push_back(jf);
  }
  j["columns"] = json::array();
  for (const auto& c : d.columns) {
    json jc = {{"index", c.index},
               {"path", c.path},
               {"field_id", c.field_id},
               {"encoding", c.encoding_type_url},
               {"metadata", {{"position", c.metadata_position}, {"size", c.metadata_size}}}};
    jc["pages"] = json::array();
    for (const auto& p : c.pages) {
      json jp = {{"first_row", p.first_row},
                 {"num_rows", p.num_rows},
                 {"layout", p.layout},
                 {"bytes", p.num_bytes}};
      jp["buffers"] = json::array();
      for (const auto& [pos, size] : p.buffers)
        jp["buffers"].push_back({{"position", pos}, {"size", size}});
      jc["pages"].push_back(jp);
    }
    j["columns"].push_back(jc);
  }
  return j;
}

void PrintText(const std::string& path, const FileDescription& d) {
  std::cout << path << "\n";
  std::cout << "  Lance file format " << d.version.ToString() << ", " << d.num_rows << " rows, "
            << d.columns.size() << " columns, " << Bytes(d.file_size) << " (" << d.file_size
            << " bytes)\n";
  std::cout << "  footer: column metadata at " << d.column_meta_start << ", CMO table at "
            << d.cmo_table_start << ", GBO table at " << d.gbo_table_start << "\n";
  for (std::size_t i = 0; i < d.global_buffers.size(); ++i) {
    std::cout << "  global buffer " << i << ": " << d.global_buffers[i].second << " bytes at "
              << d.global_buffers[i].first << (i == 0 ? " (schema)" : "") << "\n";
  }
  if (!d.schema_metadata.empty()) {
    std::cout << "  schema metadata:\n";
    for (const auto& [k, v] : d.schema_metadata.entries())
      std::cout << "    " << k << " = " << v << "\n";
  }
  std::cout << "schema:\n";
  for (const auto& f : d.fields) {
    const auto depth = static_cast<std::size_t>(std::count(f.path.begin(), f.path.end(), '.'));
    const std::string name =
        f.path.substr(f.path.rfind('.') == std::string::npos ? 0 : f.path.rfind('.') + 1);
    std::cout << "  " << std::string(depth * 2, ' ') << name << ": " << f.logical_type
              << (f.nullable ? "" : " not null") << "  [id " << f.id << ", parent " << f.parent_id;
    if (f.column >= 0) std::cout << ", column " << f.column;
    std::cout << "]\n";
    if (!f.unsupported.empty()) {
      std::cout << "  " << std::string(depth * 2 + 4, ' ') << "not readable: " << f.unsupported
                << "\n";
    }
    for (const auto& [k, v] : f.metadata.entries()) {
      std::cout << "  " << std::string(depth * 2 + 4, ' ') << k << " = " << v << "\n";
    }
  }
  std::cout << "columns:\n";
  for (const auto& c : d.columns) {
    std::uint64_t bytes = 0;
    for (const auto& p : c.pages) bytes += p.num_bytes;
    std::cout << "  column " << c.index << " " << c.path << " (field " << c.field_id
              << "): " << c.pages.size() << " page" << (c.pages.size() == 1 ? "" : "s") << ", "
              << Bytes(bytes) << "\n";
    for (std::size_t i = 0; i < c.pages.size(); ++i) {
      const auto& p = c.pages[i];
      std::cout << "    page " << i << ": rows " << p.first_row << ".." << p.first_row + p.num_rows
                << " (" << p.num_rows << "), " << p.buffers.size() << " buffers, "
                << Bytes(p.num_bytes) << "\n      " << p.layout << "\n";
    }
  }
}

}  // namespace

void AddInspectCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "inspect",
      "Describe a Lance data file (footer, schema with field ids, columns, pages, encodings) or a "
      "Lance table directory (versions, manifest, schema with field ids, fragments, deletion "
      "files, tags)");
  auto path = std::make_shared<std::string>();
  auto as_json = std::make_shared<bool>(false);
  auto version = std::make_shared<std::uint64_t>(0);
  cmd->add_option("file", *path, "a Lance data file (.lance) or table directory")->required();
  cmd->add_flag("--json", *as_json, "print JSON instead of text");
  auto* version_opt =
      cmd->add_option("--version", *version, "table version to describe (default: the latest)");
  cmd->footer(
      "Example:\n"
      "  lance-nd inspect ocean.lance                 # a table: versions, fragments, schema\n"
      "  lance-nd inspect ocean.lance/data/FILE.lance --json\n"
      "This is the Lance-level view; `lance-nd info` and `lance-nd ls` show the nd view.");
  cmd->callback([path, as_json, version, version_opt] {
    if (IsTableDirectory(*path)) {
      std::optional<std::uint64_t> v;
      if (version_opt->count() > 0) v = *version;
      std::exit(InspectTable(*path, v, *as_json));
    }
    if (version_opt->count() > 0) {
      std::cerr << "lance-nd inspect: --version applies to table directories (with _versions/); "
                << *path << " is not one\n";
      std::exit(1);
    }
    auto opened = io::LocalFileSystem()->OpenForRead(*path);
    if (!opened.ok()) {
      std::cerr << "lance-nd inspect: " << opened.status().ToString() << "\n";
      std::exit(1);
    }
    auto reader = file::FileReader::Open(*opened);
    if (!reader.ok()) {
      std::cerr << "lance-nd inspect: " << reader.status().ToString() << "\n";
      std::exit(1);
    }
    const FileDescription d = reader->Describe();
    if (*as_json) {
      std::cout << ToJson(*path, d).dump(2) << "\n";
    } else {
      PrintText(*path, d);
    }
  });
}

}  // namespace lance_nd::cli
