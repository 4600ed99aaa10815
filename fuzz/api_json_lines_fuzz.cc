// Fuzz target: one JSON line of the command line's nd record batch format from arbitrary bytes.
// Whatever decodes must encode, and the encoded line must decode to an equal batch.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "lance_nd/api/json_lines.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace lance_nd;
  std::string_view line(reinterpret_cast<const char*>(data), size);
  auto row = DecodeJsonLine(line);
  if (!row.ok()) return 0;
  auto encoded = EncodeJsonLine(*row);
  if (!encoded.ok()) std::abort();
  auto back = DecodeJsonLine(*encoded);
  if (!back.ok() || !(*back == *row)) std::abort();
  return 0;
}
