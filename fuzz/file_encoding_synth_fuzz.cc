// Fuzz the decoders of well-formed encodings (picked by the first byte) on arbitrary buffers,
// and check that successfully decoded fixed-width values survive re-encoding.
#include <cstddef>
#include <cstdint>

#include "lance_nd/file/encoding/fuzz_entry.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  lance_nd::file::internal::encoding::FuzzDecodeSynth(data, size);
  return 0;
}
