// DataType, Field, Schema and Metadata.
#include "lance_nd/array/type.h"

#include <stdexcept>

namespace lance_nd::array {

// ---- Metadata ----

Metadata::Metadata(std::vector<std::pair<std::string, std::string>> entries) {
  entries_.reserve(entries.size());
  for (auto& [k, v] : entries) Set(std::move(k), std::move(v));
}

std::optional<std::string_view> Metadata::Get(std::string_view key) const {
  for (const auto& [k, v] : entries_) {
    if (k == key) return std::string_view{v};
  }
  return std::nullopt;
}

void Metadata::Set(std::string key, std::string value) {
  for (auto& [k, v] : entries_) {
    if (k == key) {
      v = std::move(value);
      return;
    }
  }
  entries_.emplace_back(std::move(key), std::move(value));
}

bool Metadata::Remove(std::string_view key) {
  for (auto it = entries_.begin(); it != entries_.end(); ++it) {
    if (it->first == key) {
      entries_.erase(it);
      return true;
    }
  }
  return false;
}

// ---- DataType ----

DataType::DataType(TypeId id, int32_t fixed_size, TimeUnit unit, std::string timezone,
                   std::vector<FieldPtr> children)
    : id_(id),
      fixed_size_(fixed_size),
      unit_(unit),
      timezone_(std::move(timezone)),
      children_(std::move(children)) {}

DataType::DataType(TypeId id, int32_t precision, int32_t scale)
    : id_(id), precision_(precision), scale_(scale) {}

int32_t DataType::byte_width() const {
  switch (id_) {
    case TypeId::kBool:
      return 0;
    case TypeId::kInt8:
    case TypeId::kUInt8:
      return 1;
    case TypeId::kInt16:
    case TypeId::kUInt16:
    case TypeId::kFloat16:
      return 2;
    case TypeId::kInt32:
    case TypeId::kUInt32:
    case TypeId::kFloat32:
    case TypeId::kDate32:
      return 4;
    case TypeId::kInt64:
    case TypeId::kUInt64:
    case TypeId::kFloat64:
    case TypeId::kDate64:
    case TypeId::kTimestamp:
    case TypeId::kDuration:
      return 8;
    case TypeId::kFixedSizeBinary:
      return fixed_size_;
    case TypeId::kDecimal128:
      return 16;
    case TypeId::kDecimal256:
      return 32;
    default:
      return -1;
  }
}

int32_t DataType::bit_width() const {
  if (id_ == TypeId::kBool) return 1;
  const int32_t w = byte_width();
  return w < 0 ? -1 : w * 8;
}

const DataTypePtr& DataType::value_type() const { return value_field()->type(); }

bool DataType::is_integer() const { return is_signed_integer() || is_unsigned_integer(); }

bool DataType::is_signed_integer() const {
  return id_ == TypeId::kInt8 || id_ == TypeId::kInt16 || id_ == TypeId::kInt32 ||
         id_ == TypeId::kInt64;
}

bool DataType::is_unsigned_integer() const {
  return id_ == TypeId::kUInt8 || id_ == TypeId::kUInt16 || id_ == TypeId::kUInt32 ||
         id_ == TypeId::kUInt64;
}

bool DataType::is_floating() const {
  return id_ == TypeId::kFloat16 || id_ == TypeId::kFloat32 || id_ == TypeId::kFloat64;
}

bool DataType::is_primitive() const {
  return is_numeric() || id_ == TypeId::kDate32 || id_ == TypeId::kDate64 ||
         id_ == TypeId::kTimestamp || id_ == TypeId::kDuration || is_decimal();
}

bool DataType::is_binary_like() const {
  return id_ == TypeId::kUtf8 || id_ == TypeId::kLargeUtf8 || id_ == TypeId::kBinary ||
         id_ == TypeId::kLargeBinary;
}

bool DataType::is_list_like() const {
  return id_ == TypeId::kList || id_ == TypeId::kLargeList || id_ == TypeId::kFixedSizeList;
}

bool DataType::Equals(const DataType& other, bool check_metadata) const {
  if (this == &other) return true;
  if (id_ != other.id_ || fixed_size_ != other.fixed_size_) return false;
  if (precision_ != other.precision_ || scale_ != other.scale_) return false;
  if ((id_ == TypeId::kTimestamp || id_ == TypeId::kDuration) && unit_ != other.unit_) {
    return false;
  }
  if (timezone_ != other.timezone_) return false;
  if (children_.size() != other.children_.size()) return false;
  for (std::size_t i = 0; i < children_.size(); ++i) {
    const FieldPtr& a = children_[i];
    const FieldPtr& b = other.children_[i];
    if (a == b) continue;
    if (!a || !b || !a->Equals(*b, check_metadata)) return false;
  }
  return true;
}

namespace {

std::string_view BaseName(TypeId id) {
  switch (id) {
    case TypeId::kNull:
      return "null";
    case TypeId::kBool:
      return "bool";
    case TypeId::kInt8:
      return "int8";
    case TypeId::kInt16:
      return "int16";
    case TypeId::kInt32:
      return "int32";
    case TypeId::kInt64:
      return "int64";
    case TypeId::kUInt8:
      return "uint8";
    case TypeId::kUInt16:
      return "uint16";
    case TypeId::kUInt32:
      return "uint32";
    case TypeId::kUInt64:
      return "uint64";
    case TypeId::kFloat16:
      return "halffloat";
    case TypeId::kFloat32:
      return "float";
    case TypeId::kFloat64:
      return "double";
    case TypeId::kUtf8:
      return "string";
    case TypeId::kLargeUtf8:
      return "large_string";
    case TypeId::kBinary:
      return "binary";
    case TypeId::kLargeBinary:
      return "large_binary";
    case TypeId::kFixedSizeBinary:
      return "fixed_size_binary";
    case TypeId::kDate32:
      return "date32[day]";
    case TypeId::kDate64:
      return "date64[ms]";
    case TypeId::kTimestamp:
      return "timestamp";
    case TypeId::kDuration:
      return "duration";
    case TypeId::kList:
      return "list";
    case TypeId::kLargeList:
      return "large_list";
    case TypeId::kFixedSizeList:
      return "fixed_size_list";
    case TypeId::kStruct:
      return "struct";
    case TypeId::kDecimal128:
      return "decimal128";
    case TypeId::kDecimal256:
      return "decimal256";
  }
  return "unknown";
}

}  // namespace

std::string DataType::ToString() const {
  std::string out{BaseName(id_)};
  switch (id_) {
    case TypeId::kFixedSizeBinary:
      out += "[" + std::to_string(fixed_size_) + "]";
      break;
    case TypeId::kTimestamp:
      out += "[";
      out += TimeUnitName(unit_);
      if (!timezone_.empty()) out += ", tz=" + timezone_;
      out += "]";
      break;
    case TypeId::kDuration:
      out += "[";
      out += TimeUnitName(unit_);
      out += "]";
      break;
    case TypeId::kDecimal128:
    case TypeId::kDecimal256:
      out += "(" + std::to_string(precision_) + ", " + std::to_string(scale_) + ")";
      break;
    case TypeId::kList:
    case TypeId::kLargeList:
    case TypeId::kFixedSizeList:
      out += "<" +
             (children_.empty() || !children_[0] ? std::string("?") : children_[0]->ToString()) +
             ">";
      if (id_ == TypeId::kFixedSizeList) out += "[" + std::to_string(fixed_size_) + "]";
      break;
    case TypeId::kStruct: {
      out += "<";
      for (std::size_t i = 0; i < children_.size(); ++i) {
        if (i > 0) out += ", ";
        out += children_[i] ? children_[i]->ToString() : std::string("?");
      }
      out += ">";
      break;
    }
    default:
      break;
  }
  return out;
}

std::string_view TimeUnitName(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::kSecond:
      return "s";
    case TimeUnit::kMilli:
      return "ms";
    case TimeUnit::kMicro:
      return "us";
    case TimeUnit::kNano:
      return "ns";
  }
  return "?";
}

