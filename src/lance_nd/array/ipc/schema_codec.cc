// Schema <-> Arrow IPC flatbuffer Schema table.
#include "lance_nd/array/ipc/schema_codec.h"

#include <string>
#include <utility>
#include <vector>

namespace lance_nd::array::ipc::internal {
namespace {

using flatbuffers::FlatBufferBuilder;
using flatbuffers::Offset;

using KeyValueVector = flatbuffers::Vector<Offset<fb::KeyValue>>;

Offset<KeyValueVector> BuildMetadata(FlatBufferBuilder& fbb, const Metadata& metadata) {
  if (metadata.empty()) return 0;
  std::vector<Offset<fb::KeyValue>> kvs;
  kvs.reserve(metadata.size());
  for (const auto& [k, v] : metadata.entries()) {
    auto key = fbb.CreateString(k);
    auto value = fbb.CreateString(v);
    kvs.push_back(fb::CreateKeyValue(fbb, key, value));
  }
  return fbb.CreateVector(kvs);
}

fb::TimeUnit ToFbUnit(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::kSecond:
      return fb::TimeUnit::SECOND;
    case TimeUnit::kMilli:
      return fb::TimeUnit::MILLISECOND;
    case TimeUnit::kMicro:
      return fb::TimeUnit::MICROSECOND;
    case TimeUnit::kNano:
      return fb::TimeUnit::NANOSECOND;
  }
  return fb::TimeUnit::SECOND;
}

Result<Offset<fb::Field>> BuildField(FlatBufferBuilder& fbb, const Field& field, int depth);

Result<Offset<flatbuffers::Vector<Offset<fb::Field>>>> BuildFields(
    FlatBufferBuilder& fbb, const std::vector<FieldPtr>& fields, int depth) {
  std::vector<Offset<fb::Field>> out;
  out.reserve(fields.size());
  for (const auto& f : fields) {
    LND_ASSIGN_OR_RETURN(auto off, BuildField(fbb, *f, depth + 1));
    out.push_back(off);
  }
  return fbb.CreateVector(out);
}

Result<Offset<fb::Field>> BuildField(FlatBufferBuilder& fbb, const Field& field, int depth) {
  if (depth > 64) {
    return Status::InvalidArgument("field '" + field.name() +
                                   "' is nested more than 64 levels deep; the IPC writer "
                                   "supports at most 64");
  }
  const DataType& t = *field.type();
  fb::Type type_type = fb::Type::NONE;
  Offset<void> type_off;
  switch (t.id()) {
    case TypeId::kNull:
      type_type = fb::Type::Null;
      type_off = fb::CreateNull(fbb).Union();
      break;
    case TypeId::kBool:
      type_type = fb::Type::Bool;
      type_off = fb::CreateBool(fbb).Union();
      break;
    case TypeId::kInt8:
    case TypeId::kInt16:
    case TypeId::kInt32:
    case TypeId::kInt64:
    case TypeId::kUInt8:
    case TypeId::kUInt16:
    case TypeId::kUInt32:
    case TypeId::kUInt64:
      type_type = fb::Type::Int;
      type_off = fb::CreateInt(fbb, t.bit_width(), t.is_signed_integer()).Union();
      break;
    case TypeId::kFloat16:
    case TypeId::kFloat32:
    case TypeId::kFloat64: {
      const fb::Precision p = t.id() == TypeId::kFloat16   ? fb::Precision::HALF
                              : t.id() == TypeId::kFloat32 ? fb::Precision::SINGLE
                                                           : fb::Precision::DOUBLE;
      type_type = fb::Type::FloatingPoint;
      type_off = fb::CreateFloatingPoint(fbb, p).Union();
      break;
    }
    case TypeId::kUtf8:
      type_type = fb::Type::Utf8;
      type_off = fb::CreateUtf8(fbb).Union();
      break;
    case TypeId::kLargeUtf8:
      type_type = fb::Type::LargeUtf8;
      type_off = fb::CreateLargeUtf8(fbb).Union();
      break;
    case TypeId::kBinary:
      type_type = fb::Type::Binary;
      type_off = fb::CreateBinary(fbb).Union();
      break;
    case TypeId::kLargeBinary:
      type_type = fb::Type::LargeBinary;
      type_off = fb::CreateLargeBinary(fbb).Union();
      break;
    case TypeId::kFixedSizeBinary:
      type_type = fb::Type::FixedSizeBinary;
      type_off = fb::CreateFixedSizeBinary(fbb, t.fixed_size()).Union();
      break;
    case TypeId::kDate32:
      type_type = fb::Type::Date;
      type_off = fb::CreateDate(fbb, fb::DateUnit::DAY).Union();
      break;
    case TypeId::kDate64:
      type_type = fb::Type::Date;
      type_off = fb::CreateDate(fbb, fb::DateUnit::MILLISECOND).Union();
      break;
    case TypeId::kTimestamp: {
      Offset<flatbuffers::String> tz;
      if (!t.timezone().empty()) tz = fbb.CreateString(t.timezone());
      type_type = fb::Type::Timestamp;
      type_off = fb::CreateTimestamp(fbb, ToFbUnit(t.unit()), tz).Union();
      break;
    }
    case TypeId::kDuration:
      type_type = fb::Type::Duration;
      type_off = fb::CreateDuration(fbb, ToFbUnit(t.unit())).Union();
      break;
    case TypeId::kList:
      type_type = fb::Type::List;
      type_off = fb::CreateList(fbb).Union();
      break;
    case TypeId::kLargeList:
      type_type = fb::Type::LargeList;
      type_off = fb::CreateLargeList(fbb).Union();
      break;
    case TypeId::kFixedSizeList:
      type_type = fb::Type::FixedSizeList;
      type_off = fb::CreateFixedSizeList(fbb, t.fixed_size()).Union();
      break;
    case TypeId::kStruct:
      type_type = fb::Type::Struct_;
      type_off = fb::CreateStruct_(fbb).Union();
      break;
    case TypeId::kDecimal128:
    case TypeId::kDecimal256:
      type_type = fb::Type::Decimal;
      type_off = fb::CreateDecimal(fbb, t.precision(), t.scale(), t.byte_width() * 8).Union();
      break;
  }
  if (type_type == fb::Type::NONE) {
    return Status::NotImplemented("field '" + field.name() + "': type " + t.ToString() +
                                  " has no Arrow IPC encoding in lance-nd");
  }
  LND_ASSIGN_OR_RETURN(auto children, BuildFields(fbb, t.children(), depth));
  auto name = fbb.CreateString(field.name());
  auto metadata = BuildMetadata(fbb, field.metadata());
  return fb::CreateField(fbb, name, field.nullable(), type_type, type_off, 0, children, metadata);
}

// ---- parsing ----

Status ParseMetadata(const KeyValueVector* kvs, Metadata* out) {
  if (kvs == nullptr) return Status::OK();
  for (const fb::KeyValue* kv : *kvs) {
    if (kv == nullptr) continue;
    std::string key = kv->key() ? kv->key()->str() : std::string();
    std::string value = kv->value() ? kv->value()->str() : std::string();
    out->Set(std::move(key), std::move(value));
  }
  return Status::OK();
}

std::string_view UnsupportedTypeName(int type) {
  switch (type) {
    case 9:
      return "time32/time64";
    case 11:
      return "interval";
    case 14:
      return "union";
    case 17:
      return "map";
    case 22:
      return "run-end encoded";
    case 23:
      return "binary view";
    case 24:
      return "utf8 view";
    case 25:
      return "list view";
    case 26:
      return "large list view";
    default:
      return {};
  }
}

Result<TimeUnit> ParseUnit(fb::TimeUnit unit, const std::string& where) {
  switch (unit) {
    case fb::TimeUnit::SECOND:
      return TimeUnit::kSecond;
    case fb::TimeUnit::MILLISECOND:
      return TimeUnit::kMilli;
    case fb::TimeUnit::MICROSECOND:
      return TimeUnit::kMicro;
    case fb::TimeUnit::NANOSECOND:
      return TimeUnit::kNano;
  }
  return Status::Corrupt(where + ": invalid time unit " + std::to_string(static_cast<int>(unit)) +
                         " (expected 0 to 3)");
}

Result<FieldPtr> ParseField(const fb::Field* field, const std::string& parent, int depth);

template <typename T>
Status NeedTable(const T* table, const std::string& where, std::string_view type_name) {
  if (table == nullptr) {
    return Status::Corrupt(where + ": " + std::string(type_name) + " type has no parameters table");
  }
  return Status::OK();
}

Result<DataTypePtr> ParseType(const fb::Field* field, const std::string& where,
                              std::vector<FieldPtr> children) {
  const int raw = static_cast<int>(field->type_type());
  auto need_children = [&](std::size_t n, std::string_view name) -> Status {
    if (children.size() != n) {
      return Status::Corrupt(where + ": " + std::string(name) + " type has " +
                             std::to_string(children.size()) + " children, expected " +
                             std::to_string(n));
    }
    return Status::OK();
  };
  switch (field->type_type()) {
    case fb::Type::NONE:
      return Status::Corrupt(where + ": field has no type");
    case fb::Type::Null:
      return Null();
    case fb::Type::Bool:
      return Bool();
    case fb::Type::Int: {
      const fb::Int* t = field->type_as_Int();
      LND_RETURN_NOT_OK(NeedTable(t, where, "Int"));
      const bool s = t->is_signed();
      switch (t->bit_width()) {
        case 8:
          return s ? Int8() : UInt8();
        case 16:
          return s ? Int16() : UInt16();
        case 32:
          return s ? Int32() : UInt32();
        case 64:
          return s ? Int64() : UInt64();
        default:
          return Status::Corrupt(where + ": Int bit width " + std::to_string(t->bit_width()) +
                                 " is invalid (expected 8, 16, 32 or 64)");
      }
    }
    case fb::Type::FloatingPoint: {
      const fb::FloatingPoint* t = field->type_as_FloatingPoint();
      LND_RETURN_NOT_OK(NeedTable(t, where, "FloatingPoint"));
      switch (t->precision()) {
        case fb::Precision::HALF:
          return Float16();
        case fb::Precision::SINGLE:
          return Float32();
        case fb::Precision::DOUBLE:
          return Float64();
      }
      return Status::Corrupt(where + ": floating point precision " +
                             std::to_string(static_cast<int>(t->precision())) +
                             " is invalid (expected 0 to 2)");
    }
    case fb::Type::Utf8:
      return Utf8();
    case fb::Type::LargeUtf8:
      return LargeUtf8();
    case fb::Type::Binary:
      return Binary();
    case fb::Type::LargeBinary:
      return LargeBinary();
    case fb::Type::FixedSizeBinary: {
      const fb::FixedSizeBinary* t = field->type_as_FixedSizeBinary();
      LND_RETURN_NOT_OK(NeedTable(t, where, "FixedSizeBinary"));
      if (t->byte_width() < 0) {
        return Status::Corrupt(where + ": fixed size binary width " +
                               std::to_string(t->byte_width()) + " is negative");
      }
      return FixedSizeBinary(t->byte_width());
    }
    case fb::Type::Decimal: {
      const fb::Decimal* t = field->type_as_Decimal();
      LND_RETURN_NOT_OK(NeedTable(t, where, "Decimal"));
      std::string error;
      DataTypePtr d = MakeDecimal(t->bit_width(), t->precision(), t->scale(), &error);
      if (d == nullptr) return Status::Corrupt(where + ": " + error);
      return d;
    }
    case fb::Type::Date: {
      const fb::Date* t = field->type_as_Date();
      // An absent table means the default unit (milliseconds).
      const fb::DateUnit unit = t != nullptr ? t->unit() : fb::DateUnit::MILLISECOND;
      if (unit == fb::DateUnit::DAY) return Date32();
      if (unit == fb::DateUnit::MILLISECOND) return Date64();
      return Status::Corrupt(where + ": date unit " + std::to_string(static_cast<int>(unit)) +
                             " is invalid (expected 0 or 1)");
    }
    case fb::Type::Timestamp: {
      const fb::Timestamp* t = field->type_as_Timestamp();
      LND_RETURN_NOT_OK(NeedTable(t, where, "Timestamp"));
      LND_ASSIGN_OR_RETURN(TimeUnit unit, ParseUnit(t->unit(), where));
      return Timestamp(unit, t->timezone() ? t->timezone()->str() : std::string());
    }
    case fb::Type::Duration: {
      const fb::Duration* t = field->type_as_Duration();
      const fb::TimeUnit u = t != nullptr ? t->unit() : fb::TimeUnit::MILLISECOND;
      LND_ASSIGN_OR_RETURN(TimeUnit unit, ParseUnit(u, where));
      return Duration(unit);
    }
    case fb::Type::List:
      LND_RETURN_NOT_OK(need_children(1, "List"));
      return List(children[0]);
    case fb::Type::LargeList:
      LND_RETURN_NOT_OK(need_children(1, "LargeList"));
      return LargeList(children[0]);
    case fb::Type::FixedSizeList: {
      const fb::FixedSizeList* t = field->type_as_FixedSizeList();
      LND_RETURN_NOT_OK(NeedTable(t, where, "FixedSizeList"));
      LND_RETURN_NOT_OK(need_children(1, "FixedSizeList"));
      if (t->list_size() < 0) {
        return Status::Corrupt(where + ": fixed size list size " + std::to_string(t->list_size()) +
                               " is negative");
      }
      return FixedSizeList(children[0], t->list_size());
    }
    case fb::Type::Struct_:
      return Struct(std::move(children));
  }
  const std::string_view name = UnsupportedTypeName(raw);
  if (!name.empty()) {
    return Status::NotImplemented(where + ": Arrow type " + std::string(name) +
                                  " is not supported by lance-nd");
  }
  return Status::Corrupt(where + ": unknown Arrow type number " + std::to_string(raw) +
                         " (expected 1 to 26)");
}

Result<FieldPtr> ParseField(const fb::Field* field, const std::string& parent, int depth) {
  if (field == nullptr) return Status::Corrupt(parent + ": null field entry");
  const std::string name = field->name() ? field->name()->str() : std::string();
  const std::string where = parent.empty() ? "field '" + name + "'" : parent + "." + name;
  if (depth > 64) return Status::Corrupt(where + ": fields nested more than 64 levels deep");
  if (field->dictionary() != nullptr) {
    return Status::NotImplemented(
        where +
        " is dictionary-encoded; dictionary encoding is not supported by lance-nd's "
        "IPC reader (decode it to plain values before writing)");
  }
  std::vector<FieldPtr> children;
  if (field->children() != nullptr) {
    children.reserve(field->children()->size());
    for (const fb::Field* child : *field->children()) {
      LND_ASSIGN_OR_RETURN(auto c, ParseField(child, where, depth + 1));
      children.push_back(std::move(c));
    }
  }
  LND_ASSIGN_OR_RETURN(DataTypePtr type, ParseType(field, where, std::move(children)));
  Metadata metadata;
  LND_RETURN_NOT_OK(ParseMetadata(field->custom_metadata(), &metadata));
  return MakeField(name, std::move(type), field->nullable(), std::move(metadata));
}

}  // namespace

