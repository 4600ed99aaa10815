// Arrow-compatible logical types, fields and schemas.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lance_nd/export.h"

namespace lance_nd::array {

/// \brief The Arrow type ids lance-nd supports.
enum class TypeId : std::uint8_t {
  kNull,
  kBool,
  kInt8,
  kInt16,
  kInt32,
  kInt64,
  kUInt8,
  kUInt16,
  kUInt32,
  kUInt64,
  kFloat16,
  kFloat32,
  kFloat64,
  kUtf8,
  kLargeUtf8,
  kBinary,
  kLargeBinary,
  kFixedSizeBinary,
  kDate32,
  kDate64,
  kTimestamp,
  kDuration,
  kList,
  kLargeList,
  kFixedSizeList,
  kStruct,
  kDecimal128,  // 16-byte little-endian two's complement, with precision and scale
  kDecimal256,  // 32-byte little-endian two's complement, with precision and scale
};

enum class TimeUnit : std::uint8_t { kSecond, kMilli, kMicro, kNano };

class DataType;
class Field;
class Schema;
using DataTypePtr = std::shared_ptr<const DataType>;
using FieldPtr = std::shared_ptr<const Field>;
using SchemaPtr = std::shared_ptr<const Schema>;

/// \brief Ordered string key/value pairs (Arrow field and schema metadata). Keys are unique.
class LANCE_ND_EXPORT Metadata {
 public:
  Metadata() = default;
  explicit Metadata(std::vector<std::pair<std::string, std::string>> entries);
  /// \brief `Metadata({{"k", "v"}, ...})` (a later duplicate key replaces an earlier one).
  Metadata(std::initializer_list<std::pair<std::string, std::string>> entries)
      : Metadata(std::vector<std::pair<std::string, std::string>>(entries)) {}

  const std::vector<std::pair<std::string, std::string>>& entries() const { return entries_; }
  bool empty() const { return entries_.empty(); }
  std::size_t size() const { return entries_.size(); }
  std::optional<std::string_view> Get(std::string_view key) const;
  bool Contains(std::string_view key) const { return Get(key).has_value(); }
  /// \brief Set `key` (replacing an existing value in place, else appending).
  void Set(std::string key, std::string value);
  /// \brief Remove `key` if present; true if it was.
  bool Remove(std::string_view key);

  bool operator==(const Metadata& other) const = default;

 private:
  std::vector<std::pair<std::string, std::string>> entries_;
};

/// \brief An immutable logical type. Parameterised types carry their parameters; nested types
/// carry child fields (list and fixed-size list: one child named "item" by convention).
class LANCE_ND_EXPORT DataType {
 public:
  TypeId id() const { return id_; }
  /// Bytes per value for fixed-width types (bool: 0, since it is bit-packed), else -1.
  int32_t byte_width() const;
  /// Bits per value for fixed-width types (bool: 1), else -1.
  int32_t bit_width() const;
  /// fixed_size_binary byte width or fixed_size_list list size, else 0.
  int32_t fixed_size() const { return fixed_size_; }
  TimeUnit unit() const { return unit_; }
  /// Decimal precision (significant decimal digits) and scale (digits after the point), else 0.
  int32_t precision() const { return precision_; }
  int32_t scale() const { return scale_; }
  const std::string& timezone() const { return timezone_; }
  const std::vector<FieldPtr>& children() const { return children_; }
  /// \brief The single child of a list / large list / fixed-size list.
  const FieldPtr& value_field() const { return children_.at(0); }
  const DataTypePtr& value_type() const;

  bool is_integer() const;
  bool is_signed_integer() const;
  bool is_unsigned_integer() const;
  bool is_floating() const;
  bool is_numeric() const { return is_integer() || is_floating(); }
  /// True for types whose values are one fixed-width slot (primitives incl. temporal, not bool).
  bool is_primitive() const;
  bool is_binary_like() const;  // utf8, large_utf8, binary, large_binary
  bool is_list_like() const;    // list, large_list, fixed_size_list
  bool is_nested() const { return is_list_like() || id_ == TypeId::kStruct; }
  bool is_decimal() const { return id_ == TypeId::kDecimal128 || id_ == TypeId::kDecimal256; }

  /// \brief Structural equality; field names, nullability and (if `check_metadata`) metadata
  /// of children are compared.
  bool Equals(const DataType& other, bool check_metadata = true) const;
  bool operator==(const DataType& other) const { return Equals(other); }

  /// \brief Arrow-style text: "int32", "list<item: float>", "timestamp[ns, tz=UTC]".
  std::string ToString() const;

  // Constructors are public for std::make_shared; use the factory functions below.
  DataType(TypeId id, int32_t fixed_size, TimeUnit unit, std::string timezone,
           std::vector<FieldPtr> children);
  DataType(TypeId id, int32_t precision, int32_t scale);  // decimals

