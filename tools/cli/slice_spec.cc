#include "slice_spec.h"

#include <charconv>
#include <cmath>
#include <optional>
#include <system_error>
#include <utility>

#include "cli_util.h"

namespace lance_nd::cli {
namespace {

template <typename T>
std::optional<T> ParseNumber(std::string_view text) {
  T value{};
  const char* end = text.data() + text.size();
  const auto r = std::from_chars(text.data(), end, value);
  if (r.ec != std::errc() || r.ptr != end) return std::nullopt;
  if constexpr (std::is_floating_point_v<T>) {
    if (!std::isfinite(value)) return std::nullopt;
  }
  return value;
}

/// An end of a range: nullopt when left out, an error when it is not a T.
template <typename T>
Result<std::optional<T>> ParseEnd(std::string_view text, std::string_view part,
                                  std::string_view expected) {
  if (text.empty()) return std::optional<T>();
  std::optional<T> v = ParseNumber<T>(text);
  if (!v) {
    return Status::InvalidArgument("cannot read '", text, "' in '", part, "' (expected ", expected,
                                   ")");
  }
  return std::optional<T>(*v);
}

using SpecParser = Result<DimSelector> (*)(std::string_view spec, std::string_view part);

Result<DimSelector> ParseIndexSpec(std::string_view spec, std::string_view part) {
  constexpr std::string_view kExpected = "an index like 3 or -1, or a range like 2:5, :5, -3:";
  const std::size_t colon = spec.find(':');
  if (colon == std::string_view::npos) {
    std::optional<std::int64_t> i = ParseNumber<std::int64_t>(spec);
    if (!i) {
      return Status::InvalidArgument("cannot read '", spec, "' in '", part, "' (expected ",
                                     kExpected, ")");
    }
    return DimSelector::Index(*i);
  }
  LND_ASSIGN_OR_RETURN(auto start, ParseEnd<std::int64_t>(spec.substr(0, colon), part, kExpected));
  LND_ASSIGN_OR_RETURN(auto stop, ParseEnd<std::int64_t>(spec.substr(colon + 1), part, kExpected));
  return DimSelector::Range(start, stop);
}

Result<DimSelector> ParseValueSpec(std::string_view spec, std::string_view part) {
  constexpr std::string_view kExpected = "a number like 12.5, or a range like -10:10, 5:, :20";
  const std::size_t colon = spec.find(':');
  if (colon == std::string_view::npos) {
    std::optional<double> v = ParseNumber<double>(spec);
    if (!v) {
      return Status::InvalidArgument("cannot read '", spec, "' in '", part, "' (expected ",
                                     kExpected, ")");
    }
    return DimSelector::Nearest(*v);
  }
  LND_ASSIGN_OR_RETURN(auto low, ParseEnd<double>(spec.substr(0, colon), part, kExpected));
  LND_ASSIGN_OR_RETURN(auto high, ParseEnd<double>(spec.substr(colon + 1), part, kExpected));
  return DimSelector::ValueRange(low, high);
}

Result<RegionSelection> ParseSelection(std::string_view text, SpecParser parse) {
  RegionSelection out;
  for (const std::string& part : SplitList(text)) {
    const std::size_t eq = part.find('=');
    if (eq == std::string::npos || eq == 0) {
      return Status::InvalidArgument("cannot read '", part, "' (expected DIM=SPEC, e.g. time=0)");
    }
    LND_ASSIGN_OR_RETURN(DimSelector s, parse(std::string_view(part).substr(eq + 1), part));
    out.emplace_back(part.substr(0, eq), s);
  }
  return out;
}

}  // namespace

Result<RegionSelection> ParseIndexSelection(std::string_view text) {
  return ParseSelection(text, ParseIndexSpec);
}

Result<RegionSelection> ParseValueSelection(std::string_view text) {
  return ParseSelection(text, ParseValueSpec);
}

}  // namespace lance_nd::cli