Result<Offset<fb::Schema>> BuildSchema(FlatBufferBuilder& fbb, const Schema& schema) {
  LND_ASSIGN_OR_RETURN(auto fields, BuildFields(fbb, schema.fields(), 0));
  auto metadata = BuildMetadata(fbb, schema.metadata());
  return fb::CreateSchema(fbb, fb::Endianness::Little, fields, metadata);
}

Result<SchemaPtr> ParseSchema(const fb::Schema* schema) {
  if (schema == nullptr) return Status::Corrupt("schema message has no schema table");
  if (schema->endianness() != fb::Endianness::Little) {
    return Status::NotImplemented(
        "big-endian Arrow IPC data is not supported by lance-nd (rewrite it little-endian)");
  }
  std::vector<FieldPtr> fields;
  if (schema->fields() != nullptr) {
    fields.reserve(schema->fields()->size());
    for (const fb::Field* f : *schema->fields()) {
      LND_ASSIGN_OR_RETURN(auto field, ParseField(f, std::string(), 0));
      fields.push_back(std::move(field));
    }
  }
  Metadata metadata;
  LND_RETURN_NOT_OK(ParseMetadata(schema->custom_metadata(), &metadata));
  return MakeSchema(std::move(fields), std::move(metadata));
}

}  // namespace lance_nd::array::ipc::internal
