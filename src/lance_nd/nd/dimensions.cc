#include "lance_nd/nd/dimensions.h"

#include <limits>

#include "lance_nd/core/internal/checked_math.h"
#include "lance_nd/nd/errors.h"
#include "name_set.h"

namespace lance_nd::nd {

Result<Dimensions> Dimensions::Make(std::vector<Dimension> dims) {
  return Validate(std::move(dims), /*logical_grid=*/false);
}

Result<Dimensions> Dimensions::MakeGrid(std::vector<Dimension> dims) {
  return Validate(std::move(dims), /*logical_grid=*/true);
}

Result<Dimensions> Dimensions::Validate(std::vector<Dimension> dims, bool logical_grid) {
  internal::NameSet seen;
  int64_t count = 1;
  bool overflow = false;
  for (std::size_t i = 0; i < dims.size(); ++i) {
    const Dimension& d = dims[i];
    if (d.name.empty()) {
      return InvalidDimensions("axis " + std::to_string(i) +
                               " has an empty name; every dimension needs a non-empty name");
    }
    if (!seen.Insert(d.name)) {
      return InvalidDimensions("dimension name '" + d.name +
                               "' appears more than once; names must be unique within an array");
    }
    if (d.size > std::numeric_limits<uint32_t>::max()) {
      return InvalidDimensions("dimension '" + d.name + "' has size " + std::to_string(d.size) +
                               ", above the largest storable size " +
                               std::to_string(std::numeric_limits<uint32_t>::max()) +
                               "; split the array into chunks");
    }
    if (!overflow) {
      const auto next = CheckedMul(count, static_cast<int64_t>(d.size));
      if (next) {
        count = *next;
      } else {
        overflow = true;
      }
    }
  }
  if (overflow) {
    // A later zero-size axis still makes the product 0.
    bool has_zero = false;
    for (const Dimension& d : dims) has_zero = has_zero || d.size == 0;
    if (has_zero) {
      count = 0;
    } else if (logical_grid) {
      count = kUncountable;
    } else {
      return InvalidDimensions("the element count of " + Dimensions(std::move(dims), 0).ToString() +
                               " overflows a 64-bit integer; use smaller arrays");
    }
  }
  return Dimensions(std::move(dims), count);
}

Result<Dimensions> Dimensions::Make(const std::vector<std::string>& names,
                                    const std::vector<uint64_t>& sizes) {
  if (names.size() != sizes.size()) {
    return InvalidDimensions(std::to_string(names.size()) + " names but " +
                             std::to_string(sizes.size()) +
                             " sizes; give one size per dimension name");
  }
  std::vector<Dimension> out;
  out.reserve(names.size());
  for (std::size_t i = 0; i < names.size(); ++i) out.push_back(Dimension{names[i], sizes[i]});
  return Make(std::move(out));
}

std::vector<std::string> Dimensions::names() const {
  std::vector<std::string> out;
  out.reserve(dims_.size());
  for (const Dimension& d : dims_) out.push_back(d.name);
  return out;
}

std::vector<uint64_t> Dimensions::sizes() const {
  std::vector<uint64_t> out;
  out.reserve(dims_.size());
  for (const Dimension& d : dims_) out.push_back(d.size);
  return out;
}

std::optional<std::size_t> Dimensions::IndexOf(std::string_view name) const {
  for (std::size_t i = 0; i < dims_.size(); ++i) {
    if (dims_[i].name == name) return i;
  }
  return std::nullopt;
}

std::optional<uint64_t> Dimensions::SizeOf(std::string_view name) const {
  const auto i = IndexOf(name);
  if (!i) return std::nullopt;
  return dims_[*i].size;
}

std::string Dimensions::ToString() const {
  // Messages name at most kShown axes: the first ones, a count of those left out, the last one.
  constexpr std::size_t kShown = 12;
  std::string out = "[";
  for (std::size_t i = 0; i < dims_.size(); ++i) {
    if (dims_.size() > kShown && i == kShown - 1) {
      out += ", ... " + std::to_string(dims_.size() - kShown) + " more axes ...";
      i = dims_.size() - 1;
    }
    if (i > 0) out += ", ";
    out += dims_[i].name;
    out += '=';
    out += std::to_string(dims_[i].size);
  }
  out += ']';
  return out;
}

}  // namespace lance_nd::nd
