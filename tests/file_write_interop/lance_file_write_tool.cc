// Interop helper: Arrow IPC file in, Lance data file out (lance-nd's FileWriter).
//   lance_file_write_tool IN.arrow OUT.lance 2.1|2.2 [PAGE_BYTES [BATCH_ROWS]]
// PAGE_BYTES sets WriterOptions::page_bytes; BATCH_ROWS re-slices the input into batches of
// that many rows (to exercise many Write calls and pages).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "lance_nd/array/ipc.h"
#include "lance_nd/file/writer.h"

namespace {

lance_nd::Status Run(const std::string& in, const std::string& out, const std::string& version,
                     std::uint64_t page_bytes, std::int64_t batch_rows) {
  using namespace lance_nd;
  LND_ASSIGN_OR_RETURN(auto reader, array::ipc::IpcFileReader::OpenFile(in));
  file::WriterOptions options;
  if (version == "2.1") {
    options.version = file::FileVersion::kV2_1;
  } else if (version != "2.2") {
    return Status::InvalidArgument("version is '" + version + "'; expected 2.1 or 2.2");
  }
  if (page_bytes > 0) options.page_bytes = page_bytes;
  LND_ASSIGN_OR_RETURN(auto writer, file::FileWriter::Open(out, reader.schema(), options));
  for (int i = 0; i < reader.num_record_batches(); ++i) {
    LND_ASSIGN_OR_RETURN(auto batch, reader.ReadRecordBatch(i));
    if (batch_rows <= 0) {
      LND_RETURN_NOT_OK(writer->Write(*batch));
      continue;
    }
    for (std::int64_t start = 0; start < batch->num_rows(); start += batch_rows) {
      LND_ASSIGN_OR_RETURN(auto part,
                           batch->Slice(start, std::min(batch_rows, batch->num_rows() - start)));
      LND_RETURN_NOT_OK(writer->Write(*part));
    }
  }
  LND_ASSIGN_OR_RETURN(auto written, writer->Finish());
  std::printf("wrote %s: %llu rows, %u columns, %llu bytes\n", out.c_str(),
              static_cast<unsigned long long>(written.num_rows), written.num_columns,
              static_cast<unsigned long long>(written.file_size));
  return Status::OK();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4 || argc > 6) {
    std::fprintf(stderr, "usage: %s IN.arrow OUT.lance 2.1|2.2 [PAGE_BYTES [BATCH_ROWS]]\n",
                 argv[0]);
    return 2;
  }
  const std::uint64_t page_bytes = argc > 4 ? std::strtoull(argv[4], nullptr, 10) : 0;
  const std::int64_t batch_rows = argc > 5 ? std::strtoll(argv[5], nullptr, 10) : 0;
  const lance_nd::Status st = Run(argv[1], argv[2], argv[3], page_bytes, batch_rows);
  if (!st.ok()) {
    std::fprintf(stderr, "error: %s\n", st.ToString().c_str());
    return 1;
  }
  return 0;
}
