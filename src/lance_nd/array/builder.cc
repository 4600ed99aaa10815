// Array builders.
#include "lance_nd/array/builder.h"

#include <limits>
#include <string>

#include "lance_nd/array/view.h"
#include "lance_nd/core/internal/checked_math.h"

namespace lance_nd::array {
namespace {

Status CheckSlice(const DataType& builder_type, const ArrayData& array, int64_t offset,
                  int64_t length) {
  if (!array.type || !array.type->Equals(builder_type, /*check_metadata=*/false)) {
    return Status::InvalidArgument(
        "cannot append an array of type " + (array.type ? array.type->ToString() : "<none>") +
        " to a builder of type " + builder_type.ToString() + "; cast it first");
  }
  const auto end = CheckedAdd(offset, length);
  if (offset < 0 || length < 0 || !end || *end > array.length) {
    return Status::InvalidArgument("append slice [" + std::to_string(offset) + ", +" +
                                   std::to_string(length) + ") is outside the array of length " +
                                   std::to_string(array.length));
  }
  return Status::OK();
}

bool IsLargeOffsets(TypeId id) {
  return id == TypeId::kLargeUtf8 || id == TypeId::kLargeBinary || id == TypeId::kLargeList;
}

}  // namespace

// ---- ArrayBuilder ----

void ArrayBuilder::AppendValidity(bool valid) {
  if ((length_ & 7) == 0) validity_.AppendValue<std::uint8_t>(0);
  if (valid) {
    SetBit(validity_.mutable_data(), length_);
  } else {
    ++null_count_;
  }
  ++length_;
}

BufferPtr ArrayBuilder::FinishValidity() {
  BufferPtr out = validity_.Finish();
  if (null_count_ == 0) return nullptr;
  return out;
}

// ---- PrimitiveBuilder ----

template <typename T>
Status PrimitiveBuilder<T>::AppendArraySlice(const ArrayData& array, int64_t offset,
                                             int64_t length) {
  LND_RETURN_NOT_OK(CheckSlice(*type_, array, offset, length));
  if (length == 0) return Status::OK();
  const T* src = array.values<T>(1) + offset;
  values_.Append(src, length * static_cast<int64_t>(sizeof(T)));
  for (int64_t i = 0; i < length; ++i) AppendValidity(array.IsValid(offset + i));
  return Status::OK();
}

template <typename T>
Result<ArrayPtr> PrimitiveBuilder<T>::Finish() {
  if (type_->byte_width() != static_cast<int32_t>(sizeof(T))) {
    return Status::InvalidArgument("PrimitiveBuilder of " + std::to_string(sizeof(T)) +
                                   "-byte values cannot build type " + type_->ToString());
  }
  const int64_t nulls = null_count_;
  const int64_t len = length_;
  BufferPtr validity = FinishValidity();
  ArrayPtr out = MakeArrayData(type_, len, {std::move(validity), values_.Finish()}, {}, nulls);
  ResetBase();
  return out;
}

template class PrimitiveBuilder<int8_t>;
template class PrimitiveBuilder<int16_t>;
template class PrimitiveBuilder<int32_t>;
template class PrimitiveBuilder<int64_t>;
template class PrimitiveBuilder<uint8_t>;
template class PrimitiveBuilder<uint16_t>;
template class PrimitiveBuilder<uint32_t>;
template class PrimitiveBuilder<uint64_t>;
template class PrimitiveBuilder<float>;
template class PrimitiveBuilder<double>;

// ---- BoolBuilder ----

BoolBuilder::BoolBuilder() : ArrayBuilder(array::Bool()) {}

void BoolBuilder::Append(bool value) {
  if ((length_ & 7) == 0) bits_.AppendValue<std::uint8_t>(0);
  if (value) SetBit(bits_.mutable_data(), length_);
  AppendValidity(true);
}

void BoolBuilder::AppendNull() {
  if ((length_ & 7) == 0) bits_.AppendValue<std::uint8_t>(0);
  AppendValidity(false);
}

Status BoolBuilder::AppendArraySlice(const ArrayData& array, int64_t offset, int64_t length) {
  LND_RETURN_NOT_OK(CheckSlice(*type_, array, offset, length));
  const std::uint8_t* src = array.buffers[1] ? array.buffers[1]->data() : nullptr;
  for (int64_t i = 0; i < length; ++i) {
    if (!array.IsValid(offset + i)) {
      AppendNull();
    } else {
      Append(GetBit(src, array.offset + offset + i));
    }
  }
  return Status::OK();
}

Result<ArrayPtr> BoolBuilder::Finish() {
  const int64_t nulls = null_count_;
  const int64_t len = length_;
  BufferPtr validity = FinishValidity();
  ArrayPtr out = MakeArrayData(type_, len, {std::move(validity), bits_.Finish()}, {}, nulls);
  ResetBase();
  return out;
}

// ---- BinaryBuilder ----

namespace {
void AppendOffsetValue(BufferBuilder& offsets, bool large, int64_t value) {
  if (large) {
    offsets.AppendValue<int64_t>(value);
  } else {
    // Overflow is detected in Finish(); store a truncated value until then.
    offsets.AppendValue<int32_t>(static_cast<int32_t>(value));
  }
}
}  // namespace

BinaryBuilder::BinaryBuilder(DataTypePtr type)
    : ArrayBuilder(std::move(type)), large_(IsLargeOffsets(type_->id())) {
  AppendOffsetValue(offsets_, large_, 0);
}

void BinaryBuilder::Append(std::string_view value) {
  data_.Append(value.data(), static_cast<int64_t>(value.size()));
  AppendOffsetValue(offsets_, large_, data_.size());
  AppendValidity(true);
}

void BinaryBuilder::AppendNull() {
  AppendOffsetValue(offsets_, large_, data_.size());
  AppendValidity(false);
}

Status BinaryBuilder::AppendArraySlice(const ArrayData& array, int64_t offset, int64_t length) {
  LND_RETURN_NOT_OK(CheckSlice(*type_, array, offset, length));
  if (length == 0) return Status::OK();
  BinaryView view(array);
  for (int64_t i = 0; i < length; ++i) {
    if (view.IsNull(offset + i)) {
      AppendNull();
    } else {
      Append(view.Value(offset + i));
    }
  }
  return Status::OK();
}

Result<ArrayPtr> BinaryBuilder::Finish() {
  if (!large_ && data_.size() > std::numeric_limits<int32_t>::max()) {
    return Status::InvalidArgument("binary builder holds " + std::to_string(data_.size()) +
                                   " bytes of " + type_->ToString() +
                                   " data, more than int32 offsets can address; use a large_ type");
  }
  const int64_t nulls = null_count_;
  const int64_t len = length_;
  BufferPtr validity = FinishValidity();
  ArrayPtr out = MakeArrayData(type_, len, {std::move(validity), offsets_.Finish(), data_.Finish()},
                               {}, nulls);
  ResetBase();
  AppendOffsetValue(offsets_, large_, 0);
  return out;
}

// ---- FixedSizeBinaryBuilder ----

FixedSizeBinaryBuilder::FixedSizeBinaryBuilder(DataTypePtr type) : ArrayBuilder(std::move(type)) {}

Status FixedSizeBinaryBuilder::Append(std::string_view value) {
  if (static_cast<int64_t>(value.size()) != type_->byte_width()) {
    return Status::InvalidArgument("fixed_size_binary value has " + std::to_string(value.size()) +
                                   " bytes, expected " + std::to_string(type_->byte_width()));
  }
  values_.Append(value.data(), static_cast<int64_t>(value.size()));
  AppendValidity(true);
  return Status::OK();
}

void FixedSizeBinaryBuilder::AppendNull() {
  values_.AppendZeros(type_->byte_width());
  AppendValidity(false);
}

Status FixedSizeBinaryBuilder::AppendArraySlice(const ArrayData& array, int64_t offset,
                                                int64_t length) {
  LND_RETURN_NOT_OK(CheckSlice(*type_, array, offset, length));
  if (length == 0) return Status::OK();
  const int64_t w = type_->byte_width();
  values_.Append(array.buffers[1]->data() + (array.offset + offset) * w, length * w);
  for (int64_t i = 0; i < length; ++i) AppendValidity(array.IsValid(offset + i));
  return Status::OK();
}

Result<ArrayPtr> FixedSizeBinaryBuilder::Finish() {
  const int64_t nulls = null_count_;
  const int64_t len = length_;
  BufferPtr validity = FinishValidity();
  ArrayPtr out = MakeArrayData(type_, len, {std::move(validity), values_.Finish()}, {}, nulls);
  ResetBase();
  return out;
}

// ---- ListBuilder ----

ListBuilder::ListBuilder(DataTypePtr type, std::unique_ptr<ArrayBuilder> value_builder)
    : ArrayBuilder(std::move(type)),
      large_(type_->id() == TypeId::kLargeList),
      values_(std::move(value_builder)) {}

ListBuilder::ListBuilder(DataTypePtr type)
    : ArrayBuilder(std::move(type)), large_(type_->id() == TypeId::kLargeList) {
  values_ = MakeBuilder(type_->value_type());
}

void ListBuilder::AppendOffset() { AppendOffsetValue(offsets_, large_, values_->length()); }

void ListBuilder::Append(bool valid) {
  AppendOffset();
  AppendValidity(valid);
}

Status ListBuilder::AppendArraySlice(const ArrayData& array, int64_t offset, int64_t length) {
  LND_RETURN_NOT_OK(CheckSlice(*type_, array, offset, length));
  ListView view(array);
  for (int64_t i = 0; i < length; ++i) {
    const bool valid = !view.IsNull(offset + i);
    Append(valid);
    const int64_t n = view.ValueLength(offset + i);
    if (n > 0) {
      LND_RETURN_NOT_OK(values_->AppendArraySlice(*view.values(), view.ValueOffset(offset + i), n));
    }
  }
  return Status::OK();
}

Result<ArrayPtr> ListBuilder::Finish() {
  if (!large_ && values_->length() > std::numeric_limits<int32_t>::max()) {
    return Status::InvalidArgument("list builder holds " + std::to_string(values_->length()) +
                                   " items, more than int32 offsets can address; use large_list");
  }
  AppendOffset();
  LND_ASSIGN_OR_RETURN(ArrayPtr child, values_->Finish());
  const int64_t nulls = null_count_;
  const int64_t len = length_;
  BufferPtr validity = FinishValidity();
  ArrayPtr out = MakeArrayData(type_, len, {std::move(validity), offsets_.Finish()},
                               {std::move(child)}, nulls);
  ResetBase();
  return out;
}

// ---- FixedSizeListBuilder ----

FixedSizeListBuilder::FixedSizeListBuilder(DataTypePtr type) : ArrayBuilder(std::move(type)) {
  values_ = MakeBuilder(type_->value_type());
}

void FixedSizeListBuilder::Append(bool valid) { AppendValidity(valid); }

void FixedSizeListBuilder::AppendNull() {
  AppendValidity(false);
  values_->AppendNulls(type_->fixed_size());
}

Status FixedSizeListBuilder::AppendArraySlice(const ArrayData& array, int64_t offset,
                                              int64_t length) {
  LND_RETURN_NOT_OK(CheckSlice(*type_, array, offset, length));
  if (length == 0) return Status::OK();
  const int64_t size = type_->fixed_size();
  for (int64_t i = 0; i < length; ++i) AppendValidity(array.IsValid(offset + i));
  return values_->AppendArraySlice(*array.children[0], (array.offset + offset) * size,
                                   length * size);
}

Result<ArrayPtr> FixedSizeListBuilder::Finish() {
  const int64_t expected = length_ * type_->fixed_size();
  if (values_->length() != expected) {
    return Status::InvalidArgument("fixed_size_list builder of " + std::to_string(length_) +
                                   " lists of " + std::to_string(type_->fixed_size()) + " has " +
                                   std::to_string(values_->length()) + " items, expected " +
                                   std::to_string(expected));
  }
  LND_ASSIGN_OR_RETURN(ArrayPtr child, values_->Finish());
  const int64_t nulls = null_count_;
  const int64_t len = length_;
  BufferPtr validity = FinishValidity();
  ArrayPtr out = MakeArrayData(type_, len, {std::move(validity)}, {std::move(child)}, nulls);
  ResetBase();
  return out;
}

// ---- StructBuilder ----

StructBuilder::StructBuilder(DataTypePtr type) : ArrayBuilder(std::move(type)) {
  for (const auto& f : type_->children()) children_.push_back(MakeBuilder(f->type()));
}

void StructBuilder::Append(bool valid) { AppendValidity(valid); }

void StructBuilder::AppendNull() {
  AppendValidity(false);
  for (auto& c : children_) c->AppendNull();
}

Status StructBuilder::AppendArraySlice(const ArrayData& array, int64_t offset, int64_t length) {
  LND_RETURN_NOT_OK(CheckSlice(*type_, array, offset, length));
  if (length == 0) return Status::OK();
  for (int64_t i = 0; i < length; ++i) AppendValidity(array.IsValid(offset + i));
  for (std::size_t c = 0; c < children_.size(); ++c) {
    LND_RETURN_NOT_OK(
        children_[c]->AppendArraySlice(*array.children[c], array.offset + offset, length));
  }
  return Status::OK();
}

Result<ArrayPtr> StructBuilder::Finish() {
  std::vector<ArrayPtr> children;
  children.reserve(children_.size());
  for (std::size_t c = 0; c < children_.size(); ++c) {
    if (children_[c]->length() != length_) {
      return Status::InvalidArgument("struct builder child '" + type_->children()[c]->name() +
                                     "' has " + std::to_string(children_[c]->length()) +
                                     " slots, expected " + std::to_string(length_));
    }
  }
  for (auto& c : children_) {
    LND_ASSIGN_OR_RETURN(ArrayPtr child, c->Finish());
    children.push_back(std::move(child));
  }
  const int64_t nulls = null_count_;
  const int64_t len = length_;
  BufferPtr validity = FinishValidity();
  ArrayPtr out = MakeArrayData(type_, len, {std::move(validity)}, std::move(children), nulls);
  ResetBase();
  return out;
}

// ---- NullBuilder ----

NullBuilder::NullBuilder() : ArrayBuilder(array::Null()) {}

void NullBuilder::AppendNull() {
  ++length_;
  ++null_count_;
}

Status NullBuilder::AppendArraySlice(const ArrayData& array, int64_t offset, int64_t length) {
  LND_RETURN_NOT_OK(CheckSlice(*type_, array, offset, length));
  length_ += length;
  null_count_ += length;
  return Status::OK();
}

Result<ArrayPtr> NullBuilder::Finish() {
  ArrayPtr out = MakeArrayData(type_, length_, {}, {}, length_);
  ResetBase();
  return out;
}

// ---- MakeBuilder and helpers ----

std::unique_ptr<ArrayBuilder> MakeBuilder(const DataTypePtr& type) {
  switch (type->id()) {
    case TypeId::kNull:
      return std::make_unique<NullBuilder>();
    case TypeId::kBool:
      return std::make_unique<BoolBuilder>();
    case TypeId::kInt8:
      return std::make_unique<PrimitiveBuilder<int8_t>>(type);
    case TypeId::kInt16:
      return std::make_unique<PrimitiveBuilder<int16_t>>(type);
    case TypeId::kInt32:
    case TypeId::kDate32:
      return std::make_unique<PrimitiveBuilder<int32_t>>(type);
    case TypeId::kInt64:
    case TypeId::kDate64:
    case TypeId::kTimestamp:
    case TypeId::kDuration:
      return std::make_unique<PrimitiveBuilder<int64_t>>(type);
    case TypeId::kUInt8:
      return std::make_unique<PrimitiveBuilder<uint8_t>>(type);
    case TypeId::kUInt16:
    case TypeId::kFloat16:
      return std::make_unique<PrimitiveBuilder<uint16_t>>(type);
    case TypeId::kUInt32:
      return std::make_unique<PrimitiveBuilder<uint32_t>>(type);
    case TypeId::kUInt64:
      return std::make_unique<PrimitiveBuilder<uint64_t>>(type);
    case TypeId::kFloat32:
      return std::make_unique<PrimitiveBuilder<float>>(type);
    case TypeId::kFloat64:
      return std::make_unique<PrimitiveBuilder<double>>(type);
    case TypeId::kUtf8:
    case TypeId::kLargeUtf8:
    case TypeId::kBinary:
    case TypeId::kLargeBinary:
      return std::make_unique<BinaryBuilder>(type);
    case TypeId::kFixedSizeBinary:
    case TypeId::kDecimal128:
    case TypeId::kDecimal256:
      return std::make_unique<FixedSizeBinaryBuilder>(type);
    case TypeId::kList:
    case TypeId::kLargeList:
      return std::make_unique<ListBuilder>(type);
    case TypeId::kFixedSizeList:
      return std::make_unique<FixedSizeListBuilder>(type);
    case TypeId::kStruct:
      return std::make_unique<StructBuilder>(type);
  }
  return nullptr;
}

template <typename T>
ArrayPtr MakePrimitiveArray(const DataTypePtr& type, const std::vector<std::optional<T>>& values) {
  PrimitiveBuilder<T> b(type);
  for (const auto& v : values) {
    if (v) {
      b.Append(*v);
    } else {
      b.AppendNull();
    }
  }
  auto r = b.Finish();
  return r.ok() ? *r : nullptr;
}

template ArrayPtr MakePrimitiveArray<int8_t>(const DataTypePtr&,
                                             const std::vector<std::optional<int8_t>>&);
template ArrayPtr MakePrimitiveArray<int16_t>(const DataTypePtr&,
                                              const std::vector<std::optional<int16_t>>&);
template ArrayPtr MakePrimitiveArray<int32_t>(const DataTypePtr&,
                                              const std::vector<std::optional<int32_t>>&);
template ArrayPtr MakePrimitiveArray<int64_t>(const DataTypePtr&,
                                              const std::vector<std::optional<int64_t>>&);
template ArrayPtr MakePrimitiveArray<uint8_t>(const DataTypePtr&,
                                              const std::vector<std::optional<uint8_t>>&);
template ArrayPtr MakePrimitiveArray<uint16_t>(const DataTypePtr&,
                                               const std::vector<std::optional<uint16_t>>&);
template ArrayPtr MakePrimitiveArray<uint32_t>(const DataTypePtr&,
                                               const std::vector<std::optional<uint32_t>>&);
template ArrayPtr MakePrimitiveArray<uint64_t>(const DataTypePtr&,
                                               const std::vector<std::optional<uint64_t>>&);
template ArrayPtr MakePrimitiveArray<float>(const DataTypePtr&,
                                            const std::vector<std::optional<float>>&);
template ArrayPtr MakePrimitiveArray<double>(const DataTypePtr&,
                                             const std::vector<std::optional<double>>&);

ArrayPtr MakeBoolArray(const std::vector<std::optional<bool>>& values) {
  BoolBuilder b;
  for (const auto& v : values) {
    if (v) {
      b.Append(*v);
    } else {
      b.AppendNull();
    }
  }
  return *b.Finish();
}

ArrayPtr MakeStringArray(const std::vector<std::optional<std::string>>& values,
                         const DataTypePtr& type) {
  BinaryBuilder b(type);
  for (const auto& v : values) {
    if (v) {
      b.Append(*v);
    } else {
      b.AppendNull();
    }
  }
  auto r = b.Finish();
  return r.ok() ? *r : nullptr;
}

}  // namespace lance_nd::array
