// Small helpers to build arrays in writer tests.
#pragma once

#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "lance_nd/array/array_data.h"
#include "lance_nd/array/buffer.h"

namespace lance_nd::file::internal::writer::testing {

inline array::BufferPtr Bitmap(const std::vector<bool>& valid) {
  bool any_null = false;
  for (bool v : valid) any_null |= !v;
  if (!any_null) return nullptr;
  std::vector<std::uint8_t> bits((valid.size() + 7) / 8, 0);
  for (std::size_t i = 0; i < valid.size(); ++i) {
    if (valid[i]) bits[i / 8] = static_cast<std::uint8_t>(bits[i / 8] | (1u << (i % 8)));
  }
  return array::Buffer::FromVector(std::move(bits));
}

template <typename T>
array::ArrayPtr Prim(array::DataTypePtr type, const std::vector<std::optional<T>>& values) {
  std::vector<T> raw(values.size());
  std::vector<bool> valid(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) {
    valid[i] = values[i].has_value();
    raw[i] = values[i].value_or(T{});
  }
  return array::MakeArrayData(
      std::move(type), static_cast<int64_t>(values.size()),
      {Bitmap(valid),
       array::Buffer::Copy(raw.data(), static_cast<int64_t>(raw.size() * sizeof(T)))});
}

inline array::ArrayPtr Strings(array::DataTypePtr type,
                               const std::vector<std::optional<std::string>>& values) {
  std::vector<std::int32_t> offsets{0};
  std::string data;
  std::vector<bool> valid;
  for (const auto& v : values) {
    valid.push_back(v.has_value());
    if (v) data += *v;
    offsets.push_back(static_cast<std::int32_t>(data.size()));
  }
  return array::MakeArrayData(
      std::move(type), static_cast<int64_t>(values.size()),
      {Bitmap(valid), array::Buffer::Copy(offsets.data(), static_cast<int64_t>(offsets.size() * 4)),
       array::Buffer::Copy(data.data(), static_cast<int64_t>(data.size()))});
}

/// rows: nullopt = null list, otherwise the child index range length.
inline array::ArrayPtr List(array::DataTypePtr type, const std::vector<std::optional<int>>& lengths,
                            array::ArrayPtr child) {
  std::vector<std::int32_t> offsets{0};
  std::vector<bool> valid;
  for (const auto& l : lengths) {
    valid.push_back(l.has_value());
    offsets.push_back(offsets.back() + l.value_or(0));
  }
  return array::MakeArrayData(
      std::move(type), static_cast<int64_t>(lengths.size()),
      {Bitmap(valid),
       array::Buffer::Copy(offsets.data(), static_cast<int64_t>(offsets.size() * 4))},
      {std::move(child)});
}

inline array::ArrayPtr Struct(array::DataTypePtr type, const std::vector<bool>& valid,
                              std::vector<array::ArrayPtr> children) {
  return array::MakeArrayData(std::move(type), static_cast<int64_t>(valid.size()), {Bitmap(valid)},
                              std::move(children));
}

}  // namespace lance_nd::file::internal::writer::testing
