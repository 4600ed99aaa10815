#include "progress.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>

#include "term.h"
#include "term_text.h"

namespace lance_nd::cli {
namespace {

std::string Noun(Progress::Unit unit) {
  return unit == Progress::Unit::kChunks ? "chunks" : "rows";
}

std::string Amount(std::uint64_t n, Progress::Unit unit) {
  return unit == Progress::Unit::kBytes ? HumanBytes(n) : GroupDigits(n);
}

std::string Rate(double per_second, Progress::Unit unit) {
  if (unit == Progress::Unit::kBytes) {
    return HumanBytes(static_cast<std::uint64_t>(std::llround(per_second))) + "/s";
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, per_second < 99.95 ? "%.1f" : "%.0f", per_second);
  return std::string(buf) + " " + Noun(unit) + "/s";
}

std::string Bar(std::uint64_t done, std::uint64_t total, std::size_t cells) {
  const double fraction = std::min(1.0, static_cast<double>(done) / static_cast<double>(total));
  const auto full = static_cast<std::size_t>(fraction * static_cast<double>(cells));
  std::string out = "[";
  for (std::size_t i = 0; i < cells; ++i) out.append(i < full ? "█" : "░");
  return out + "]";
}

Progress::Clock::duration DefaultDelay() {
  if (const char* text = std::getenv("LANCE_ND_PROGRESS_DELAY_MS")) {
    unsigned ms = 0;
    const char* end = text + std::strlen(text);
    if (std::from_chars(text, end, ms).ec == std::errc()) return std::chrono::milliseconds(ms);
  }
  return std::chrono::milliseconds(300);
}

/// The bar whose line is on the terminal now (one at a time).
Progress* g_drawn = nullptr;

}  // namespace

void ClearProgressLine() {
  if (g_drawn == nullptr || !g_drawn->drawn_) return;
  *g_drawn->options_.out << "\r\033[K" << std::flush;
  g_drawn->drawn_ = false;
}

std::string RenderProgressLine(std::string_view label, std::uint64_t done, std::uint64_t total,
                               Progress::Unit unit, double elapsed_seconds, std::size_t width) {
  const double rate = elapsed_seconds > 0 ? static_cast<double>(done) / elapsed_seconds : 0;
  std::string counts = Amount(done, unit);
  if (total > 0) counts.append("/").append(Amount(total, unit));
  if (unit != Progress::Unit::kBytes) counts.append(" ").append(Noun(unit));
  std::string tail = counts + "  " + Rate(rate, unit);
  if (total == 0) {
    tail.append("  ").append(HumanDuration(elapsed_seconds));
  } else if (done >= total) {
    tail.append("  done");
  } else if (rate > 0) {
    tail.append("  ETA ").append(HumanDuration(static_cast<double>(total - done) / rate));
  }
  std::string line(label);
  if (total > 0) {
    // The bar takes what the text leaves, between 10 and 30 cells.
    const std::size_t text = DisplayWidth(label) + DisplayWidth(tail) + 4;
    const std::size_t room = width > text ? width - text : 0;
    if (room >= 10) line.append(" ").append(Bar(done, total, std::min<std::size_t>(room, 30)));
  }
  line.append("  ").append(tail);
  return TruncateToWidth(line, width);
}

Progress::Progress(std::string label, std::uint64_t total, Unit unit)
    : Progress(std::move(label), total, unit, Options{}) {}

Progress::Progress(std::string label, std::uint64_t total, Unit unit, Options options)
    : label_(std::move(label)), total_(total), unit_(unit), options_(std::move(options)) {
  if (options_.out == nullptr) options_.out = &std::cerr;
  if (!options_.now) options_.now = [] { return Clock::now(); };
  if (options_.width <= 0) options_.width = TerminalWidth(2);
  if (!options_.delay) options_.delay = DefaultDelay();
  enabled_ = options_.enabled.value_or(IsTerminal(2));
  start_ = options_.now();
  last_draw_ = start_;
}

Progress::~Progress() { Finish(); }

void Progress::Set(std::uint64_t done) {
  done_ = done;
  if (!enabled_ || finished_) return;
  const Clock::time_point now = options_.now();
  if (now - start_ < *options_.delay) return;
  if (drawn_ && now - last_draw_ < options_.interval) return;
  Draw(now);
}

void Progress::Draw(Clock::time_point now) {
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  *options_.out << "\r"
                << RenderProgressLine(label_, done_, total_, unit_, elapsed,
                                      static_cast<std::size_t>(options_.width) - 1)
                << "\033[K" << std::flush;
  drawn_ = true;
  g_drawn = this;
  last_draw_ = now;
}

void Progress::Finish() {
  if (finished_) return;
  finished_ = true;
  if (drawn_) *options_.out << "\r\033[K" << std::flush;
  drawn_ = false;
  if (g_drawn == this) g_drawn = nullptr;
}

}  // namespace lance_nd::cli
