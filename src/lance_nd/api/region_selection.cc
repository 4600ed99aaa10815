// Index ranges from region selectors.
#include "lance_nd/api/region_selection.h"

#include <charconv>
#include <cmath>
#include <limits>
#include <set>
#include <string>

#include "lance_nd/array/view.h"

namespace lance_nd {
namespace {

std::string Number(double v) {
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof(buf), v);
  return std::string(buf, r.ptr);
}

std::string OptionalText(const std::optional<std::int64_t>& v) {
  return v ? std::to_string(*v) : std::string();
}
std::string OptionalText(const std::optional<double>& v) { return v ? Number(*v) : std::string(); }

}  // namespace

DimSelector DimSelector::Range(std::optional<std::int64_t> start,
                               std::optional<std::int64_t> stop) {
  DimSelector s;
  s.kind = Kind::kRange;
  s.start = start;
  s.stop = stop;
  return s;
}
DimSelector DimSelector::Index(std::int64_t index) {
  DimSelector s;
  s.kind = Kind::kIndex;
  s.index = index;
  return s;
}
DimSelector DimSelector::Nearest(double value) {
  DimSelector s;
  s.kind = Kind::kNearest;
  s.value = value;
  return s;
}
DimSelector DimSelector::ValueRange(std::optional<double> low, std::optional<double> high) {
  DimSelector s;
  s.kind = Kind::kValueRange;
  s.low = low;
  s.high = high;
  return s;
}

std::string DimSelector::ToString() const {
  switch (kind) {
    case Kind::kRange:
      return OptionalText(start) + ":" + OptionalText(stop);
    case Kind::kIndex:
      return std::to_string(index);
    case Kind::kNearest:
      return "~" + Number(value);
    case Kind::kValueRange:
      return "~" + OptionalText(low) + ":" + OptionalText(high);
  }
  return "?";
}

}  // namespace lance_nd

