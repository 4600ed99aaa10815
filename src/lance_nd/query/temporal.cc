#include "lance_nd/query/temporal.h"

#include <cstdio>

#include "lance_nd/query/coercion.h"

namespace lance_nd::query {
namespace {

constexpr std::int64_t kSecondsPerDay = 86400;

struct Cursor {
  std::string_view s;
  std::size_t i = 0;
  bool Done() const { return i >= s.size(); }
  char Peek() const { return Done() ? '\0' : s[i]; }
  bool Take(char c) {
    if (Peek() != c) return false;
    ++i;
    return true;
  }
  // Exactly `min_digits`..`max_digits` digits.
  std::optional<std::int64_t> Digits(int min_digits, int max_digits, int* count = nullptr) {
    std::int64_t v = 0;
    int n = 0;
    while (n < max_digits && Peek() >= '0' && Peek() <= '9') {
      v = v * 10 + (s[i++] - '0');
      ++n;
    }
    if (count != nullptr) *count = n;
    if (n < min_digits) return std::nullopt;
    return v;
  }
};

std::optional<std::int64_t> DateAt(Cursor& c) {
  const bool negative = c.Take('-');
  const auto y = c.Digits(4, 6);
  if (!y || !c.Take('-')) return std::nullopt;
  const auto m = c.Digits(1, 2);
  if (!m || !c.Take('-')) return std::nullopt;
  const auto d = c.Digits(1, 2);
  if (!d || *m < 1 || *m > 12 || *d < 1 || *d > 31) return std::nullopt;
  const std::int64_t year = negative ? -*y : *y;
  const std::int64_t days =
      DaysFromCivil(year, static_cast<unsigned>(*m), static_cast<unsigned>(*d));
  // Reject days past the month's end (2021-02-30) by checking the next day's month.
  if (*d > 28 && DaysFromCivil(year, static_cast<unsigned>(*m), 1) + (*d - 1) >=
                     DaysFromCivil(*m == 12 ? year + 1 : year,
                                   static_cast<unsigned>(*m == 12 ? 1 : *m + 1), 1)) {
    return std::nullopt;
  }
  return days;
}

void CivilFromDays(std::int64_t z, std::int64_t* y, unsigned* m, unsigned* d) {
  z += 719468;
  const std::int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const auto doe = static_cast<unsigned>(z - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  *d = doy - (153 * mp + 2) / 5 + 1;
  *m = mp < 10 ? mp + 3 : mp - 9;
  *y = static_cast<std::int64_t>(yoe) + era * 400 + (*m <= 2 ? 1 : 0);
}

std::int64_t FloorDiv(std::int64_t a, std::int64_t b) {
  const std::int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

}  // namespace

std::int64_t DaysFromCivil(std::int64_t year, unsigned month, unsigned day) {
  year -= month <= 2 ? 1 : 0;
  const std::int64_t era = (year >= 0 ? year : year - 399) / 400;
  const auto yoe = static_cast<unsigned>(year - era * 400);
  const unsigned doy = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<std::int64_t>(doe) - 719468;
}

std::optional<std::int64_t> ParseDate(std::string_view text) {
  Cursor c{text};
  const auto days = DateAt(c);
  if (!days || !c.Done()) return std::nullopt;
  return days;
}

std::optional<std::int64_t> ParseTimestamp(std::string_view text, array::TimeUnit unit) {
  Cursor c{text};
  const auto days = DateAt(c);
  if (!days) return std::nullopt;
  std::int64_t seconds = *days * kSecondsPerDay;
  std::int64_t fraction_ns = 0;
  if (c.Take(' ') || c.Take('T')) {
    const auto hh = c.Digits(1, 2);
    if (!hh || *hh > 23 || !c.Take(':')) return std::nullopt;
    const auto mm = c.Digits(2, 2);
    if (!mm || *mm > 59) return std::nullopt;
    std::int64_t ss = 0;
    if (c.Take(':')) {
      const auto s = c.Digits(2, 2);
      if (!s || *s > 59) return std::nullopt;
      ss = *s;
      if (c.Take('.')) {
        int count = 0;
        const auto f = c.Digits(1, 9, &count);
        if (!f) return std::nullopt;
        fraction_ns = *f;
        for (int k = count; k < 9; ++k) fraction_ns *= 10;
      }
    }
    seconds += *hh * 3600 + *mm * 60 + ss;
  }
  if (c.Take('Z')) {
  } else if (c.Peek() == '+' || c.Peek() == '-') {
    const int sign = c.Peek() == '-' ? -1 : 1;
    ++c.i;
    const auto oh = c.Digits(2, 2);
    c.Take(':');
    const auto om = c.Digits(2, 2);
    if (!oh || !om) return std::nullopt;
    seconds -= sign * (*oh * 3600 + *om * 60);
  }
  if (!c.Done()) return std::nullopt;
  const std::int64_t per_second = TicksPerSecond(unit);
  std::int64_t ticks = 0;
  if (__builtin_mul_overflow(seconds, per_second, &ticks)) return std::nullopt;
  const std::int64_t frac = fraction_ns / (1000000000 / per_second);
  if (__builtin_add_overflow(ticks, frac, &ticks)) return std::nullopt;
  return ticks;
}

std::string FormatDate(std::int64_t days) {
  std::int64_t y = 0;
  unsigned m = 0, d = 0;
  CivilFromDays(days, &y, &m, &d);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%04lld-%02u-%02u", static_cast<long long>(y), m, d);
  return buf;
}

std::string FormatTimestamp(std::int64_t ticks, array::TimeUnit unit) {
  const std::int64_t per_second = TicksPerSecond(unit);
  const std::int64_t seconds = FloorDiv(ticks, per_second);
  const std::int64_t frac = ticks - seconds * per_second;
  const std::int64_t days = FloorDiv(seconds, kSecondsPerDay);
  const std::int64_t in_day = seconds - days * kSecondsPerDay;
  char buf[64];
  std::snprintf(buf, sizeof buf, "%sT%02lld:%02lld:%02lld", FormatDate(days).c_str(),
                static_cast<long long>(in_day / 3600), static_cast<long long>(in_day / 60 % 60),
                static_cast<long long>(in_day % 60));
  std::string out = buf;
  if (per_second > 1) {
    const int digits = unit == array::TimeUnit::kMilli   ? 3
                       : unit == array::TimeUnit::kMicro ? 6
                                                         : 9;
    std::snprintf(buf, sizeof buf, ".%0*lld", digits, static_cast<long long>(frac));
    out += buf;
  }
  return out;
}

}  // namespace lance_nd::query
