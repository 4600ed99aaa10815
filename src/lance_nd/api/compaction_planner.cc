#include "lance_nd/api/compaction_planner.h"

#include <algorithm>
#include <cmath>

namespace lance_nd::api_internal {
namespace {

bool NeedsWork(const FragmentFootprint& f, const CompactOptions& o) {
  const double target = static_cast<double>(o.target_fragment_bytes);
  const auto bytes = static_cast<double>(f.bytes);
  const bool deleted = f.physical_rows > 0 && o.deleted_fraction <= 1.0 &&
                       static_cast<double>(f.physical_rows - f.live_rows) >=
                           o.deleted_fraction * static_cast<double>(f.physical_rows) &&
                       f.physical_rows != f.live_rows;
  return bytes < target / 2 || bytes > 2 * target || deleted;
}

double RowBytes(const FragmentFootprint& f) {
  return f.physical_rows == 0 ? 0.0
                              : static_cast<double>(f.bytes) / static_cast<double>(f.physical_rows);
}

/// The live-row counts of the parts a run is cut into.
std::vector<std::uint64_t> CutRun(const std::vector<FragmentFootprint>& run, double target) {
  double total = 0;
  for (const FragmentFootprint& f : run) total += RowBytes(f) * static_cast<double>(f.live_rows);
  const double parts = std::max(1.0, std::round(total / target));
  const double part_bytes = total / parts;
  // A row goes to the part its middle falls in; parts stay in order and never split a row.
  std::vector<std::uint64_t> counts;
  std::int64_t current = -1;
  double before = 0;
  for (const FragmentFootprint& f : run) {
    const double row = RowBytes(f);
    for (std::uint64_t r = 0; r < f.live_rows; ++r) {
      const double middle = before + row / 2;
      const auto part = static_cast<std::int64_t>(
          std::min(parts - 1, part_bytes > 0 ? std::floor(middle / part_bytes) : 0.0));
      if (part != current || counts.empty()) {
        counts.push_back(0);
        current = part;
      }
      ++counts.back();
      before += row;
    }
  }
  return counts;
}

/// True when rewriting `run` into `counts` would give back the same fragments.
bool ChangesNothing(const std::vector<FragmentFootprint>& run,
                    const std::vector<std::uint64_t>& counts) {
  if (counts.size() != run.size()) return false;
  for (std::size_t i = 0; i < run.size(); ++i) {
    if (run[i].live_rows != run[i].physical_rows || counts[i] != run[i].live_rows) return false;
  }
  return true;
}

}  // namespace

std::vector<table::RewriteGroupPlan> PlanCompaction(const std::vector<FragmentFootprint>& fragments,
                                                    const CompactOptions& options) {
  std::vector<table::RewriteGroupPlan> out;
  const auto target =
      static_cast<double>(std::max<std::uint64_t>(1, options.target_fragment_bytes));
  std::size_t i = 0;
  while (i < fragments.size()) {
    if (!NeedsWork(fragments[i], options)) {
      ++i;
      continue;
    }
    std::vector<FragmentFootprint> run;
    while (i < fragments.size() && NeedsWork(fragments[i], options)) run.push_back(fragments[i++]);
    std::vector<std::uint64_t> counts = CutRun(run, target);
    if (ChangesNothing(run, counts)) continue;
    table::RewriteGroupPlan group;
    for (const FragmentFootprint& f : run) group.fragment_ids.push_back(f.id);
    group.rows_per_fragment = std::move(counts);
    out.push_back(std::move(group));
  }
  return out;
}

}  // namespace lance_nd::api_internal
