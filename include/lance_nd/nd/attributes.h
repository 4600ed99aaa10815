// Attributes: ordered named values of length 1 (units, long_name, valid_range, ...).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "lance_nd/array/array_data.h"
#include "lance_nd/core/result.h"
#include "lance_nd/export.h"

namespace lance_nd::nd {

/// \brief A number type accepted by the convenience setters (bool and char excluded).
template <typename T>
concept AttributeNumber = std::is_arithmetic_v<T> && !std::is_same_v<T, bool> &&
                          !std::is_same_v<T, char> && !std::is_same_v<T, long double>;

/// \brief Ordered (key, value) pairs. Each value is an array of length 1 holding one non-null
/// value of any type; a list-valued attribute is a one-element List<T>. Keys are unique:
/// setting an existing key replaces its value in place.
///
/// Equality compares keys and values, not their order (like a Python dict): a row's
/// attributes read back in the column's key order, which may differ from the order written.
///
/// Attributes read from a table are decoded on first use (see Deferred); every accessor
/// decodes them first, so this is invisible except in cost.
class LANCE_ND_EXPORT Attributes {
 public:
  using Entry = std::pair<std::string, array::ArrayPtr>;

  Attributes() = default;
  Attributes(const Attributes& other);
  Attributes(Attributes&& other) noexcept
      : entries_(std::move(other.entries_)),
        source_(std::move(other.source_)),
        state_(other.state_.load(std::memory_order_relaxed)) {
    other.state_.store(kResolved, std::memory_order_relaxed);
  }
  Attributes& operator=(const Attributes& other);
  Attributes& operator=(Attributes&& other) noexcept;
  ~Attributes() = default;

  /// \brief Validates every entry as SetValue does; a repeated key is an error.
  static Result<Attributes> Make(std::vector<Entry> entries);

  /// \brief The attributes held by slot `slot` (relative to `values->offset`, as in
  /// ArrayData::IsNull) of the struct array `values`: child k holds the value of key
  /// `fields[k]->name()`, retyped to `fields[k]->type()`, and a null child slot is an absent
  /// key. They are decoded on first use, once, even when copies are read from several threads,
  /// so a reader that never looks at a row's attributes does not pay for them. The caller has
  /// checked the struct: valid Arrow data (array::Validate), not null at `slot`, one child per
  /// field, each child's type structurally equal to its field's, and each child longer than
  /// `values->offset + slot`.
  static Attributes Deferred(array::ArrayPtr values,
                             std::shared_ptr<const std::vector<array::FieldPtr>> fields,
                             int64_t slot);

  std::size_t size() const { return Resolved().size(); }
  /// \brief Room for `n` entries without reallocation (encoders know the count up front).
  void Reserve(std::size_t n) {
    Own();
    entries_.reserve(n);
  }
  bool empty() const { return Resolved().empty(); }
  const std::vector<Entry>& entries() const { return Resolved(); }
  /// \brief The value of `key`, or nullptr.
  array::ArrayPtr Get(std::string_view key) const;
  bool Contains(std::string_view key) const { return Get(key) != nullptr; }

  /// \brief Set `key` to `value`, which must be one non-null value; the key must be non-empty.
  /// Errors are InvalidArgument "invalid attribute: ...".
  Status SetValue(std::string key, array::ArrayPtr value);
  /// \brief Remove `key`; true if it was present.
  bool Remove(std::string_view key);

  // Convenience setters: Utf8, Bool, the integer and floating types of the C++ value, and
  // List<T> for vectors. They return *this for chaining. (An empty key is reported when the
  // attributes are encoded.)
  Attributes& Set(std::string key, std::string_view value);
  Attributes& Set(std::string key, const char* value) {
    return Set(std::move(key), std::string_view(value));
  }
  Attributes& Set(std::string key, const std::string& value) {
    return Set(std::move(key), std::string_view(value));
  }
  Attributes& Set(std::string key, bool value);
  template <AttributeNumber T>
  Attributes& Set(std::string key, T value) {
    return SetNumbers(std::move(key), NumberTypeId<T>(), &value, 1, /*as_list=*/false);
  }
  Attributes& Set(std::string key, const std::vector<std::string>& values);
  Attributes& Set(std::string key, const std::vector<std::string_view>& values);
  Attributes& Set(std::string key, const std::vector<const char*>& values);
  Attributes& Set(std::string key, const std::vector<bool>& values);
  template <AttributeNumber T>
  Attributes& Set(std::string key, const std::vector<T>& values) {
    return SetNumbers(std::move(key), NumberTypeId<T>(), values.data(), values.size(),
                      /*as_list=*/true);
  }

  // Typed reads of scalar attributes; nullopt when absent or of another kind.
  std::optional<std::string> GetString(std::string_view key) const;  // utf8 / large_utf8
  std::optional<bool> GetBool(std::string_view key) const;
  std::optional<int64_t> GetInt64(std::string_view key) const;  // any integer that fits
  std::optional<double> GetDouble(std::string_view key) const;  // any float or integer

  /// \brief `{units: "K", valid_range: [0, 1]}`-like text for messages and debugging.
  std::string ToString() const;

  /// \brief Same keys with equal types and values, in any order.
  bool Equals(const Attributes& other) const;
  bool operator==(const Attributes& other) const { return Equals(other); }

 private:
  // Type ids are passed as the underlying integer of array::TypeId.
  template <typename T>
  static constexpr int NumberTypeId() {
    if constexpr (std::is_floating_point_v<T>) {
      return sizeof(T) == 4 ? kF32 : kF64;
    } else if constexpr (std::is_signed_v<T>) {
      return sizeof(T) == 1 ? kI8 : sizeof(T) == 2 ? kI16 : sizeof(T) == 4 ? kI32 : kI64;
    } else {
      return sizeof(T) == 1 ? kU8 : sizeof(T) == 2 ? kU16 : sizeof(T) == 4 ? kU32 : kU64;
    }
  }
  static constexpr int kI8 = 0, kI16 = 1, kI32 = 2, kI64 = 3, kU8 = 4, kU16 = 5, kU32 = 6, kU64 = 7,
                       kF32 = 8, kF64 = 9;
  Attributes& SetNumbers(std::string key, int kind, const void* data, std::size_t n, bool as_list);
  void Put(std::string key, array::ArrayPtr value);
  /// The entries, decoded first if they were deferred.
  const std::vector<Entry>& Resolved() const {
    return state_.load(std::memory_order_acquire) == kResolved ? entries_ : Resolve();
  }
  const std::vector<Entry>& Resolve() const;
  /// Before a change: decoded, and no longer tied to the struct they were read from.
  void Own();

  // Where deferred entries are read from (values is null when nothing was deferred). It does
  // not change while deferred, so copies made while another thread decodes can read it.
  struct Source {
    array::ArrayPtr values;
    std::shared_ptr<const std::vector<array::FieldPtr>> fields;
    int64_t slot = 0;
  };
  // kDeferred -> kDecoding (one thread decodes; others wait) -> kResolved.
  static constexpr std::uint8_t kResolved = 0, kDeferred = 1, kDecoding = 2;

  mutable std::vector<Entry> entries_;  // written once by Resolve when deferred
  Source source_;
  mutable std::atomic<std::uint8_t> state_{kResolved};
};

}  // namespace lance_nd::nd
