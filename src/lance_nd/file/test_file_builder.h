// Test helper (header-only, used by *_test.cc): assemble a Lance 2.x container from hand-made
// page layouts and buffers, so reader tests can target one layout or one corruption at a time.
#pragma once

#include <google/protobuf/any.pb.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "encodings_v2_1.pb.h"
#include "file.pb.h"
#include "file2.pb.h"

namespace lance_nd::file::testing {

struct TestPage {
  lance::encodings21::PageLayout layout;
  std::vector<std::vector<std::uint8_t>> buffers;
  std::uint64_t num_rows = 0;
};

inline void PutU64(std::vector<std::uint8_t>* out, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) out->push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}
inline void PutU32(std::vector<std::uint8_t>* out, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) out->push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}
inline void PutU16(std::vector<std::uint8_t>* out, std::uint16_t v) {
  out->push_back(static_cast<std::uint8_t>(v));
  out->push_back(static_cast<std::uint8_t>(v >> 8));
}
inline void Pad64(std::vector<std::uint8_t>* out) {
  while (out->size() % 64 != 0) out->push_back(0x48);
}
template <typename T>
std::vector<std::uint8_t> LeBytes(const std::vector<T>& values) {
  std::vector<std::uint8_t> out(values.size() * sizeof(T));
  if (!values.empty()) std::memcpy(out.data(), values.data(), out.size());
  return out;
}

/// \brief A top-level or child field of a Lance schema.
inline void AddField(lance::file::Schema* schema, std::string name, std::int32_t id,
                     std::int32_t parent, std::string logical_type, bool nullable = true) {
  auto* f = schema->add_fields();
  f->set_name(std::move(name));
  f->set_id(id);
  f->set_parent_id(parent);
  f->set_logical_type(std::move(logical_type));
  f->set_nullable(nullable);
}

/// \brief Bytes of a complete file: pages of each column, schema, metadata, tables, footer.
inline std::vector<std::uint8_t> BuildFile(const lance::file::Schema& schema,
                                           std::uint64_t num_rows,
                                           const std::vector<std::vector<TestPage>>& columns,
                                           std::uint16_t major = 2, std::uint16_t minor = 2) {
  std::vector<std::uint8_t> out;
  std::vector<lance::file::v2::ColumnMetadata> metas(columns.size());
  for (std::size_t c = 0; c < columns.size(); ++c) {
    google::protobuf::Any col_enc;
    col_enc.set_type_url("/lance.encodings.ColumnEncoding");
    col_enc.set_value(std::string("\x0a\x00", 2));
    metas[c].mutable_encoding()->mutable_direct()->set_encoding(col_enc.SerializeAsString());
    std::uint64_t row = 0;
    for (const TestPage& p : columns[c]) {
      auto* page = metas[c].add_pages();
      for (const auto& b : p.buffers) {
        Pad64(&out);
        page->add_buffer_offsets(out.size());
        page->add_buffer_sizes(b.size());
        out.insert(out.end(), b.begin(), b.end());
      }
      page->set_length(p.num_rows);
      page->set_priority(row);
      row += p.num_rows;
      google::protobuf::Any any;
      any.set_type_url("/lance.encodings21.PageLayout");
      any.set_value(p.layout.SerializeAsString());
      page->mutable_encoding()->mutable_direct()->set_encoding(any.SerializeAsString());
    }
  }
  Pad64(&out);
  lance::file::FileDescriptor fd;
  *fd.mutable_schema() = schema;
  fd.set_length(num_rows);
  const std::string fd_bytes = fd.SerializeAsString();
  const std::uint64_t gb0 = out.size();
  out.insert(out.end(), fd_bytes.begin(), fd_bytes.end());
  const std::uint64_t meta_start = out.size();
  std::vector<std::pair<std::uint64_t, std::uint64_t>> cmo;
  for (const auto& m : metas) {
    const std::string s = m.SerializeAsString();
    cmo.emplace_back(out.size(), s.size());
    out.insert(out.end(), s.begin(), s.end());
  }
  const std::uint64_t cmo_start = out.size();
  for (const auto& [pos, size] : cmo) {
    PutU64(&out, pos);
    PutU64(&out, size);
  }
  const std::uint64_t gbo_start = out.size();
  PutU64(&out, gb0);
  PutU64(&out, fd_bytes.size());
  PutU64(&out, meta_start);
  PutU64(&out, cmo_start);
  PutU64(&out, gbo_start);
  PutU32(&out, 1);
  PutU32(&out, static_cast<std::uint32_t>(columns.size()));
  PutU16(&out, major);
  PutU16(&out, minor);
  out.insert(out.end(), {'L', 'A', 'N', 'C'});
  return out;
}

inline lance::encodings21::CompressiveEncoding Flat(std::uint64_t bits) {
  lance::encodings21::CompressiveEncoding ce;
  ce.mutable_flat()->set_bits_per_value(bits);
  return ce;
}
inline lance::encodings21::CompressiveEncoding Variable32() {
  lance::encodings21::CompressiveEncoding ce;
  *ce.mutable_variable()->mutable_offsets() = Flat(32);
  return ce;
}

}  // namespace lance_nd::file::testing
