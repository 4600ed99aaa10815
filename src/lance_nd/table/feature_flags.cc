// Reader / writer feature flag checks (see docs/lance-table-format.md §5).
#include <string>

#include "lance_nd/table/manifest.h"

namespace lance_nd::table {
namespace {

constexpr std::uint64_t kKnownFlags =
    kFlagDeletionFiles | kFlagUseV2Format | kFlagTableConfig | kFlagNoTransactionFile;

std::string BitList(std::uint64_t bits) {
  std::string out;
  for (int i = 0; i < 64; ++i) {
    const std::uint64_t bit = std::uint64_t{1} << i;
    if ((bits & bit) == 0) continue;
    if (!out.empty()) out += ", ";
    out += std::to_string(bit);
    if (bit == kFlagStableRowIds) out += " (stable row ids)";
    if (bit == kFlagBasePaths) out += " (base paths)";
  }
  return out;
}

Status Check(std::uint64_t flags, std::string_view manifest_name, std::string_view action) {
  const std::uint64_t unknown = flags & ~kKnownFlags;
  if (unknown == 0) return Status();
  return Status::NotImplemented(
      "manifest '", manifest_name, "' sets ", action,
      " feature flag bits lance-nd does not support: ", BitList(unknown),
      " (supported: 1 deletion files, 4 v2 format, 8 table config, 32 no transaction file); "
      "use a newer lance-nd or the Lance engine for this table");
}

}  // namespace

Status CheckReaderFeatureFlags(std::uint64_t flags, std::string_view manifest_name) {
  return Check(flags, manifest_name, "reader");
}

Status CheckWriterFeatureFlags(std::uint64_t flags, std::string_view manifest_name) {
  return Check(flags, manifest_name, "writer");
}

}  // namespace lance_nd::table
