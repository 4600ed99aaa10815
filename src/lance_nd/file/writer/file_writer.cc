#include <google/protobuf/any.pb.h>
#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>

#include <algorithm>
#include <cstring>
#include <deque>
#include <string>
#include <utility>
#include <vector>

#include "encodings_v2_0.pb.h"
#include "file.pb.h"
#include "file2.pb.h"
#include "lance_nd/array/array_data.h"
#include "lance_nd/core/internal/endian.h"
#include "lance_nd/core/internal/thread_pool.h"
#include "lance_nd/file/lance_schema.h"
#include "lance_nd/file/writer.h"
#include "lance_nd/file/writer/leaf_plan.h"
#include "lance_nd/file/writer/page_encoder.h"
#include "lance_nd/file/writer/shred.h"
#include "lance_nd/io/file_system.h"

namespace lance_nd::file {
namespace {

using internal::writer::ColumnOptions;
using internal::writer::EncodedPage;
using internal::writer::LeafColumn;
using internal::writer::SchemaPlan;

constexpr std::uint64_t kAlignment = 64;
constexpr std::uint8_t kPadByte = 0x48;
constexpr char kPageLayoutUrl[] = "/lance.encodings21.PageLayout";
constexpr char kColumnEncodingUrl[] = "/lance.encodings.ColumnEncoding";

std::string SerializeDeterministic(const google::protobuf::MessageLite& msg) {
  std::string out;
  {
    google::protobuf::io::StringOutputStream stream(&out);
    google::protobuf::io::CodedOutputStream coded(&stream);
    coded.SetSerializationDeterministic(true);
    msg.SerializeToCodedStream(&coded);
  }
  return out;
}

std::string AnyBytes(const std::string& type_url, std::string value) {
  google::protobuf::Any any;
  any.set_type_url(type_url);
  any.set_value(std::move(value));
  return SerializeDeterministic(any);
}

struct LeafState {
  ColumnOptions options;
  std::vector<array::ArrayPtr> pending;
  std::uint64_t pending_bytes = 0;
  std::uint64_t pending_rows = 0;
  std::uint64_t next_row = 0;  // first row of the pending data
  std::vector<lance::file::v2::ColumnMetadata::Page> pages;
};

}  // namespace

// A page being shredded and encoded on a pool worker; written in submission order.
struct PageInFlight {
  std::size_t leaf = 0;
  std::uint64_t first_row = 0, num_rows = 0;
  PoolTask<Result<EncodedPage>> encoded;
};

struct FileWriter::Impl {
  std::unique_ptr<io::OutputFile> out;
  array::SchemaPtr schema;
  WriterOptions options;
  SchemaPlan plan;
  std::vector<LeafState> leaves;
  std::uint64_t num_rows = 0;
  bool finished = false;
  Status failed;  // sticky error: after a failed write the file is unusable
  // Declared last: destroyed first, so that no background page outlives `plan` or `leaves`
  // (a PoolTask waits for its task when destroyed).
  std::deque<PageInFlight> in_flight;

  Status WriteBytes(const std::uint8_t* data, std::uint64_t size) {
    return out->Write(std::span<const std::uint8_t>(data, static_cast<std::size_t>(size)));
  }

  Status PadToAlignment() {
    const std::uint64_t pos = out->position();
    const std::uint64_t pad = (kAlignment - pos % kAlignment) % kAlignment;
    if (pad == 0) return Status::OK();
    std::uint8_t bytes[kAlignment];
    std::memset(bytes, kPadByte, sizeof(bytes));
    return WriteBytes(bytes, pad);
  }

  std::string ColumnContext(std::size_t index, std::uint64_t first_row, std::uint64_t rows) const {
    return "writing column " + std::to_string(index) + " ('" +
           plan.leaves[index].leaf_field->name() + "'), page of rows " + std::to_string(first_row) +
           ".." + std::to_string(first_row + rows);
  }

  // Shreds and encodes one page of a leaf column (any thread: reads only the plan, the
  // column's options and the page's own arrays).
  static Result<EncodedPage> EncodeLeafPage(const LeafColumn& leaf, const ColumnOptions& options,
                                            const std::vector<array::ArrayPtr>& arrays) {
    LND_ASSIGN_OR_RETURN(internal::writer::ShreddedPage page,
                         internal::writer::ShredLeaf(leaf, arrays));
    return internal::writer::EncodePage(page, options);
  }

