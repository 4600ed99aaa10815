// query_filter_tool IPC_FILE FILTERS: evaluates each line of FILTERS (one Lance SQL filter per
// line) on the record batches of the Arrow IPC file and prints one JSON line per filter:
// {"rows": [i, ...]} (row numbers across all batches, where the filter is TRUE) or
// {"error": "..."}. The interop script compares these with what LanceDB selects.
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

std::string Run(const lance_nd::array::ipc::IpcContents& contents, const std::string& sql) {
  auto filter = lance_nd::query::Filter::Parse(sql);
  if (!filter.ok()) return "{\"error\": " + JsonString(filter.status().message()) + "}";
  auto bound = filter->Bind(*contents.schema);
  if (!bound.ok()) return "{\"error\": " + JsonString(bound.status().message()) + "}";
  std::string rows;
  std::int64_t base = 0;
  for (const auto& batch : contents.batches) {
    auto selected = bound->Select(*batch);
    if (!selected.ok()) return "{\"error\": " + JsonString(selected.status().message()) + "}";
    for (std::int64_t r : *selected) rows += (rows.empty() ? "" : ", ") + std::to_string(base + r);
    base += batch->num_rows();
  }
  return "{\"rows\": [" + rows + "]}";
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: query_filter_tool IPC_FILE FILTERS\n";
    return 2;
  }
  auto contents = lance_nd::array::ipc::ReadIpcFile(argv[1]);
  if (!contents.ok()) {
    std::cerr << contents.status().ToString() << "\n";
    return 1;
  }
  std::ifstream filters(argv[2]);
  std::string line;
  while (std::getline(filters, line)) std::cout << Run(*contents, line) << "\n";
  return 0;
}
