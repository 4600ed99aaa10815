// Create / append / overwrite: data files for new fragments, then one commit.
#include "lance_nd/table/write.h"

#include <algorithm>
#include <cstdio>
#include <random>
#include <string>
#include <utility>

#include "file.pb.h"
#include "lance_nd/file/lance_schema_internal.h"
#include "lance_nd/file/writer.h"
#include "lance_nd/file/writer/stored_type.h"
#include "lance_nd/table/proto_convert.h"
#include "lance_nd/table/rowids/row_id_codec.h"

namespace lance_nd::table {
namespace {

std::string Join(const std::string& dir, const std::string& name) {
  if (dir.empty()) return name;
  return dir.back() == '/' ? dir + name : dir + "/" + name;
}

// Forwards to a file and makes it durable (fsync) when closed; tracks the bytes written.
class SyncOnClose final : public io::OutputFile {
 public:
  explicit SyncOnClose(std::unique_ptr<io::OutputFile> inner) : inner_(std::move(inner)) {}
  Status Write(std::span<const std::uint8_t> bytes) override { return inner_->Write(bytes); }
  std::uint64_t position() const override { return inner_->position(); }
  Status Flush() override { return inner_->Flush(); }
  Status Sync() override { return inner_->Sync(); }
  Status Close() override {
    if (!closed_) {
      LND_RETURN_NOT_OK(inner_->Sync());
      closed_ = true;
    }
    return inner_->Close();
  }
  const std::string& path() const override { return inner_->path(); }

