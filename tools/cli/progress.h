// A progress bar on stderr for long commands: done/total, rate and time left, redrawn at most
// a few times a second, shown only when stderr is a terminal (quiet when piped) and only once
// the work has taken a moment. Use:
//
//   Progress progress("append", file_bytes, Progress::Unit::kBytes);
//   ... progress.Advance(n); ...
//   progress.Finish();  // clears the bar (the destructor does too)
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <ostream>
#include <string>

namespace lance_nd::cli {

class Progress {
 public:
  /// What is counted: rows, chunks (counts with their noun) or bytes (human sizes).
  enum class Unit { kRows, kChunks, kBytes };
  using Clock = std::chrono::steady_clock;

  /// \brief Where and how to draw; the defaults draw on std::cerr when it is a terminal.
  struct Options {
    std::ostream* out = nullptr;  // null: std::cerr
    /// Null: stderr is a terminal. A command sets false where the bar would mix with output.
    std::optional<bool> enabled;
    int width = 0;                           // 0: the terminal's width
    std::function<Clock::time_point()> now;  // null: Clock::now
    /// Nothing is drawn before; null: LANCE_ND_PROGRESS_DELAY_MS, or 300 ms.
    std::optional<Clock::duration> delay;
    Clock::duration interval = std::chrono::milliseconds(100);  // between redraws
  };

  /// \brief `total` 0 when unknown: then a count and a rate are drawn, without a bar or ETA.
  Progress(std::string label, std::uint64_t total, Unit unit = Unit::kRows);
  Progress(std::string label, std::uint64_t total, Unit unit, Options options);
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;
  ~Progress();

  void Advance(std::uint64_t n = 1) { Set(done_ + n); }
  void Set(std::uint64_t done);
  void SetTotal(std::uint64_t total) { total_ = total; }
  /// \brief Clear the bar's line (when one was drawn); later calls draw nothing.
  void Finish();

  bool enabled() const { return enabled_; }
  std::uint64_t done() const { return done_; }
  Unit unit() const { return unit_; }

 private:
  void Draw(Clock::time_point now);
  friend void ClearProgressLine();

  std::string label_;
  std::uint64_t total_;
  Unit unit_;
  Options options_;
  bool enabled_;
  bool drawn_ = false;
  bool finished_ = false;
  std::uint64_t done_ = 0;
  Clock::time_point start_;
  Clock::time_point last_draw_;
};

/// \brief Clear the line of the bar being drawn, if any, so that a message printed next
/// (an error) starts on a clean line. The bar is drawn again on its next redraw.
void ClearProgressLine();

/// \brief One line of a bar: "LABEL [█████░░░░░] 45/120 rows  12.3 rows/s  ETA 6s", at most
/// `width` columns. `total` 0: "LABEL 1,234 rows  420 rows/s  3.0s".
std::string RenderProgressLine(std::string_view label, std::uint64_t done, std::uint64_t total,
                               Progress::Unit unit, double elapsed_seconds, std::size_t width);

}  // namespace lance_nd::cli
