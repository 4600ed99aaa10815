// query_filter_tool [--prune] IPC_FILE FILTERS: evaluates each line of FILTERS (one Lance SQL
// filter per line) on the record batches of the Arrow IPC file and prints one JSON line per
// filter: {"rows": [i, ...]} (row numbers across all batches, where the filter is TRUE) or
// {"error": "..."}. With --prune, the filter is first rewritten by PruneFilter against the
// file's schema: {"sql": "<pruned filter>" or null (keep every row), "rows": [...]}. The interop
// scripts compare these with what LanceDB selects.
#include <fstream>
#include <iostream>
#include <string>

#include "lance_nd/array/ipc.h"
#include "lance_nd/query/filter.h"

namespace {

std::string JsonString(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      out += ' ';
    } else {
      out += c;
    }
  }
  return out + "\"";
}

std::string Run(const lance_nd::array::ipc::IpcContents& contents, const std::string& sql,
                bool prune) {
  auto parsed = lance_nd::query::Filter::Parse(sql);
  if (!parsed.ok()) return "{\"error\": " + JsonString(parsed.status().message()) + "}";
  lance_nd::query::Filter filter = *parsed;
  std::string prefix = "{";
  if (prune) {
    auto pruned = lance_nd::query::PruneFilter(filter, *contents.schema);
    if (!pruned.ok()) return "{\"error\": " + JsonString(pruned.status().message()) + "}";
    if (!pruned->has_value()) return "{\"sql\": null}";
    filter = **pruned;
    prefix += "\"sql\": " + JsonString(filter.ToSql()) + ", ";
  }
  auto bound = filter.Bind(*contents.schema);
  if (!bound.ok()) return "{\"error\": " + JsonString(bound.status().message()) + "}";
  std::string rows;
  std::int64_t base = 0;
  for (const auto& batch : contents.batches) {
    auto selected = bound->Select(*batch);
    if (!selected.ok()) return "{\"error\": " + JsonString(selected.status().message()) + "}";
    for (std::int64_t r : *selected) rows += (rows.empty() ? "" : ", ") + std::to_string(base + r);
    base += batch->num_rows();
  }
  return prefix + "\"rows\": [" + rows + "]}";
}

}  // namespace

int main(int argc, char** argv) {
  const bool prune = argc == 4 && std::string(argv[1]) == "--prune";
  if (argc != 3 && !prune) {
    std::cerr << "usage: query_filter_tool [--prune] IPC_FILE FILTERS\n";
    return 2;
  }
  if (prune) ++argv;
  auto contents = lance_nd::array::ipc::ReadIpcFile(argv[1]);
  if (!contents.ok()) {
    std::cerr << contents.status().ToString() << "\n";
    return 1;
  }
  std::ifstream filters(argv[2]);
  std::string line;
  while (std::getline(filters, line)) std::cout << Run(*contents, line, prune) << "\n";
  return 0;
}
