// A set of names for finding repeats among the axes of an array or the arrays of a row.
//
// These checks run for every decoded row, and rows have a handful of names: up to kInline
// names are kept in place and compared one by one (no allocation, no hashing); past that
// they are hashed.
#pragma once

#include <array>
#include <cstddef>
#include <string_view>
#include <unordered_set>

namespace lance_nd::nd::internal {

class NameSet {
 public:
  /// \brief Adds `name` (which must outlive the set); false when it is already in.
  bool Insert(std::string_view name) {
    if (hashed_.empty()) {
      for (std::size_t i = 0; i < count_; ++i) {
        if (inline_[i] == name) return false;
      }
      if (count_ < kInline) {
        inline_[count_++] = name;
        return true;
      }
      hashed_.insert(inline_.begin(), inline_.end());
    }
    return hashed_.insert(name).second;
  }

 private:
  static constexpr std::size_t kInline = 16;
  std::array<std::string_view, kInline> inline_{};
  std::size_t count_ = 0;
  std::unordered_set<std::string_view> hashed_;  // every name, once past kInline
};

}  // namespace lance_nd::nd::internal
