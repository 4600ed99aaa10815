// Command-line side of the differential tests (tests/differential): lance-nd writes, reads and
// describes tables for the Node script that compares them with Lance 12 (LanceDB 0.39).
//
//   differential_tool write create|append TABLE IN.arrow VERSION [PAGE_BYTES]
//       VERSION is the Lance file version, 2.1 or 2.2; PAGE_BYTES the writer's page size.
//   differential_tool dump TABLE OUT.arrow
//       every row of the latest version, as one Arrow IPC file
//   differential_tool pages TABLE
//       one JSON object per page of every data file of the latest version:
//       {"file","version","column","type","nullable","layout","buffers","rows"}
//
// Errors go to stderr with exit code 1.
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "../common/table_tool_util.h"
#include "lance_nd/array/ipc.h"
#include "lance_nd/file/reader.h"
#include "lance_nd/io/file_system.h"
#include "lance_nd/table/dataset.h"
#include "lance_nd/table/scan.h"
#include "lance_nd/table/write.h"

namespace {

using lance_nd::Result;
using lance_nd::Status;
namespace table = lance_nd::table;
namespace file = lance_nd::file;

Result<file::FileVersion> ParseFileVersion(const std::string& s) {
  if (s == "2.1") return file::FileVersion::kV2_1;
  if (s == "2.2") return file::FileVersion::kV2_2;
  return Status::InvalidArgument("file version '" + s + "' is not 2.1 or 2.2");
}

Status Write(const std::vector<std::string>& a) {
  if (a.size() < 5) return Status::InvalidArgument("write needs MODE TABLE IN.arrow VERSION");
  table::WriteOptions options;
  LND_ASSIGN_OR_RETURN(options.file_options.version, ParseFileVersion(a[4]));
  if (a.size() > 5) {
    LND_ASSIGN_OR_RETURN(options.file_options.page_bytes,
                         lance_nd::tool::ParseU64(a[5], "page bytes"));
  }
  LND_ASSIGN_OR_RETURN(auto ds, lance_nd::tool::WriteIpcToTable(a[1], a[2], a[3], options));
  std::printf("%s: version %llu, %llu rows\n", a[1].c_str(),
              static_cast<unsigned long long>(ds.version()),
              static_cast<unsigned long long>(ds.CountRows()));
  return Status::OK();
}

Status Dump(const std::string& path, const std::string& out) {
  LND_ASSIGN_OR_RETURN(auto ds, lance_nd::tool::OpenLocal(path));
  LND_ASSIGN_OR_RETURN(auto batch, table::ReadTable(ds));
  std::vector<lance_nd::array::RecordBatchPtr> batches{batch};
  return lance_nd::array::ipc::WriteIpcFile(out, batch->schema(), batches);
}

// One JSON line per page of the data file `rel` (relative to the table's data folder).
Status PrintPages(const std::string& table_path, const std::string& rel) {
  LND_ASSIGN_OR_RETURN(auto in,
                       lance_nd::io::LocalFileSystem()->OpenForRead(table_path + "/data/" + rel));
  LND_ASSIGN_OR_RETURN(auto reader, file::FileReader::Open(in));
  const file::FileDescription d = reader.Describe();
  std::map<std::int32_t, const file::FieldDescription*> by_id;
  for (const auto& f : d.fields) by_id[f.id] = &f;
  for (const auto& c : d.columns) {
    const auto it = by_id.find(c.field_id);
    const bool known = it != by_id.end();
    for (const auto& p : c.pages) {
      nlohmann::json j = {{"file", rel},
                          {"version", d.version.ToString()},
                          {"column", c.path},
                          {"type", known ? it->second->logical_type : "?"},
                          {"nullable", known && it->second->nullable},
                          {"layout", p.layout},
                          {"buffers", p.buffers.size()},
                          {"rows", p.num_rows}};
      std::cout << j.dump() << "\n";
    }
  }
  return Status::OK();
}

Status Pages(const std::string& path) {
  LND_ASSIGN_OR_RETURN(auto ds, lance_nd::tool::OpenLocal(path));
  for (const auto& frag : ds.fragments()) {
    for (const auto& df : frag.files) LND_RETURN_NOT_OK(PrintPages(path, df.path));
  }
  return Status::OK();
}

Status Run(const std::vector<std::string>& a) {
  if (a[0] == "write") return Write(a);
  if (a[0] == "dump" && a.size() == 3) return Dump(a[1], a[2]);
  if (a[0] == "pages" && a.size() == 2) return Pages(a[1]);
  return Status::InvalidArgument(
      "usage: write MODE TABLE IN VERSION [PAGE_BYTES] | dump TABLE "
      "OUT | pages TABLE");
}

}  // namespace

int main(int argc, char** argv) {
  return lance_nd::tool::ToolMain(argc, argv, "write|dump|pages ...", Run);
}
