// FSST string compression with Lance's 2312-byte symbol-table format
// (docs/lance-file-format.md §4.9).
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "lance_nd/array/buffer.h"
#include "lance_nd/core/result.h"
#include "lance_nd/file/encoding/compressive.h"

namespace lance_nd::file::internal::encoding {

inline constexpr std::size_t kFsstTableSize = 8 + 256 * 8 + 256;  // 2312
inline constexpr std::uint8_t kFsstEscape = 255;

struct FsstTable {
  bool enabled = false;  // header bit 24: strings are compressed (else stored raw)
  std::uint32_t num_symbols = 0;
  std::array<std::uint64_t, 255> symbols{};  // symbol bytes, first byte in the low byte
  std::array<std::uint8_t, 255> lengths{};   // 1..8
};

/// \brief Parse and validate a serialized symbol table.
Result<FsstTable> ParseFsstTable(std::span<const std::uint8_t> bytes);

/// \brief Serialize (kFsstTableSize bytes).
array::BufferPtr SerializeFsstTable(const FsstTable& table);

/// \brief Expand every value of a kVariable block; the result has the same offset width.
Result<DataBlock> FsstDecompress(const FsstTable& table, const DataBlock& compressed);

/// \brief Train a symbol table on `values` (kVariable) and compress every value with it.
/// `enabled` = false in the table (and values copied raw) when `values` has < 32 KiB of data.
struct FsstCompressed {
  FsstTable table;
  DataBlock values;  // kVariable, offsets start at 0, same offset width as the input
};
Result<FsstCompressed> FsstCompress(const DataBlock& values, bool force = false);

}  // namespace lance_nd::file::internal::encoding
