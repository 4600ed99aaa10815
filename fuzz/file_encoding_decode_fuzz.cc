// Fuzz the compressive-encoding decoders with arbitrary encoding messages and buffers.
#include <cstddef>
#include <cstdint>

#include "lance_nd/file/encoding/fuzz_entry.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  lance_nd::file::internal::encoding::FuzzDecodeProto(data, size);
  return 0;
}
