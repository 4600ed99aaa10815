// Fuzz target: the Arrow IPC stream reader on arbitrary bytes. Whatever reads successfully must
// be valid, and must write and read back to equal batches.
#include <cstdint>
#include <cstdlib>
#include <span>

#include "lance_nd/array/ipc.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace lance_nd::array;
  auto contents = ipc::ReadIpcStream(std::span<const std::uint8_t>(data, size));
  if (!contents.ok()) return 0;
  for (const auto& batch : contents->batches) {
    if (!batch->Validate().ok()) std::abort();
  }
  auto bytes = ipc::WriteIpcStream(contents->schema, contents->batches);
  if (!bytes.ok()) std::abort();
  auto again = ipc::ReadIpcStream(*bytes);
  if (!again.ok() || !again->schema->Equals(*contents->schema) ||
      again->batches.size() != contents->batches.size()) {
    std::abort();
  }
  for (std::size_t i = 0; i < again->batches.size(); ++i) {
    if (!again->batches[i]->Equals(*contents->batches[i])) std::abort();
  }
  return 0;
}
