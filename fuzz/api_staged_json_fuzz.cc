// Fuzz target: the JSON form of staged fragments (what a distributed writer ships to the
// coordinator) from arbitrary bytes. Whatever parses must print to JSON that parses and prints
// to the same text.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "lance_nd/api/staged.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace lance_nd;
  std::string_view json(reinterpret_cast<const char*>(data), size);
  auto staged = StagedFragments::FromJson(json);
  if (!staged.ok()) return 0;
  std::string printed = staged->ToJson();
  auto again = StagedFragments::FromJson(printed);
  if (!again.ok() || again->ToJson() != printed) std::abort();
  return 0;
}
