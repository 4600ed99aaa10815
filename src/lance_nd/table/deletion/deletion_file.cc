// Reading and writing deletion files (_deletions/{fragment}-{read_version}-{id}.{arrow|bin}).
#include <random>
#include <utility>

#include "lance_nd/array/ipc.h"
#include "lance_nd/table/deletion.h"
#include "lance_nd/table/deletion/roaring_portable.h"

namespace lance_nd::table {
namespace {

const char* TypeName(DeletionFileType type) {
  return type == DeletionFileType::kArrowArray ? "Arrow" : "Roaring";
}

Result<std::vector<std::uint32_t>> ParseArrowDeletions(std::span<const std::uint8_t> bytes,
                                                       const std::string& name) {
  auto corrupt = [&](const std::string& what) {
    return Status::Corrupt("Arrow deletion file '" + name + "': " + what);
  };
  auto read = array::ipc::ReadIpcFileBytes(bytes);
  if (!read.ok()) {
    // Whatever the IPC reader refuses (malformed or unsupported), this is not a deletion file.
    return corrupt("cannot be read as an Arrow IPC file with one UInt32 column: " +
                   std::string(read.status().message()));
  }
  array::ipc::IpcContents contents = std::move(read).value();
  const array::Schema& schema = *contents.schema;
  if (schema.num_fields() != 1 || schema.field(0)->name() != "row_id" ||
      schema.field(0)->type()->id() != array::TypeId::kUInt32 || schema.field(0)->nullable()) {
    std::string found;
    for (int i = 0; i < schema.num_fields(); ++i) {
      found += (i ? ", " : "") + schema.field(i)->ToString();
    }
    return corrupt("found schema {" + found +
                   "}, expected exactly one field 'row_id: uint32 not null'");
  }
  std::vector<std::uint32_t> out;
  for (const array::RecordBatchPtr& batch : contents.batches) {
    const array::ArrayData& column = *batch->column(0);
    if (column.null_count() != 0) {
      return corrupt("column 'row_id' holds " + std::to_string(column.null_count()) +
                     " nulls, expected none");
    }
    const auto* values = column.values<std::uint32_t>();
    if (column.length > 0 && values == nullptr) return corrupt("column 'row_id' has no values");
    out.insert(out.end(), values, values + column.length);
  }
  return out;
}

}  // namespace

Result<DeletionVector> ParseDeletionFile(std::span<const std::uint8_t> bytes, DeletionFileType type,
                                         std::uint64_t physical_rows, std::uint64_t expected_count,
                                         const std::string& name) {
  std::vector<std::uint32_t> offsets;
  if (type == DeletionFileType::kArrowArray) {
    LND_ASSIGN_OR_RETURN(offsets, ParseArrowDeletions(bytes, name));
  } else if (type == DeletionFileType::kBitmap) {
    std::uint64_t max_values = std::uint64_t{1} << 32;
    if (physical_rows != 0) max_values = physical_rows;
    if (expected_count != 0) max_values = std::min(max_values, expected_count);
    LND_ASSIGN_OR_RETURN(offsets, internal::ParseRoaringPortable(bytes, name, max_values));
  } else {
    return Status::Corrupt("deletion file '" + name + "' has unknown file type " +
                           std::to_string(static_cast<int>(type)) +
                           "; expected ARROW_ARRAY (0) or BITMAP (1)");
  }
  DeletionVector dv(std::move(offsets));
  if (physical_rows != 0 && !dv.empty() && dv.offsets().back() >= physical_rows) {
    return Status::Corrupt(std::string(TypeName(type)) + " deletion file '" + name +
                           "' deletes row offset " + std::to_string(dv.offsets().back()) +
                           " but the fragment has only " + std::to_string(physical_rows) +
                           " physical rows (expected offsets < " + std::to_string(physical_rows) +
                           ")");
  }
  if (expected_count != 0 && dv.size() != expected_count) {
    return Status::Corrupt(std::string(TypeName(type)) + " deletion file '" + name + "' holds " +
                           std::to_string(dv.size()) +
                           " distinct deleted rows but the manifest says num_deleted_rows = " +
                           std::to_string(expected_count));
  }
  return dv;
}

Result<DeletionVector> ReadDeletionFile(const TableLocation& location, std::uint64_t fragment_id,
                                        const DeletionFile& file, std::uint64_t physical_rows) {
  if (file.base_id) {
    return Status::NotImplemented("deletion file of fragment " + std::to_string(fragment_id) +
                                  " lives under base path " + std::to_string(*file.base_id) +
                                  "; base paths are not supported yet");
  }
  const std::string path = location.Path(file.RelativePath(fragment_id));
  auto opened = location.fs().OpenForRead(path);
  if (!opened.ok()) {
    if (opened.status().code() == StatusCode::kNotFound) {
      return Status::NotFound("deletion file '" + path + "' of fragment " +
                              std::to_string(fragment_id) +
                              " does not exist; the table may be damaged (was it cleaned up "
                              "while this version was still in use?)");
    }
    return std::move(opened).status();
  }
  LND_ASSIGN_OR_RETURN(io::Bytes bytes, io::ReadWholeFile(**opened));
  return ParseDeletionFile(*bytes, file.file_type, physical_rows, file.num_deleted_rows, path);
}

Result<DeletionVector> ReadFragmentDeletions(const TableLocation& location,
                                             const Fragment& fragment) {
  if (!fragment.deletion_file) return DeletionVector();
  return ReadDeletionFile(location, fragment.id, *fragment.deletion_file, fragment.physical_rows);
}

Result<std::vector<std::uint8_t>> SerializeDeletionVector(const DeletionVector& rows,
                                                          DeletionFileType type) {
  if (type == DeletionFileType::kBitmap) {
    return internal::SerializeRoaringPortable(rows.offsets());
  }
  auto schema = array::MakeSchema({array::MakeField("row_id", array::UInt32(), false)});
  const auto n = static_cast<std::int64_t>(rows.size());
  auto values = array::Buffer::Copy(rows.offsets().data(),
                                    n * static_cast<std::int64_t>(sizeof(std::uint32_t)));
  auto column = array::MakeArrayData(array::UInt32(), n, {nullptr, values}, {}, 0);
  LND_ASSIGN_OR_RETURN(auto batch, array::RecordBatch::Make(schema, n, {column}));
  array::ipc::IpcWriteOptions options;
  options.compression = array::ipc::Compression::kZstd;
  const array::RecordBatchPtr batches[] = {batch};
  return array::ipc::WriteIpcFileBytes(schema, batches, options);
}

Result<DeletionFile> WriteDeletionFile(const TableLocation& location, std::uint64_t fragment_id,
                                       std::uint64_t read_version, const DeletionVector& rows,
                                       DeletionFileType type) {
  if (rows.empty()) {
    return Status::InvalidArgument(
        "WriteDeletionFile for fragment " + std::to_string(fragment_id) +
        " got no deleted rows; drop the fragment's deletion file instead");
  }
  DeletionFile file;
  file.file_type = type;
  file.read_version = read_version;
  std::random_device rd;
  std::mt19937_64 gen((std::uint64_t{rd()} << 32) ^ rd());
  file.id = gen() >> 1;  // Lance's ids are positive i64-range values
  file.num_deleted_rows = rows.size();
  LND_ASSIGN_OR_RETURN(std::vector<std::uint8_t> bytes, SerializeDeletionVector(rows, type));
  const std::string path = location.Path(file.RelativePath(fragment_id));
  LND_ASSIGN_OR_RETURN(auto out, location.fs().Create(path));
  LND_RETURN_NOT_OK(out->Write(bytes));
  LND_RETURN_NOT_OK(out->Sync());  // durable before a manifest can name it
  LND_RETURN_NOT_OK(out->Close());
  return file;
}

Result<DeletionFile> WriteDeletionFile(const TableLocation& location, std::uint64_t fragment_id,
                                       std::uint64_t read_version, const DeletionVector& rows) {
  return WriteDeletionFile(location, fragment_id, read_version, rows,
                           PreferredDeletionFileType(rows.size()));
}

}  // namespace lance_nd::table
