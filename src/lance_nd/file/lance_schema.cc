#include "lance_nd/file/lance_schema_internal.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <map>
#include <string_view>
#include <utility>

#include "file.pb.h"

namespace lance_nd::file::internal {
namespace {

using array::DataType;
using array::DataTypePtr;
using array::TimeUnit;
using array::TypeId;

std::optional<TimeUnit> ParseUnit(std::string_view s) {
  if (s == "s") return TimeUnit::kSecond;
  if (s == "ms") return TimeUnit::kMilli;
  if (s == "us") return TimeUnit::kMicro;
  if (s == "ns") return TimeUnit::kNano;
  return std::nullopt;
}

std::vector<std::string_view> Split(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  while (true) {
    const auto pos = s.find(sep, start);
    if (pos == std::string_view::npos) {
      out.push_back(s.substr(start));
      return out;
    }
    out.push_back(s.substr(start, pos - start));
    start = pos + 1;
  }
}

std::optional<int32_t> ParsePositive(std::string_view s) {
  int32_t v = 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || ptr != s.data() + s.size() || v <= 0) return std::nullopt;
  return v;
}

std::optional<int32_t> ParseInt(std::string_view s) {
  int32_t v = 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc() || ptr != s.data() + s.size()) return std::nullopt;
  return v;
}

// A non-nested logical type (everything except struct / list / large_list).
Result<DataTypePtr> ParseScalarType(std::string_view lt) {
  static const std::map<std::string_view, DataTypePtr (*)()> kSimple = {
      {"null", array::Null},
      {"bool", array::Bool},
      {"int8", array::Int8},
      {"uint8", array::UInt8},
      {"int16", array::Int16},
      {"uint16", array::UInt16},
      {"int32", array::Int32},
      {"uint32", array::UInt32},
      {"int64", array::Int64},
      {"uint64", array::UInt64},
      {"halffloat", array::Float16},
      {"float", array::Float32},
      {"double", array::Float64},
      {"string", array::Utf8},
      {"binary", array::Binary},
      {"large_string", array::LargeUtf8},
      {"large_binary", array::LargeBinary},
      {"json", array::LargeBinary},
      {"date32:day", array::Date32},
      {"date64:ms", array::Date64},
  };
  if (auto it = kSimple.find(lt); it != kSimple.end()) return it->second();
  const auto parts = Split(lt, ':');
  const std::string_view head = parts[0];
  if (head == "timestamp" && parts.size() >= 3) {
    auto unit = ParseUnit(parts[1]);
    if (unit) {
      // The timezone may itself contain ':' ("+01:00").
      std::string tz(lt.substr(head.size() + parts[1].size() + 2));
      if (tz == "-") tz.clear();
      return array::Timestamp(*unit, std::move(tz));
    }
  }
  if (head == "duration" && parts.size() == 2) {
    if (auto unit = ParseUnit(parts[1])) return array::Duration(*unit);
  }
  if (head == "fixed_size_binary" && parts.size() == 2) {
    if (auto n = ParsePositive(parts[1])) return array::FixedSizeBinary(*n);
  }
  if (head == "decimal" && parts.size() == 4) {
    auto bits = ParsePositive(parts[1]);
    auto precision = ParsePositive(parts[2]);
    auto scale = ParseInt(parts[3]);
    std::string error;
    DataTypePtr t = bits && precision && scale
                        ? array::MakeDecimal(*bits, *precision, *scale, &error)
                        : nullptr;
    if (t != nullptr) return t;
  }
  if (head == "dict" && parts.size() == 4) {
    // dict:<value type>:<index type>:<ordered>. Read decoded: the column has the value type.
    auto index = ParseScalarType(parts[2]);
    if (index.ok() && (*index)->is_integer() && (parts[3] == "false" || parts[3] == "true")) {
      return ParseScalarType(parts[1]);
    }
  }
  if (head == "fixed_size_list" && parts.size() >= 3) {
    auto n = ParsePositive(parts.back());
    if (n) {
      const std::string_view inner =
          lt.substr(head.size() + 1, lt.size() - head.size() - 2 - parts.back().size());
      auto item = ParseScalarType(inner);
      if (!item.ok()) {
        return Status::NotImplemented("logical type '", lt,
                                      "' is not supported by lance-nd: its items ('", inner,
                                      "') are not");
      }
      return array::FixedSizeList(array::MakeField("item", *std::move(item), true), *n);
    }
  }
  return Status::NotImplemented("logical type '", lt,
                                "' is not supported by lance-nd (it reads null, bool, integers, "
                                "floats, decimal:128/256, strings, binary, dates, timestamps, "
                                "durations, fixed-size binary and lists, dictionaries of these, "
                                "structs and lists)");
}

