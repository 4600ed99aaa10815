// Interop helper: lance-nd's table operations on the command line, for the Node scripts that
// compare them with Lance 12 (LanceDB 0.39).
//
//   table_interop_tool create|append|overwrite TABLE IN.arrow
//   table_interop_tool stream create|append|overwrite TABLE IN.arrow ROWS_PER_WRITE
//   MAX_ROWS_PER_FILE
//                                                       (one TableWriter, many Write calls)
//   table_interop_tool evolve TABLE SCHEMA.arrow        (the schema of an IPC file, rows ignored)
//   table_interop_tool delete TABLE ROWADDR...          (row addresses, decimal)
//   table_interop_tool compact TABLE
//   table_interop_tool restore TABLE VERSION
//   table_interop_tool tag TABLE NAME VERSION
//   table_interop_tool dump TABLE OUT.arrow [--version N | --tag NAME] [--rowaddr]
//   table_interop_tool versions TABLE                   (one version number per line)
//   table_interop_tool fields TABLE [VERSION]           ("name id parent_id logical_type" lines)
//
// Prints one line describing the result on success; errors go to stderr with exit code 1.
// Operations whose table-layer API is not available in this build exit with code 3.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "../common/table_tool_util.h"
#include "lance_nd/array/ipc.h"
#include "lance_nd/io/file_system.h"
#include "lance_nd/table/commit.h"
#include "lance_nd/table/dataset.h"
#include "lance_nd/table/deletion.h"
#include "lance_nd/table/evolution.h"
#include "lance_nd/table/location.h"
#include "lance_nd/table/maintenance.h"
#include "lance_nd/table/table_writer.h"
#include "lance_nd/table/write.h"

#if __has_include("lance_nd/table/scan.h")
#include "lance_nd/table/scan.h"
#define LND_TOOL_HAS_SCAN 1
#endif
#if __has_include("lance_nd/table/tags.h")
#include "lance_nd/table/tags.h"
#define LND_TOOL_HAS_TAGS 1
#endif

