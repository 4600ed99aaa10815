// Test helpers for the encoding tests (header-only, used by *_test.cc only).
#pragma once

#include <cstdint>
#include <cstring>

#include <gtest/gtest.h>
#include <random>
#include <string>
#include <vector>

#include "encodings_v2_1.pb.h"
#include "lance_nd/core/internal/endian.h"
#include "lance_nd/file/encoding/compressive.h"

namespace lance_nd::file::internal::encoding::testing {

inline BufferPtr Bytes(const std::vector<std::uint8_t>& v) {
  return array::Buffer::Copy(v.data(), static_cast<int64_t>(v.size()));
}

template <typename T>
BufferPtr Values(const std::vector<T>& v) {
  return array::Buffer::Copy(v.data(), static_cast<int64_t>(v.size() * sizeof(T)));
}

template <typename T>
DataBlock FixedOf(const std::vector<T>& v) {
  return DataBlock::Fixed(sizeof(T) * 8, v.size(), Values(v));
}

template <typename T>
std::vector<T> ToVector(const DataBlock& b) {
  std::vector<T> out(b.num_values);
  if (b.num_values > 0) std::memcpy(out.data(), b.data->data(), b.num_values * sizeof(T));
  return out;
}

inline DataBlock StringsOf(const std::vector<std::string>& s, std::uint32_t width = 32) {
  std::vector<std::uint8_t> data;
  std::vector<std::uint64_t> offsets{0};
  for (const auto& x : s) {
    data.insert(data.end(), x.begin(), x.end());
    offsets.push_back(data.size());
  }
  BufferPtr off;
  if (width == 32) {
    std::vector<std::uint32_t> o(offsets.begin(), offsets.end());
    off = Values(o);
  } else {
    off = Values(offsets);
  }
  return DataBlock::Variable(width, s.size(), off, Bytes(data));
}

inline std::vector<std::string> ToStrings(const DataBlock& b) {
  std::vector<std::string> out;
  for (std::uint64_t i = 0; i < b.num_values; ++i) {
    std::uint64_t s, e;
    if (b.bits_per_offset == 64) {
      s = LoadLE<std::uint64_t>(b.offsets->data() + i * 8);
      e = LoadLE<std::uint64_t>(b.offsets->data() + i * 8 + 8);
    } else {
      s = LoadLE<std::uint32_t>(b.offsets->data() + i * 4);
      e = LoadLE<std::uint32_t>(b.offsets->data() + i * 4 + 4);
    }
    out.emplace_back(reinterpret_cast<const char*>(b.data->data() + s), e - s);
  }
  return out;
}

/// Decode every chunk of a mini-block result and concatenate the bytes of fixed values.
inline std::vector<std::uint8_t> DecodeAllFixed(const MiniBlockEncoded& enc) {
  std::vector<std::uint8_t> out;
  for (const auto& c : enc.chunks) {
    auto r = DecodeMiniBlock(*enc.encoding, c.buffers, c.num_values);
    if (!r.ok()) {
      ADD_FAILURE() << r.status().ToString();
      return out;
    }
    const auto bytes = (r->bits_per_value * r->num_values + 7) / 8;
    out.insert(out.end(), r->data->data(), r->data->data() + bytes);
  }
  return out;
}

inline std::vector<std::string> DecodeAllStrings(const MiniBlockEncoded& enc) {
  std::vector<std::string> out;
  for (const auto& c : enc.chunks) {
    auto r = DecodeMiniBlock(*enc.encoding, c.buffers, c.num_values);
    if (!r.ok()) {
      ADD_FAILURE() << r.status().ToString();
      return out;
    }
    auto s = ToStrings(*r);
    out.insert(out.end(), s.begin(), s.end());
  }
  return out;
}

inline pb::CompressiveEncoding Parse(const std::string& bytes) {
  pb::CompressiveEncoding ce;
  ce.ParseFromString(bytes);
  return ce;
}

}  // namespace lance_nd::file::internal::encoding::testing
