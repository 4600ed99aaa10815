#include "lance_nd/file/container.h"

#include <google/protobuf/any.pb.h>

#include <cstring>

#include "encodings_v2_0.pb.h"
#include "lance_nd/core/internal/checked_math.h"
#include "lance_nd/core/internal/endian.h"

namespace lance_nd::file::internal {
namespace {

std::uint64_t U64(const std::uint8_t* p) {
  std::uint64_t v;
  std::memcpy(&v, p, 8);
  return v;  // little-endian host (checked in core/endian.h)
}
std::uint32_t U32(const std::uint8_t* p) {
  std::uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}
std::uint16_t U16(const std::uint8_t* p) {
  std::uint16_t v;
  std::memcpy(&v, p, 2);
  return v;
}

Status CheckRange(const std::string& what, std::uint64_t pos, std::uint64_t size,
                  std::uint64_t limit) {
  if (pos > limit || size > limit - pos) {
    return Status::Corrupt(what, " at position ", pos, " with size ", size, " extends past ", limit,
                           " (the end of the region it must lie in); the file is truncated or "
                           "damaged");
  }
  return Status::OK();
}

const char kPageLayoutUrl[] = "/lance.encodings21.PageLayout";
const char kColumnEncodingUrl[] = "/lance.encodings.ColumnEncoding";

bool UrlIs(const std::string& url, const char* expected) {
  // Accept an optional host prefix ("type.googleapis.com/lance...").
  const std::size_t n = std::strlen(expected);
  return url.size() >= n && url.compare(url.size() - n, n, expected) == 0;
}

Status ParsePage(const lance::file::v2::ColumnMetadata::Page& page, std::uint64_t data_end,
                 const std::string& where, PageMeta* out) {
  if (page.buffer_offsets_size() != page.buffer_sizes_size()) {
    return Status::Corrupt(where, " has ", static_cast<std::uint64_t>(page.buffer_offsets_size()),
                           " buffer offsets but ",
                           static_cast<std::uint64_t>(page.buffer_sizes_size()), " buffer sizes");
  }
  out->num_rows = page.length();
  out->priority = page.priority();
  for (int i = 0; i < page.buffer_offsets_size(); ++i) {
    const BufferRange r{page.buffer_offsets(i), page.buffer_sizes(i)};
    LND_RETURN_NOT_OK(
        CheckRange(where + " buffer " + std::to_string(i), r.position, r.size, data_end));
    out->buffers.push_back(r);
  }
  if (!page.has_encoding()) return Status::Corrupt(where, " has no encoding");
  const auto& enc = page.encoding();
  if (enc.has_indirect()) {
    return Status::NotImplemented(where,
                                  " uses an indirect (deferred) encoding, which Lance "
                                  "2.1/2.2 writers never produce and lance-nd does not read");
  }
  if (!enc.has_direct()) return Status::Corrupt(where, " has an empty encoding");
  google::protobuf::Any any;
  if (!any.ParseFromString(enc.direct().encoding())) {
    return Status::Corrupt(where, ": the page encoding is not a valid google.protobuf.Any");
  }
  if (!UrlIs(any.type_url(), kPageLayoutUrl)) {
    return Status::NotImplemented(where, " has encoding type '", any.type_url(), "', expected '",
                                  kPageLayoutUrl, "' (Lance 2.0 files are not supported)");
  }
  if (!out->layout.ParseFromString(any.value())) {
    return Status::Corrupt(where, ": the PageLayout message does not parse");
  }
  if (out->layout.layout_case() == lance::encodings21::PageLayout::LAYOUT_NOT_SET) {
    return Status::Corrupt(where, ": the PageLayout names no layout");
  }
  return Status::OK();
}

}  // namespace

std::string VersionName(std::uint16_t major, std::uint16_t minor) {
  if (major == 0 && minor == 3) return "2.0";
  if (major == 0) return "legacy v1 (0." + std::to_string(minor) + ")";
  return std::to_string(major) + "." + std::to_string(minor);
}

Result<Footer> ParseFooter(const std::uint8_t* p, std::uint64_t file_size) {
  if (std::memcmp(p + 36, kMagic, 4) != 0) {
    return Status::Corrupt(
        "the file does not end with the Lance magic 'LANC'; it is not a Lance "
        "file or it is truncated");
  }
  Footer f;
  f.column_meta_start = U64(p);
  f.cmo_table_start = U64(p + 8);
  f.gbo_table_start = U64(p + 16);
  f.num_global_buffers = U32(p + 24);
  f.num_columns = U32(p + 28);
  f.major = U16(p + 32);
  f.minor = U16(p + 34);
  if (!(f.major == 2 && (f.minor == 1 || f.minor == 2))) {
    return Status::NotImplemented("Lance file format version ", VersionName(f.major, f.minor),
                                  " is not supported; lance-nd reads versions 2.1 and 2.2");
  }
  const std::uint64_t footer_start = file_size - kFooterSize;
  const std::uint64_t cmo_size = std::uint64_t{f.num_columns} * 16;
  const std::uint64_t gbo_size = std::uint64_t{f.num_global_buffers} * 16;
  if (f.num_global_buffers == 0) {
    return Status::Corrupt("the footer lists 0 global buffers; expected at least 1 (the schema)");
  }
  LND_RETURN_NOT_OK(
      CheckRange("the global buffer offset table", f.gbo_table_start, gbo_size, footer_start));
  LND_RETURN_NOT_OK(CheckRange("the column metadata offset table", f.cmo_table_start, cmo_size,
                               f.gbo_table_start));
  if (f.column_meta_start > f.cmo_table_start) {
    return Status::Corrupt("the column metadata start ", f.column_meta_start,
                           " lies after the column metadata offset table at ", f.cmo_table_start);
  }
  return f;
}

Result<Container> ReadContainer(const io::RandomAccessFile& file) {
  Container c;
  c.file_size = file.Size();
  if (c.file_size < kFooterSize) {
    return Status::Corrupt("'", file.path(), "' has ", c.file_size,
                           " bytes, fewer than the 40-byte Lance footer");
  }
  // Read the tail in one go: usually everything from the schema to the end.
  const std::uint64_t tail_len = std::min<std::uint64_t>(c.file_size, 64 * 1024);
  const std::uint64_t tail_start = c.file_size - tail_len;
  LND_ASSIGN_OR_RETURN(io::Bytes tail, file.ReadAt(tail_start, tail_len));
  LND_ASSIGN_OR_RETURN(c.footer, ParseFooter(tail->data() + tail_len - kFooterSize, c.file_size));
  const Footer& f = c.footer;

  // Bytes [pos, pos+size) from the tail when it holds them, else from the file.
  auto read = [&](std::uint64_t pos, std::uint64_t size) -> Result<io::Bytes> {
    if (pos >= tail_start) {
      const auto b = tail->begin() + static_cast<std::ptrdiff_t>(pos - tail_start);
      return io::Bytes(std::make_shared<const std::vector<std::uint8_t>>(
          b, b + static_cast<std::ptrdiff_t>(size)));
    }
    return file.ReadAt(pos, size);
  };

  // Global buffers.
  LND_ASSIGN_OR_RETURN(io::Bytes gbo,
                       read(f.gbo_table_start, std::uint64_t{f.num_global_buffers} * 16));
  for (std::uint32_t i = 0; i < f.num_global_buffers; ++i) {
    BufferRange r{U64(gbo->data() + i * 16), U64(gbo->data() + i * 16 + 8)};
    LND_RETURN_NOT_OK(
        CheckRange("global buffer " + std::to_string(i), r.position, r.size, f.column_meta_start));
    c.global_buffers.push_back(r);
  }
  const BufferRange& schema_range = c.global_buffers[0];
  LND_ASSIGN_OR_RETURN(io::Bytes schema_bytes, read(schema_range.position, schema_range.size));
  if (!c.descriptor.ParseFromArray(schema_bytes->data(), static_cast<int>(schema_bytes->size()))) {
    return Status::Corrupt("global buffer 0 (the FileDescriptor with the schema, ",
                           schema_range.size, " bytes at ", schema_range.position,
                           ") does not parse");
  }

  // Column metadata.
  LND_ASSIGN_OR_RETURN(io::Bytes meta,
                       read(f.column_meta_start, f.gbo_table_start - f.column_meta_start));
  const std::uint8_t* cmo = meta->data() + (f.cmo_table_start - f.column_meta_start);
  c.columns.resize(f.num_columns);
  for (std::uint32_t i = 0; i < f.num_columns; ++i) {
    ColumnMeta& col = c.columns[i];
    const std::string where = "column " + std::to_string(i);
    col.location = {U64(cmo + i * 16), U64(cmo + i * 16 + 8)};
    if (col.location.position < f.column_meta_start) {
      return Status::Corrupt(where, " metadata position ", col.location.position,
                             " lies before the column metadata start ", f.column_meta_start);
    }
    LND_RETURN_NOT_OK(CheckRange(where + " metadata", col.location.position, col.location.size,
                                 f.cmo_table_start));
    lance::file::v2::ColumnMetadata pb;
    if (!pb.ParseFromArray(meta->data() + (col.location.position - f.column_meta_start),
                           static_cast<int>(col.location.size))) {
      return Status::Corrupt(where, " metadata (", col.location.size, " bytes at ",
                             col.location.position, ") does not parse");
    }
    if (pb.has_encoding() && pb.encoding().has_direct()) {
      google::protobuf::Any any;
      if (any.ParseFromString(pb.encoding().direct().encoding())) {
        col.encoding_type_url = any.type_url();
        if (UrlIs(any.type_url(), kColumnEncodingUrl)) {
          lance::encodings::ColumnEncoding ce;
          if (ce.ParseFromString(any.value()) &&
              ce.column_encoding_case() != lance::encodings::ColumnEncoding::kValues &&
              ce.column_encoding_case() !=
                  lance::encodings::ColumnEncoding::COLUMN_ENCODING_NOT_SET) {
            return Status::NotImplemented(where,
                                          " uses a legacy 2.0 column encoding (zone "
                                          "index or blob), which lance-nd does not read");
          }
        }
      }
    }
    std::uint64_t row = 0;
    for (int p = 0; p < pb.pages_size(); ++p) {
      PageMeta page;
      LND_RETURN_NOT_OK(
          ParsePage(pb.pages(p), f.column_meta_start, where + " page " + std::to_string(p), &page));
      page.first_row = row;
      auto next = CheckedAdd(row, page.num_rows);
      if (!next) return Status::Corrupt(where, " page row counts overflow");
      row = *next;
      col.pages.push_back(std::move(page));
    }
    col.num_rows = row;
  }
  return c;
}

}  // namespace lance_nd::file::internal
