#include "lance_nd/nd/attributes.h"

#include <cmath>
#include <cstring>
#include <utility>

#include "lance_nd/array/builder.h"
#include "lance_nd/array/view.h"
#include "lance_nd/nd/errors.h"
#include "retype.h"

namespace lance_nd::nd {
namespace {

using array::ArrayPtr;
using array::DataTypePtr;
using array::TypeId;

template <typename T>
ArrayPtr Numbers(const DataTypePtr& type, const void* data, std::size_t n) {
  std::vector<std::optional<T>> values(n);
  for (std::size_t i = 0; i < n; ++i) {
    T v;
    std::memcpy(&v, static_cast<const std::uint8_t*>(data) + i * sizeof(T), sizeof(T));
    values[i] = v;
  }
  return array::MakePrimitiveArray<T>(type, values);
}

/// A one-element List<item: T nullable> holding all of `items`.
ArrayPtr OneList(const ArrayPtr& items) {
  const int32_t offsets[2] = {0, static_cast<int32_t>(items->length)};
  return array::MakeArrayData(array::List(items->type), 1,
                              {nullptr, array::Buffer::Copy(offsets, sizeof(offsets))}, {items}, 0);
}

std::string Quote(std::string_view key) { return "'" + std::string(key) + "'"; }

/// The non-null values of struct slot `slot`, each retyped to its field's type.
std::vector<Attributes::Entry> DecodeSlot(const array::ArrayData& values,
                                          const std::vector<array::FieldPtr>& fields,
                                          int64_t slot) {
  std::vector<Attributes::Entry> out;
  const int64_t child_slot = values.offset + slot;
  out.reserve(fields.size());
  for (std::size_t k = 0; k < fields.size(); ++k) {
    const ArrayPtr& child = values.children[k];
    if (child->IsNull(child_slot)) continue;
    auto one = array::Slice(child, child_slot, 1);
    if (!one.ok()) continue;  // not reached: Deferred's caller checked the child's length
    auto typed = internal::Retype(*one, fields[k]->type());
    // Retype fails only for a type of another shape, which Deferred's caller ruled out; the
    // value is then kept with the type it was read with rather than lost.
    out.emplace_back(fields[k]->name(), typed.ok() ? std::move(*typed) : std::move(*one));
  }
  return out;
}

}  // namespace

Attributes::Attributes(const Attributes& other) { *this = other; }

Attributes& Attributes::operator=(const Attributes& other) {
  if (this == &other) return *this;
  // Decoded entries are copied; deferred ones stay deferred (their source does not change
  // while another thread may be decoding them).
  const bool resolved = other.state_.load(std::memory_order_acquire) == kResolved;
  entries_ = resolved ? other.entries_ : std::vector<Entry>{};
  source_ = resolved ? Source{} : other.source_;
  state_.store(resolved ? kResolved : kDeferred, std::memory_order_relaxed);
  return *this;
}

Attributes& Attributes::operator=(Attributes&& other) noexcept {
  if (this == &other) return *this;
  entries_ = std::move(other.entries_);
  source_ = std::move(other.source_);
  state_.store(other.state_.load(std::memory_order_relaxed), std::memory_order_relaxed);
  other.entries_.clear();
  other.state_.store(kResolved, std::memory_order_relaxed);
  return *this;
}

Attributes Attributes::Deferred(array::ArrayPtr values,
                                std::shared_ptr<const std::vector<array::FieldPtr>> fields,
                                int64_t slot) {
  Attributes out;
  out.source_ = Source{std::move(values), std::move(fields), slot};
  out.state_.store(kDeferred, std::memory_order_relaxed);
  return out;
}

const std::vector<Attributes::Entry>& Attributes::Resolve() const {
  std::uint8_t state = state_.load(std::memory_order_acquire);
  while (state != kResolved) {
    if (state == kDecoding) {
      state_.wait(kDecoding, std::memory_order_acquire);
      state = state_.load(std::memory_order_acquire);
      continue;
    }
    if (!state_.compare_exchange_weak(state, kDecoding, std::memory_order_acquire)) continue;
    try {
      entries_ = DecodeSlot(*source_.values, *source_.fields, source_.slot);
    } catch (...) {  // out of memory: another caller may try again
      state_.store(kDeferred, std::memory_order_release);
      state_.notify_all();
      throw;
    }
    state_.store(kResolved, std::memory_order_release);
    state_.notify_all();
    break;
  }
  return entries_;
}

void Attributes::Own() {
  Resolved();
  source_ = Source{};
}

Result<Attributes> Attributes::Make(std::vector<Entry> entries) {
  Attributes out;
  for (auto& [key, value] : entries) {
    if (out.Contains(key)) {
      return InvalidAttribute("key " + Quote(key) +
                              " appears more than once; attribute keys must be unique");
    }
    LND_RETURN_NOT_OK(out.SetValue(std::move(key), std::move(value)));
  }
  return out;
}

array::ArrayPtr Attributes::Get(std::string_view key) const {
  for (const auto& [k, v] : Resolved()) {
    if (k == key) return v;
  }
  return nullptr;
}

Status Attributes::SetValue(std::string key, array::ArrayPtr value) {
  if (key.empty()) {
    return InvalidAttribute("an attribute key is empty; give every attribute a name");
  }
  if (!value || !value->type) {
    return InvalidAttribute("attribute " + Quote(key) + " has no value");
  }
  if (value->length != 1) {
    return InvalidAttribute("attribute " + Quote(key) + " holds " + std::to_string(value->length) +
                            " values; an attribute is exactly one value (wrap several values "
                            "in a one-element list)");
  }
  if (value->IsNull(0)) {
    return InvalidAttribute("attribute " + Quote(key) +
                            " is null; a null attribute reads back as absent, so remove the "
                            "key instead");
  }
  Put(std::move(key), std::move(value));
  return Status::OK();
}

void Attributes::Put(std::string key, array::ArrayPtr value) {
  Own();
  for (auto& [k, v] : entries_) {
    if (k == key) {
      v = std::move(value);
      return;
    }
  }
  entries_.emplace_back(std::move(key), std::move(value));
}

bool Attributes::Remove(std::string_view key) {
  Own();
  for (auto it = entries_.begin(); it != entries_.end(); ++it) {
    if (it->first == key) {
      entries_.erase(it);
      return true;
    }
  }
  return false;
}

Attributes& Attributes::Set(std::string key, std::string_view value) {
  Put(std::move(key), array::MakeStringArray({std::string(value)}));
  return *this;
}

Attributes& Attributes::Set(std::string key, bool value) {
  Put(std::move(key), array::MakeBoolArray({value}));
  return *this;
}

Attributes& Attributes::Set(std::string key, const std::vector<std::string>& values) {
  std::vector<std::optional<std::string>> items(values.begin(), values.end());
  Put(std::move(key), OneList(array::MakeStringArray(items)));
  return *this;
}

Attributes& Attributes::Set(std::string key, const std::vector<std::string_view>& values) {
  std::vector<std::optional<std::string>> items;
  items.reserve(values.size());
  for (std::string_view v : values) items.emplace_back(std::string(v));
  Put(std::move(key), OneList(array::MakeStringArray(items)));
  return *this;
}

Attributes& Attributes::Set(std::string key, const std::vector<const char*>& values) {
  std::vector<std::optional<std::string>> items;
  items.reserve(values.size());
  for (const char* v : values) items.emplace_back(std::string(v == nullptr ? "" : v));
  Put(std::move(key), OneList(array::MakeStringArray(items)));
  return *this;
}

Attributes& Attributes::Set(std::string key, const std::vector<bool>& values) {
  std::vector<std::optional<bool>> items(values.begin(), values.end());
  Put(std::move(key), OneList(array::MakeBoolArray(items)));
  return *this;
}

Attributes& Attributes::SetNumbers(std::string key, int kind, const void* data, std::size_t n,
                                   bool as_list) {
  ArrayPtr items;
  switch (kind) {
    case kI8:
      items = Numbers<int8_t>(array::Int8(), data, n);
      break;
    case kI16:
      items = Numbers<int16_t>(array::Int16(), data, n);
      break;
    case kI32:
      items = Numbers<int32_t>(array::Int32(), data, n);
      break;
    case kI64:
      items = Numbers<int64_t>(array::Int64(), data, n);
      break;
    case kU8:
      items = Numbers<uint8_t>(array::UInt8(), data, n);
      break;
    case kU16:
      items = Numbers<uint16_t>(array::UInt16(), data, n);
      break;
    case kU32:
      items = Numbers<uint32_t>(array::UInt32(), data, n);
      break;
    case kU64:
      items = Numbers<uint64_t>(array::UInt64(), data, n);
      break;
    case kF32:
      items = Numbers<float>(array::Float32(), data, n);
      break;
    default:
      items = Numbers<double>(array::Float64(), data, n);
      break;
  }
  Put(std::move(key), as_list ? OneList(items) : items);
  return *this;
}

std::optional<std::string> Attributes::GetString(std::string_view key) const {
  const ArrayPtr v = Get(key);
  if (!v || (v->type->id() != TypeId::kUtf8 && v->type->id() != TypeId::kLargeUtf8)) {
    return std::nullopt;
  }
  return std::string(array::BinaryView(*v).Value(0));
}

std::optional<bool> Attributes::GetBool(std::string_view key) const {
  const ArrayPtr v = Get(key);
  if (!v || v->type->id() != TypeId::kBool) return std::nullopt;
  return array::BoolView(*v).Value(0);
}

std::optional<int64_t> Attributes::GetInt64(std::string_view key) const {
  const ArrayPtr v = Get(key);
  if (!v) return std::nullopt;
  switch (v->type->id()) {
    case TypeId::kInt8:
      return array::PrimitiveView<int8_t>(*v).Value(0);
    case TypeId::kInt16:
      return array::PrimitiveView<int16_t>(*v).Value(0);
    case TypeId::kInt32:
      return array::PrimitiveView<int32_t>(*v).Value(0);
    case TypeId::kInt64:
      return array::PrimitiveView<int64_t>(*v).Value(0);
    case TypeId::kUInt8:
      return array::PrimitiveView<uint8_t>(*v).Value(0);
    case TypeId::kUInt16:
      return array::PrimitiveView<uint16_t>(*v).Value(0);
    case TypeId::kUInt32:
      return array::PrimitiveView<uint32_t>(*v).Value(0);
    case TypeId::kUInt64: {
      const uint64_t u = array::PrimitiveView<uint64_t>(*v).Value(0);
      if (!std::in_range<int64_t>(u)) return std::nullopt;
      return static_cast<int64_t>(u);
    }
    default:
      return std::nullopt;
  }
}

std::optional<double> Attributes::GetDouble(std::string_view key) const {
  const ArrayPtr v = Get(key);
  if (!v) return std::nullopt;
  switch (v->type->id()) {
    case TypeId::kFloat32:
      return array::PrimitiveView<float>(*v).Value(0);
    case TypeId::kFloat64:
      return array::PrimitiveView<double>(*v).Value(0);
    case TypeId::kUInt64:
      return static_cast<double>(array::PrimitiveView<uint64_t>(*v).Value(0));
    default: {
      const auto i = GetInt64(key);
      if (!i) return std::nullopt;
      return static_cast<double>(*i);
    }
  }
}

std::string Attributes::ToString() const {
  std::string out = "{";
  bool first = true;
  for (const auto& [k, v] : Resolved()) {
    if (!first) out += ", ";
    first = false;
    out += k;
    out += ": ";
    std::string text = array::PrettyPrint(*v);
    // Keep it on one line.
    for (char& c : text) {
      if (c == '\n') c = ' ';
    }
    out += text;
  }
  out += "}";
  return out;
}

bool Attributes::Equals(const Attributes& other) const {
  const std::vector<Entry>& mine = Resolved();
  if (mine.size() != other.Resolved().size()) return false;
  for (const auto& [k, v] : mine) {
    const ArrayPtr o = other.Get(k);
    if (!o || !array::ArrayEquals(*v, *o)) return false;
  }
  return true;
}

}  // namespace lance_nd::nd