 private:
  std::unique_ptr<io::OutputFile> inner_;
  bool closed_ = false;
};

// Lance's data file name: a random UUID, its first 3 bytes as 24 binary digits and the other
// 13 bytes as 26 hex digits.
std::string NewDataFileName() {
  const std::string uuid = NewUuid();
  std::string hex;
  for (char c : uuid) {
    if (c != '-') hex += c;
  }
  auto nibble = [](char c) { return static_cast<unsigned>(c <= '9' ? c - '0' : c - 'a' + 10); };
  std::string out;
  for (std::size_t i = 0; i < 6; ++i) {  // 3 bytes = 6 hex digits -> 24 binary digits
    const unsigned v = nibble(hex[i]);
    for (int bit = 3; bit >= 0; --bit) out += ((v >> bit) & 1U) != 0 ? '1' : '0';
  }
  return out + hex.substr(6) + ".lance";
}

// Bytes held by an array's buffers (shared / sliced buffers counted whole: an estimate).
std::int64_t BufferBytes(const array::ArrayData& a) {
  std::int64_t total = 0;
  for (const auto& b : a.buffers) total += b ? b->size() : 0;
  for (const auto& c : a.children) total += c ? BufferBytes(*c) : 0;
  return total;
}

// SchemaMismatch naming the first field of `got` that differs from `want`.
Status CheckSameSchema(const array::Schema& want, const array::Schema& got,
                       const std::string& path) {
  for (const auto& g : got.fields()) {
    bool found = false;
    for (const auto& w : want.fields()) {
      if (w->name() != g->name()) continue;
      found = true;
      if (!file::SameStoredType(w->type(), g->type())) {
        return Status::SchemaMismatch(
            "field '" + g->name() + "' of the appended data has type " + g->type()->ToString() +
            " but the table '" + path + "' stores it as " + w->type()->ToString() +
            "; cast the data to the table's type (or overwrite the table)");
      }
    }
    if (!found) {
      return Status::SchemaMismatch("field '" + g->name() +
                                    "' of the appended data is not in the table '" + path +
                                    "'; add the column first (evolution.h EvolveSchema)");
    }
  }
  if (got.num_fields() != want.num_fields()) {
    for (const auto& w : want.fields()) {
      bool found = false;
      for (const auto& g : got.fields()) found = found || g->name() == w->name();
      if (!found) {
        return Status::SchemaMismatch("the appended data has no field '" + w->name() +
                                      "' of the table '" + path +
                                      "'; every table column must be present");
      }
    }
  }
  for (int i = 0; i < got.num_fields(); ++i) {
    if (got.field(i)->name() != want.field(i)->name()) {
      return Status::SchemaMismatch("the appended data has field '" + got.field(i)->name() +
                                    "' at position " + std::to_string(i) + " where the table '" +
                                    path + "' has '" + want.field(i)->name() +
                                    "'; put the columns in the table's order");
    }
  }
  return Status();
}

// A table field of a type lance-nd cannot read has no Arrow type to write it with: data files
// for such a table would store the wrong type under its field id.
Status CheckWritableTypes(const std::vector<array::FieldPtr>& fields, const std::string& path) {
  for (const auto& f : fields) {
    if (auto why = file::UnsupportedFieldReason(*f)) {
      return Status::NotImplemented("cannot write data files for the table '" + path +
                                    "': its field '" + f->name() + "' has a type lance-nd does " +
                                    "not read (" + std::string(*why) + ")");
    }
    LND_RETURN_NOT_OK(CheckWritableTypes(f->type()->children(), path));
  }
  return Status();
}

}  // namespace

Result<file::FileVersion> TableFileVersion(const Manifest& m) {
  if (m.data_format_version == "2.1") return file::FileVersion::kV2_1;
  if (m.data_format_version == "2.2") return file::FileVersion::kV2_2;
  return Status::NotImplemented("the table's data format is '" + m.data_format_version +
                                "'; lance-nd writes data files of format 2.1 and 2.2 only");
}

Result<std::vector<LanceField>> FieldsFromSchema(const array::Schema& schema) {
  lance::file::Schema proto;
  LND_RETURN_NOT_OK(file::internal::SchemaToProto(schema, &proto, 0));
  std::vector<LanceField> fields;
  fields.reserve(static_cast<std::size_t>(proto.fields_size()));
  for (const auto& f : proto.fields()) fields.push_back(internal::FieldFromProto(f));
  return fields;
}

Result<std::vector<Fragment>> WriteFragments(io::FileSystem& fs, const std::string& path,
                                             const std::vector<LanceField>& fields,
                                             std::span<const array::RecordBatchPtr> batches,
                                             const WriteOptions& options) {
  if (options.max_rows_per_file < 1 || options.max_bytes_per_file < 1) {
    return Status::InvalidArgument(
        "max_rows_per_file (" + std::to_string(options.max_rows_per_file) +
        ") and max_bytes_per_file (" + std::to_string(options.max_bytes_per_file) +
        ") must be positive");
  }
  LND_ASSIGN_OR_RETURN(array::SchemaPtr schema, SchemaFromFields(fields, {}));
  LND_RETURN_NOT_OK(CheckWritableTypes(schema->fields(), path));
  for (const auto& batch : batches) {
    if (batch == nullptr) return Status::InvalidArgument("WriteFragments got a null batch");
    LND_RETURN_NOT_OK(CheckSameSchema(*schema, *batch->schema(), path));
  }
  file::WriterOptions file_options = options.file_options;
  file_options.field_ids.clear();
  for (const LanceField& f : fields) file_options.field_ids.push_back(f.id);

  std::vector<Fragment> fragments;
  std::unique_ptr<file::FileWriter> writer;
  const SyncOnClose* out = nullptr;
  std::string name;
  auto finish = [&]() -> Status {
    if (writer == nullptr) return Status();
    LND_ASSIGN_OR_RETURN(file::WrittenFile written, writer->Finish());
    writer.reset();
    Fragment f;
    f.physical_rows = written.num_rows;
    DataFile file;
    file.path = name;
    file.fields = written.column_field_ids;
    for (std::size_t i = 0; i < file.fields.size(); ++i) {
      file.column_indices.push_back(static_cast<std::int32_t>(i));
    }
    file.file_major_version = written.version.major;
    file.file_minor_version = written.version.minor;
    file.file_size_bytes = written.file_size;
    f.files.push_back(std::move(file));
    fragments.push_back(std::move(f));
    return Status();
  };
  // The writer buffers pages, so the bytes of a file are estimated from the data given to it
  // (or the bytes already flushed, when larger), like Lance's rolling heuristic.
  std::int64_t file_bytes = 0;
  for (const auto& batch : batches) {
    std::int64_t batch_bytes = 0;
    for (const auto& column : batch->columns()) batch_bytes += BufferBytes(*column);
    std::int64_t offset = 0;
    while (offset < batch->num_rows()) {
      if (writer == nullptr) {
        name = NewDataFileName();
        LND_ASSIGN_OR_RETURN(auto raw, fs.Create(Join(Join(path, "data"), name)));
        auto wrapped = std::make_unique<SyncOnClose>(std::move(raw));
        out = wrapped.get();
        file_bytes = 0;
        LND_ASSIGN_OR_RETURN(writer,
                             file::FileWriter::Open(std::move(wrapped), schema, file_options));
      }
      const std::int64_t room =
          options.max_rows_per_file - static_cast<std::int64_t>(writer->num_rows());
      const std::int64_t take = std::min(room, batch->num_rows() - offset);
      if (offset == 0 && take == batch->num_rows()) {
        LND_RETURN_NOT_OK(writer->Write(*batch));
      } else {
        LND_ASSIGN_OR_RETURN(auto slice, batch->Slice(offset, take));
        LND_RETURN_NOT_OK(writer->Write(*slice));
      }
      offset += take;
      file_bytes += batch->num_rows() == 0 ? 0 : batch_bytes / batch->num_rows() * take;
      file_bytes = std::max(file_bytes, static_cast<std::int64_t>(out->position()));
      if (static_cast<std::int64_t>(writer->num_rows()) >= options.max_rows_per_file ||
          file_bytes >= options.max_bytes_per_file) {
        LND_RETURN_NOT_OK(finish());
      }
    }
  }
  LND_RETURN_NOT_OK(finish());
  return fragments;
}

Result<Dataset> WriteTable(std::shared_ptr<io::FileSystem> fs, const std::string& path,
                           std::span<const array::RecordBatchPtr> batches,
                           const WriteOptions& options) {
  if (fs == nullptr) return Status::InvalidArgument("WriteTable needs a file system");
  for (const auto& batch : batches) {
    if (batch == nullptr) return Status::InvalidArgument("WriteTable got a null batch");
  }
  auto existing = Dataset::Open(fs, path);
  if (!existing.ok() && !existing.status().IsNotFound()) return std::move(existing).status();
  const bool exists = existing.ok();

  Transaction txn;
  std::vector<LanceField> fields;
  if (options.mode == WriteMode::kAppend) {
    if (!exists) {
      return Status::NotFound("cannot append to '" + path +
                              "': there is no table there; create it with WriteMode::kCreate");
    }
    if (batches.empty()) return std::move(*existing);
    fields = existing->manifest().fields;
    txn.operation = OperationType::kAppend;
    txn.read_version = existing->version();
  } else {
    if (options.mode == WriteMode::kCreate && exists) {
      return Status::AlreadyExists("a table already exists at '" + path + "' (version " +
                                   std::to_string(existing->version()) +
                                   "); use WriteMode::kAppend to add rows or "
                                   "WriteMode::kOverwrite to replace it");
    }
    if (batches.empty()) {
      return Status::InvalidArgument("creating or overwriting '" + path +
                                     "' needs at least one batch (the schema comes from it)");
    }
    const array::SchemaPtr& schema = batches.front()->schema();
    LND_ASSIGN_OR_RETURN(fields, FieldsFromSchema(*schema));
    for (const auto& batch : batches) {
      if (!batch->schema()->Equals(*schema, /*check_metadata=*/false)) {
        return Status::SchemaMismatch("the batches given to WriteTable for '" + path +
                                      "' do not all have the same schema; first:\n" +
                                      schema->ToString() + "\nother:\n" +
                                      batch->schema()->ToString());
      }
    }
    txn.operation = OperationType::kOverwrite;
    txn.read_version = exists ? existing->version() : 0;
    txn.schema = fields;
    txn.schema_metadata = schema->metadata();
  }
  if (options.enable_stable_row_ids && !exists &&
      std::all_of(batches.begin(), batches.end(),
                  [](const array::RecordBatchPtr& b) { return b->num_rows() == 0; })) {
    return Status::NotImplemented("creating '" + path +
                                  "' with stable row ids needs at least one row (lance-nd "
                                  "cannot create an empty table with stable row ids yet)");
  }
  WriteOptions write = options;
  if (options.mode == WriteMode::kAppend) {
    LND_ASSIGN_OR_RETURN(write.file_options.version, TableFileVersion(existing->manifest()));
  }
  LND_ASSIGN_OR_RETURN(std::vector<Fragment> fragments,
                       WriteFragments(*fs, path, fields, batches, write));
  if (options.enable_stable_row_ids && !exists) {
    // The created table's fragments come numbered; BuildManifest turns flag 2 on from them.
    std::uint64_t next = 0;
    for (Fragment& f : fragments) {
      LND_RETURN_NOT_OK(internal::SetFragmentRowIdMeta(
          &f, internal::EncodeRowIdRange(next, next + f.physical_rows), nullptr, nullptr));
      next += f.physical_rows;
    }
  }
  txn.fragments = std::move(fragments);
  txn.uuid = NewUuid();
  return CommitTransaction(std::move(fs), path, std::move(txn), options.commit);
}

}  // namespace lance_nd::table
