// Arrow C Data Interface: ArrowSchema export and import (types, fields, schemas, metadata).
#include <algorithm>
#include <charconv>
#include <cstring>
#include <limits>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lance_nd/array/c_data.h"
#include "lance_nd/array/c_data_internal.h"
#include "lance_nd/core/internal/checked_math.h"

namespace lance_nd::array {
namespace internal {

namespace {

char UnitChar(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::kSecond:
      return 's';
    case TimeUnit::kMilli:
      return 'm';
    case TimeUnit::kMicro:
      return 'u';
    case TimeUnit::kNano:
      return 'n';
  }
  return 's';
}

void AppendInt32(std::string* out, int32_t v) {
  char bytes[sizeof(int32_t)];
  std::memcpy(bytes, &v, sizeof(v));
  out->append(bytes, sizeof(bytes));
}

}  // namespace

std::string CFormatString(const DataType& type) {
  switch (type.id()) {
    case TypeId::kNull:
      return "n";
    case TypeId::kBool:
      return "b";
    case TypeId::kInt8:
      return "c";
    case TypeId::kUInt8:
      return "C";
    case TypeId::kInt16:
      return "s";
    case TypeId::kUInt16:
      return "S";
    case TypeId::kInt32:
      return "i";
    case TypeId::kUInt32:
      return "I";
    case TypeId::kInt64:
      return "l";
    case TypeId::kUInt64:
      return "L";
    case TypeId::kFloat16:
      return "e";
    case TypeId::kFloat32:
      return "f";
    case TypeId::kFloat64:
      return "g";
    case TypeId::kUtf8:
      return "u";
    case TypeId::kLargeUtf8:
      return "U";
    case TypeId::kBinary:
      return "z";
    case TypeId::kLargeBinary:
      return "Z";
    case TypeId::kFixedSizeBinary:
      return "w:" + std::to_string(type.fixed_size());
    case TypeId::kDate32:
      return "tdD";
    case TypeId::kDate64:
      return "tdm";
    case TypeId::kTimestamp:
      return std::string("ts") + UnitChar(type.unit()) + ":" + type.timezone();
    case TypeId::kDuration:
      return std::string("tD") + UnitChar(type.unit());
    case TypeId::kList:
      return "+l";
    case TypeId::kLargeList:
      return "+L";
    case TypeId::kFixedSizeList:
      return "+w:" + std::to_string(type.fixed_size());
    case TypeId::kStruct:
      return "+s";
    case TypeId::kDecimal128:
    case TypeId::kDecimal256:
      return "d:" + std::to_string(type.precision()) + "," + std::to_string(type.scale()) +
             (type.id() == TypeId::kDecimal256 ? ",256" : "");
  }
  return "?";
}

std::string EncodeCMetadata(const Metadata& metadata) {
  std::string out;
  if (metadata.empty()) return out;
  AppendInt32(&out, static_cast<int32_t>(metadata.size()));
  for (const auto& [key, value] : metadata.entries()) {
    AppendInt32(&out, static_cast<int32_t>(key.size()));
    out += key;
    AppendInt32(&out, static_cast<int32_t>(value.size()));
    out += value;
  }
  return out;
}

Result<Metadata> DecodeCMetadata(const char* data, std::optional<std::size_t> size) {
  Metadata out;
  if (data == nullptr) return out;
  std::size_t pos = 0;
  auto need = [&](std::size_t n, const char* what) -> Status {
    if (size.has_value() && (pos > *size || *size - pos < n)) {
      return Status::InvalidArgument("ArrowSchema metadata is truncated: " + std::string(what) +
                                     " needs " + std::to_string(n) + " bytes at byte " +
                                     std::to_string(pos) + " of a " + std::to_string(*size) +
                                     "-byte blob; the producer must encode int32 count, then "
                                     "int32 length + bytes for each key and value");
    }
    return Status::OK();
  };
  auto read_int32 = [&](const char* what, int32_t* v) -> Status {
    LND_RETURN_NOT_OK(need(sizeof(int32_t), what));
    std::memcpy(v, data + pos, sizeof(int32_t));
    pos += sizeof(int32_t);
    if (*v < 0) {
      return Status::InvalidArgument(
          "ArrowSchema metadata has a negative " + std::string(what) + " (" + std::to_string(*v) +
          ") at byte " + std::to_string(pos - sizeof(int32_t)) + "; expected a non-negative int32");
    }
    return Status::OK();
  };
  int32_t count = 0;
  LND_RETURN_NOT_OK(read_int32("entry count", &count));
  for (int32_t i = 0; i < count; ++i) {
    int32_t key_len = 0;
    LND_RETURN_NOT_OK(read_int32("key length", &key_len));
    LND_RETURN_NOT_OK(need(static_cast<std::size_t>(key_len), "key"));
    std::string key(data + pos, static_cast<std::size_t>(key_len));
    pos += static_cast<std::size_t>(key_len);
    int32_t value_len = 0;
    LND_RETURN_NOT_OK(read_int32("value length", &value_len));
    LND_RETURN_NOT_OK(need(static_cast<std::size_t>(value_len), "value"));
    std::string value(data + pos, static_cast<std::size_t>(value_len));
    pos += static_cast<std::size_t>(value_len);
    out.Set(std::move(key), std::move(value));
  }
  return out;
}

}  // namespace internal

