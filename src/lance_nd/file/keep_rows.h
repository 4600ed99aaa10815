// A take's sparse decoding of mini-block chunks: which level entries and value slots of each
// chunk belong to the rows the take keeps (PageInput::keep, page_decoder.h). Only those are
// kept, so dictionary gathers, FSST decompression, level normalisation and the row index cost
// what the kept rows need, not what the chunks hold.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "lance_nd/core/result.h"

namespace lance_nd::file::internal {

using RowRanges = std::vector<std::pair<std::uint64_t, std::uint64_t>>;

/// \brief The rows a take keeps of a run of consecutive mini-block chunks.
struct KeepRows {
  RowRanges rows;               // page-local [begin, end), sorted, disjoint
  std::uint64_t first_row = 0;  // page-local number of the first row that starts in the run
  bool lead = false;            // the run begins inside a row started in an earlier chunk
  bool trail = false;           // the run ends inside a row that goes on in a later chunk
};

/// \brief Walks the chunks of a run in order and finds the entries and value slots of the kept
/// rows in each. Levels are as stored: with lists, a row starts where the rep level equals
/// `row_start` (the number of list layers); without lists, each entry is a row and a value slot.
class RowKeeper {
 public:
  RowKeeper(const KeepRows& keep, bool lists, std::uint16_t row_start, std::uint32_t max_visible);

  /// \brief One chunk: `n` level entries (`rep` null without lists, `def` null without def
  /// levels) holding `nvals` value slots. Corrupt when the levels do not fit them.
  Status Chunk(const std::uint16_t* rep, const std::uint16_t* def, std::uint64_t n,
               std::uint64_t nvals);
  /// \brief The last chunk's kept entries and value slots (chunk-local, sorted).
  const RowRanges& entries() const { return entries_; }
  const RowRanges& values() const { return values_; }
  /// \brief Corrupt unless the run began and ended as `keep` says and every kept row was seen
  /// whole.
  Status Finish() const;

 private:
  void ListChunk(const std::uint16_t* rep, const std::uint16_t* def, std::uint64_t n,
                 std::uint64_t* visible);
  bool Kept(std::uint64_t row);
  std::uint64_t NextKept() const;
  bool SkipBlock(const std::uint16_t* rep, const std::uint16_t* def, std::uint64_t i,
                 std::uint64_t* vis);
  bool KeepBlock(const std::uint16_t* rep, const std::uint16_t* def, std::uint64_t i,
                 std::uint64_t* vis);
  std::uint16_t VisibleIn(const std::uint16_t* def, std::uint64_t i) const;

  static constexpr std::uint64_t kBlock = 64;

  const KeepRows& keep_;
  const bool lists_;
  const std::uint16_t row_start_;
  const std::uint32_t max_visible_;
  std::uint64_t wanted_ = 0;     // rows in keep_.rows
  std::uint64_t row_ = 0;        // page-local row of the current entry
  bool started_ = false;         // an entry started a row (lists)
  bool kept_now_ = false;        // the current row is kept
  bool bad_level_ = false;       // a rep level above row_start_
  std::uint64_t before_ = 0;     // entries before the first row start
  std::uint64_t kept_rows_ = 0;  // kept rows started
  std::size_t k_ = 0;            // the first range of keep_.rows not wholly before row_
  RowRanges entries_, values_;
};

}  // namespace lance_nd::file::internal
