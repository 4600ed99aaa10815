// TableWriter: batches streamed into data files (FragmentWriter), committed as one version.
#include "lance_nd/table/table_writer.h"

#include <utility>
#include <vector>

#include "lance_nd/table/commit.h"
#include "lance_nd/table/rowids/row_id_codec.h"
#include "lance_nd/table/write/fragment_writer.h"

namespace lance_nd::table {
namespace {

Transaction AppendTransaction(const Dataset& latest) {
  Transaction txn;
  txn.operation = op::Append{};
  txn.read_version = latest.version();
  return txn;
}

// Create (read_version 0) or overwrite: the new schema replaces the table's.
Transaction OverwriteTransaction(std::uint64_t read_version, std::vector<LanceField> fields,
                                 const array::Schema& schema) {
  Transaction txn;
  txn.operation = op::Overwrite{{}, std::move(fields), schema.metadata(), {}};
  txn.read_version = read_version;
  return txn;
}

// A created table with stable row ids: its fragments come numbered 0.. (BuildManifest turns
// flag 2 on from them).
Status NumberRowIds(std::vector<Fragment>* fragments) {
  std::uint64_t next = 0;
  for (Fragment& f : *fragments) {
    LND_RETURN_NOT_OK(internal::SetFragmentRowIdMeta(
        &f, internal::EncodeRowIdRange(next, next + f.physical_rows), nullptr, nullptr));
    next += f.physical_rows;
  }
  return Status::OK();
}

}  // namespace

struct TableWriter::Impl {
  enum class State { kOpen, kCommitted, kAborted, kCommitFailed };

  TableLocation location;
  WriteOptions options;
  array::SchemaPtr schema;
  bool replaces_schema = false;  // create / overwrite: every batch must have `schema`
  bool creates_table = false;    // there was no table when the writer was opened
  Transaction txn;               // planned at Open; fragments added at Commit
  std::unique_ptr<internal::FragmentWriter> files;
  State state = State::kOpen;
  std::uint64_t committed_version = 0;
  Status commit_error;

  Impl(TableLocation loc, const WriteOptions& o) : location(std::move(loc)), options(o) {}