array::Metadata MetadataFromProto(const google::protobuf::Map<std::string, std::string>& map) {
  // Protobuf maps are unordered; sort keys for a deterministic order.
  std::map<std::string, std::string> sorted(map.begin(), map.end());
  std::vector<std::pair<std::string, std::string>> entries(sorted.begin(), sorted.end());
  return array::Metadata(std::move(entries));
}

bool IsStruct(std::string_view lt) { return lt == "struct"; }
bool IsList(std::string_view lt) { return lt == "list" || lt == "list.struct"; }
bool IsLargeList(std::string_view lt) { return lt == "large_list" || lt == "large_list.struct"; }

struct RawField {
  const lance::file::Field* proto;
  std::vector<std::size_t> children;  // indices into the raw list
};

bool IsPacked(const array::Metadata& metadata) {
  for (std::string_view key : {"lance-encoding:packed", "packed"}) {
    const auto v = metadata.Get(key);
    if (v && v->size() == 4 && std::equal(v->begin(), v->end(), "true", [](char a, char b) {
          return std::tolower(static_cast<unsigned char>(a)) == b;
        })) {
      return true;
    }
  }
  return false;
}

// A field lance-nd cannot read: one leaf column of type null, marked with the reason so that a
// read of this column (and only of it) is refused.
FieldNode Unsupported(FieldNode node, const lance::file::Field& pf, array::Metadata metadata,
                      int* next_column, Status why) {
  std::string reason(why.message());
  reason += "; read the other columns with a projection that leaves it out";
  metadata.Set(std::string(kUnsupportedFieldKey), reason);
  node.unsupported = Status::NotImplemented(reason);
  node.children.clear();
  node.column = (*next_column)++;
  node.field = array::MakeField(pf.name(), array::Null(), pf.nullable(), std::move(metadata));
  return node;
}

Result<FieldNode> BuildNode(const std::vector<RawField>& raw, std::size_t index, int* next_column,
                            int depth) {
  if (depth > 64) return Status::Corrupt("schema nesting deeper than 64 levels");
  const lance::file::Field& pf = *raw[index].proto;
  FieldNode node;
  node.id = pf.id();
  node.parent_id = pf.parent_id();
  node.logical_type = pf.logical_type();
  const std::string where = "field '" + pf.name() + "' (id " + std::to_string(pf.id()) + ")";
  array::Metadata metadata = MetadataFromProto(pf.metadata());
  if (!pf.extension_name().empty() && !metadata.Contains("ARROW:extension:name")) {
    metadata.Set("ARROW:extension:name", pf.extension_name());
  }
  const std::string& lt = pf.logical_type();
  DataTypePtr type;
  if (IsStruct(lt) && IsPacked(metadata)) {
    // A packed struct is one column (all children's values side by side in each row).
    return Unsupported(
        std::move(node), pf, std::move(metadata), next_column,
        Status::NotImplemented(where, " is a packed struct, which lance-nd does not read"));
  }
  if (IsStruct(lt)) {
    std::vector<array::FieldPtr> kids;
    for (std::size_t c : raw[index].children) {
      LND_ASSIGN_OR_RETURN(FieldNode child, BuildNode(raw, c, next_column, depth + 1));
      kids.push_back(child.field);
      node.children.push_back(std::move(child));
    }
    if (kids.empty()) {
      return Status::NotImplemented(where, " is an empty struct, which lance-nd does not read");
    }
    type = array::Struct(std::move(kids));
  } else if (IsList(lt) || IsLargeList(lt)) {
    if (raw[index].children.size() != 1) {
      return Status::Corrupt(where, " is a list with ", raw[index].children.size(),
                             " child fields, expected exactly 1");
    }
    LND_ASSIGN_OR_RETURN(FieldNode child,
                         BuildNode(raw, raw[index].children[0], next_column, depth + 1));
    type = IsList(lt) ? array::List(child.field) : array::LargeList(child.field);
    node.children.push_back(std::move(child));
  } else {
    if (!raw[index].children.empty()) {
      return Status::Corrupt(where, " of type '", lt, "' has child fields");
    }
    auto parsed = ParseScalarType(lt);
    if (!parsed.ok() && parsed.status().code() == StatusCode::kNotImplemented) {
      return Unsupported(std::move(node), pf, std::move(metadata), next_column,
                         std::move(parsed).status().WithContext(where));
    }
    LND_ASSIGN_OR_RETURN(type, std::move(parsed));
    node.column = (*next_column)++;
  }
  node.field = array::MakeField(pf.name(), std::move(type), pf.nullable(), std::move(metadata));
  return node;
}

}  // namespace

