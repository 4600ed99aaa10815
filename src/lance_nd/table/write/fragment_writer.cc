// FragmentWriter: data files of new fragments from a stream of batches.
#include "lance_nd/table/write/fragment_writer.h"

#include <algorithm>
#include <utility>

#include "lance_nd/file/lance_schema.h"
#include "lance_nd/table/commit.h"

namespace lance_nd::table::internal {
namespace {

// Forwards to a file and makes it durable (fsync) when closed. Writeback starts every few
// megabytes, so the disk works while later pages encode and the final fsync waits less.
class SyncOnClose final : public io::OutputFile {
 public:
  explicit SyncOnClose(std::unique_ptr<io::OutputFile> inner) : inner_(std::move(inner)) {}
  Status Write(std::span<const std::uint8_t> bytes) override {
    LND_RETURN_NOT_OK(inner_->Write(bytes));
    if (inner_->position() - writeback_from_ < kWritebackBytes) return Status::OK();
    writeback_from_ = inner_->position();
    return inner_->StartSync();
  }
  Status StartSync() override { return inner_->StartSync(); }
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
  static constexpr std::uint64_t kWritebackBytes = std::uint64_t{4} << 20;
  std::unique_ptr<io::OutputFile> inner_;
  std::uint64_t writeback_from_ = 0;
  bool closed_ = false;
};

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
        return Status::SchemaMismatch("field '", g->name(), "' of the appended data has type ",
                                      g->type()->ToString(), " but the table '", path,
                                      "' stores it as ", w->type()->ToString(),
                                      "; cast the data to the table's type (or overwrite the "
                                      "table)");
      }
    }
    if (!found) {
      return Status::SchemaMismatch("field '", g->name(), "' of the appended data is not in ",
                                    "the table '", path,
                                    "'; add the column first (evolution.h EvolveSchema)");
    }
  }
  if (got.num_fields() != want.num_fields()) {
    for (const auto& w : want.fields()) {
      bool found = false;
      for (const auto& g : got.fields()) found = found || g->name() == w->name();
      if (!found) {
        return Status::SchemaMismatch("the appended data has no field '", w->name(),
                                      "' of the table '", path,
                                      "'; every table column must be present");
      }
    }
  }
  for (int i = 0; i < got.num_fields(); ++i) {
    if (got.field(i)->name() != want.field(i)->name()) {
      return Status::SchemaMismatch("the appended data has field '", got.field(i)->name(),
                                    "' at position ", i, " where the table '", path, "' has '",
                                    want.field(i)->name(),
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
      return Status::NotImplemented(
          "cannot write data files for the table '", path, "': its field '", f->name(),
          "' has a type lance-nd does not read (", std::string(*why), ")");
    }
    LND_RETURN_NOT_OK(CheckWritableTypes(f->type()->children(), path));
  }
  return Status();
}

// The fragment of one finished data file (one file per fragment).
Fragment FragmentOf(const std::string& name, const file::WrittenFile& written) {
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
  return f;
}

Result<Fragment> FinishFile(file::FileWriter& writer, const std::string& name) {
  LND_ASSIGN_OR_RETURN(file::WrittenFile written, writer.Finish());
  return FragmentOf(name, written);
}

}  // namespace

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

Result<std::unique_ptr<FragmentWriter>> FragmentWriter::Open(TableLocation location,
                                                             const std::vector<LanceField>& fields,
                                                             const WriteOptions& options) {
  if (options.max_rows_per_file < 1 || options.max_bytes_per_file < 1) {
    return Status::InvalidArgument("max_rows_per_file (", options.max_rows_per_file,
                                   ") and max_bytes_per_file (", options.max_bytes_per_file,
                                   ") must be positive");
  }
  if (location.file_system() == nullptr) {
    return Status::InvalidArgument("writing data files for '", location.root(),
                                   "' needs a file system");
  }
  LND_ASSIGN_OR_RETURN(array::SchemaPtr schema, SchemaFromFields(fields, {}));
  LND_RETURN_NOT_OK(CheckWritableTypes(schema->fields(), location.root()));
  file::WriterOptions file_options = options.file_options;
  file_options.field_ids.clear();
  for (const LanceField& f : fields) file_options.field_ids.push_back(f.id);
  return std::unique_ptr<FragmentWriter>(
      new FragmentWriter(std::move(location), std::move(schema), options, std::move(file_options)));
}

FragmentWriter::FragmentWriter(TableLocation location, array::SchemaPtr schema,
                               const WriteOptions& options, file::WriterOptions file_options)
    : location_(std::move(location)),
      schema_(std::move(schema)),
      max_rows_per_file_(options.max_rows_per_file),
      max_bytes_per_file_(options.max_bytes_per_file),
      files_in_flight_(options.files_in_flight),
      file_options_(std::move(file_options)) {}

