// Deletion vectors of fragments and the deletion files that store them (_deletions/): an Arrow
// IPC file of UInt32 row offsets (`.arrow`) or a portable 32-bit Roaring bitmap (`.bin`).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "lance_nd/core/result.h"
#include "lance_nd/export.h"
#include "lance_nd/io/file_system.h"
#include "lance_nd/table/location.h"
#include "lance_nd/table/manifest.h"

namespace lance_nd::table {

/// \brief The deleted physical row offsets of one fragment: sorted, unique uint32 values.
class LANCE_ND_EXPORT DeletionVector {
 public:
  DeletionVector() = default;
  /// \brief From offsets in any order; duplicates collapse.
  explicit DeletionVector(std::vector<std::uint32_t> offsets);

  bool Contains(std::uint32_t offset) const;
  std::size_t size() const { return offsets_.size(); }
  bool empty() const { return offsets_.empty(); }
  /// \brief Add one offset (no-op when present). Returns true when it was new.
  bool Insert(std::uint32_t offset);
  /// \brief Add many offsets (any order, duplicates allowed).
  void InsertMany(std::span<const std::uint32_t> offsets);
  /// \brief This vector plus every offset of `other`.
  void Union(const DeletionVector& other);
  /// \brief Deleted offsets strictly below `offset`.
  std::size_t CountBelow(std::uint32_t offset) const;

  std::vector<std::uint32_t>::const_iterator begin() const { return offsets_.begin(); }
  std::vector<std::uint32_t>::const_iterator end() const { return offsets_.end(); }
  const std::vector<std::uint32_t>& offsets() const { return offsets_; }
  bool operator==(const DeletionVector&) const = default;

 private:
  std::vector<std::uint32_t> offsets_;
};

/// \brief Above this many deleted rows Lance 12 stores a fragment's deletions as a Roaring
/// bitmap (`.bin`); at or below it, as an Arrow file (`.arrow`).
inline constexpr std::size_t kDeletionArrowMaxRows = 5000;

/// \brief Parse the bytes of a deletion file of type `type`. `name` is used in messages.
/// `physical_rows` bounds the offsets; `expected_count` (0 = unknown, as written by old Lance
/// versions) must equal the number of deleted rows. Every error is Corrupt naming the file, what
/// was found and what was expected.
LANCE_ND_EXPORT Result<DeletionVector> ParseDeletionFile(std::span<const std::uint8_t> bytes,
                                                         DeletionFileType type,
                                                         std::uint64_t physical_rows,
                                                         std::uint64_t expected_count,
                                                         const std::string& name);

/// \brief Read the table's `_deletions/{fragment_id}-{read_version}-{id}.{arrow|bin}` and
/// validate it against `file.num_deleted_rows` and, when non-zero, `physical_rows`.
/// A missing file is NotFound naming it (the table may be damaged).
LANCE_ND_EXPORT Result<DeletionVector> ReadDeletionFile(const TableLocation& location,
                                                        std::uint64_t fragment_id,
                                                        const DeletionFile& file,
                                                        std::uint64_t physical_rows = 0);

/// \brief The form Lance 12 picks for `num_rows` deleted rows (kDeletionArrowMaxRows).
LANCE_ND_EXPORT DeletionFileType PreferredDeletionFileType(std::size_t num_rows);

/// \brief Serialise `rows` in form `type`: an Arrow IPC file (one non-null UInt32 column
/// `row_id`, ZSTD body, sorted offsets) or a portable Roaring bitmap (cookie 12346).
LANCE_ND_EXPORT Result<std::vector<std::uint8_t>> SerializeDeletionVector(
    const DeletionVector& rows, DeletionFileType type);

/// \brief Write _deletions/{fragment_id}-{read_version}-{random id}.{arrow|bin} in the form Lance
/// would pick (PreferredDeletionFileType); returns the DeletionFile to put in the fragment
/// (num_deleted_rows set). An empty vector is InvalidArgument (drop the deletion file instead;
/// a fragment with every row deleted should be removed from the manifest).
LANCE_ND_EXPORT Result<DeletionFile> WriteDeletionFile(const TableLocation& location,
                                                       std::uint64_t fragment_id,
                                                       std::uint64_t read_version,
                                                       const DeletionVector& rows);

/// \brief Same, with an explicit form (tests; rebased merges, which Lance writes as bitmaps).
LANCE_ND_EXPORT Result<DeletionFile> WriteDeletionFile(const TableLocation& location,
                                                       std::uint64_t fragment_id,
                                                       std::uint64_t read_version,
                                                       const DeletionVector& rows,
                                                       DeletionFileType type);

/// \brief The deletion vector of `fragment` (empty when it has no deletion file).
LANCE_ND_EXPORT Result<DeletionVector> ReadFragmentDeletions(const TableLocation& location,
                                                             const Fragment& fragment);

}  // namespace lance_nd::table