 private:
  TypeId id_;
  int32_t fixed_size_ = 0;
  int32_t precision_ = 0;
  int32_t scale_ = 0;
  TimeUnit unit_ = TimeUnit::kSecond;
  std::string timezone_;
  std::vector<FieldPtr> children_;
};

// Factories. Parameter-free types return shared singletons.
LANCE_ND_EXPORT DataTypePtr Null();
LANCE_ND_EXPORT DataTypePtr Bool();
LANCE_ND_EXPORT DataTypePtr Int8();
LANCE_ND_EXPORT DataTypePtr Int16();
LANCE_ND_EXPORT DataTypePtr Int32();
LANCE_ND_EXPORT DataTypePtr Int64();
LANCE_ND_EXPORT DataTypePtr UInt8();
LANCE_ND_EXPORT DataTypePtr UInt16();
LANCE_ND_EXPORT DataTypePtr UInt32();
LANCE_ND_EXPORT DataTypePtr UInt64();
LANCE_ND_EXPORT DataTypePtr Float16();
LANCE_ND_EXPORT DataTypePtr Float32();
LANCE_ND_EXPORT DataTypePtr Float64();
LANCE_ND_EXPORT DataTypePtr Utf8();
LANCE_ND_EXPORT DataTypePtr LargeUtf8();
LANCE_ND_EXPORT DataTypePtr Binary();
LANCE_ND_EXPORT DataTypePtr LargeBinary();
LANCE_ND_EXPORT DataTypePtr FixedSizeBinary(int32_t byte_width);
LANCE_ND_EXPORT DataTypePtr Date32();
LANCE_ND_EXPORT DataTypePtr Date64();
LANCE_ND_EXPORT DataTypePtr Timestamp(TimeUnit unit, std::string timezone = {});
LANCE_ND_EXPORT DataTypePtr Duration(TimeUnit unit);
LANCE_ND_EXPORT DataTypePtr List(FieldPtr value_field);
LANCE_ND_EXPORT DataTypePtr List(DataTypePtr value_type);  // item field "item", nullable
LANCE_ND_EXPORT DataTypePtr LargeList(FieldPtr value_field);
LANCE_ND_EXPORT DataTypePtr LargeList(DataTypePtr value_type);
LANCE_ND_EXPORT DataTypePtr FixedSizeList(FieldPtr value_field, int32_t list_size);
LANCE_ND_EXPORT DataTypePtr FixedSizeList(DataTypePtr value_type, int32_t list_size);
LANCE_ND_EXPORT DataTypePtr Struct(std::vector<FieldPtr> fields);
/// \brief Arrow decimal128 / decimal256 (C Data format "d:p,s" / "d:p,s,256"). Precision is
/// 1..38 (128) or 1..76 (256) and the scale at most the precision (it may be negative); the
/// factories do not check, MakeDecimal (for untrusted parameters) does.
LANCE_ND_EXPORT DataTypePtr Decimal128(int32_t precision, int32_t scale);
LANCE_ND_EXPORT DataTypePtr Decimal256(int32_t precision, int32_t scale);
/// \brief A decimal of `bit_width` 128 or 256 bits; nullptr and `*error` set when the width,
/// precision or scale is out of range.
LANCE_ND_EXPORT DataTypePtr MakeDecimal(int32_t bit_width, int32_t precision, int32_t scale,
                                        std::string* error);
/// \brief The text of one decimal value: `byte_width` (16 or 32) little-endian two's complement
/// bytes at `value`, `scale` digits after the point ("-12.34", "0.05", "1200" for scale -2).
LANCE_ND_EXPORT std::string DecimalToString(const std::uint8_t* value, int byte_width,
                                            std::int32_t scale);
/// \brief The type for a fixed-width id (ints, floats, date32/64, bool, null, utf8...). Returns
/// nullptr for parameterised ids.
LANCE_ND_EXPORT DataTypePtr TypeForId(TypeId id);

LANCE_ND_EXPORT std::string_view TimeUnitName(TimeUnit unit);  // "s", "ms", "us", "ns"

/// \brief A named, typed, possibly nullable column with metadata.
class LANCE_ND_EXPORT Field {
 public:
  Field(std::string name, DataTypePtr type, bool nullable = true, Metadata metadata = {});

  const std::string& name() const { return name_; }
  const DataTypePtr& type() const { return type_; }
  bool nullable() const { return nullable_; }
  const Metadata& metadata() const { return metadata_; }

  FieldPtr WithName(std::string name) const;
  FieldPtr WithType(DataTypePtr type) const;
  FieldPtr WithNullable(bool nullable) const;
  FieldPtr WithMetadata(Metadata metadata) const;

  bool Equals(const Field& other, bool check_metadata = true) const;
  bool operator==(const Field& other) const { return Equals(other); }
  std::string ToString() const;  // "name: type not null"

 private:
  std::string name_;
  DataTypePtr type_;
  bool nullable_;
  Metadata metadata_;
};

LANCE_ND_EXPORT FieldPtr MakeField(std::string name, DataTypePtr type, bool nullable = true,
                                   Metadata metadata = {});

/// \brief An ordered list of fields plus schema metadata.
class LANCE_ND_EXPORT Schema {
 public:
  explicit Schema(std::vector<FieldPtr> fields, Metadata metadata = {});

  const std::vector<FieldPtr>& fields() const { return fields_; }
  int num_fields() const { return static_cast<int>(fields_.size()); }
  const FieldPtr& field(int i) const { return fields_.at(static_cast<std::size_t>(i)); }
  const Metadata& metadata() const { return metadata_; }
  /// \brief Index of the first field named `name`, or -1.
  int FieldIndex(std::string_view name) const;
  FieldPtr GetField(std::string_view name) const;

  SchemaPtr WithMetadata(Metadata metadata) const;
  bool Equals(const Schema& other, bool check_metadata = true) const;
  bool operator==(const Schema& other) const { return Equals(other); }
  std::string ToString() const;  // one field per line, then metadata

 private:
  std::vector<FieldPtr> fields_;
  Metadata metadata_;
};

LANCE_ND_EXPORT SchemaPtr MakeSchema(std::vector<FieldPtr> fields, Metadata metadata = {});

}  // namespace lance_nd::array