namespace {

// ---- Export ---------------------------------------------------------------------------------

/// Everything an exported ArrowSchema points to. Each node (also each child) owns its own
/// private data, so a consumer may move a child out and release it independently.
struct ExportedSchema {
  std::string format;
  std::string name;
  std::string metadata;
  std::vector<ArrowSchema> children;
  std::vector<ArrowSchema*> child_pointers;
};

void ReleaseExportedSchema(ArrowSchema* schema) {
  if (schema == nullptr || schema->release == nullptr) return;
  auto* priv = static_cast<ExportedSchema*>(schema->private_data);
  for (ArrowSchema& child : priv->children) {
    if (child.release != nullptr) child.release(&child);  // skipped if moved out
  }
  delete priv;
  schema->release = nullptr;
  schema->private_data = nullptr;
}

void FillSchema(const DataType& type, const std::string& name, int64_t flags,
                const Metadata* metadata, ArrowSchema* out) {
  auto* priv = new ExportedSchema();
  priv->format = internal::CFormatString(type);
  priv->name = name;
  if (metadata != nullptr) priv->metadata = internal::EncodeCMetadata(*metadata);
  const std::vector<FieldPtr>& fields = type.children();
  priv->children.resize(fields.size());
  priv->child_pointers.resize(fields.size());
  for (std::size_t i = 0; i < fields.size(); ++i) {
    const Field& f = *fields[i];
    FillSchema(*f.type(), f.name(), f.nullable() ? ARROW_FLAG_NULLABLE : 0, &f.metadata(),
               &priv->children[i]);
    priv->child_pointers[i] = &priv->children[i];
  }
  out->format = priv->format.c_str();
  out->name = priv->name.c_str();
  out->metadata = priv->metadata.empty() ? nullptr : priv->metadata.data();
  out->flags = flags;
  out->n_children = static_cast<int64_t>(fields.size());
  out->children = fields.empty() ? nullptr : priv->child_pointers.data();
  out->dictionary = nullptr;
  out->release = &ReleaseExportedSchema;
  out->private_data = priv;
}

Status CheckOut(const void* out) {
  if (out == nullptr) {
    return Status::InvalidArgument("the output ArrowSchema pointer is null; pass a struct to fill");
  }
  return Status::OK();
}

Status CheckTypeExportable(const DataType& type, int depth) {
  if (depth > internal::kMaxCDataDepth) {
    return Status::InvalidArgument("type nesting is deeper than " +
                                   std::to_string(internal::kMaxCDataDepth) + " levels");
  }
  for (const FieldPtr& f : type.children()) {
    if (f == nullptr || f->type() == nullptr) {
      return Status::InvalidArgument("type " + type.ToString() +
                                     " has a null child field or child type");
    }
    LND_RETURN_NOT_OK(CheckTypeExportable(*f->type(), depth + 1));
  }
  return Status::OK();
}

// ---- Import ---------------------------------------------------------------------------------

std::string Quote(std::string_view s) { return "'" + std::string(s) + "'"; }

Status Malformed(std::string_view format, std::string_view why) {
  return Status::InvalidArgument("malformed ArrowSchema format string " + Quote(format) + ": " +
                                 std::string(why) +
                                 "; see the Arrow C Data Interface format string table");
}

Status Unsupported(std::string_view format, std::string_view what) {
  return Status::NotImplemented("ArrowSchema format string " + Quote(format) + " (" +
                                std::string(what) +
                                ") is not supported by lance-nd; cast the column to a supported "
                                "type before exporting it");
}

/// Parses the decimal int32 >= 0 of "w:N" / "+w:N".
Result<int32_t> ParseSize(std::string_view format, std::string_view digits) {
  int32_t v = 0;
  if (digits.empty() || digits.front() < '0' || digits.front() > '9') {
    return Malformed(format, "expected a non-negative decimal size after ':'");
  }
  auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
  if (ec != std::errc() || ptr != digits.data() + digits.size()) {
    return Malformed(format, "the size after ':' is not a decimal int32");
  }
  return v;
}

Result<TimeUnit> ParseUnit(std::string_view format, char c) {
  switch (c) {
    case 's':
      return TimeUnit::kSecond;
    case 'm':
      return TimeUnit::kMilli;
    case 'u':
      return TimeUnit::kMicro;
    case 'n':
      return TimeUnit::kNano;
    default:
      return Malformed(format, "unknown time unit " + Quote(std::string_view(&c, 1)) +
                                   ", expected one of s m u n");
  }
}

Status ExpectChildren(std::string_view format, std::size_t found, std::size_t expected) {
  if (found != expected) {
    return Status::InvalidArgument("ArrowSchema with format " + Quote(format) + " has " +
                                   std::to_string(found) + " children, expected " +
                                   std::to_string(expected));
  }
  return Status::OK();
}

Result<FieldPtr> ImportFieldNode(const ArrowSchema& schema, int depth);

/// Parses `format` with already-imported `children` into a type.
// "d:precision,scale[,bitWidth]" (bit width 128 when absent).
Result<DataTypePtr> ParseDecimalFormat(std::string_view f) {
  int32_t parts[3] = {0, 0, 128};
  std::size_t count = 0;
  std::string_view rest = f.substr(2);
  while (count < 3) {
    const std::size_t comma = rest.find(',');
    const std::string_view part = rest.substr(0, comma);
    int32_t v = 0;
    auto [ptr, ec] = std::from_chars(part.data(), part.data() + part.size(), v);
    if (part.empty() || ec != std::errc() || ptr != part.data() + part.size()) break;
    parts[count++] = v;
    if (comma == std::string_view::npos) {
      rest = {};
      break;
    }
    rest = rest.substr(comma + 1);
  }
  if (count < 2 || !rest.empty()) {
    return Malformed(f, "a decimal is 'd:<precision>,<scale>' or 'd:<precision>,<scale>,<bits>'");
  }
  std::string error;
  DataTypePtr t = MakeDecimal(parts[2], parts[0], parts[1], &error);
  if (t == nullptr) return Malformed(f, error);
  return t;
}

Result<DataTypePtr> TypeFromFormat(std::string_view f, std::vector<FieldPtr> children) {
  if (f.size() == 1) {
    DataTypePtr t;
    switch (f[0]) {
      case 'n':
        t = Null();
        break;
      case 'b':
        t = Bool();
        break;
      case 'c':
        t = Int8();
        break;
      case 'C':
        t = UInt8();
        break;
      case 's':
        t = Int16();
        break;
      case 'S':
        t = UInt16();
        break;
      case 'i':
        t = Int32();
        break;
      case 'I':
        t = UInt32();
        break;
      case 'l':
        t = Int64();
        break;
      case 'L':
        t = UInt64();
        break;
      case 'e':
        t = Float16();
        break;
      case 'f':
        t = Float32();
        break;
      case 'g':
        t = Float64();
        break;
      case 'u':
        t = Utf8();
        break;
      case 'U':
        t = LargeUtf8();
        break;
      case 'z':
        t = Binary();
        break;
      case 'Z':
        t = LargeBinary();
        break;
      default:
        break;
    }
    if (t != nullptr) {
      LND_RETURN_NOT_OK(ExpectChildren(f, children.size(), 0));
      return t;
    }
  }
  if (f.starts_with("w:")) {
    LND_RETURN_NOT_OK(ExpectChildren(f, children.size(), 0));
    LND_ASSIGN_OR_RETURN(int32_t width, ParseSize(f, f.substr(2)));
    return FixedSizeBinary(width);
  }
  if (f == "tdD" || f == "tdm") {
    LND_RETURN_NOT_OK(ExpectChildren(f, children.size(), 0));
    return f == "tdD" ? Date32() : Date64();
  }
  if (f.starts_with("td")) return Malformed(f, "a date is 'tdD' (days) or 'tdm' (milliseconds)");
  if (f.starts_with("ts")) {
    if (f.size() < 4 || f[3] != ':') {
      return Malformed(f, "a timestamp is 'ts<unit>:<timezone>' (timezone may be empty)");
    }
    LND_ASSIGN_OR_RETURN(TimeUnit unit, ParseUnit(f, f[2]));
    LND_RETURN_NOT_OK(ExpectChildren(f, children.size(), 0));
    return Timestamp(unit, std::string(f.substr(4)));
  }
  if (f.starts_with("tD")) {
    if (f.size() != 3) return Malformed(f, "a duration is 'tD<unit>'");
    LND_ASSIGN_OR_RETURN(TimeUnit unit, ParseUnit(f, f[2]));
    LND_RETURN_NOT_OK(ExpectChildren(f, children.size(), 0));
    return Duration(unit);
  }
  if (f == "+l" || f == "+L") {
    LND_RETURN_NOT_OK(ExpectChildren(f, children.size(), 1));
    return f == "+l" ? List(std::move(children[0])) : LargeList(std::move(children[0]));
  }
  if (f.starts_with("+w:")) {
    LND_RETURN_NOT_OK(ExpectChildren(f, children.size(), 1));
    LND_ASSIGN_OR_RETURN(int32_t size, ParseSize(f, f.substr(3)));
    return FixedSizeList(std::move(children[0]), size);
  }
  if (f == "+s") return Struct(std::move(children));
  // Arrow types lance-nd does not model.
  if (f.starts_with("d:")) {
    LND_RETURN_NOT_OK(ExpectChildren(f, children.size(), 0));
    return ParseDecimalFormat(f);
  }
  if (f.starts_with("tt")) return Unsupported(f, "time of day");
  if (f.starts_with("ti")) return Unsupported(f, "interval");
  if (f == "+m") return Unsupported(f, "map");
  if (f.starts_with("+ud") || f.starts_with("+us")) return Unsupported(f, "union");
  if (f == "+r") return Unsupported(f, "run-end encoded");
  if (f == "vu" || f == "vz") return Unsupported(f, "string/binary view");
  if (f == "+vl" || f == "+vL") return Unsupported(f, "list view");
  if (f.empty()) return Malformed(f, "the format string is empty");
  return Malformed(f, "unknown type");
}

std::string NameOf(const ArrowSchema& schema) {
  return schema.name == nullptr ? std::string() : std::string(schema.name);
}

/// Checks the structural invariants of one ArrowSchema node and imports its children as fields.
Result<std::vector<FieldPtr>> ImportChildren(const ArrowSchema& schema, int depth) {
  const std::string name = NameOf(schema);
  if (schema.format == nullptr) {
    return Status::InvalidArgument("ArrowSchema " + Quote(name) +
                                   " has a null format string; every schema needs one");
  }
  if (depth > internal::kMaxCDataDepth) {
    return Status::InvalidArgument("ArrowSchema nesting is deeper than " +
                                   std::to_string(internal::kMaxCDataDepth) + " levels at " +
                                   Quote(name));
  }
  if (schema.dictionary != nullptr) {
    const char* dict_format =
        schema.dictionary->format != nullptr ? schema.dictionary->format : "(null)";
    return Status::NotImplemented(
        "dictionary-encoded ArrowSchema " + Quote(name) + " (index format " + Quote(schema.format) +
        ", dictionary format " + Quote(dict_format) +
        ") is not supported by lance-nd; decode the dictionary before exporting");
  }
  if (schema.n_children < 0) {
    return Status::InvalidArgument("ArrowSchema " + Quote(name) + " has n_children " +
                                   std::to_string(schema.n_children) + "; expected >= 0");
  }
  if (schema.n_children > 0 && schema.children == nullptr) {
    return Status::InvalidArgument("ArrowSchema " + Quote(name) + " has n_children " +
                                   std::to_string(schema.n_children) +
                                   " but a null children pointer");
  }
  std::vector<FieldPtr> children;
  children.reserve(static_cast<std::size_t>(std::min<int64_t>(schema.n_children, 1024)));
  for (int64_t i = 0; i < schema.n_children; ++i) {
    const ArrowSchema* child = schema.children[i];
    if (child == nullptr || child->release == nullptr) {
      return Status::InvalidArgument("child " + std::to_string(i) + " of ArrowSchema " +
                                     Quote(name) + " is " +
                                     (child == nullptr ? "null" : "already released"));
    }
    LND_ASSIGN_OR_RETURN_CTX(FieldPtr field, ImportFieldNode(*child, depth + 1),
                             "child " + std::to_string(i) + " of " + Quote(name));
    children.push_back(std::move(field));
  }
  return children;
}

Result<DataTypePtr> ImportTypeNode(const ArrowSchema& schema, int depth) {
  LND_ASSIGN_OR_RETURN(std::vector<FieldPtr> children, ImportChildren(schema, depth));
  return TypeFromFormat(schema.format, std::move(children));
}

Result<FieldPtr> ImportFieldNode(const ArrowSchema& schema, int depth) {
  LND_ASSIGN_OR_RETURN(DataTypePtr type, ImportTypeNode(schema, depth));
  LND_ASSIGN_OR_RETURN_CTX(Metadata metadata, internal::DecodeCMetadata(schema.metadata),
                           "ArrowSchema " + Quote(NameOf(schema)));
  return MakeField(NameOf(schema), std::move(type), (schema.flags & ARROW_FLAG_NULLABLE) != 0,
                   std::move(metadata));
}

/// Takes ownership of `*schema` (releasing it on scope exit) after checking it is live.
class SchemaGuard {
 public:
  explicit SchemaGuard(ArrowSchema* schema) : schema_(schema) {}
  ~SchemaGuard() {
    if (schema_ != nullptr && schema_->release != nullptr) schema_->release(schema_);
  }
  SchemaGuard(const SchemaGuard&) = delete;
  SchemaGuard& operator=(const SchemaGuard&) = delete;

