#include "lance_nd/file/keep_rows.h"

#include <algorithm>
#include <cstdint>

namespace lance_nd::file::internal {
namespace {

// Adds position `i` to sorted ranges, extending the last one when it ends at `i`.
void Extend(RowRanges* ranges, std::uint64_t i) {
  if (!ranges->empty() && ranges->back().second == i) {
    ++ranges->back().second;
  } else {
    ranges->emplace_back(i, i + 1);
  }
}

// Appends [b, e) to sorted ranges, merging with the last one when it ends at `b`.
void ExtendBy(RowRanges* ranges, std::uint64_t b, std::uint64_t e) {
  if (b == e) return;
  if (!ranges->empty() && ranges->back().second == b) {
    ranges->back().second = e;
  } else {
    ranges->emplace_back(b, e);
  }
}

}  // namespace

RowKeeper::RowKeeper(const KeepRows& keep, bool lists, std::uint16_t row_start,
                     std::uint32_t max_visible)
    : keep_(keep), lists_(lists), row_start_(row_start), max_visible_(max_visible) {
  for (const auto& [b, e] : keep.rows) wanted_ += e - b;
  row_ = keep.first_row;
}

bool RowKeeper::Kept(std::uint64_t row) {
  while (k_ < keep_.rows.size() && keep_.rows[k_].second <= row) ++k_;
  return k_ < keep_.rows.size() && keep_.rows[k_].first <= row;
}

// The first kept row after the current one (not kept itself), or UINT64_MAX.
std::uint64_t RowKeeper::NextKept() const {
  return k_ < keep_.rows.size() ? keep_.rows[k_].first : UINT64_MAX;
}

// The value slots of the entries [i, i + kBlock): those whose def level shows a value.
std::uint16_t RowKeeper::VisibleIn(const std::uint16_t* def, std::uint64_t i) const {
  if (def == nullptr) return kBlock;
  const std::uint16_t top =
      static_cast<std::uint16_t>(std::min<std::uint32_t>(max_visible_, 0xFFFF));
  std::uint16_t v = 0;  // 16 bits and no early exit, so that the loop vectorises
  for (std::uint64_t j = i; j < i + kBlock; ++j) {
    v = static_cast<std::uint16_t>(v + (def[j] <= top));
  }
  return v;
}

// Whether the block of entries [i, i + kBlock) can be skipped: it starts no kept row and has no
// bad level. Then row_ and *vis are advanced past it. Branch-free loops (vectorised).
bool RowKeeper::SkipBlock(const std::uint16_t* rep, const std::uint16_t* def, std::uint64_t i,
                          std::uint64_t* vis) {
  // 16-bit counters and no early exit, so that the loops vectorise (kBlock < 2^16).
  const std::uint16_t start = row_start_;
  std::uint16_t starts = 0, bad = 0;
  for (std::uint64_t j = i; j < i + kBlock; ++j) {
    starts = static_cast<std::uint16_t>(starts + (rep[j] == start));
    bad = static_cast<std::uint16_t>(bad | (rep[j] > start));
  }
  if (bad != 0 || row_ + starts >= NextKept()) return false;
  const std::uint16_t v = VisibleIn(def, i);
  row_ += starts;
  *vis += v;
  return true;
}

// Whether the block [i, i + kBlock) lies wholly inside the kept row being read (no entry starts
// a row): then it is kept whole and *vis advanced past it. Branch-free loops, as SkipBlock.
bool RowKeeper::KeepBlock(const std::uint16_t* rep, const std::uint16_t* def, std::uint64_t i,
                          std::uint64_t* vis) {
  const std::uint16_t start = row_start_;
  std::uint16_t starts = 0;
  for (std::uint64_t j = i; j < i + kBlock; ++j) {
    starts = static_cast<std::uint16_t>(starts | (rep[j] >= start));
  }
  if (starts != 0) return false;
  const std::uint16_t v = VisibleIn(def, i);
  ExtendBy(&entries_, i, i + kBlock);
  ExtendBy(&values_, *vis, *vis + v);
  *vis += v;
  return true;
}

// Rows start at rep == row_start_; entries before the run's first row start belong to no row.
// Blocks of entries outside kept rows are skipped, blocks inside one kept whole; the others are
// walked entry by entry.
void RowKeeper::ListChunk(const std::uint16_t* rep, const std::uint16_t* def, std::uint64_t n,
                          std::uint64_t* visible) {
  std::uint64_t vis = 0;
  std::uint64_t i = 0;
  while (i < n) {
    if (started_ && i + kBlock <= n &&
        (kept_now_ ? KeepBlock(rep, def, i, &vis) : SkipBlock(rep, def, i, &vis))) {
      i += kBlock;
      continue;
    }
    // A block entry by entry (it holds the start of a kept row, or some of one).
    const std::uint64_t stop = std::min(n, i + kBlock);
    for (; i < stop; ++i) {
      if (rep[i] >= row_start_) {
        bad_level_ = bad_level_ || rep[i] > row_start_;
        if (started_) ++row_;
        started_ = true;
        kept_now_ = Kept(row_);
        kept_rows_ += kept_now_ ? 1 : 0;
      } else if (!started_) {
        ++before_;
      }
      const bool v = def == nullptr || def[i] <= max_visible_;
      if (kept_now_) {
        Extend(&entries_, i);
        if (v) Extend(&values_, vis);
      }
      vis += v ? 1 : 0;
    }
  }
  *visible = vis;
}

Status RowKeeper::Chunk(const std::uint16_t* rep, const std::uint16_t* def, std::uint64_t n,
                        std::uint64_t nvals) {
  entries_.clear();
  values_.clear();
  if (lists_) {
    if (rep == nullptr) return Status::Corrupt("a page with lists has no rep levels");
    std::uint64_t vis = 0;
    ListChunk(rep, def, n, &vis);
    if (bad_level_) return Status::Corrupt("a rep level exceeds ", row_start_);
    if (vis != nvals) {
      return Status::Corrupt("a chunk's levels use ", vis, " value slots, the chunk holds ", nvals);
    }
    return Status::OK();
  }
  if (n != nvals) {
    return Status::Corrupt("a chunk has ", n, " level entries for ", nvals, " values");
  }
  // Entry i is row row_ + i.
  Kept(row_);
  for (std::size_t k = k_; k < keep_.rows.size() && keep_.rows[k].first < row_ + n; ++k) {
    const std::uint64_t b = std::max(keep_.rows[k].first, row_);
    const std::uint64_t e = std::min(keep_.rows[k].second, row_ + n);
    entries_.emplace_back(b - row_, e - row_);
    kept_rows_ += e - b;
  }
  values_ = entries_;
  row_ += n;
  return Status::OK();
}

Status RowKeeper::Finish() const {
  if (lists_ && keep_.lead != (before_ > 0)) {
    return Status::Corrupt("the chunks ", keep_.lead ? "do not begin" : "begin",
                           " inside a row, unlike the repetition index says");
  }
  if (lists_ && keep_.trail && kept_now_) {
    return Status::Corrupt("a kept row goes on past the chunks that should hold it");
  }
  if (kept_rows_ != wanted_) {
    return Status::Corrupt("the chunks hold ", kept_rows_, " of the ", wanted_,
                           " rows they should hold");
  }
  return Status::OK();
}

}  // namespace lance_nd::file::internal