// ---- factories ----

namespace {

DataTypePtr MakeSimple(TypeId id) {
  return std::make_shared<const DataType>(id, 0, TimeUnit::kSecond, std::string{},
                                          std::vector<FieldPtr>{});
}

}  // namespace

#define LND_SINGLETON_TYPE(Name, Id)                 \
  DataTypePtr Name() {                               \
    static const DataTypePtr kType = MakeSimple(Id); \
    return kType;                                    \
  }

LND_SINGLETON_TYPE(Null, TypeId::kNull)
LND_SINGLETON_TYPE(Bool, TypeId::kBool)
LND_SINGLETON_TYPE(Int8, TypeId::kInt8)
LND_SINGLETON_TYPE(Int16, TypeId::kInt16)
LND_SINGLETON_TYPE(Int32, TypeId::kInt32)
LND_SINGLETON_TYPE(Int64, TypeId::kInt64)
LND_SINGLETON_TYPE(UInt8, TypeId::kUInt8)
LND_SINGLETON_TYPE(UInt16, TypeId::kUInt16)
LND_SINGLETON_TYPE(UInt32, TypeId::kUInt32)
LND_SINGLETON_TYPE(UInt64, TypeId::kUInt64)
LND_SINGLETON_TYPE(Float16, TypeId::kFloat16)
LND_SINGLETON_TYPE(Float32, TypeId::kFloat32)
LND_SINGLETON_TYPE(Float64, TypeId::kFloat64)
LND_SINGLETON_TYPE(Utf8, TypeId::kUtf8)
LND_SINGLETON_TYPE(LargeUtf8, TypeId::kLargeUtf8)
LND_SINGLETON_TYPE(Binary, TypeId::kBinary)
LND_SINGLETON_TYPE(LargeBinary, TypeId::kLargeBinary)
LND_SINGLETON_TYPE(Date32, TypeId::kDate32)
LND_SINGLETON_TYPE(Date64, TypeId::kDate64)

