#include "chunk_attribute_values.h"

#include <limits>
#include <string>
#include <utility>

#include "lance_nd/api/json_lines.h"
#include "lance_nd/array/view.h"

namespace lance_nd::internal {

namespace {

using array::ArrayData;
using array::TypeId;

// The JSON Lines name (utf8, list<int64>), the names users see in `lance-nd cat`.
std::string TypeText(const array::ArrayPtr& value) {
  Result<std::string> name = JsonDtypeName(*value->type);
  return name.ok() ? *name : value->type->ToString();
}

Status WrongType(std::string_view key, const array::ArrayPtr& value, std::string_view expected) {
  return Status::InvalidArgument("chunk attribute '", key, "' is ", TypeText(value), ", expected ",
                                 expected,
                                 " (docs/FORMAT.md §3.6); rewrite the row's global attributes");
}

// Element `i` of an integer array as a non-negative number, or nullopt.
std::optional<std::uint64_t> NonNegative(const ArrayData& a, int64_t i) {
  if (a.IsNull(i)) return std::nullopt;
  auto sign = [](int64_t v) -> std::optional<std::uint64_t> {
    return v < 0 ? std::nullopt : std::optional<std::uint64_t>(static_cast<std::uint64_t>(v));
  };
  switch (a.type->id()) {
    case TypeId::kInt8:
      return sign(array::PrimitiveView<int8_t>(a).Value(i));
    case TypeId::kInt16:
      return sign(array::PrimitiveView<int16_t>(a).Value(i));
    case TypeId::kInt32:
      return sign(array::PrimitiveView<int32_t>(a).Value(i));
    case TypeId::kInt64:
      return sign(array::PrimitiveView<int64_t>(a).Value(i));
    case TypeId::kUInt8:
      return array::PrimitiveView<uint8_t>(a).Value(i);
    case TypeId::kUInt16:
      return array::PrimitiveView<uint16_t>(a).Value(i);
    case TypeId::kUInt32:
      return array::PrimitiveView<uint32_t>(a).Value(i);
    case TypeId::kUInt64:
      return array::PrimitiveView<uint64_t>(a).Value(i);
    default:
      return std::nullopt;
  }
}

bool IsString(TypeId id) { return id == TypeId::kUtf8 || id == TypeId::kLargeUtf8; }
bool IsList(TypeId id) { return id == TypeId::kList || id == TypeId::kLargeList; }

Result<array::ArrayPtr> Present(const nd::Attributes& attributes, std::string_view key) {
  array::ArrayPtr value = attributes.Get(key);
  if (!value) {
    return Status::InvalidArgument("row has '", chunk_keys::kDims, "' but no '", key,
                                   "'; a chunk row carries all seven keys of docs/FORMAT.md §3.6");
  }
  return value;
}

Result<std::vector<std::string>> GetNames(const nd::Attributes& attributes, std::string_view key) {
  LND_ASSIGN_OR_RETURN(array::ArrayPtr value, Present(attributes, key));
  if (!IsList(value->type->id()) || !IsString(value->type->value_type()->id())) {
    return WrongType(key, value, "list<utf8>");
  }
  const array::ListView list(*value);
  const array::BinaryView names(*list.values());
  std::vector<std::string> out;
  for (int64_t i = list.ValueOffset(0); i < list.ValueOffset(0) + list.ValueLength(0); ++i) {
    if (names.IsNull(i)) return Status::InvalidArgument("chunk attribute '", key, "' has a null");
    out.emplace_back(names.Value(i));
  }
  return out;
}

Result<std::vector<std::uint64_t>> GetCounts(const nd::Attributes& attributes,
                                             std::string_view key) {
  LND_ASSIGN_OR_RETURN(array::ArrayPtr value, Present(attributes, key));
  if (!IsList(value->type->id()) || !value->type->value_type()->is_integer()) {
    return WrongType(key, value, "list<int64>");
  }
  const array::ListView list(*value);
  std::vector<std::uint64_t> out;
  for (int64_t i = list.ValueOffset(0); i < list.ValueOffset(0) + list.ValueLength(0); ++i) {
    const auto v = NonNegative(*list.values(), i);
    if (!v) {
      return Status::InvalidArgument("chunk attribute '", key,
                                     "' holds a null or negative number; expected sizes >= 0");
    }
    out.push_back(*v);
  }
  return out;
}

Result<std::uint64_t> GetCount(const nd::Attributes& attributes, std::string_view key) {
  LND_ASSIGN_OR_RETURN(array::ArrayPtr value, Present(attributes, key));
  if (!value->type->is_integer()) return WrongType(key, value, "int64");
  const auto v = NonNegative(*value, 0);
  if (!v) return Status::InvalidArgument("chunk attribute '", key, "' is negative");
  return *v;
}

std::vector<int64_t> Signed(const std::vector<std::uint64_t>& values) {
  return {values.begin(), values.end()};
}

}  // namespace

Status CheckPosition(const DatasetLayout& layout, const ChunkPosition& position) {
  if (position.offset.size() != layout.dim_sizes.size()) {
    return Status::InvalidArgument("chunk of dataset '", layout.id, "' has ",
                                   position.offset.size(), " offsets for ", layout.dim_sizes.size(),
                                   " dimensions; give one per dimension");
  }
  for (std::size_t d = 0; d < position.offset.size(); ++d) {
    // An offset equal to a size-0 dimension's size (0) is the only chunk of that dimension.
    if (position.offset[d] >= layout.dim_sizes[d] && position.offset[d] != 0) {
      return Status::InvalidArgument("chunk offset ", position.offset[d], " along '",
                                     layout.dim_names[d], "' of dataset '", layout.id,
                                     "' is beyond its size ", layout.dim_sizes[d]);
    }
  }
  if (position.count == 0 || position.index >= position.count) {
    return Status::InvalidArgument("chunk index ", position.index, " of dataset '", layout.id,
                                   "' is not below its chunk count ", position.count);
  }
  return Status::OK();
}

Status PutChunkValues(const DatasetLayout& layout, const ChunkPosition& position,
                      nd::Attributes* attributes) {
  const auto max_int = static_cast<std::uint64_t>(std::numeric_limits<int64_t>::max());
  if (position.count > max_int) return Status::InvalidArgument("chunk count too large");
  attributes->Set(std::string(chunk_keys::kId), layout.id)
      .Set(std::string(chunk_keys::kDims), layout.dim_names)
      .Set(std::string(chunk_keys::kShape), Signed(layout.dim_sizes))
      .Set(std::string(chunk_keys::kOffset), Signed(position.offset))
      .Set(std::string(chunk_keys::kUnlimited), layout.unlimited_dims)
      .Set(std::string(chunk_keys::kIndex), static_cast<int64_t>(position.index))
      .Set(std::string(chunk_keys::kCount), static_cast<int64_t>(position.count));
  return Status::OK();
}

Result<ChunkAttributes> GetChunkValues(const nd::Attributes& attributes) {
  ChunkAttributes out;
  LND_ASSIGN_OR_RETURN(array::ArrayPtr id, Present(attributes, chunk_keys::kId));
  if (!IsString(id->type->id())) return WrongType(chunk_keys::kId, id, "utf8");
  out.layout.id = *attributes.GetString(chunk_keys::kId);
  LND_ASSIGN_OR_RETURN(out.layout.dim_names, GetNames(attributes, chunk_keys::kDims));
  LND_ASSIGN_OR_RETURN(out.layout.dim_sizes, GetCounts(attributes, chunk_keys::kShape));
  LND_ASSIGN_OR_RETURN(out.layout.unlimited_dims, GetNames(attributes, chunk_keys::kUnlimited));
  LND_ASSIGN_OR_RETURN(out.position.offset, GetCounts(attributes, chunk_keys::kOffset));
  LND_ASSIGN_OR_RETURN(out.position.index, GetCount(attributes, chunk_keys::kIndex));
  LND_ASSIGN_OR_RETURN(out.position.count, GetCount(attributes, chunk_keys::kCount));
  return out;
}

}  // namespace lance_nd::internal
