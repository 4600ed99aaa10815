// The progress bar: what is drawn (a line within the width, a bar of the done fraction, an ETA
// from the rate), when (not before the delay, not more often than the interval, never when
// disabled) and that Finish clears it.
#include "progress.h"

#include <gtest/gtest.h>

#include <random>
#include <sstream>

#include "term_text.h"

namespace lance_nd::cli {
namespace {

std::size_t Count(const std::string& text, const std::string& piece) {
  std::size_t n = 0;
  for (std::size_t at = text.find(piece); at != std::string::npos; at = text.find(piece, at + 1)) {
    ++n;
  }
  return n;
}

TEST(ProgressTest, LinesFitTheWidthAndTheBarFollowsTheFraction) {
  std::mt19937_64 rng(21);
  for (int round = 0; round < 1000; ++round) {
    const std::uint64_t total = 1 + rng() % 100000;
    const std::uint64_t done = rng() % (total + 1);
    const std::size_t width = 20 + rng() % 120;
    const double elapsed = 0.1 + static_cast<double>(rng() % 1000) / 10;
    const std::string line =
        RenderProgressLine("append", done, total, Progress::Unit::kRows, elapsed, width);
    EXPECT_LE(DisplayWidth(line), width) << line;
    const std::size_t full = Count(line, "█"), empty = Count(line, "░");
    if (full + empty == 0) continue;  // no room for a bar
    const double fraction = static_cast<double>(done) / static_cast<double>(total);
    EXPECT_EQ(full, static_cast<std::size_t>(fraction * static_cast<double>(full + empty)));
    if (width >= 100) {
      EXPECT_NE(line.find(GroupDigits(done) + "/" + GroupDigits(total) + " rows"),
                std::string::npos)
          << line;
      EXPECT_NE(line.find(done == total ? "done"
                          : done == 0   ? "rows/s"
                                        : "ETA"),
                std::string::npos)
          << line;
    }
  }
}

TEST(ProgressTest, CountsShowTheirUnitAndAnUnknownTotalHasNoBar) {
  const std::string line = RenderProgressLine("cat", 1234567, 0, Progress::Unit::kRows, 2.0, 100);
  EXPECT_NE(line.find("1,234,567 rows"), std::string::npos) << line;
  EXPECT_EQ(line.find("█"), std::string::npos);
  EXPECT_EQ(line.find("ETA"), std::string::npos);
  const std::string bytes =
      RenderProgressLine("append", 3 << 20, 12 << 20, Progress::Unit::kBytes, 1.0, 100);
  EXPECT_NE(bytes.find("3.0 MiB/12.0 MiB"), std::string::npos) << bytes;
  EXPECT_NE(bytes.find("3.0 MiB/s"), std::string::npos) << bytes;
  EXPECT_NE(bytes.find("ETA 3.0s"), std::string::npos) << bytes;
  const std::string chunks =
      RenderProgressLine("import", 30, 120, Progress::Unit::kChunks, 10.0, 100);
  EXPECT_NE(chunks.find("30/120 chunks  3.0 chunks/s  ETA 30s"), std::string::npos) << chunks;
}

struct FakeClock {
  Progress::Clock::time_point now{};
  void Advance(int ms) { now += std::chrono::milliseconds(ms); }
};

Progress::Options Options(std::ostringstream& out, FakeClock& clock, bool enabled) {
  Progress::Options o;
  o.out = &out;
  o.enabled = enabled;
  o.width = 80;
  o.now = [&clock] { return clock.now; };
  o.delay = std::chrono::milliseconds(300);
  o.interval = std::chrono::milliseconds(100);
  return o;
}

TEST(ProgressTest, RedrawsWaitForTheDelayAndAreThrottled) {
  std::mt19937_64 rng(22);
  for (int round = 0; round < 50; ++round) {
    std::ostringstream out;
    FakeClock clock;
    Progress progress("compact", 1000, Progress::Unit::kRows, Options(out, clock, true));
    int draws = 0, elapsed = 0, last_draw = -1000;
    for (int step = 0; step < 200; ++step) {
      const int ms = static_cast<int>(rng() % 40);
      clock.Advance(ms);
      elapsed += ms;
      progress.Advance(5);
      // The expected schedule: after the delay, then once the interval has passed.
      if (elapsed >= 300 && (draws == 0 || elapsed - last_draw >= 100)) {
        ++draws;
        last_draw = elapsed;
      }
    }
    EXPECT_EQ(Count(out.str(), "\r"), static_cast<std::size_t>(draws));
    progress.Finish();
    const std::string text = out.str();
    if (draws > 0) {
      EXPECT_EQ(text.substr(text.size() - 4), "\r\033[K");
    }
    progress.Advance(1);  // after Finish: nothing more
    EXPECT_EQ(out.str(), text);
  }
}

TEST(ProgressTest, DisabledOrQuickWorkDrawsNothing) {
  std::ostringstream out;
  FakeClock clock;
  {
    Progress off("cat", 10, Progress::Unit::kRows, Options(out, clock, false));
    for (int i = 0; i < 10; ++i) {
      clock.Advance(500);
      off.Advance();
    }
    Progress quick("cat", 10, Progress::Unit::kRows, Options(out, clock, true));
    quick.Advance(10);
  }
  EXPECT_EQ(out.str(), "");
}

TEST(ProgressTest, ClearingTheLineLetsAnErrorStartClean) {
  std::ostringstream out;
  FakeClock clock;
  Progress progress("append", 10, Progress::Unit::kRows, Options(out, clock, true));
  clock.Advance(400);
  progress.Advance();
  ASSERT_EQ(Count(out.str(), "\r"), 1u);
  ClearProgressLine();
  EXPECT_EQ(out.str().substr(out.str().size() - 4), "\r\033[K");
  progress.Finish();  // nothing drawn since: nothing more to clear
  EXPECT_EQ(Count(out.str(), "\r"), 2u);
}

}  // namespace
}  // namespace lance_nd::cli