namespace lance_nd::api_internal {
namespace {

using Kind = DimSelector::Kind;

/// The number of an element of a fixed-width numeric or temporal array.
std::optional<double> NumberAt(const array::ArrayData& a, int64_t i) {
  if (a.IsNull(i)) return std::nullopt;
  double v = 0;
  switch (a.type->id()) {
    case array::TypeId::kInt8:
      v = array::PrimitiveView<int8_t>(a).Value(i);
      break;
    case array::TypeId::kInt16:
      v = array::PrimitiveView<int16_t>(a).Value(i);
      break;
    case array::TypeId::kInt32:
    case array::TypeId::kDate32:
      v = array::PrimitiveView<int32_t>(a).Value(i);
      break;
    case array::TypeId::kInt64:
    case array::TypeId::kDate64:
    case array::TypeId::kTimestamp:
    case array::TypeId::kDuration:
      v = static_cast<double>(array::PrimitiveView<int64_t>(a).Value(i));
      break;
    case array::TypeId::kUInt8:
      v = array::PrimitiveView<uint8_t>(a).Value(i);
      break;
    case array::TypeId::kUInt16:
      v = array::PrimitiveView<uint16_t>(a).Value(i);
      break;
    case array::TypeId::kUInt32:
      v = array::PrimitiveView<uint32_t>(a).Value(i);
      break;
    case array::TypeId::kUInt64:
      v = static_cast<double>(array::PrimitiveView<uint64_t>(a).Value(i));
      break;
    case array::TypeId::kFloat32:
      v = array::PrimitiveView<float>(a).Value(i);
      break;
    case array::TypeId::kFloat64:
      v = array::PrimitiveView<double>(a).Value(i);
      break;
    default:
      return std::nullopt;
  }
  if (std::isnan(v)) return std::nullopt;
  return v;
}

bool IsNumberType(const array::DataType& t) {
  switch (t.id()) {
    case array::TypeId::kDate32:
    case array::TypeId::kDate64:
    case array::TypeId::kTimestamp:
    case array::TypeId::kDuration:
      return true;
    default:
      return t.is_numeric() && t.id() != array::TypeId::kFloat16;
  }
}

}  // namespace

bool IsValueSelector(const DimSelector& s) {
  return s.kind == Kind::kNearest || s.kind == Kind::kValueRange;
}

Status CheckSelectionNames(const RegionSelection& selection) {
  std::set<std::string, std::less<>> seen;
  for (const auto& [dim, selector] : selection) {
    if (dim.empty()) {
      return Status::InvalidArgument("a selection names an empty dimension (selector ",
                                     selector.ToString(), ")");
    }
    if (!seen.insert(dim).second) {
      return Status::InvalidArgument("dimension '", dim,
                                     "' is selected twice; expected one selector per dimension");
    }
  }
  return Status::OK();
}

Result<DimRange> ResolveIndexSelector(const DimSelector& s, std::string_view dim,
                                      std::uint64_t size) {
  const auto n = static_cast<std::int64_t>(size);
  if (s.kind == Kind::kIndex) {
    if (s.index < -n || s.index >= n) {
      return Status::InvalidArgument("index ", s.index, " is out of range for dimension '", dim,
                                     "' of size ", size, " (expected ", -n, "..", n - 1, ")");
    }
    const auto i = static_cast<std::uint64_t>(s.index < 0 ? s.index + n : s.index);
    return DimRange{i, i + 1, true};
  }
  const std::int64_t start = s.start.value_or(0);
  const std::int64_t stop = s.stop.value_or(n);
  if (start < -n || start > n || stop < -n || stop > n) {
    return Status::InvalidArgument("range ", s.ToString(), " is out of range for dimension '", dim,
                                   "' of size ", size, " (range ends lie in ", -n, "..", n, ")");
  }
  const std::int64_t b = start < 0 ? start + n : start;
  const std::int64_t e = stop < 0 ? stop + n : stop;
  if (b > e) {
    return Status::InvalidArgument("range ", s.ToString(), " of dimension '", dim, "' (size ", size,
                                   ") starts at index ", b, ", after its stop ", e);
  }
  return DimRange{static_cast<std::uint64_t>(b), static_cast<std::uint64_t>(e), false};
}

Result<DimRange> ResolveValueSelector(const DimSelector& s, std::string_view dim,
                                      const std::vector<std::optional<double>>& coordinate) {
  if (s.kind == Kind::kNearest) {
    std::optional<std::size_t> best;
    for (std::size_t i = 0; i < coordinate.size(); ++i) {
      if (!coordinate[i]) continue;
      if (!best || std::abs(*coordinate[i] - s.value) < std::abs(*coordinate[*best] - s.value)) {
        best = i;
      }
    }
    if (!best) {
      return Status::InvalidArgument("coordinate '", dim, "' has no value (size ",
                                     coordinate.size(), ", nulls and NaN ignored) to select ",
                                     s.ToString(), " by");
    }
    return DimRange{*best, *best + 1, true};
  }
  double lo = s.low.value_or(-std::numeric_limits<double>::infinity());
  double hi = s.high.value_or(std::numeric_limits<double>::infinity());
  if (lo > hi) std::swap(lo, hi);  // descending coordinates may be asked either way round
  std::optional<std::size_t> first;
  std::size_t last = 0;
  for (std::size_t i = 0; i < coordinate.size(); ++i) {
    if (coordinate[i] && *coordinate[i] >= lo && *coordinate[i] <= hi) {
      if (!first) first = i;
      last = i;
    }
  }
  if (!first) return DimRange{0, 0, false};
  for (std::size_t i = *first; i <= last; ++i) {
    if (!coordinate[i] || *coordinate[i] < lo || *coordinate[i] > hi) {
      return Status::InvalidArgument("coordinate '", dim, "' is not monotonic over ", s.ToString(),
                                     ": index ", i, " lies outside while indices ", *first, " and ",
                                     last, " lie inside; select this dimension by index instead");
    }
  }
  return DimRange{*first, last + 1, false};
}

Result<std::vector<std::optional<double>>> CoordinateNumbers(const nd::NdArrowArray& coordinate,
                                                             std::string_view dim) {
  if (coordinate.rank() != 1 || coordinate.dimensions()[0].name != dim) {
    return Status::InvalidArgument("the coordinate variable '", dim, "' has dimensions ",
                                   coordinate.dimensions().ToString(), "; expected [", dim,
                                   "] to select by value");
  }
  if (!IsNumberType(*coordinate.value_type())) {
    return Status::InvalidArgument("the coordinate variable '", dim, "' is ",
                                   coordinate.value_type()->ToString(),
                                   "; selecting by value needs numbers, dates or times");
  }
  const array::ArrayData& values = *coordinate.values();
  std::vector<std::optional<double>> out;
  out.reserve(static_cast<std::size_t>(values.length));
  for (int64_t i = 0; i < values.length; ++i) out.push_back(NumberAt(values, i));
  return out;
}

}  // namespace lance_nd::api_internal