  // Appends an encoded page's buffers (64-byte aligned) and records its metadata.
  Status WritePage(std::size_t index, std::uint64_t first_row, EncodedPage encoded) {
    LeafState& state = leaves[index];
    lance::file::v2::ColumnMetadata::Page meta;
    for (const auto& buffer : encoded.buffers) {
      LND_RETURN_NOT_OK(PadToAlignment());
      meta.add_buffer_offsets(out->position());
      meta.add_buffer_sizes(static_cast<std::uint64_t>(buffer->size()));
      LND_RETURN_NOT_OK(WriteBytes(buffer->data(), static_cast<std::uint64_t>(buffer->size())));
    }
    meta.set_length(encoded.num_rows);
    meta.mutable_encoding()->mutable_direct()->set_encoding(
        AnyBytes(kPageLayoutUrl, std::move(encoded.layout)));
    meta.set_priority(first_row);
    state.pages.push_back(std::move(meta));
    return Status::OK();
  }

  // Waits for the oldest background page and writes it.
  Status WriteOldestInFlight() {
    // The oldest page may be encoding on a worker: encode the later ones here meanwhile rather
    // than wait (newest first, so that the workers and this thread take from opposite ends).
    for (auto it = in_flight.rbegin(); it + 1 != in_flight.rend(); ++it) {
      it->encoded.RunHereIfNotStarted();
    }
    PageInFlight page = std::move(in_flight.front());
    in_flight.pop_front();
    Result<EncodedPage> encoded = page.encoded.Get();
    if (!encoded.ok()) {
      return encoded.status().WithContext(ColumnContext(page.leaf, page.first_row, page.num_rows));
    }
    return WritePage(page.leaf, page.first_row, std::move(*encoded));
  }

  Status DrainInFlight() {
    while (!in_flight.empty()) LND_RETURN_NOT_OK(WriteOldestInFlight());
    return Status::OK();
  }

  Status FlushLeaf(std::size_t index) {
    LeafState& state = leaves[index];
    if (state.pending.empty()) return Status::OK();
    const LeafColumn& leaf = plan.leaves[index];
    const std::uint64_t first_row = state.next_row, rows = state.pending_rows;
    std::vector<array::ArrayPtr> arrays = std::move(state.pending);
    state.pending.clear();
    state.next_row += rows;
    state.pending_bytes = 0;
    state.pending_rows = 0;
    if (options.pages_in_flight > 0) {
      while (in_flight.size() >= options.pages_in_flight) LND_RETURN_NOT_OK(WriteOldestInFlight());
      in_flight.push_back(PageInFlight{
          index, first_row, rows,
          PoolTask<Result<EncodedPage>>([&leaf, &opts = state.options, arrays = std::move(arrays)] {
            return EncodeLeafPage(leaf, opts, arrays);
          })});
      return Status::OK();
    }
    Result<EncodedPage> encoded = EncodeLeafPage(leaf, state.options, arrays);
    if (!encoded.ok()) return encoded.status().WithContext(ColumnContext(index, first_row, rows));
    return WritePage(index, first_row, std::move(*encoded));
  }

  Status CheckBatch(const array::RecordBatch& batch) const {
    if (finished) {
      return Status::InvalidArgument("FileWriter::Write after Finish; open a new writer");
    }
    if (batch.num_columns() != schema->num_fields()) {
      return Status::SchemaMismatch("batch has ", batch.num_columns(),
                                    " columns but the file schema has ", schema->num_fields(),
                                    "; write batches of the writer's schema");
    }
    for (int i = 0; i < batch.num_columns(); ++i) {
      const auto& column = batch.column(i);
      const auto& expected = schema->field(i)->type();
      if (!column || !column->type || !SameStoredType(expected, column->type)) {
        return Status::SchemaMismatch(
            "column ", i, " ('", schema->field(i)->name(), "') has type ",
            (column && column->type ? column->type->ToString() : std::string("<none>")),
            " but the file schema says ", expected->ToString(), "; cast it first");
      }
      if (column->length != batch.num_rows()) {
        return Status::InvalidArgument("column ", i, " has ", column->length, " rows, the batch ",
                                       batch.num_rows());
      }
    }
    return Status::OK();
  }

