// Fuzz deletion-file parsing: both forms are tried on every input (Arrow IPC `.arrow` and
// portable Roaring `.bin`); what parses must serialise and parse back to the same vector.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <span>

#include "lance_nd/table/deletion.h"

namespace {

void Check(std::span<const std::uint8_t> bytes, lance_nd::table::DeletionFileType type) {
  using lance_nd::table::ParseDeletionFile;
  constexpr std::uint64_t kPhysicalRows = 1u << 22;
  auto parsed = ParseDeletionFile(bytes, type, kPhysicalRows, 0, "fuzz");
  if (!parsed.ok()) return;
  const auto& dv = *parsed;
  for (std::size_t i = 1; i < dv.size(); ++i) {
    if (dv.offsets()[i] <= dv.offsets()[i - 1]) std::abort();
  }
  if (dv.empty()) return;
  for (auto out_type : {lance_nd::table::DeletionFileType::kArrowArray,
                        lance_nd::table::DeletionFileType::kBitmap}) {
    auto bytes2 = lance_nd::table::SerializeDeletionVector(dv, out_type);
    if (!bytes2.ok()) std::abort();
    auto back = ParseDeletionFile(*bytes2, out_type, kPhysicalRows, dv.size(), "fuzz2");
    if (!back.ok() || !(*back == dv)) std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::uint8_t> bytes(data, size);
  Check(bytes, lance_nd::table::DeletionFileType::kArrowArray);
  Check(bytes, lance_nd::table::DeletionFileType::kBitmap);
  return 0;
}