  Status Plan(array::SchemaPtr given);
  Status CheckOpen(const char* what) const;
  Result<Dataset> Commit();
  Result<Dataset> FinishAndCommit();
};

Status TableWriter::Impl::Plan(array::SchemaPtr given) {
  const std::string& path = location.root();
  auto existing = Dataset::Open(location);
  if (!existing.ok() && !existing.status().IsNotFound()) return std::move(existing).status();
  creates_table = !existing.ok();
  std::vector<LanceField> fields;
  if (options.mode == WriteMode::kAppend) {
    if (creates_table) {
      return Status::NotFound("cannot append to '", path,
                              "': there is no table there; create it with WriteMode::kCreate");
    }
    fields = existing->manifest().fields;
    txn = AppendTransaction(*existing);
    // Appends write the table's file version: Lance 12 refuses tables whose files mix them.
    LND_ASSIGN_OR_RETURN(options.file_options.version, TableFileVersion(existing->manifest()));
    schema = given != nullptr ? std::move(given) : existing->schema();
  } else {
    if (options.mode == WriteMode::kCreate && !creates_table) {
      return Status::AlreadyExists("a table already exists at '", path, "' (version ",
                                   existing->version(),
                                   "); use WriteMode::kAppend to add rows or "
                                   "WriteMode::kOverwrite to replace it");
    }
    if (given == nullptr) {
      return Status::InvalidArgument("creating or overwriting '", path,
                                     "' needs a schema (WriteTable: at least one batch, the "
                                     "schema comes from it)");
    }
    schema = std::move(given);
    LND_ASSIGN_OR_RETURN(fields, FieldsFromSchema(*schema));
    txn = OverwriteTransaction(creates_table ? 0 : existing->version(), fields, *schema);
    replaces_schema = true;
  }
  LND_ASSIGN_OR_RETURN(files, internal::FragmentWriter::Open(location, fields, options));
  return files->CheckSchema(*schema);  // an append schema given by the caller: the table's
}

Status TableWriter::Impl::CheckOpen(const char* what) const {
  switch (state) {
    case State::kOpen:
      return Status::OK();
    case State::kCommitted:
      return Status::InvalidArgument("TableWriter::", what, " on '", location.root(),
                                     "' after Commit (version ", committed_version,
                                     " was committed); open a new writer to write more");
    case State::kAborted:
      return Status::InvalidArgument("TableWriter::", what, " on '", location.root(),
                                     "' after Abort; open a new writer");
    case State::kCommitFailed:
      return commit_error.WithContext("TableWriter::", what, " on '", location.root(),
                                      "' after a failed commit (its data files were removed)");
  }
  return Status::Internal("TableWriter in an unknown state");
}

Result<Dataset> TableWriter::Impl::Commit() {
  LND_RETURN_NOT_OK(CheckOpen("Commit"));
  if (options.enable_stable_row_ids && creates_table && files->rows_written() == 0) {
    return Status::NotImplemented("creating '", location.root(),
                                  "' with stable row ids needs at least one row (lance-nd "
                                  "cannot create an empty table with stable row ids yet)");
  }
  Result<Dataset> committed = FinishAndCommit();
  if (!committed.ok()) {
    // Nothing references the data files: a failed commit creates no manifest.
    files->RemoveFiles();
    state = State::kCommitFailed;
    commit_error = committed.status();
    return committed;
  }
  state = State::kCommitted;
  committed_version = committed->version();
  return committed;
}

Result<Dataset> TableWriter::Impl::FinishAndCommit() {
  LND_ASSIGN_OR_RETURN(std::vector<Fragment> fragments, files->Finish());
  if (options.enable_stable_row_ids && creates_table) {
    LND_RETURN_NOT_OK(NumberRowIds(&fragments));
  }
  Transaction planned = txn;
  if (auto* append = planned.get<op::Append>()) append->fragments = std::move(fragments);
  if (auto* overwrite = planned.get<op::Overwrite>()) overwrite->fragments = std::move(fragments);
  planned.uuid = NewUuid();
  return CommitTransaction(location, std::move(planned), options.commit);
}

Result<TableWriter> TableWriter::Open(const TableLocation& location, array::SchemaPtr schema,
                                      const WriteOptions& options) {
  if (location.file_system() == nullptr) {
    return Status::InvalidArgument("TableWriter for '", location.root(), "' needs a file system");
  }
  auto impl = std::make_unique<Impl>(location, options);
  LND_RETURN_NOT_OK(impl->Plan(std::move(schema)));
  return TableWriter(std::move(impl));
}

TableWriter::TableWriter(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
TableWriter::TableWriter(TableWriter&&) noexcept = default;
TableWriter& TableWriter::operator=(TableWriter&& other) noexcept {
  if (this != &other) {
    (void)Abort();
    impl_ = std::move(other.impl_);
  }
  return *this;
}

TableWriter::~TableWriter() { (void)Abort(); }

Status TableWriter::Write(const array::RecordBatch& batch) {
  LND_RETURN_NOT_OK(impl_->CheckOpen("Write"));
  if (impl_->replaces_schema && !batch.schema()->Equals(*impl_->schema, false)) {
    return Status::SchemaMismatch("the batches written to '", impl_->location.root(),
                                  "' do not all have the same schema; the writer's:\n",
                                  impl_->schema->ToString(), "\nthis batch's:\n",
                                  batch.schema()->ToString());
  }
  return impl_->files->Write(batch);
}

Result<Dataset> TableWriter::Commit() { return impl_->Commit(); }

Status TableWriter::Abort() {
  if (impl_ == nullptr) return Status::OK();  // moved from
  switch (impl_->state) {
    case Impl::State::kCommitted:
      return impl_->CheckOpen("Abort");
    case Impl::State::kOpen:
      impl_->files->RemoveFiles();
      impl_->state = Impl::State::kAborted;
      return Status::OK();
    case Impl::State::kAborted:
    case Impl::State::kCommitFailed:
      return Status::OK();
  }
  return Status::OK();
}

const array::SchemaPtr& TableWriter::schema() const { return impl_->schema; }
std::uint64_t TableWriter::rows_written() const { return impl_->files->rows_written(); }

}  // namespace lance_nd::table
