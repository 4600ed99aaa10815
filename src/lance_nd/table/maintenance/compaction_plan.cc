#include "lance_nd/table/maintenance/compaction_plan.h"

#include <cstdint>
#include <numeric>

namespace lance_nd::table::internal {
namespace {

enum class Candidacy { kWithNeighbors, kItself };

struct Bin {
  std::vector<Fragment> fragments;
  std::vector<Candidacy> candidacy;
  std::vector<std::uint64_t> live_rows;
};

bool IsNoop(const Bin& bin) {
  return bin.fragments.empty() ||
         (bin.fragments.size() == 1 && bin.candidacy[0] == Candidacy::kWithNeighbors);
}

// Split a run into bins of at least `min_rows` live rows; the remainder joins the last bin.
void SplitForSize(Bin bin, std::uint64_t min_rows, std::vector<std::vector<Fragment>>* out) {
  std::size_t start = 0;
  const std::size_t n = bin.fragments.size();
  while (true) {
    std::size_t len = 0;
    std::uint64_t rows = 0;
    while (rows < min_rows && start + len < n) rows += bin.live_rows[start + len++];
    const std::uint64_t rest =
        std::accumulate(bin.live_rows.begin() + static_cast<std::ptrdiff_t>(start + len),
                        bin.live_rows.end(), std::uint64_t{0});
    if (rest >= min_rows && start + len < n) {
      out->emplace_back(bin.fragments.begin() + static_cast<std::ptrdiff_t>(start),
                        bin.fragments.begin() + static_cast<std::ptrdiff_t>(start + len));
      start += len;
    } else {
      out->emplace_back(bin.fragments.begin() + static_cast<std::ptrdiff_t>(start),
                        bin.fragments.end());
      return;
    }
  }
}

}  // namespace

std::vector<std::vector<Fragment>> PlanCompaction(const std::vector<Fragment>& fragments,
                                                  const CompactionOptions& options) {
  const bool materialize =
      options.materialize_deletions && options.materialize_deletions_threshold < 1.0;
  const std::uint64_t target = options.target_rows_per_fragment > 0
                                   ? static_cast<std::uint64_t>(options.target_rows_per_fragment)
                                   : 0;
  std::vector<Bin> runs;
  Bin current;
  for (const Fragment& f : fragments) {
    const std::uint64_t deleted = f.deletion_file ? f.deletion_file->num_deleted_rows : 0;
    const double fraction =
        f.physical_rows > 0 ? static_cast<double>(deleted) / static_cast<double>(f.physical_rows)
                            : 0.0;
    std::optional<Candidacy> candidacy;
    if (materialize && fraction > options.materialize_deletions_threshold) {
      candidacy = Candidacy::kItself;
    } else if (f.physical_rows < target) {
      candidacy = Candidacy::kWithNeighbors;
    }
    if (candidacy) {
      current.fragments.push_back(f);
      current.candidacy.push_back(*candidacy);
      current.live_rows.push_back(f.num_rows());
    } else if (!current.fragments.empty()) {
      runs.push_back(std::move(current));
      current = Bin{};
    }
  }
  if (!current.fragments.empty()) runs.push_back(std::move(current));
  std::vector<std::vector<Fragment>> out;
  for (Bin& run : runs) {
    if (!IsNoop(run)) SplitForSize(std::move(run), target, &out);
  }
  return out;
}

}  // namespace lance_nd::table::internal
