// ArrayData basics: construction, null counts, slices, null and empty arrays.
#include "lance_nd/array/array_data.h"

#include <string>

#include "lance_nd/core/internal/checked_math.h"

namespace lance_nd::array {

int64_t ArrayData::null_count() const {
  if (type && type->id() == TypeId::kNull) return length;
  if (null_count_hint >= 0) return null_count_hint;
  const std::uint8_t* bits = validity();
  if (bits == nullptr) return 0;
  return length - CountSetBits(bits, offset, length);
}

bool ArrayData::IsValid(int64_t i) const {
  if (type && type->id() == TypeId::kNull) return false;
  const std::uint8_t* bits = validity();
  if (bits == nullptr) return true;
  return GetBit(bits, offset + i);
}

bool ArrayData::AllValid(int64_t begin, int64_t count) const {
  const std::uint8_t* bits = validity();
  if (bits == nullptr || count <= 0) return true;
  return CountSetBits(bits, offset + begin, count) == count;
}

ArrayPtr MakeArrayData(DataTypePtr type, int64_t length, std::vector<BufferPtr> buffers,
                       std::vector<ArrayPtr> children, int64_t null_count, int64_t offset) {
  auto data = std::make_shared<ArrayData>();
  data->type = std::move(type);
  data->length = length;
  data->null_count_hint = null_count;
  data->offset = offset;
  data->buffers = std::move(buffers);
  data->children = std::move(children);
  return data;
}

Result<ArrayPtr> Slice(const ArrayPtr& array, int64_t offset, int64_t length) {
  if (!array) return Status::InvalidArgument("cannot slice a null array");
  const auto end = CheckedAdd(offset, length);
  if (offset < 0 || length < 0 || !end || *end > array->length) {
    return Status::InvalidArgument("array slice [" + std::to_string(offset) + ", +" +
                                   std::to_string(length) + ") is outside the array of length " +
                                   std::to_string(array->length));
  }
  auto out = std::make_shared<ArrayData>(*array);
  out->offset = array->offset + offset;
  out->length = length;
  if (array->type && array->type->id() == TypeId::kNull) {
    out->null_count_hint = length;
  } else if (array->null_count_hint == 0 || array->validity() == nullptr) {
    out->null_count_hint = 0;
  } else if (offset == 0 && length == array->length) {
    out->null_count_hint = array->null_count_hint;
  } else {
    out->null_count_hint = ArrayData::kUnknownNullCount;
  }
  return ArrayPtr(std::move(out));
}

namespace {

BufferPtr Zeroed(int64_t size) { return Buffer::AllocateZeroed(size, nullptr); }

int64_t OffsetWidth(TypeId id) {
  return (id == TypeId::kLargeUtf8 || id == TypeId::kLargeBinary || id == TypeId::kLargeList) ? 8
                                                                                              : 4;
}

}  // namespace

ArrayPtr MakeArrayOfNulls(const DataTypePtr& type, int64_t length) {
  if (length < 0) length = 0;
  const TypeId id = type->id();
  if (id == TypeId::kNull) return MakeArrayData(type, length, {}, {}, length);
  BufferPtr validity = Zeroed(BytesForBits(length));
  const int64_t nulls = length;
  switch (id) {
    case TypeId::kBool:
      return MakeArrayData(type, length, {validity, Zeroed(BytesForBits(length))}, {}, nulls);
    case TypeId::kUtf8:
    case TypeId::kLargeUtf8:
    case TypeId::kBinary:
    case TypeId::kLargeBinary:
      return MakeArrayData(type, length,
                           {validity, Zeroed((length + 1) * OffsetWidth(id)), Buffer::Empty()}, {},
                           nulls);
    case TypeId::kList:
    case TypeId::kLargeList:
      return MakeArrayData(type, length, {validity, Zeroed((length + 1) * OffsetWidth(id))},
                           {MakeEmptyArray(type->value_type())}, nulls);
    case TypeId::kFixedSizeList:
      return MakeArrayData(type, length, {validity},
                           {MakeArrayOfNulls(type->value_type(), length * type->fixed_size())},
                           nulls);
    case TypeId::kStruct: {
      std::vector<ArrayPtr> children;
      children.reserve(type->children().size());
      for (const auto& f : type->children())
        children.push_back(MakeArrayOfNulls(f->type(), length));
      return MakeArrayData(type, length, {validity}, std::move(children), nulls);
    }
    default:  // primitives, temporal, fixed_size_binary
      return MakeArrayData(type, length, {validity, Zeroed(length * type->byte_width())}, {},
                           nulls);
  }
}

ArrayPtr MakeEmptyArray(const DataTypePtr& type) {
  const TypeId id = type->id();
  switch (id) {
    case TypeId::kNull:
      return MakeArrayData(type, 0, {}, {}, 0);
    case TypeId::kUtf8:
    case TypeId::kLargeUtf8:
    case TypeId::kBinary:
    case TypeId::kLargeBinary:
      return MakeArrayData(type, 0, {nullptr, Zeroed(OffsetWidth(id)), Buffer::Empty()}, {}, 0);
    case TypeId::kList:
    case TypeId::kLargeList:
      return MakeArrayData(type, 0, {nullptr, Zeroed(OffsetWidth(id))},
                           {MakeEmptyArray(type->value_type())}, 0);
    case TypeId::kFixedSizeList:
      return MakeArrayData(type, 0, {nullptr}, {MakeEmptyArray(type->value_type())}, 0);
    case TypeId::kStruct: {
      std::vector<ArrayPtr> children;
      children.reserve(type->children().size());
      for (const auto& f : type->children()) children.push_back(MakeEmptyArray(f->type()));
      return MakeArrayData(type, 0, {nullptr}, std::move(children), 0);
    }
    default:
      return MakeArrayData(type, 0, {nullptr, Buffer::Empty()}, {}, 0);
  }
}

}  // namespace lance_nd::array
