// The container of a Lance 2.1/2.2 file: footer, offset tables, FileDescriptor (global buffer 0)
// and the column metadata. Every position and size is checked against the file size.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "encodings_v2_1.pb.h"
#include "file.pb.h"
#include "file2.pb.h"
#include "lance_nd/core/result.h"
#include "lance_nd/io/file.h"

namespace lance_nd::file::internal {

inline constexpr std::uint64_t kFooterSize = 40;
inline constexpr char kMagic[4] = {'L', 'A', 'N', 'C'};

struct Footer {
  std::uint64_t column_meta_start = 0;
  std::uint64_t cmo_table_start = 0;
  std::uint64_t gbo_table_start = 0;
  std::uint32_t num_global_buffers = 0;
  std::uint32_t num_columns = 0;
  std::uint16_t major = 0;
  std::uint16_t minor = 0;
};

/// \brief (position, size) of a buffer in the file.
struct BufferRange {
  std::uint64_t position = 0;
  std::uint64_t size = 0;
};

/// \brief Parse and validate the 40-byte footer (magic, version 2.1/2.2).
Result<Footer> ParseFooter(const std::uint8_t* bytes, std::uint64_t file_size);

/// \brief One page of a column with its decoded layout.
struct PageMeta {
  std::uint64_t num_rows = 0;
  std::uint64_t first_row = 0;  // computed as the running sum of previous pages' rows
  std::uint64_t priority = 0;   // as stored
  std::vector<BufferRange> buffers;
  lance::encodings21::PageLayout layout;
};

struct ColumnMeta {
  BufferRange location;  // of the ColumnMetadata bytes
  std::string encoding_type_url;
  std::vector<PageMeta> pages;
  std::uint64_t num_rows = 0;  // sum of page rows
};

struct Container {
  std::uint64_t file_size = 0;
  Footer footer;
  std::vector<BufferRange> global_buffers;
  lance::file::FileDescriptor descriptor;
  std::vector<ColumnMeta> columns;
};

/// \brief Read and validate the container of a Lance file. Errors: Corrupt naming what is wrong
/// and where; NotImplemented for other format versions (naming the version).
Result<Container> ReadContainer(const io::RandomAccessFile& file);

/// \brief "2.1", "2.2", or "legacy v1 (0.2)"... for messages.
std::string VersionName(std::uint16_t major, std::uint16_t minor);

}  // namespace lance_nd::file::internal
