// Typed views.
#include "lance_nd/array/view.h"

namespace lance_nd::array {
namespace {
const std::uint8_t* BufferData(const ArrayData& a, std::size_t i) {
  return i < a.buffers.size() && a.buffers[i] ? a.buffers[i]->data() : nullptr;
}
}  // namespace

BinaryView::BinaryView(const ArrayData& a)
    : a_(&a),
      large_(a.type->id() == TypeId::kLargeUtf8 || a.type->id() == TypeId::kLargeBinary),
      offsets_(BufferData(a, 1)),
      data_(BufferData(a, 2)) {}

ListView::ListView(const ArrayData& a)
    : a_(&a),
      id_(a.type->id()),
      list_size_(a.type->id() == TypeId::kFixedSizeList ? a.type->fixed_size() : 0),
      offsets_(a.type->id() == TypeId::kFixedSizeList ? nullptr : BufferData(a, 1)) {}

int64_t ListView::ValueOffset(int64_t i) const {
  switch (id_) {
    case TypeId::kFixedSizeList:
      return (a_->offset + i) * list_size_;
    case TypeId::kLargeList:
      return offsets_ == nullptr ? 0 : reinterpret_cast<const int64_t*>(offsets_)[a_->offset + i];
    default:
      return offsets_ == nullptr ? 0 : reinterpret_cast<const int32_t*>(offsets_)[a_->offset + i];
  }
}

}  // namespace lance_nd::array
