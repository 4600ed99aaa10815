// Writing stable row ids (reader flag 2, lance-table-format.md §9): RowIdSequence segments as
// plain value lists, encoded in the form Lance 12 picks for them, the segment-level operations
// its writers use (mask deleted rows, re-chunk into new fragments), and the per-row dataset
// version sequences (created_at / last_updated_at) Lance 12 writes next to the row ids.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "lance_nd/core/result.h"
#include "lance_nd/io/file_system.h"
#include "lance_nd/table/location.h"
#include "lance_nd/table/manifest.h"

namespace lance_nd::table::internal {

/// \brief The values of one U64Segment, in order. The encoding is chosen when it is written.
using SegmentValues = std::vector<std::uint64_t>;
/// \brief A RowIdSequence as its segments (segment boundaries matter to Lance's re-chunking).
using SegmentList = std::vector<SegmentValues>;

/// \brief Decode a serialised RowIdSequence into its segments, validated like
/// DecodeRowIdSequence (Corrupt naming the fragment; exactly `physical_rows` values in all).
Result<SegmentList> DecodeRowIdSegments(std::string_view bytes, std::uint64_t fragment_id,
                                        std::uint64_t physical_rows);

/// \brief Serialise segments as a RowIdSequence, each segment in the form Lance 12 chooses for
/// its values: Range when sorted and contiguous; otherwise the smallest of RangeWithHoles
/// (24 + 4 * holes bytes), RangeWithBitmap (24 + ceil(span / 8)) and SortedArray (24 + 2 * n),
/// ties in that order; Array when unsorted. Arrays use u16 / u32 offsets from the minimum when
/// the spread fits, else raw u64.
std::string EncodeRowIdSegments(const SegmentList& segments);

/// \brief The RowIdSequence of one Range segment [start, end) (what an append writes).
std::string EncodeRowIdRange(std::uint64_t start, std::uint64_t end);

/// \brief Remove the rows at the given physical positions (ascending; duplicates and positions
/// past the end are ignored) from a segment list; segments left empty are dropped.
void MaskSegments(SegmentList* segments, std::span<const std::uint64_t> positions);

/// \brief Lance's rechunk_sequences: cut the concatenated segments into `chunk_sizes` pieces,
/// slicing segments where a chunk ends; a chunk's adjacent contiguous pieces merge into one
/// Range (RowIdSequence::extend). InvalidArgument when the sizes do not sum to the values held.
Result<std::vector<SegmentList>> RechunkSegments(const SegmentList& segments,
                                                 std::span<const std::uint64_t> chunk_sizes);

/// \brief One run of a RowDatasetVersionSequence: the row offsets it spans (a segment) and the
/// dataset version they carry.
struct VersionRun {
  SegmentValues span;
  std::uint64_t version = 0;
  bool operator==(const VersionRun&) const = default;
};
using VersionRuns = std::vector<VersionRun>;

/// \brief Decode a serialised RowDatasetVersionSequence (Corrupt naming the fragment, also when
/// the runs span more than `max_rows` rows).
Result<VersionRuns> DecodeVersionRuns(std::string_view bytes, std::uint64_t fragment_id,
                                      std::uint64_t max_rows);
std::string EncodeVersionRuns(const VersionRuns& runs);
/// \brief One run over offsets [0, rows) at `version` (no runs for 0 rows), as Lance writes
/// for new fragments.
VersionRuns UniformVersionRuns(std::uint64_t rows, std::uint64_t version);
/// \brief EncodeVersionRuns(UniformVersionRuns(rows, version)) without listing the offsets.
std::string EncodeUniformVersionRuns(std::uint64_t rows, std::uint64_t version);
/// \brief Like MaskSegments, over the runs' spans (positions count rows across runs).
void MaskVersionRuns(VersionRuns* runs, std::span<const std::uint64_t> positions);
/// \brief Lance's rechunk_version_sequences (pieces are not merged).
Result<std::vector<VersionRuns>> RechunkVersionRuns(const VersionRuns& runs,
                                                    std::span<const std::uint64_t> chunk_sizes);

/// \brief The stored row-id members of a fragment (DataFragment fields 5-10), decoded.
struct FragmentRowIdMeta {
  bool has_row_ids = false;
  SegmentList row_ids;
  bool has_created_at = false;
  VersionRuns created_at;
  bool has_last_updated_at = false;
  VersionRuns last_updated_at;
};

/// \brief Read a fragment's row ids (inline or an external file under `table_path`) and its
/// inline version sequences (external ones are NotImplemented, as Lance 12 cannot read them
/// either).
Result<FragmentRowIdMeta> ReadFragmentRowIdMeta(const TableLocation& location,
                                                const Fragment& fragment);

/// \brief Set a fragment's inline row ids (a serialised RowIdSequence) and version sequences
/// (serialised RowDatasetVersionSequences; null = member left unset), replacing what it stored;
/// `has_row_ids` becomes true.
Status SetFragmentRowIdMeta(Fragment* fragment, const std::string& row_ids,
                            const std::string* created_at, const std::string* last_updated_at);

}  // namespace lance_nd::table::internal