#undef LND_SINGLETON_TYPE

DataTypePtr FixedSizeBinary(int32_t byte_width) {
  return std::make_shared<const DataType>(TypeId::kFixedSizeBinary, byte_width, TimeUnit::kSecond,
                                          std::string{}, std::vector<FieldPtr>{});
}

DataTypePtr Timestamp(TimeUnit unit, std::string timezone) {
  return std::make_shared<const DataType>(TypeId::kTimestamp, 0, unit, std::move(timezone),
                                          std::vector<FieldPtr>{});
}

DataTypePtr Duration(TimeUnit unit) {
  return std::make_shared<const DataType>(TypeId::kDuration, 0, unit, std::string{},
                                          std::vector<FieldPtr>{});
}

DataTypePtr List(FieldPtr value_field) {
  return std::make_shared<const DataType>(TypeId::kList, 0, TimeUnit::kSecond, std::string{},
                                          std::vector<FieldPtr>{std::move(value_field)});
}
DataTypePtr List(DataTypePtr value_type) { return List(MakeField("item", std::move(value_type))); }

DataTypePtr LargeList(FieldPtr value_field) {
  return std::make_shared<const DataType>(TypeId::kLargeList, 0, TimeUnit::kSecond, std::string{},
                                          std::vector<FieldPtr>{std::move(value_field)});
}
DataTypePtr LargeList(DataTypePtr value_type) {
  return LargeList(MakeField("item", std::move(value_type)));
}

DataTypePtr FixedSizeList(FieldPtr value_field, int32_t list_size) {
  return std::make_shared<const DataType>(TypeId::kFixedSizeList, list_size, TimeUnit::kSecond,
                                          std::string{},
                                          std::vector<FieldPtr>{std::move(value_field)});
}
DataTypePtr FixedSizeList(DataTypePtr value_type, int32_t list_size) {
  return FixedSizeList(MakeField("item", std::move(value_type)), list_size);
}

DataTypePtr Struct(std::vector<FieldPtr> fields) {
  return std::make_shared<const DataType>(TypeId::kStruct, 0, TimeUnit::kSecond, std::string{},
                                          std::move(fields));
}

DataTypePtr Decimal128(int32_t precision, int32_t scale) {
  return std::make_shared<const DataType>(TypeId::kDecimal128, precision, scale);
}

DataTypePtr Decimal256(int32_t precision, int32_t scale) {
  return std::make_shared<const DataType>(TypeId::kDecimal256, precision, scale);
}

DataTypePtr MakeDecimal(int32_t bit_width, int32_t precision, int32_t scale, std::string* error) {
  if (bit_width != 128 && bit_width != 256) {
    *error = "decimal bit width " + std::to_string(bit_width) + " is not 128 or 256";
    return nullptr;
  }
  const int32_t max_precision = bit_width == 128 ? 38 : 76;
  if (precision < 1 || precision > max_precision || scale > precision || scale < -max_precision) {
    *error = "decimal" + std::to_string(bit_width) + " precision " + std::to_string(precision) +
             " and scale " + std::to_string(scale) + " are out of range (precision 1.." +
             std::to_string(max_precision) + ", scale at most the precision)";
    return nullptr;
  }
  return bit_width == 128 ? Decimal128(precision, scale) : Decimal256(precision, scale);
}

