// Fuzz target: the nd row decoder on record batches read from arbitrary Arrow IPC stream bytes.
// Whatever decodes must re-encode, and the re-encoded rows must decode to equal nd batches.
#include <cstdint>
#include <cstdlib>
#include <span>

#include "lance_nd/array/ipc.h"
#include "lance_nd/nd/row_encoding.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace lance_nd;
  auto contents = array::ipc::ReadIpcStream(std::span<const std::uint8_t>(data, size));
  if (!contents.ok()) return 0;
  auto decoder = nd::RowDecoder::Make(contents->schema);
  if (!decoder.ok()) return 0;
  for (const auto& batch : contents->batches) {
    auto rows = decoder->DecodeAll(*batch);
    if (!rows.ok()) continue;
    auto encoded = nd::EncodeRows(*rows);
    if (!encoded.ok()) std::abort();
    auto again = nd::RowDecoder::Make((*encoded)->schema());
    if (!again.ok()) std::abort();
    auto back = again->DecodeAll(**encoded);
    if (!back.ok() || back->size() != rows->size()) std::abort();
    for (std::size_t i = 0; i < rows->size(); ++i) {
      if (!((*back)[i] == (*rows)[i])) std::abort();
    }
  }
  return 0;
}