  Status Check() const {
    if (schema_ == nullptr) return Status::InvalidArgument("the ArrowSchema pointer is null");
    if (schema_->release == nullptr) {
      return Status::InvalidArgument(
          "the ArrowSchema is already released (release == NULL); export a fresh one");
    }
    return Status::OK();
  }

 private:
  ArrowSchema* schema_;
};

}  // namespace

Status ExportType(const DataType& type, ArrowSchema* out) {
  LND_RETURN_NOT_OK(CheckOut(out));
  LND_RETURN_NOT_OK(CheckTypeExportable(type, 0));
  FillSchema(type, "", 0, nullptr, out);
  return Status::OK();
}

Status ExportField(const Field& field, ArrowSchema* out) {
  LND_RETURN_NOT_OK(CheckOut(out));
  if (field.type() == nullptr) {
    return Status::InvalidArgument("field '" + field.name() + "' has a null type");
  }
  LND_RETURN_NOT_OK(CheckTypeExportable(*field.type(), 0));
  FillSchema(*field.type(), field.name(), field.nullable() ? ARROW_FLAG_NULLABLE : 0,
             &field.metadata(), out);
  return Status::OK();
}

Status ExportSchema(const Schema& schema, ArrowSchema* out) {
  LND_RETURN_NOT_OK(CheckOut(out));
  for (const FieldPtr& f : schema.fields()) {
    if (f == nullptr || f->type() == nullptr) {
      return Status::InvalidArgument("schema has a null field or a field with a null type");
    }
  }
  const DataTypePtr as_struct = Struct(schema.fields());
  LND_RETURN_NOT_OK(CheckTypeExportable(*as_struct, 0));
  FillSchema(*as_struct, "", 0, &schema.metadata(), out);
  return Status::OK();
}