FragmentWriter::~FragmentWriter() = default;

Status FragmentWriter::CheckSchema(const array::Schema& schema) const {
  return CheckSameSchema(*schema_, schema, location_.root());
}

Status FragmentWriter::Fail(Status st) {
  if (failed_.ok()) failed_ = st;
  return st;
}

Status FragmentWriter::StartFile() {
  name_ = NewDataFileName();
  const std::string path = location_.Path(kDataDir, name_);
  LND_ASSIGN_OR_RETURN(auto raw, location_.fs().Create(path));
  created_.push_back(path);
  auto wrapped = std::make_unique<SyncOnClose>(std::move(raw));
  out_ = wrapped.get();
  file_bytes_ = 0;
  LND_ASSIGN_OR_RETURN(std::unique_ptr<file::FileWriter> writer,
                       file::FileWriter::Open(std::move(wrapped), schema_, file_options_));
  writer_ = std::move(writer);
  return Status::OK();
}

Status FragmentWriter::CollectOldest() {
  Result<Fragment> fragment = in_flight_.front().Get();
  in_flight_.pop_front();
  if (!fragment.ok()) return std::move(fragment).status();
  fragments_.push_back(std::move(*fragment));
  return Status::OK();
}

Status FragmentWriter::CutFile() {
  std::shared_ptr<file::FileWriter> writer = std::move(writer_);
  out_ = nullptr;
  if (files_in_flight_ == 0) {
    LND_ASSIGN_OR_RETURN(Fragment f, FinishFile(*writer, name_));
    fragments_.push_back(std::move(f));
    return Status::OK();
  }
  while (in_flight_.size() >= files_in_flight_) LND_RETURN_NOT_OK(CollectOldest());
  in_flight_.emplace_back([writer, name = name_]() { return FinishFile(*writer, name); });
  return Status::OK();
}

Status FragmentWriter::Write(const array::RecordBatch& batch) {
  LND_RETURN_NOT_OK(failed_);
  if (finished_) return Status::InvalidArgument("FragmentWriter::Write after Finish");
  LND_RETURN_NOT_OK(CheckSchema(*batch.schema()));
  // The writer buffers pages, so the bytes of a file are estimated from the data given to it
  // (or the bytes already flushed, when larger), like Lance's rolling heuristic.
  std::int64_t batch_bytes = 0;
  for (const auto& column : batch.columns()) batch_bytes += BufferBytes(*column);
  std::int64_t offset = 0;
  while (offset < batch.num_rows()) {
    if (writer_ == nullptr) LND_RETURN_NOT_OK(Fail(StartFile()));
    const std::int64_t room = max_rows_per_file_ - static_cast<std::int64_t>(writer_->num_rows());
    const std::int64_t take = std::min(room, batch.num_rows() - offset);
    if (offset == 0 && take == batch.num_rows()) {
      LND_RETURN_NOT_OK(Fail(writer_->Write(batch)));
    } else {
      auto slice = batch.Slice(offset, take);
      if (!slice.ok()) return Fail(std::move(slice).status());
      LND_RETURN_NOT_OK(Fail(writer_->Write(**slice)));
    }
    offset += take;
    rows_written_ += static_cast<std::uint64_t>(take);
    file_bytes_ += batch_bytes / batch.num_rows() * take;
    file_bytes_ = std::max(file_bytes_, static_cast<std::int64_t>(out_->position()));
    if (static_cast<std::int64_t>(writer_->num_rows()) >= max_rows_per_file_ ||
        file_bytes_ >= max_bytes_per_file_) {
      LND_RETURN_NOT_OK(Fail(CutFile()));
    }
  }
  return Status::OK();
}

Result<std::vector<Fragment>> FragmentWriter::Finish() {
  LND_RETURN_NOT_OK(failed_);
  if (finished_) return Status::InvalidArgument("FragmentWriter::Finish called twice");
  finished_ = true;
  if (writer_ != nullptr) LND_RETURN_NOT_OK(Fail(CutFile()));
  while (!in_flight_.empty()) LND_RETURN_NOT_OK(Fail(CollectOldest()));
  return std::move(fragments_);
}

void FragmentWriter::RemoveFiles() {
  finished_ = true;
  while (!in_flight_.empty()) {
    (void)in_flight_.front().Get();  // a failed file is removed like the others
    in_flight_.pop_front();
  }
  writer_.reset();
  out_ = nullptr;
  for (const std::string& path : created_) (void)location_.fs().Delete(path);
  created_.clear();
  fragments_.clear();
}

}  // namespace lance_nd::table::internal
