// Typed read-only views over an ArrayData (no copies; offsets applied).
#pragma once

#include <cstdint>
#include <string_view>

#include "lance_nd/array/array_data.h"
#include "lance_nd/export.h"

namespace lance_nd::array {

/// \brief Fixed-width values of C type T. The caller checks the type's width matches.
template <typename T>
class PrimitiveView {
 public:
  explicit PrimitiveView(const ArrayData& a) : a_(&a), values_(a.values<T>(1)) {}
  int64_t length() const { return a_->length; }
  bool IsNull(int64_t i) const { return a_->IsNull(i); }
  T Value(int64_t i) const { return values_[i]; }
  const T* raw_values() const { return values_; }

 private:
  const ArrayData* a_;
  const T* values_;
};

class LANCE_ND_EXPORT BoolView {
 public:
  explicit BoolView(const ArrayData& a) : a_(&a) {}
  int64_t length() const { return a_->length; }
  bool IsNull(int64_t i) const { return a_->IsNull(i); }
  bool Value(int64_t i) const { return GetBit(a_->buffers[1]->data(), a_->offset + i); }

 private:
  const ArrayData* a_;
};

/// \brief utf8 / binary (int32 offsets) and their large forms (int64 offsets).
class LANCE_ND_EXPORT BinaryView {
 public:
  explicit BinaryView(const ArrayData& a);
  int64_t length() const { return a_->length; }
  bool IsNull(int64_t i) const { return a_->IsNull(i); }
  std::string_view Value(int64_t i) const {
    const int64_t b = Offset(i), e = Offset(i + 1);
    return {reinterpret_cast<const char*>(data_) + b, static_cast<std::size_t>(e - b)};
  }
  int64_t Offset(int64_t i) const {
    if (offsets_ == nullptr) return 0;  // absent offsets are allowed for empty arrays
    return large_ ? reinterpret_cast<const int64_t*>(offsets_)[a_->offset + i]
                  : reinterpret_cast<const int32_t*>(offsets_)[a_->offset + i];
  }

 private:
  const ArrayData* a_;
  bool large_;
  const std::uint8_t* offsets_;
  const std::uint8_t* data_;
};

/// \brief list / large_list / fixed_size_list: row i covers child slots
/// [ValueOffset(i), ValueOffset(i) + ValueLength(i)).
class LANCE_ND_EXPORT ListView {
 public:
  explicit ListView(const ArrayData& a);
  int64_t length() const { return a_->length; }
  bool IsNull(int64_t i) const { return a_->IsNull(i); }
  int64_t ValueOffset(int64_t i) const;
  int64_t ValueLength(int64_t i) const { return ValueOffset(i + 1) - ValueOffset(i); }
  const ArrayPtr& values() const { return a_->children[0]; }

 private:
  const ArrayData* a_;
  TypeId id_;
  int32_t list_size_;
  const std::uint8_t* offsets_;
};

}  // namespace lance_nd::array