  Status Append(const array::RecordBatch& batch) {
    if (batch.num_rows() == 0) return Status::OK();
    for (std::size_t l = 0; l < leaves.size(); ++l) {
      const LeafColumn& leaf = plan.leaves[l];
      const auto& column = batch.column(leaf.top_level_index);
      LeafState& state = leaves[l];
      const std::uint64_t bytes = internal::writer::EstimateLeafBytes(leaf, *column);
      const int64_t n = column->length;
      if (state.pending_bytes + bytes <= options.page_bytes || n <= 1) {
        state.pending.push_back(column);
        state.pending_rows += static_cast<std::uint64_t>(n);
        state.pending_bytes += bytes;
        if (state.pending_bytes > options.page_bytes) LND_RETURN_NOT_OK(FlushLeaf(l));
        continue;
      }
      // Too big for the page being filled: split into zero-copy row slices of about
      // page_bytes each (rows are assumed to be of similar size; a row is never split).
      const double per_row = static_cast<double>(bytes) / static_cast<double>(n);
      int64_t start = 0;
      while (start < n) {
        const std::uint64_t room =
            options.page_bytes > state.pending_bytes ? options.page_bytes - state.pending_bytes : 0;
        int64_t take =
            std::min<int64_t>(n - start, static_cast<int64_t>(static_cast<double>(room) / per_row));
        if (take <= 0) {
          if (!state.pending.empty()) {
            LND_RETURN_NOT_OK(FlushLeaf(l));
            continue;
          }
          take = 1;  // one row larger than a page: a page of its own
        }
        LND_ASSIGN_OR_RETURN(array::ArrayPtr piece, array::Slice(column, start, take));
        state.pending.push_back(std::move(piece));
        state.pending_rows += static_cast<std::uint64_t>(take);
        state.pending_bytes += static_cast<std::uint64_t>(per_row * static_cast<double>(take));
        start += take;
        if (start < n || state.pending_bytes >= options.page_bytes) LND_RETURN_NOT_OK(FlushLeaf(l));
      }
    }
    num_rows += static_cast<std::uint64_t>(batch.num_rows());
    return Status::OK();
  }

  lance::file::FileDescriptor Descriptor() const {
    lance::file::FileDescriptor desc;
    auto* s = desc.mutable_schema();
    for (const auto& f : plan.fields) {
      auto* field = s->add_fields();
      field->set_name(f.name);
      field->set_id(f.id);
      field->set_parent_id(f.parent_id);
      field->set_logical_type(f.logical_type);
      field->set_nullable(f.nullable);
      field->set_encoding(static_cast<lance::file::Encoding>(f.encoding));
      if (f.metadata != nullptr) {
        for (const auto& [k, v] : f.metadata->entries()) (*field->mutable_metadata())[k] = v;
        if (auto ext = f.metadata->Get("ARROW:extension:name")) {
          field->set_extension_name(std::string(*ext));
        }
        if (auto pk = f.metadata->Get("lance-schema:unenforced-primary-key")) {
          field->set_unenforced_primary_key(*pk == "true" || *pk == "1" || *pk == "yes");
        }
      }
    }
    for (const auto& [k, v] : schema->metadata().entries()) (*s->mutable_metadata())[k] = v;
    desc.set_length(num_rows);
    return desc;
  }

