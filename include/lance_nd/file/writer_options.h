// Options of the Lance file writer.
#pragma once

#include <cstdint>
#include <vector>

#include "lance_nd/export.h"
#include "lance_nd/file/version.h"

namespace lance_nd::file {

struct LANCE_ND_EXPORT WriterOptions {
  /// The file format version to write: FileVersion::kV2_1 or kV2_2 (Open refuses any other).
  FileVersion version = FileVersion::kV2_2;
  /// Data buffered per leaf column before a page is written (Lance: 8 MiB). A page holds whole
  /// top-level rows: a large Write() is cut into row slices of about this size per leaf column
  /// (from the average row size), and a single row larger than this gets a page of its own.
  std::uint64_t page_bytes = std::uint64_t{8} << 20;
  /// Lance field ids in schema pre-order (fixed-size lists count once, their item has no id),
  /// e.g. the ids of a table's manifest. Empty: 0, 1, 2, ...
  std::vector<std::int32_t> field_ids;
  /// Pages encoded at once on background threads while the caller's thread cuts the next page
  /// and writes finished ones, in order (the file's bytes do not depend on it). 0 encodes each
  /// page on the calling thread before Write() returns. With background pages, an encoding
  /// error is returned by the next Write() or by Finish(), naming the column and rows.
  std::uint32_t pages_in_flight = 8;
};

}  // namespace lance_nd::file