namespace {

using lance_nd::Result;
using lance_nd::Status;
namespace table = lance_nd::table;
namespace ipc = lance_nd::array::ipc;

constexpr int kUnavailable = 3;

[[noreturn, maybe_unused]] void ExitUnavailable(const std::string& what) {
  std::fprintf(stderr, "unavailable: %s is not in this build of the table layer\n", what.c_str());
  std::exit(kUnavailable);
}

using lance_nd::tool::ParseU64;

std::string Describe(const table::Dataset& ds) {
  return "version " + std::to_string(ds.version()) + ", " + std::to_string(ds.CountRows()) +
         " rows, " + std::to_string(ds.fragments().size()) + " fragments";
}

Status Write(const std::string& mode, const std::string& path, const std::string& in) {
  LND_ASSIGN_OR_RETURN(auto ds, lance_nd::tool::WriteIpcToTable(mode, path, in));
  std::printf("%s: %s\n", mode.c_str(), Describe(ds).c_str());
  return Status::OK();
}

// The rows of the IPC file `in` written through one TableWriter in pieces of `rows_per_write`
// rows (a piece never spans two of the file's batches), files cut at `max_rows_per_file`.
Status Stream(const std::string& mode, const std::string& path, const std::string& in,
              const std::string& rows_per_write, const std::string& max_rows_per_file) {
  LND_ASSIGN_OR_RETURN(auto piece, ParseU64(rows_per_write, "rows per write"));
  LND_ASSIGN_OR_RETURN(auto max_rows, ParseU64(max_rows_per_file, "max rows per file"));
  LND_ASSIGN_OR_RETURN(auto contents, ipc::ReadIpcFile(in));
  table::WriteOptions options;
  options.mode = mode == "create"   ? table::WriteMode::kCreate
                 : mode == "append" ? table::WriteMode::kAppend
                                    : table::WriteMode::kOverwrite;
  options.max_rows_per_file = static_cast<std::int64_t>(max_rows);
  auto schema = options.mode == table::WriteMode::kAppend ? nullptr : contents.schema;
  LND_ASSIGN_OR_RETURN(
      table::TableWriter writer,
      table::TableWriter::Open(table::TableLocation::Local(path), schema, options));
  std::uint64_t writes = 0;
  for (const auto& batch : contents.batches) {
    for (std::int64_t offset = 0; offset < batch->num_rows();) {
      const std::int64_t take =
          std::min<std::int64_t>(static_cast<std::int64_t>(piece), batch->num_rows() - offset);
      LND_ASSIGN_OR_RETURN(auto slice, batch->Slice(offset, take));
      LND_RETURN_NOT_OK(writer.Write(*slice));
      offset += take;
      ++writes;
    }
  }
  LND_ASSIGN_OR_RETURN(table::Dataset ds, writer.Commit());
  std::printf("stream %s: %llu writes, %s\n", mode.c_str(), static_cast<unsigned long long>(writes),
              Describe(ds).c_str());
  return Status::OK();
}

Result<table::Dataset> Open(const std::string& path, std::optional<std::uint64_t> version = {}) {
  return lance_nd::tool::OpenLocal(path, version);
}

Status Evolve(const std::string& path, const std::string& schema_file) {
  LND_ASSIGN_OR_RETURN(auto contents, ipc::ReadIpcFile(schema_file));
  LND_ASSIGN_OR_RETURN(auto ds, Open(path));
  LND_ASSIGN_OR_RETURN(auto evolved, table::EvolveSchema(ds, *contents.schema));
  std::printf("evolve: %s%s\n", Describe(evolved).c_str(),
              evolved.version() == ds.version() ? " (nothing new)" : "");
  return Status::OK();
}

Status Delete(const std::string& path, const std::vector<std::string>& addrs) {
  std::vector<std::uint64_t> rows;
  for (const auto& a : addrs) {
    LND_ASSIGN_OR_RETURN(auto v, ParseU64(a, "row address"));
    rows.push_back(v);
  }
  LND_ASSIGN_OR_RETURN(auto ds, Open(path));
  LND_ASSIGN_OR_RETURN(table::DeleteResult after, table::DeleteRows(ds, rows));
  std::printf("delete: %s; %llu rows deleted\n", Describe(after.dataset).c_str(),
              static_cast<unsigned long long>(after.num_deleted_rows));
  return Status::OK();
}

Status Compact(const std::string& path) {
  LND_ASSIGN_OR_RETURN(auto ds, Open(path));
  LND_ASSIGN_OR_RETURN(table::CompactionResult after, table::Compact(ds));
  std::printf("compact: %s; fragments removed %llu, added %llu\n", Describe(after.dataset).c_str(),
              static_cast<unsigned long long>(after.metrics.fragments_removed),
              static_cast<unsigned long long>(after.metrics.fragments_added));
  return Status::OK();
}

Status RestoreVersion(const std::string& path, const std::string& version) {
  LND_ASSIGN_OR_RETURN(auto v, ParseU64(version, "version"));
  LND_ASSIGN_OR_RETURN(auto old, Open(path, v));
  LND_ASSIGN_OR_RETURN(auto after, table::Restore(old));
  std::printf("restore: %s\n", Describe(after).c_str());
  return Status::OK();
}

Status Tag(const std::string& path, const std::string& name, const std::string& version) {
#ifdef LND_TOOL_HAS_TAGS
  LND_ASSIGN_OR_RETURN(auto v, ParseU64(version, "version"));
  LND_ASSIGN_OR_RETURN(table::TagInfo created,
                       table::CreateTag(table::TableLocation::Local(path), name, v));
  std::printf("tag: %s -> version %llu\n", created.name.c_str(),
              static_cast<unsigned long long>(created.version));
  return Status::OK();
#else
  (void)path;
  (void)name;
  (void)version;
  ExitUnavailable("CreateTag (tags.h)");
#endif
}

Status Dump(const std::string& path, const std::string& out, std::optional<std::uint64_t> version,
            const std::string& tag, bool rowaddr) {
#ifdef LND_TOOL_HAS_SCAN
  std::optional<table::Dataset> ds;
  if (!tag.empty()) {
#ifdef LND_TOOL_HAS_TAGS
    LND_ASSIGN_OR_RETURN(ds, table::OpenTag(table::TableLocation::Local(path), tag));
#else
    ExitUnavailable("OpenTag (tags.h)");
#endif
  } else {
    LND_ASSIGN_OR_RETURN(ds, Open(path, version));
  }
  table::TableScanOptions options;
  options.with_row_address = rowaddr;
  LND_ASSIGN_OR_RETURN(auto batch, table::ReadTable(*ds, options));
  std::vector<lance_nd::array::RecordBatchPtr> batches{batch};
  LND_RETURN_NOT_OK(ipc::WriteIpcFile(out, batch->schema(), batches));
  std::printf("dump: %s -> %s\n", Describe(*ds).c_str(), out.c_str());
  return Status::OK();
#else
  (void)path;
  (void)out;
  (void)version;
  (void)tag;
  (void)rowaddr;
  ExitUnavailable("ReadTable (scan.h)");
#endif
}

Status Versions(const std::string& path) {
  LND_ASSIGN_OR_RETURN(auto list, table::ListVersions(table::TableLocation::Local(path)));
  for (std::uint64_t v : list.versions) std::printf("%llu\n", static_cast<unsigned long long>(v));
  return Status::OK();
}

Status Fields(const std::string& path, std::optional<std::uint64_t> version) {
  LND_ASSIGN_OR_RETURN(auto ds, Open(path, version));
  for (const auto& f : ds.manifest().fields) {
    std::printf("%s %d %d %s\n", f.name.c_str(), f.id, f.parent_id, f.logical_type.c_str());
  }
  return Status::OK();
}

Status Run(const std::vector<std::string>& a) {
  const std::string& cmd = a[0];
  auto need = [&](std::size_t n) -> Status {
    if (a.size() < n) {
      return Status::InvalidArgument("'" + cmd + "' needs " + std::to_string(n - 1) +
                                     " arguments; see the usage at the top of the tool's source");
    }
    return Status::OK();
  };
  if (cmd == "create" || cmd == "append" || cmd == "overwrite") {
    LND_RETURN_NOT_OK(need(3));
    return Write(cmd, a[1], a[2]);
  }
  if (cmd == "stream") {
    LND_RETURN_NOT_OK(need(6));
    return Stream(a[1], a[2], a[3], a[4], a[5]);
  }
  if (cmd == "evolve") {
    LND_RETURN_NOT_OK(need(3));
    return Evolve(a[1], a[2]);
  }
  if (cmd == "delete") {
    LND_RETURN_NOT_OK(need(3));
    return Delete(a[1], std::vector<std::string>(a.begin() + 2, a.end()));
  }
  if (cmd == "compact") {
    LND_RETURN_NOT_OK(need(2));
    return Compact(a[1]);
  }
  if (cmd == "restore") {
    LND_RETURN_NOT_OK(need(3));
    return RestoreVersion(a[1], a[2]);
  }
  if (cmd == "tag") {
    LND_RETURN_NOT_OK(need(4));
    return Tag(a[1], a[2], a[3]);
  }
  if (cmd == "versions") {
    LND_RETURN_NOT_OK(need(2));
    return Versions(a[1]);
  }
  if (cmd == "fields") {
    LND_RETURN_NOT_OK(need(2));
    std::optional<std::uint64_t> version;
    if (a.size() > 2) {
      LND_ASSIGN_OR_RETURN(version, ParseU64(a[2], "version"));
    }
    return Fields(a[1], version);
  }
  if (cmd == "dump") {
    LND_RETURN_NOT_OK(need(3));
    std::optional<std::uint64_t> version;
    std::string tag;
    bool rowaddr = false;
    for (std::size_t i = 3; i < a.size(); ++i) {
      if (a[i] == "--rowaddr") {
        rowaddr = true;
      } else if (a[i] == "--version" && i + 1 < a.size()) {
        LND_ASSIGN_OR_RETURN(version, ParseU64(a[++i], "version"));
      } else if (a[i] == "--tag" && i + 1 < a.size()) {
        tag = a[++i];
      } else {
        return Status::InvalidArgument("dump: unknown option '" + a[i] + "'");
      }
    }
    return Dump(a[1], a[2], version, tag, rowaddr);
  }
  return Status::InvalidArgument("unknown command '" + cmd +
                                 "'; expected create, append, overwrite, evolve, delete, compact, "
                                 "restore, tag, dump, versions or fields");
}

}  // namespace

int main(int argc, char** argv) {
  return lance_nd::tool::ToolMain(argc, argv, "COMMAND TABLE ...", Run);
}
