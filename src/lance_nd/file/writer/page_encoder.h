// One shredded page -> page buffers + PageLayout (mini-block, full-zip or constant).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "lance_nd/array/buffer.h"
#include "lance_nd/array/type.h"
#include "lance_nd/core/result.h"
#include "lance_nd/file/encoding/compressive.h"
#include "lance_nd/file/writer/shred.h"

namespace lance_nd::file::internal::writer {

/// \brief Per-column choices, read from the leaf field's lance-encoding:* metadata.
struct ColumnOptions {
  enum class Structural : std::uint8_t { kAuto, kMiniBlock, kFullZip };
  enum class Compression : std::uint8_t { kDefault, kNone, kLz4, kZstd };
  FileVersion version = FileVersion::kV2_2;
  Structural structural = Structural::kAuto;
  Compression compression = Compression::kDefault;
  std::optional<std::int32_t> compression_level;
  const array::Metadata* field_metadata = nullptr;  // the leaf field's metadata (may be null)
  /// What the compressive encoders need (lance-encoding:* keys, version).
  encoding::EncodingRequest request;
  /// Use only flat / variable / fixed_size_list encodings (no heuristics); for tests.
  bool plain_encodings = false;

  static Result<ColumnOptions> FromField(const array::Field& field, FileVersion version);
};

/// \brief A page ready to be written: buffers in order and the serialized PageLayout.
struct EncodedPage {
  std::vector<array::BufferPtr> buffers;
  std::string layout;  // serialized lance.encodings21.PageLayout
  std::uint64_t num_rows = 0;
};

/// \brief Values at or above this size (bytes) go to full-zip (docs/lance-file-format.md §3.2).
inline constexpr std::uint64_t kMiniBlockMaxValueBytes = 256;

Result<EncodedPage> EncodePage(const ShreddedPage& page, const ColumnOptions& options);

}  // namespace lance_nd::file::internal::writer