DataTypePtr TypeForId(TypeId id) {
  switch (id) {
    case TypeId::kNull:
      return Null();
    case TypeId::kBool:
      return Bool();
    case TypeId::kInt8:
      return Int8();
    case TypeId::kInt16:
      return Int16();
    case TypeId::kInt32:
      return Int32();
    case TypeId::kInt64:
      return Int64();
    case TypeId::kUInt8:
      return UInt8();
    case TypeId::kUInt16:
      return UInt16();
    case TypeId::kUInt32:
      return UInt32();
    case TypeId::kUInt64:
      return UInt64();
    case TypeId::kFloat16:
      return Float16();
    case TypeId::kFloat32:
      return Float32();
    case TypeId::kFloat64:
      return Float64();
    case TypeId::kUtf8:
      return Utf8();
    case TypeId::kLargeUtf8:
      return LargeUtf8();
    case TypeId::kBinary:
      return Binary();
    case TypeId::kLargeBinary:
      return LargeBinary();
    case TypeId::kDate32:
      return Date32();
    case TypeId::kDate64:
      return Date64();
    default:
      return nullptr;
  }
}

// ---- Field ----

Field::Field(std::string name, DataTypePtr type, bool nullable, Metadata metadata)
    : name_(std::move(name)),
      type_(std::move(type)),
      nullable_(nullable),
      metadata_(std::move(metadata)) {}

FieldPtr Field::WithName(std::string name) const {
  return std::make_shared<const Field>(std::move(name), type_, nullable_, metadata_);
}
FieldPtr Field::WithType(DataTypePtr type) const {
  return std::make_shared<const Field>(name_, std::move(type), nullable_, metadata_);
}
FieldPtr Field::WithNullable(bool nullable) const {
  return std::make_shared<const Field>(name_, type_, nullable, metadata_);
}
FieldPtr Field::WithMetadata(Metadata metadata) const {
  return std::make_shared<const Field>(name_, type_, nullable_, std::move(metadata));
}

bool Field::Equals(const Field& other, bool check_metadata) const {
  if (this == &other) return true;
  if (name_ != other.name_ || nullable_ != other.nullable_) return false;
  if (check_metadata && metadata_ != other.metadata_) return false;
  if (type_ == other.type_) return true;
  if (!type_ || !other.type_) return false;
  return type_->Equals(*other.type_, check_metadata);
}

std::string Field::ToString() const {
  std::string out = name_ + ": " + (type_ ? type_->ToString() : std::string("<no type>"));
  if (!nullable_) out += " not null";
  return out;
}

FieldPtr MakeField(std::string name, DataTypePtr type, bool nullable, Metadata metadata) {
  return std::make_shared<const Field>(std::move(name), std::move(type), nullable,
                                       std::move(metadata));
}

// ---- Schema ----

Schema::Schema(std::vector<FieldPtr> fields, Metadata metadata)
    : fields_(std::move(fields)), metadata_(std::move(metadata)) {}

int Schema::FieldIndex(std::string_view name) const {
  for (std::size_t i = 0; i < fields_.size(); ++i) {
    if (fields_[i]->name() == name) return static_cast<int>(i);
  }
  return -1;
}

FieldPtr Schema::GetField(std::string_view name) const {
  const int i = FieldIndex(name);
  return i < 0 ? nullptr : fields_[static_cast<std::size_t>(i)];
}

SchemaPtr Schema::WithMetadata(Metadata metadata) const {
  return std::make_shared<const Schema>(fields_, std::move(metadata));
}

bool Schema::Equals(const Schema& other, bool check_metadata) const {
  if (this == &other) return true;
  if (fields_.size() != other.fields_.size()) return false;
  if (check_metadata && metadata_ != other.metadata_) return false;
  for (std::size_t i = 0; i < fields_.size(); ++i) {
    if (!fields_[i]->Equals(*other.fields_[i], check_metadata)) return false;
  }
  return true;
}

std::string Schema::ToString() const {
  std::string out;
  for (std::size_t i = 0; i < fields_.size(); ++i) {
    if (i > 0) out += "\n";
    out += fields_[i]->ToString();
  }
  if (!metadata_.empty()) {
    out += "\n-- schema metadata --";
    for (const auto& [k, v] : metadata_.entries()) out += "\n" + k + ": " + v;
  }
  return out;
}

SchemaPtr MakeSchema(std::vector<FieldPtr> fields, Metadata metadata) {
  return std::make_shared<const Schema>(std::move(fields), std::move(metadata));
}

}  // namespace lance_nd::array
