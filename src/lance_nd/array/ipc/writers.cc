// IpcStreamWriter and IpcFileWriter.
#include <cstring>
#include <string>
#include <utility>

#include "lance_nd/array/ipc.h"
#include "lance_nd/array/ipc/message_writer.h"
#include "lance_nd/array/ipc/sink.h"
#include "lance_nd/core/internal/checked_math.h"
#include "lance_nd/core/internal/endian.h"

namespace lance_nd::array::ipc {
namespace {

constexpr std::uint8_t kMagic[6] = {'A', 'R', 'R', 'O', 'W', '1'};

Status CheckSchema(const SchemaPtr& schema) {
  if (!schema) return Status::InvalidArgument("IPC writer needs a schema, got null");
  return Status::OK();
}

}  // namespace

// ---- IpcStreamWriter ----

struct IpcStreamWriter::Impl {
  SchemaPtr schema;
  IpcWriteOptions options;
  std::unique_ptr<internal::Sink> sink;
  bool closed = false;

  Status Start() {
    LND_ASSIGN_OR_RETURN(auto msg, internal::EncodeSchemaMessage(*schema));
    return sink->Write(msg.header);
  }
};

IpcStreamWriter::IpcStreamWriter(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
IpcStreamWriter::IpcStreamWriter(IpcStreamWriter&&) noexcept = default;
IpcStreamWriter& IpcStreamWriter::operator=(IpcStreamWriter&&) noexcept = default;
IpcStreamWriter::~IpcStreamWriter() = default;

Result<IpcStreamWriter> IpcStreamWriter::OpenInMemory(SchemaPtr schema, IpcWriteOptions options) {
  LND_RETURN_NOT_OK(CheckSchema(schema));
  auto impl = std::make_unique<Impl>();
  impl->schema = std::move(schema);
  impl->options = options;
  impl->sink = internal::MakeMemorySink();
  LND_RETURN_NOT_OK(impl->Start());
  return IpcStreamWriter(std::move(impl));
}

Result<IpcStreamWriter> IpcStreamWriter::Open(const std::string& path, SchemaPtr schema,
                                              IpcWriteOptions options) {
  LND_RETURN_NOT_OK(CheckSchema(schema));
  auto impl = std::make_unique<Impl>();
  impl->schema = std::move(schema);
  impl->options = options;
  LND_ASSIGN_OR_RETURN(impl->sink, internal::MakeFileSink(path));
  LND_RETURN_NOT_OK(impl->Start());
  return IpcStreamWriter(std::move(impl));
}

const SchemaPtr& IpcStreamWriter::schema() const { return impl_->schema; }

Status IpcStreamWriter::WriteRecordBatch(const RecordBatch& batch) {
  if (impl_->closed) return Status::InvalidArgument("IPC stream writer is already closed");
  LND_RETURN_NOT_OK(internal::CheckBatchMatchesSchema(*impl_->schema, batch));
  LND_ASSIGN_OR_RETURN(auto msg, internal::EncodeRecordBatchMessage(batch, impl_->options));
  LND_RETURN_NOT_OK(impl_->sink->Write(msg.header));
  return impl_->sink->Write(msg.body);
}

Status IpcStreamWriter::Close() {
  if (impl_->closed) return Status::OK();
  impl_->closed = true;
  LND_RETURN_NOT_OK(impl_->sink->Write(internal::EndOfStreamMarker()));
  return impl_->sink->Close();
}

std::vector<std::uint8_t> IpcStreamWriter::TakeBytes() { return impl_->sink->TakeBytes(); }

// ---- IpcFileWriter ----

struct IpcFileWriter::Impl {
  SchemaPtr schema;
  IpcWriteOptions options;
  std::unique_ptr<internal::Sink> sink;
  std::vector<internal::BlockLocation> blocks;
  bool closed = false;

  Status Start() {
    const std::uint8_t head[8] = {'A', 'R', 'R', 'O', 'W', '1', 0, 0};
    LND_RETURN_NOT_OK(sink->Write(head));
    LND_ASSIGN_OR_RETURN(auto msg, internal::EncodeSchemaMessage(*schema));
    return sink->Write(msg.header);
  }
};

IpcFileWriter::IpcFileWriter(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
IpcFileWriter::IpcFileWriter(IpcFileWriter&&) noexcept = default;
IpcFileWriter& IpcFileWriter::operator=(IpcFileWriter&&) noexcept = default;
IpcFileWriter::~IpcFileWriter() = default;

Result<IpcFileWriter> IpcFileWriter::OpenInMemory(SchemaPtr schema, IpcWriteOptions options) {
  LND_RETURN_NOT_OK(CheckSchema(schema));
  auto impl = std::make_unique<Impl>();
  impl->schema = std::move(schema);
  impl->options = options;
  impl->sink = internal::MakeMemorySink();
  LND_RETURN_NOT_OK(impl->Start());
  return IpcFileWriter(std::move(impl));
}

Result<IpcFileWriter> IpcFileWriter::Open(const std::string& path, SchemaPtr schema,
                                          IpcWriteOptions options) {
  LND_RETURN_NOT_OK(CheckSchema(schema));
  auto impl = std::make_unique<Impl>();
  impl->schema = std::move(schema);
  impl->options = options;
  LND_ASSIGN_OR_RETURN(impl->sink, internal::MakeFileSink(path));
  LND_RETURN_NOT_OK(impl->Start());
  return IpcFileWriter(std::move(impl));
}

const SchemaPtr& IpcFileWriter::schema() const { return impl_->schema; }

Status IpcFileWriter::WriteRecordBatch(const RecordBatch& batch) {
  if (impl_->closed) return Status::InvalidArgument("IPC file writer is already closed");
  LND_RETURN_NOT_OK(internal::CheckBatchMatchesSchema(*impl_->schema, batch));
  LND_ASSIGN_OR_RETURN(auto msg, internal::EncodeRecordBatchMessage(batch, impl_->options));
  impl_->blocks.push_back({impl_->sink->position(), msg.metadata_length, msg.body_length});
  LND_RETURN_NOT_OK(impl_->sink->Write(msg.header));
  return impl_->sink->Write(msg.body);
}

Status IpcFileWriter::Close() {
  if (impl_->closed) return Status::OK();
  impl_->closed = true;
  LND_RETURN_NOT_OK(impl_->sink->Write(internal::EndOfStreamMarker()));
  LND_ASSIGN_OR_RETURN(auto footer, internal::EncodeFooter(*impl_->schema, impl_->blocks));
  LND_RETURN_NOT_OK(impl_->sink->Write(footer));
  auto footer_len = CheckedCast<int32_t>(footer.size());
  if (!footer_len) return Status::InvalidArgument("IPC file footer exceeds 2 GiB");
  std::uint8_t tail[10];
  StoreLE<int32_t>(tail, *footer_len);
  std::memcpy(tail + 4, kMagic, 6);
  LND_RETURN_NOT_OK(impl_->sink->Write(tail));
  return impl_->sink->Close();
}

std::vector<std::uint8_t> IpcFileWriter::TakeBytes() { return impl_->sink->TakeBytes(); }

}  // namespace lance_nd::array::ipc
