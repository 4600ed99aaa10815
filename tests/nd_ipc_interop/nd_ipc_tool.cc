// nd_ipc_tool: lance-nd's side of the nd IPC interop test (run_interop.sh drives it).
//
//   nd_ipc_tool cases                 list the cases
//   nd_ipc_tool write-ipc OUT_DIR     encode each case with EncodeRows and write it as Arrow IPC:
//                                     OUT_DIR/<case>.arrow (file) or <case>.arrows (stream)
//   nd_ipc_tool check-ipc IN_DIR      read IN_DIR/<case>.arrow[s] (what the oracle returned) and
//                                     check schema, metadata, arrays and decoded rows against
//                                     the case
//   nd_ipc_tool check-json IPC JSON   decode IPC (file or stream) with RowDecoder and compare
//                                     with the nd JSON rows in JSON (interop/README.md)
//
// Exit status: 0 when everything matches, 1 on a difference or error, 2 on bad usage.
#include <cstdint>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "compare.h"
#include "interop_cases.h"
#include "lance_nd/array/array_data.h"
#include "lance_nd/array/ipc.h"
#include "lance_nd/core/result.h"
#include "lance_nd/nd/row_encoding.h"
#include "nd_json.h"

namespace lance_nd::interop {
namespace {

namespace la = lance_nd::array;
namespace fs = std::filesystem;

Result<std::vector<std::uint8_t>> ReadBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::IOError("cannot open '" + path + "'");
  std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                                  std::istreambuf_iterator<char>());
  return bytes;
}

/// \brief Read an IPC file ("ARROW1" magic) or stream, as one record batch (batches joined).
Result<la::RecordBatchPtr> ReadIpcAny(const std::string& path) {
  LND_ASSIGN_OR_RETURN(std::vector<std::uint8_t> bytes, ReadBytes(path));
  static constexpr std::string_view kMagic = "ARROW1";
  const bool is_file =
      bytes.size() >= kMagic.size() &&
      std::string_view(reinterpret_cast<const char*>(bytes.data()), kMagic.size()) == kMagic;
  la::ipc::IpcContents contents;
  if (is_file) {
    LND_ASSIGN_OR_RETURN_CTX(contents, la::ipc::ReadIpcFileBytes(std::span(bytes)), path);
  } else {
    LND_ASSIGN_OR_RETURN_CTX(contents, la::ipc::ReadIpcStream(std::span(bytes)), path);
  }
  int64_t rows = 0;
  for (const la::RecordBatchPtr& b : contents.batches) rows += b->num_rows();
  std::vector<la::ArrayPtr> columns;
  for (int c = 0; c < contents.schema->num_fields(); ++c) {
    std::vector<la::ArrayPtr> parts;
    for (const la::RecordBatchPtr& b : contents.batches) parts.push_back(b->column(c));
    if (parts.empty()) {
      columns.push_back(la::MakeEmptyArray(contents.schema->field(c)->type()));
    } else if (parts.size() == 1) {
      columns.push_back(parts[0]);
    } else {
      LND_ASSIGN_OR_RETURN(la::ArrayPtr joined, la::Concatenate(parts));
      columns.push_back(std::move(joined));
    }
  }
  return la::RecordBatch::Make(contents.schema, rows, std::move(columns));
}

Result<std::vector<nd::NdRecordBatch>> DecodeRows(const la::RecordBatch& batch) {
  LND_ASSIGN_OR_RETURN(nd::RowDecoder decoder, nd::RowDecoder::Make(batch.schema()));
  return decoder.DecodeAll(batch);
}

std::string CasePath(const std::string& dir, const InteropCase& c) {
  return (fs::path(dir) / (c.name + (c.stream ? ".arrows" : ".arrow"))).string();
}