Result<SchemaTree> SchemaFromProto(const lance::file::Schema& proto) {
  std::vector<RawField> raw;
  raw.reserve(static_cast<std::size_t>(proto.fields_size()));
  std::map<int32_t, std::size_t> by_id;
  std::vector<std::size_t> roots;
  for (const auto& f : proto.fields()) {
    const std::size_t index = raw.size();
    raw.push_back(RawField{&f, {}});
    if (!by_id.emplace(f.id(), index).second) {
      return Status::Corrupt("schema has two fields with id ", f.id(), " (second is '", f.name(),
                             "')");
    }
    if (f.parent_id() < 0) {
      roots.push_back(index);
      continue;
    }
    auto parent = by_id.find(f.parent_id());
    if (parent == by_id.end()) {
      return Status::Corrupt("field '", f.name(), "' (id ", f.id(), ") names parent id ",
                             f.parent_id(), ", which does not precede it in the schema");
    }
    raw[parent->second].children.push_back(index);
  }
  SchemaTree tree;
  int next_column = 0;
  std::vector<array::FieldPtr> fields;
  for (std::size_t r : roots) {
    LND_ASSIGN_OR_RETURN(FieldNode node, BuildNode(raw, r, &next_column, 0));
    fields.push_back(node.field);
    tree.fields.push_back(std::move(node));
  }
  tree.num_columns = next_column;
  tree.schema = array::MakeSchema(std::move(fields), MetadataFromProto(proto.metadata()));
  return tree;
}

Result<std::string> LogicalTypeName(const DataType& type) {
  switch (type.id()) {
    case TypeId::kNull:
      return std::string("null");
    case TypeId::kBool:
      return std::string("bool");
    case TypeId::kInt8:
      return std::string("int8");
    case TypeId::kInt16:
      return std::string("int16");
    case TypeId::kInt32:
      return std::string("int32");
    case TypeId::kInt64:
      return std::string("int64");
    case TypeId::kUInt8:
      return std::string("uint8");
    case TypeId::kUInt16:
      return std::string("uint16");
    case TypeId::kUInt32:
      return std::string("uint32");
    case TypeId::kUInt64:
      return std::string("uint64");
    case TypeId::kFloat16:
      return std::string("halffloat");
    case TypeId::kFloat32:
      return std::string("float");
    case TypeId::kFloat64:
      return std::string("double");
    case TypeId::kUtf8:
      return std::string("string");
    case TypeId::kLargeUtf8:
      return std::string("large_string");
    case TypeId::kBinary:
      return std::string("binary");
    case TypeId::kLargeBinary:
      return std::string("large_binary");
    case TypeId::kFixedSizeBinary:
      return "fixed_size_binary:" + std::to_string(type.fixed_size());
    case TypeId::kDate32:
      return std::string("date32:day");
    case TypeId::kDate64:
      return std::string("date64:ms");
    case TypeId::kTimestamp:
      return "timestamp:" + std::string(array::TimeUnitName(type.unit())) + ":" +
             (type.timezone().empty() ? std::string("-") : type.timezone());
    case TypeId::kDuration:
      return "duration:" + std::string(array::TimeUnitName(type.unit()));
    case TypeId::kDecimal128:
    case TypeId::kDecimal256:
      return "decimal:" + std::to_string(type.byte_width() * 8) + ":" +
             std::to_string(type.precision()) + ":" + std::to_string(type.scale());
    case TypeId::kStruct:
      return std::string("struct");
    case TypeId::kList:
      return std::string(type.value_type()->id() == TypeId::kStruct ? "list.struct" : "list");
    case TypeId::kLargeList:
      return std::string(type.value_type()->id() == TypeId::kStruct ? "large_list.struct"
                                                                    : "large_list");
    case TypeId::kFixedSizeList: {
      const DataType& item = *type.value_type();
      if (item.is_nested()) {
        return Status::NotImplemented("fixed-size lists of nested types (", type.ToString(),
                                      ") are not supported");
      }
      LND_ASSIGN_OR_RETURN(std::string inner, LogicalTypeName(item));
      return "fixed_size_list:" + inner + ":" + std::to_string(type.fixed_size());
    }
  }
  return Status::NotImplemented("type ", type.ToString(), " has no Lance logical type");
}