  Result<WrittenFile> Finish() {
    if (finished) return Status::InvalidArgument("FileWriter::Finish called twice");
    finished = true;
    for (std::size_t l = 0; l < leaves.size(); ++l) LND_RETURN_NOT_OK(FlushLeaf(l));
    LND_RETURN_NOT_OK(DrainInFlight());
    // global buffer 0: the FileDescriptor, 64-aligned, not padded after
    LND_RETURN_NOT_OK(PadToAlignment());
    const std::string desc = SerializeDeterministic(Descriptor());
    const std::uint64_t gb0_pos = out->position();
    LND_RETURN_NOT_OK(WriteBytes(reinterpret_cast<const std::uint8_t*>(desc.data()), desc.size()));
    // column metadatas, packed
    const std::uint64_t column_meta_start = out->position();
    lance::encodings::ColumnEncoding column_encoding;
    column_encoding.mutable_values();
    const std::string column_encoding_any =
        AnyBytes(kColumnEncodingUrl, SerializeDeterministic(column_encoding));
    std::vector<std::uint64_t> cmo;
    for (auto& state : leaves) {
      lance::file::v2::ColumnMetadata meta;
      meta.mutable_encoding()->mutable_direct()->set_encoding(column_encoding_any);
      for (auto& p : state.pages) *meta.add_pages() = std::move(p);
      const std::string bytes = SerializeDeterministic(meta);
      cmo.push_back(out->position());
      cmo.push_back(bytes.size());
      LND_RETURN_NOT_OK(
          WriteBytes(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()));
    }
    const std::uint64_t cmo_start = out->position();
    std::vector<std::uint8_t> tail(cmo.size() * 8 + 16 + 40);
    std::size_t p = 0;
    for (std::uint64_t v : cmo) {
      StoreLE<std::uint64_t>(tail.data() + p, v);
      p += 8;
    }
    const std::uint64_t gbo_start = cmo_start + cmo.size() * 8;
    StoreLE<std::uint64_t>(tail.data() + p, gb0_pos);
    StoreLE<std::uint64_t>(tail.data() + p + 8, desc.size());
    p += 16;
    StoreLE<std::uint64_t>(tail.data() + p, column_meta_start);
    StoreLE<std::uint64_t>(tail.data() + p + 8, cmo_start);
    StoreLE<std::uint64_t>(tail.data() + p + 16, gbo_start);
    StoreLE<std::uint32_t>(tail.data() + p + 24, 1);
    StoreLE<std::uint32_t>(tail.data() + p + 28, static_cast<std::uint32_t>(leaves.size()));
    StoreLE<std::uint16_t>(tail.data() + p + 32, options.version.major);
    StoreLE<std::uint16_t>(tail.data() + p + 34, options.version.minor);
    std::memcpy(tail.data() + p + 36, "LANC", 4);
    LND_RETURN_NOT_OK(WriteBytes(tail.data(), tail.size()));
    LND_RETURN_NOT_OK(out->Close());
    WrittenFile written;
    written.num_rows = num_rows;
    written.file_size = out->position();
    written.num_columns = static_cast<std::uint32_t>(leaves.size());
    written.version = options.version;
    for (const auto& leaf : plan.leaves) written.column_field_ids.push_back(leaf.field_id);
    return written;
  }
};

FileWriter::FileWriter(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
FileWriter::~FileWriter() = default;

Result<std::unique_ptr<FileWriter>> FileWriter::Open(std::unique_ptr<io::OutputFile> out,
                                                     array::SchemaPtr schema,
                                                     WriterOptions options) {
  if (!out) return Status::InvalidArgument("FileWriter::Open: no output file");
  if (!schema) return Status::InvalidArgument("FileWriter::Open: no schema");
  if (options.page_bytes == 0) {
    return Status::InvalidArgument("WriterOptions.page_bytes is 0; use a positive size");
  }
  if (!options.version.IsSupported()) {
    return Status::InvalidArgument("WriterOptions.version ", options.version.Name(),
                                   ": lance-nd writes Lance file format 2.1 or 2.2");
  }
  auto impl = std::make_unique<Impl>();
  impl->out = std::move(out);
  impl->schema = std::move(schema);
  impl->options = std::move(options);
  LND_ASSIGN_OR_RETURN(impl->plan,
                       internal::writer::PlanSchema(*impl->schema, impl->options.field_ids));
  const FileVersion version = impl->options.version;
  impl->leaves.resize(impl->plan.leaves.size());
  for (std::size_t l = 0; l < impl->plan.leaves.size(); ++l) {
    const auto& leaf = impl->plan.leaves[l];
    LND_ASSIGN_OR_RETURN(impl->leaves[l].options,
                         ColumnOptions::FromField(*leaf.leaf_field, version));
    // Lance 12 takes the structural encoding of a nested column from its top-level field.
    const array::Field& top = *impl->schema->field(leaf.top_level_index);
    if (&top != leaf.leaf_field &&
        impl->leaves[l].options.structural == ColumnOptions::Structural::kAuto) {
      LND_ASSIGN_OR_RETURN(ColumnOptions top_options, ColumnOptions::FromField(top, version));
      impl->leaves[l].options.structural = top_options.structural;
    }
  }
  return std::unique_ptr<FileWriter>(new FileWriter(std::move(impl)));
}

Result<std::unique_ptr<FileWriter>> FileWriter::Open(const std::string& path,
                                                     array::SchemaPtr schema,
                                                     WriterOptions options) {
  LND_ASSIGN_OR_RETURN(auto out, io::LocalFileSystem()->Create(path));
  return Open(std::move(out), std::move(schema), std::move(options));
}

Status FileWriter::Write(const array::RecordBatch& batch) {
  if (!impl_->failed.ok()) return impl_->failed;
  LND_RETURN_NOT_OK(impl_->CheckBatch(batch));
  Status st = impl_->Append(batch);
  if (!st.ok()) impl_->failed = st;  // pages may be half written: the file is unusable
  return st;
}

Result<WrittenFile> FileWriter::Finish() {
  if (!impl_->failed.ok()) return impl_->failed;
  auto written = impl_->Finish();
  if (!written.ok()) impl_->failed = written.status();
  return written;
}

const array::SchemaPtr& FileWriter::schema() const { return impl_->schema; }
std::uint64_t FileWriter::num_rows() const { return impl_->num_rows; }

}  // namespace lance_nd::file
