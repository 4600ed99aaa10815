// Dimensions: the ordered, named axes of one N-dimensional array.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lance_nd/core/result.h"
#include "lance_nd/export.h"

namespace lance_nd::nd {

/// \brief One named axis.
struct LANCE_ND_EXPORT Dimension {
  std::string name;
  uint64_t size = 0;

  bool operator==(const Dimension& other) const = default;
};

/// \brief Ordered (name, size) pairs, first axis outermost (C order). Always valid: names are
/// non-empty and unique, every size fits a UInt32 (the stored type), and the element count
/// fits int64 (except in a logical grid made by MakeGrid). Rank 0 (no axes) is a scalar with one
/// element; a zero-size axis gives 0 elements.
class LANCE_ND_EXPORT Dimensions {
 public:
  /// \brief Rank 0: a scalar.
  Dimensions() = default;

  /// \brief Validates the axes; errors are InvalidArgument "invalid dimensions: ...".
  static Result<Dimensions> Make(std::vector<Dimension> dims);
  /// \brief A logical grid (the union of a batch's arrays, never materialised): validated as
  /// Make, but its element count need not fit int64; num_elements() is then kUncountable.
  static Result<Dimensions> MakeGrid(std::vector<Dimension> dims);
  /// \brief From parallel name and size lists (their lengths must match).
  static Result<Dimensions> Make(const std::vector<std::string>& names,
                                 const std::vector<uint64_t>& sizes);

  std::size_t rank() const { return dims_.size(); }
  bool is_scalar() const { return dims_.empty(); }
  const std::vector<Dimension>& dims() const { return dims_; }
  const Dimension& operator[](std::size_t i) const { return dims_[i]; }
  const Dimension& at(std::size_t i) const { return dims_.at(i); }
  /// \brief num_elements() of a grid whose element count exceeds int64 (MakeGrid only).
  static constexpr int64_t kUncountable = -1;
  /// \brief Product of the sizes (1 for rank 0); kUncountable for a grid past int64.
  int64_t num_elements() const { return num_elements_; }
  std::vector<std::string> names() const;
  std::vector<uint64_t> sizes() const;
  /// \brief Position of the axis called `name`, or nullopt.
  std::optional<std::size_t> IndexOf(std::string_view name) const;
  /// \brief Size of the axis called `name`, or nullopt.
  std::optional<uint64_t> SizeOf(std::string_view name) const;

  /// \brief "[x=3, y=4]"; "[]" for a scalar; past 12 axes, the middle ones are counted.
  std::string ToString() const;

  /// \brief Same axes in the same order.
  bool operator==(const Dimensions& other) const { return dims_ == other.dims_; }

 private:
  static Result<Dimensions> Validate(std::vector<Dimension> dims, bool logical_grid);
  Dimensions(std::vector<Dimension> dims, int64_t num_elements)
      : dims_(std::move(dims)), num_elements_(num_elements) {}

  std::vector<Dimension> dims_;
  int64_t num_elements_ = 1;
};

}  // namespace lance_nd::nd