Status WriteIpc(const std::string& out_dir) {
  std::error_code ec;
  fs::create_directories(out_dir, ec);
  if (ec) return Status::IOError("cannot create '" + out_dir + "': " + ec.message());
  LND_ASSIGN_OR_RETURN(std::vector<InteropCase> cases, MakeInteropCases());
  for (const InteropCase& c : cases) {
    LND_ASSIGN_OR_RETURN_CTX(la::RecordBatchPtr batch, nd::EncodeRows(c.rows), c.name);
    // Our own round trip first, so an encoder bug is not blamed on the oracle.
    LND_ASSIGN_OR_RETURN_CTX(std::vector<nd::NdRecordBatch> decoded, DecodeRows(*batch), c.name);
    LND_RETURN_NOT_OK(CompareRows(c.rows, decoded, c.name + " (EncodeRows -> RowDecoder)"));
    const std::string path = CasePath(out_dir, c);
    const std::vector<la::RecordBatchPtr> batches{batch};
    if (c.stream) {
      LND_RETURN_NOT_OK_CTX(la::ipc::WriteIpcStreamFile(path, batch->schema(), batches), path);
    } else {
      LND_RETURN_NOT_OK_CTX(la::ipc::WriteIpcFile(path, batch->schema(), batches), path);
    }
    std::printf("write-ipc: %s: %lld rows, %d columns -> %s\n", c.name.c_str(),
                static_cast<long long>(batch->num_rows()), batch->num_columns(),  // NOLINT
                path.c_str());
  }
  return Status::OK();
}

Status CheckIpc(const std::string& in_dir) {
  LND_ASSIGN_OR_RETURN(std::vector<InteropCase> cases, MakeInteropCases());
  for (const InteropCase& c : cases) {
    LND_ASSIGN_OR_RETURN_CTX(la::RecordBatchPtr want, nd::EncodeRows(c.rows), c.name);
    const std::string path = CasePath(in_dir, c);
    LND_ASSIGN_OR_RETURN(la::RecordBatchPtr got, ReadIpcAny(path));
    LND_RETURN_NOT_OK_CTX(CompareSchemas(*want->schema(), *got->schema()), c.name);
    LND_RETURN_NOT_OK_CTX(CompareBatches(*want, *got), c.name);
    LND_ASSIGN_OR_RETURN_CTX(std::vector<nd::NdRecordBatch> rows, DecodeRows(*got),
                             c.name + ": decoding what the oracle returned");
    LND_RETURN_NOT_OK(CompareRows(c.rows, rows, c.name));
    std::printf("check-ipc: %s: %zu rows identical (schema, field metadata, arrays, nd rows)\n",
                c.name.c_str(), rows.size());
  }
  return Status::OK();
}

Status CheckJson(const std::string& ipc_path, const std::string& json_path) {
  LND_ASSIGN_OR_RETURN(std::vector<std::uint8_t> text, ReadBytes(json_path));
  LND_ASSIGN_OR_RETURN_CTX(std::vector<nd::NdRecordBatch> want,
                           ParseNdJson(std::string(text.begin(), text.end())), json_path);
  LND_ASSIGN_OR_RETURN(la::RecordBatchPtr batch, ReadIpcAny(ipc_path));
  LND_ASSIGN_OR_RETURN_CTX(std::vector<nd::NdRecordBatch> got, DecodeRows(*batch), ipc_path);
  LND_RETURN_NOT_OK(CompareRows(want, got, ipc_path));
  std::printf("check-json: %s: %zu rows decoded as %s states\n", ipc_path.c_str(), got.size(),
              json_path.c_str());
  return Status::OK();
}

int Usage() {
  std::fprintf(stderr,
               "usage: nd_ipc_tool cases | write-ipc OUT_DIR | check-ipc IN_DIR | "
               "check-json IPC JSON\n");
  return 2;
}

int Run(std::span<char*> args) {
  if (args.size() < 2) return Usage();
  const std::string_view cmd = args[1];
  Status st;
  if (cmd == "cases" && args.size() == 2) {
    Result<std::vector<InteropCase>> cases = MakeInteropCases();
    st = cases.status();
    if (cases.ok()) {
      for (const InteropCase& c : *cases) std::printf("%s\n", c.name.c_str());
    }
  } else if (cmd == "write-ipc" && args.size() == 3) {
    st = WriteIpc(args[2]);
  } else if (cmd == "check-ipc" && args.size() == 3) {
    st = CheckIpc(args[2]);
  } else if (cmd == "check-json" && args.size() == 4) {
    st = CheckJson(args[2], args[3]);
  } else {
    return Usage();
  }
  if (!st.ok()) {
    std::fprintf(stderr, "nd_ipc_tool %s: %s\n", std::string(cmd).c_str(), st.ToString().c_str());
    return 1;
  }
  return 0;
}

}  // namespace
}  // namespace lance_nd::interop

int main(int argc, char** argv) {
  try {
    return lance_nd::interop::Run(std::span<char*>(argv, static_cast<std::size_t>(argc)));
  } catch (const std::exception& e) {  // e.g. std::bad_alloc: report instead of terminating
    std::fprintf(stderr, "nd_ipc_tool: %s\n", e.what());
    return 1;
  }
}
