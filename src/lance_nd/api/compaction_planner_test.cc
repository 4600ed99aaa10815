// The size-based compaction planner on generated fragment lists: which fragments are grouped,
// how a run is cut, and the properties every plan has.
#include "lance_nd/api/compaction_planner.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numeric>
#include <random>

namespace lance_nd::api_internal {
namespace {

using Footprints = std::vector<FragmentFootprint>;

FragmentFootprint Frag(std::uint64_t id, std::uint64_t bytes, std::uint64_t rows,
                       std::uint64_t deleted = 0) {
  return {id, bytes, rows, rows - deleted};
}

CompactOptions Target(std::uint64_t bytes, double deleted_fraction = 0.1) {
  CompactOptions o;
  o.target_fragment_bytes = bytes;
  o.deleted_fraction = deleted_fraction;
  return o;
}

TEST(CompactionPlannerTest, SmallNeighboursAreMergedIntoOneFragment) {
  const auto plan =
      PlanCompaction({Frag(0, 10, 10), Frag(1, 10, 10), Frag(2, 10, 10)}, Target(100));
  ASSERT_EQ(plan.size(), 1u);
  EXPECT_EQ(plan[0].fragment_ids, (std::vector<std::uint64_t>{0, 1, 2}));
  EXPECT_EQ(plan[0].rows_per_fragment, (std::vector<std::uint64_t>{30}));
}

TEST(CompactionPlannerTest, AFragmentOfTheRightSizeSeparatesRuns) {
  const auto plan = PlanCompaction(
      {Frag(0, 10, 1), Frag(1, 10, 1), Frag(2, 100, 10), Frag(3, 10, 1), Frag(4, 10, 1)},
      Target(100));
  ASSERT_EQ(plan.size(), 2u);
  EXPECT_EQ(plan[0].fragment_ids, (std::vector<std::uint64_t>{0, 1}));
  EXPECT_EQ(plan[1].fragment_ids, (std::vector<std::uint64_t>{3, 4}));
}

TEST(CompactionPlannerTest, ALoneSmallFragmentIsLeftAlone) {
  EXPECT_TRUE(PlanCompaction({Frag(0, 10, 10), Frag(1, 100, 10)}, Target(100)).empty());
  EXPECT_TRUE(PlanCompaction({Frag(0, 10, 10)}, Target(100)).empty());
  EXPECT_TRUE(PlanCompaction({}, Target(100)).empty());
}

TEST(CompactionPlannerTest, ALargeFragmentIsSplitIntoEqualParts) {
  const auto plan = PlanCompaction({Frag(7, 400, 40)}, Target(100));
  ASSERT_EQ(plan.size(), 1u);
  EXPECT_EQ(plan[0].fragment_ids, (std::vector<std::uint64_t>{7}));
  EXPECT_EQ(plan[0].rows_per_fragment, (std::vector<std::uint64_t>{10, 10, 10, 10}));
}

TEST(CompactionPlannerTest, ARowIsNeverSplit) {
  // One row of four targets: nothing can be done.
  EXPECT_TRUE(PlanCompaction({Frag(0, 400, 1)}, Target(100)).empty());
  // Between small rows, a huge row makes a fragment of its own.
  const auto plan = PlanCompaction(
      {Frag(0, 3, 3), Frag(1, 3, 3), Frag(2, 1000, 1), Frag(3, 3, 3), Frag(4, 3, 3)}, Target(10));
  ASSERT_EQ(plan.size(), 1u);
  EXPECT_EQ(plan[0].rows_per_fragment, (std::vector<std::uint64_t>{6, 1, 6}));
  // When the cut would give back the same fragments, there is nothing to do.
  EXPECT_TRUE(PlanCompaction({Frag(0, 3, 3), Frag(1, 1000, 1), Frag(2, 3, 3)}, Target(10)).empty());
}

TEST(CompactionPlannerTest, DeletedRowsAtTheThresholdAreRewrittenAlone) {
  const auto plan = PlanCompaction({Frag(0, 100, 10, 1), Frag(1, 100, 10)}, Target(100, 0.1));
  ASSERT_EQ(plan.size(), 1u);
  EXPECT_EQ(plan[0].fragment_ids, (std::vector<std::uint64_t>{0}));
  EXPECT_EQ(plan[0].rows_per_fragment, (std::vector<std::uint64_t>{9}));
  // Below the threshold, or with the rule disabled (> 1): no work.
  EXPECT_TRUE(PlanCompaction({Frag(0, 100, 10, 1)}, Target(100, 0.2)).empty());
  EXPECT_TRUE(PlanCompaction({Frag(0, 100, 10, 9)}, Target(100, 1.5)).empty());
}

TEST(CompactionPlannerTest, GeneratedFragmentListsGivePlansWithTheStatedProperties) {
  std::mt19937_64 rng(42);
  for (int trial = 0; trial < 2000; ++trial) {
    SCOPED_TRACE("trial " + std::to_string(trial));
    const std::uint64_t target = 1 + rng() % 1000;
    const double fraction = static_cast<double>(rng() % 12) / 10;
    Footprints frags;
    const int n = static_cast<int>(rng() % 8);
    for (int i = 0; i < n; ++i) {
      const std::uint64_t rows = 1 + rng() % 50;
      const std::uint64_t deleted = rng() % 3 == 0 ? rng() % (rows + 1) : 0;
      const std::uint64_t bytes = rows * (1 + rng() % (3 * target / rows + 2));
      frags.push_back(Frag(static_cast<std::uint64_t>(10 + 2 * i), bytes, rows, deleted));
    }
    const CompactOptions options = Target(target, fraction);
    const auto plan = PlanCompaction(frags, options);
    std::size_t next = 0;  // groups come in table order and do not overlap
    for (const auto& group : plan) {
      ASSERT_FALSE(group.fragment_ids.empty());
      std::size_t first = 0;
      while (frags[first].id != group.fragment_ids[0]) ++first;
      ASSERT_GE(first, next);
      std::uint64_t live = 0;
      double bytes = 0;
      bool has_deleted = false;
      for (std::size_t k = 0; k < group.fragment_ids.size(); ++k) {
        const FragmentFootprint& f = frags[first + k];
        ASSERT_EQ(f.id, group.fragment_ids[k]) << "a group is a run of neighbours";
        const bool small = static_cast<double>(f.bytes) < static_cast<double>(target) / 2;
        const bool large = static_cast<double>(f.bytes) > 2.0 * static_cast<double>(target);
        const bool deleted = f.live_rows < f.physical_rows && fraction <= 1 &&
                             static_cast<double>(f.physical_rows - f.live_rows) >=
                                 fraction * static_cast<double>(f.physical_rows);
        EXPECT_TRUE(small || large || deleted) << "fragment " << f.id << " needs no work";
        has_deleted = has_deleted || f.live_rows < f.physical_rows;
        live += f.live_rows;
        bytes += static_cast<double>(f.bytes) / static_cast<double>(f.physical_rows) *
                 static_cast<double>(f.live_rows);
      }
      next = first + group.fragment_ids.size();
      EXPECT_EQ(std::accumulate(group.rows_per_fragment.begin(), group.rows_per_fragment.end(),
                                std::uint64_t{0}),
                live);
      for (std::uint64_t c : group.rows_per_fragment) EXPECT_GT(c, 0u);
      EXPECT_LE(
          group.rows_per_fragment.size(),
          static_cast<std::size_t>(std::max(1.0, std::round(bytes / static_cast<double>(target)))));
      std::vector<std::uint64_t> same;
      for (std::size_t k = 0; k < group.fragment_ids.size(); ++k) {
        same.push_back(frags[first + k].live_rows);
      }
      EXPECT_TRUE(has_deleted || group.rows_per_fragment != same) << "a plan that changes nothing";
    }
  }
}

}  // namespace
}  // namespace lance_nd::api_internal