namespace {

Status AddField(const array::Field& field, int32_t parent_id, int32_t* next_id,
                lance::file::Schema* out) {
  LND_ASSIGN_OR_RETURN(std::string lt, LogicalTypeName(*field.type()));
  lance::file::Field* pf = out->add_fields();
  const int32_t id = (*next_id)++;
  pf->set_name(field.name());
  pf->set_id(id);
  pf->set_parent_id(parent_id);
  pf->set_logical_type(lt);
  pf->set_nullable(field.nullable());
  const DataType& type = *field.type();
  if (type.is_binary_like()) {
    pf->set_encoding(lance::file::VAR_BINARY);
  } else if (type.id() != TypeId::kStruct) {
    pf->set_encoding(lance::file::PLAIN);
  }
  for (const auto& [k, v] : field.metadata().entries()) {
    (*pf->mutable_metadata())[k] = v;
    if (k == "ARROW:extension:name") pf->set_extension_name(v);
  }
  if (type.id() == TypeId::kStruct || type.id() == TypeId::kList ||
      type.id() == TypeId::kLargeList) {
    for (const auto& child : type.children()) {
      LND_RETURN_NOT_OK(AddField(*child, id, next_id, out));
    }
  }
  return Status::OK();
}

}  // namespace

Status SchemaToProto(const array::Schema& schema, lance::file::Schema* out, int32_t first_id) {
  out->Clear();
  int32_t next_id = first_id;
  for (const auto& f : schema.fields()) {
    LND_RETURN_NOT_OK(AddField(*f, -1, &next_id, out));
  }
  for (const auto& [k, v] : schema.metadata().entries()) (*out->mutable_metadata())[k] = v;
  return Status::OK();
}

int CountLeafColumns(const DataType& type) {
  if (type.id() == TypeId::kStruct) {
    int n = 0;
    for (const auto& c : type.children()) n += CountLeafColumns(*c->type());
    return n;
  }
  if (type.id() == TypeId::kList || type.id() == TypeId::kLargeList) {
    return CountLeafColumns(*type.value_type());
  }
  return 1;
}

}  // namespace lance_nd::file::internal

namespace lance_nd::file {

Result<array::SchemaPtr> SchemaFromLanceFields(std::span<const LanceSchemaField> fields,
                                               const array::Metadata& schema_metadata) {
  lance::file::Schema proto;
  for (const LanceSchemaField& f : fields) {
    lance::file::Field* pf = proto.add_fields();
    pf->set_name(f.name);
    pf->set_id(f.id);
    pf->set_parent_id(f.parent_id);
    pf->set_logical_type(f.logical_type);
    pf->set_nullable(f.nullable);
    for (const auto& [k, v] : f.metadata.entries()) (*pf->mutable_metadata())[k] = v;
  }
  for (const auto& [k, v] : schema_metadata.entries()) (*proto.mutable_metadata())[k] = v;
  LND_ASSIGN_OR_RETURN(internal::SchemaTree tree, internal::SchemaFromProto(proto));
  return tree.schema;
}

namespace {

LanceSchemaField ModelledField(const lance::file::Field& pf) {
  LanceSchemaField f;
  f.name = pf.name();
  f.id = pf.id();
  f.parent_id = pf.parent_id();
  f.logical_type = pf.logical_type();
  f.nullable = pf.nullable();
  f.metadata = internal::MetadataFromProto(pf.metadata());
  return f;
}

// The members ModelledField does not take, serialised (field-number order: deterministic).
std::string UnmodelledMembers(const lance::file::Field& pf) {
  lance::file::Field rest = pf;
  rest.clear_name();
  rest.clear_id();
  rest.clear_parent_id();
  rest.clear_logical_type();
  rest.clear_nullable();
  rest.clear_metadata();
  rest.clear_type();  // derived from the tree; Lance 12 never writes it
  return rest.SerializeAsString();
}

}  // namespace

Result<std::vector<LanceSchemaField>> LanceFieldsFromSchema(const array::Schema& schema,
                                                            std::int32_t first_id) {
  lance::file::Schema proto;
  LND_RETURN_NOT_OK(internal::SchemaToProto(schema, &proto, first_id));
  std::vector<LanceSchemaField> out;
  out.reserve(static_cast<std::size_t>(proto.fields_size()));
  for (const lance::file::Field& pf : proto.fields()) out.push_back(ModelledField(pf));
  return out;
}

Result<std::vector<WrittenLanceField>> WrittenLanceFieldsFromSchema(const array::Schema& schema,
                                                                    std::int32_t first_id) {
  lance::file::Schema proto;
  LND_RETURN_NOT_OK(internal::SchemaToProto(schema, &proto, first_id));
  std::vector<WrittenLanceField> out;
  out.reserve(static_cast<std::size_t>(proto.fields_size()));
  for (const lance::file::Field& pf : proto.fields()) {
    out.push_back(WrittenLanceField{ModelledField(pf), UnmodelledMembers(pf)});
  }
  return out;
}

Result<std::string> LanceLogicalType(const array::DataType& type) {
  return internal::LogicalTypeName(type);
}

}  // namespace lance_nd::file
