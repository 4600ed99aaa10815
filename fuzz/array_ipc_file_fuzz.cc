// Fuzz target: the Arrow IPC file reader on arbitrary bytes (footer, blocks, random access).
// Whatever reads successfully must be valid, and must write and read back to equal batches.
#include <cstdint>
#include <cstdlib>
#include <span>

#include "lance_nd/array/ipc.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace lance_nd::array;
  auto reader = ipc::IpcFileReader::Open(Buffer::Copy(data, static_cast<int64_t>(size)));
  if (!reader.ok()) return 0;
  // Random access, last batch first.
  for (int i = reader->num_record_batches() - 1; i >= 0; --i) {
    auto batch = reader->ReadRecordBatch(i);
    if (batch.ok() && !(*batch)->Validate().ok()) std::abort();
  }
  auto contents = ipc::ReadIpcFileBytes(std::span<const std::uint8_t>(data, size));
  if (!contents.ok()) return 0;
  auto bytes = ipc::WriteIpcFileBytes(contents->schema, contents->batches);
  if (!bytes.ok()) std::abort();
  auto again = ipc::ReadIpcFileBytes(*bytes);
  if (!again.ok() || !again->schema->Equals(*contents->schema) ||
      again->batches.size() != contents->batches.size()) {
    std::abort();
  }
  for (std::size_t i = 0; i < again->batches.size(); ++i) {
    if (!again->batches[i]->Equals(*contents->batches[i])) std::abort();
  }
  return 0;
}