Result<DataTypePtr> ImportType(ArrowSchema* schema) {
  SchemaGuard guard(schema);
  LND_RETURN_NOT_OK(guard.Check());
  return ImportTypeNode(*schema, 0);
}

Result<FieldPtr> ImportField(ArrowSchema* schema) {
  SchemaGuard guard(schema);
  LND_RETURN_NOT_OK(guard.Check());
  return ImportFieldNode(*schema, 0);
}

Result<SchemaPtr> ImportSchema(ArrowSchema* schema) {
  SchemaGuard guard(schema);
  LND_RETURN_NOT_OK(guard.Check());
  if (schema->format == nullptr || std::string_view(schema->format) != "+s") {
    return Status::InvalidArgument(
        "a schema must be exported as a struct ArrowSchema (format '+s'), found format " +
        Quote(schema->format == nullptr ? "(null)" : schema->format) +
        "; use ImportType or ImportField for a single column");
  }
  LND_ASSIGN_OR_RETURN(std::vector<FieldPtr> fields, ImportChildren(*schema, 0));
  LND_ASSIGN_OR_RETURN_CTX(Metadata metadata, internal::DecodeCMetadata(schema->metadata),
                           "schema metadata");
  return MakeSchema(std::move(fields), std::move(metadata));
}

}  // namespace lance_nd::array
