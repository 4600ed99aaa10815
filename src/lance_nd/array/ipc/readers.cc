// IpcStreamReader and IpcFileReader over untrusted bytes.
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "lance_nd/array/ipc.h"
#include "lance_nd/array/ipc/message_reader.h"
#include "lance_nd/array/ipc/message_writer.h"
#include "lance_nd/array/ipc/schema_codec.h"
#include "lance_nd/core/internal/endian.h"

namespace lance_nd::array::ipc {
namespace {

constexpr char kMagic[6] = {'A', 'R', 'R', 'O', 'W', '1'};
constexpr int64_t kMagicSize = 6;

Status NotSupportedMessage(internal::fb::MessageHeader type, const std::string& what) {
  if (type == internal::fb::MessageHeader::DictionaryBatch) {
    return Status::NotImplemented(what +
                                  ": dictionary batches (dictionary-encoded columns) are not "
                                  "supported by lance-nd's IPC reader");
  }
  if (type == internal::fb::MessageHeader::Schema) {
    return Status::Corrupt(what + ": unexpected second schema message");
  }
  if (type == internal::fb::MessageHeader::NONE) {
    return Status::Corrupt(what + ": message has no header");
  }
  return Status::NotImplemented(what + ": " + internal::MessageHeaderName(type) +
                                " messages are not supported by lance-nd's IPC reader");
}

}  // namespace

// ---- IpcStreamReader ----

struct IpcStreamReader::Impl {
  BufferPtr bytes;
  SchemaPtr schema;
  int64_t offset = 0;
  int64_t batches_read = 0;
  bool finished = false;
};

IpcStreamReader::IpcStreamReader(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
IpcStreamReader::IpcStreamReader(IpcStreamReader&&) noexcept = default;
IpcStreamReader& IpcStreamReader::operator=(IpcStreamReader&&) noexcept = default;
IpcStreamReader::~IpcStreamReader() = default;

Result<IpcStreamReader> IpcStreamReader::Open(BufferPtr bytes) {
  if (!bytes) return Status::InvalidArgument("IPC stream reader needs bytes, got null");
  auto impl = std::make_unique<Impl>();
  impl->bytes = std::move(bytes);
  LND_ASSIGN_OR_RETURN(auto msg, internal::ReadMessage(impl->bytes, 0, "schema message"));
  if (msg.message == nullptr) {
    return Status::Corrupt("IPC stream of " + std::to_string(impl->bytes->size()) +
                           " bytes has no schema message (expected a schema first)");
  }
  if (msg.message->header_type() != internal::fb::MessageHeader::Schema) {
    return Status::Corrupt("IPC stream starts with a " +
                           internal::MessageHeaderName(msg.message->header_type()) +
                           " message; expected a schema message first");
  }
  LND_ASSIGN_OR_RETURN(
      impl->schema,
      internal::ParseSchema(msg.message->header_as_Schema()).WithContext("schema message"));
  impl->offset = msg.end_offset;
  return IpcStreamReader(std::move(impl));
}

Result<IpcStreamReader> IpcStreamReader::OpenFile(const std::string& path) {
  LND_ASSIGN_OR_RETURN(BufferPtr bytes, internal::ReadWholeFile(path));
  return Open(std::move(bytes));
}

const SchemaPtr& IpcStreamReader::schema() const { return impl_->schema; }

Result<RecordBatchPtr> IpcStreamReader::ReadNext() {
  Impl& s = *impl_;
  if (s.finished) return RecordBatchPtr();
  const std::string what = "record batch " + std::to_string(s.batches_read);
  auto msg = internal::ReadMessage(s.bytes, s.offset, what);
  if (!msg.ok()) {
    s.finished = true;
    return msg.status();
  }
  if (msg->message == nullptr) {
    s.finished = true;
    return RecordBatchPtr();
  }
  s.offset = msg->end_offset;
  const auto type = msg->message->header_type();
  if (type != internal::fb::MessageHeader::RecordBatch) {
    s.finished = true;
    return NotSupportedMessage(type, what);
  }
  auto batch = internal::LoadRecordBatch(s.schema, *msg->message, msg->body, what);
  if (!batch.ok()) s.finished = true;
  ++s.batches_read;
  return batch;
}

// ---- IpcFileReader ----

struct IpcFileReader::Impl {
  BufferPtr bytes;
  BufferPtr footer_bytes;
  SchemaPtr schema;
  Metadata footer_metadata;
  std::vector<internal::BlockLocation> blocks;
};

IpcFileReader::IpcFileReader(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
IpcFileReader::IpcFileReader(IpcFileReader&&) noexcept = default;
IpcFileReader& IpcFileReader::operator=(IpcFileReader&&) noexcept = default;
IpcFileReader::~IpcFileReader() = default;

Result<IpcFileReader> IpcFileReader::Open(BufferPtr bytes) {
  if (!bytes) return Status::InvalidArgument("IPC file reader needs bytes, got null");
  const int64_t size = bytes->size();
  const int64_t min_size = 2 * kMagicSize + 4;
  if (size < min_size) {
    return Status::Corrupt("IPC file of " + std::to_string(size) +
                           " bytes is too small (at least " + std::to_string(min_size) +
                           " bytes: magic, footer length, magic)");
  }
  const std::uint8_t* p = bytes->data();
  if (std::memcmp(p, kMagic, kMagicSize) != 0) {
    return Status::Corrupt("IPC file does not start with the magic \"ARROW1\"");
  }
  if (std::memcmp(p + size - kMagicSize, kMagic, kMagicSize) != 0) {
    return Status::Corrupt(
        "IPC file does not end with the magic \"ARROW1\" (truncated or not closed)");
  }
  const int32_t footer_len = LoadLE<int32_t>(p + size - kMagicSize - 4);
  const int64_t footer_end = size - kMagicSize - 4;
  if (footer_len <= 0 || footer_len > footer_end - kMagicSize) {
    return Status::Corrupt("IPC file footer length " + std::to_string(footer_len) +
                           " is invalid (file of " + std::to_string(size) +
                           " bytes leaves at most " + std::to_string(footer_end - kMagicSize) +
                           ")");
  }
  auto impl = std::make_unique<Impl>();
  impl->bytes = std::move(bytes);
  const internal::fb::Footer* footer = nullptr;
  LND_ASSIGN_OR_RETURN(impl->footer_bytes, internal::VerifyRoot<internal::fb::Footer>(
                                               impl->bytes, footer_end - footer_len, footer_len,
                                               "IPC file footer", &footer));
  LND_RETURN_NOT_OK(internal::CheckVersion(footer->version(), "IPC file footer"));
  LND_ASSIGN_OR_RETURN(impl->schema,
                       internal::ParseSchema(footer->schema()).WithContext("IPC file footer"));
  if (footer->dictionaries() != nullptr && footer->dictionaries()->size() > 0) {
    return Status::NotImplemented(
        "IPC file has dictionary batches; dictionary encoding is not supported by lance-nd");
  }
  if (footer->custom_metadata() != nullptr) {
    for (const auto* kv : *footer->custom_metadata()) {
      if (kv == nullptr) continue;
      impl->footer_metadata.Set(kv->key() ? kv->key()->str() : std::string(),
                                kv->value() ? kv->value()->str() : std::string());
    }
  }
  if (footer->record_batches() != nullptr) {
    const auto& blocks = *footer->record_batches();
    for (flatbuffers::uoffset_t i = 0; i < blocks.size(); ++i) {
      const internal::fb::Block b = internal::LoadStruct(blocks, i);
      impl->blocks.push_back({b.offset(), b.metadata_length(), b.body_length()});
    }
  }
  return IpcFileReader(std::move(impl));
}

Result<IpcFileReader> IpcFileReader::OpenFile(const std::string& path) {
  LND_ASSIGN_OR_RETURN(BufferPtr bytes, internal::ReadWholeFile(path));
  return Open(std::move(bytes)).WithContext("'" + path + "'");
}

const SchemaPtr& IpcFileReader::schema() const { return impl_->schema; }
int IpcFileReader::num_record_batches() const { return static_cast<int>(impl_->blocks.size()); }
const Metadata& IpcFileReader::footer_metadata() const { return impl_->footer_metadata; }

Result<RecordBatchPtr> IpcFileReader::ReadRecordBatch(int i) const {
  if (i < 0 || i >= num_record_batches()) {
    return Status::InvalidArgument("record batch index " + std::to_string(i) +
                                   " is out of range (file has " +
                                   std::to_string(num_record_batches()) + ")");
  }
  const internal::BlockLocation& b = impl_->blocks[static_cast<std::size_t>(i)];
  const std::string what = "record batch " + std::to_string(i);
  if (b.offset < 0 || b.offset >= impl_->bytes->size() || b.metadata_length <= 0 ||
      b.body_length < 0) {
    return Status::Corrupt(
        what + ": footer block (offset " + std::to_string(b.offset) + ", metadata length " +
        std::to_string(b.metadata_length) + ", body length " + std::to_string(b.body_length) +
        ") is outside the file of " + std::to_string(impl_->bytes->size()) + " bytes");
  }
  LND_ASSIGN_OR_RETURN(auto msg, internal::ReadMessage(impl_->bytes, b.offset, what));
  if (msg.message == nullptr) {
    return Status::Corrupt(what + ": footer block at offset " + std::to_string(b.offset) +
                           " points at an end-of-stream marker");
  }
  const auto type = msg.message->header_type();
  if (type != internal::fb::MessageHeader::RecordBatch) {
    return Status::Corrupt(what + ": footer block at offset " + std::to_string(b.offset) +
                           " points at a " + internal::MessageHeaderName(type) + " message");
  }
  return internal::LoadRecordBatch(impl_->schema, *msg.message, msg.body, what);
}

// ---- convenience ----

namespace {

template <typename Writer>
Status WriteAll(Writer& writer, std::span<const RecordBatchPtr> batches) {
  for (std::size_t i = 0; i < batches.size(); ++i) {
    if (!batches[i])
      return Status::InvalidArgument("record batch " + std::to_string(static_cast<int64_t>(i)) +
                                     " is null");
    LND_RETURN_NOT_OK_CTX(writer.WriteRecordBatch(*batches[i]),
                          "record batch " + std::to_string(static_cast<int64_t>(i)));
  }
  return writer.Close();
}

}  // namespace

Result<std::vector<std::uint8_t>> WriteIpcStream(const SchemaPtr& schema,
                                                 std::span<const RecordBatchPtr> batches,
                                                 const IpcWriteOptions& options) {
  LND_ASSIGN_OR_RETURN(auto writer, IpcStreamWriter::OpenInMemory(schema, options));
  LND_RETURN_NOT_OK(WriteAll(writer, batches));
  return writer.TakeBytes();
}

Status WriteIpcStreamFile(const std::string& path, const SchemaPtr& schema,
                          std::span<const RecordBatchPtr> batches, const IpcWriteOptions& options) {
  LND_ASSIGN_OR_RETURN(auto writer, IpcStreamWriter::Open(path, schema, options));
  return WriteAll(writer, batches);
}

Result<std::vector<std::uint8_t>> WriteIpcFileBytes(const SchemaPtr& schema,
                                                    std::span<const RecordBatchPtr> batches,
                                                    const IpcWriteOptions& options) {
  LND_ASSIGN_OR_RETURN(auto writer, IpcFileWriter::OpenInMemory(schema, options));
  LND_RETURN_NOT_OK(WriteAll(writer, batches));
  return writer.TakeBytes();
}

Status WriteIpcFile(const std::string& path, const SchemaPtr& schema,
                    std::span<const RecordBatchPtr> batches, const IpcWriteOptions& options) {
  LND_ASSIGN_OR_RETURN(auto writer, IpcFileWriter::Open(path, schema, options));
  return WriteAll(writer, batches);
}

Result<IpcContents> ReadIpcStream(BufferPtr bytes) {
  LND_ASSIGN_OR_RETURN(auto reader, IpcStreamReader::Open(std::move(bytes)));
  IpcContents out;
  out.schema = reader.schema();
  while (true) {
    LND_ASSIGN_OR_RETURN(RecordBatchPtr batch, reader.ReadNext());
    if (!batch) break;
    out.batches.push_back(std::move(batch));
  }
  return out;
}

Result<IpcContents> ReadIpcStream(std::span<const std::uint8_t> bytes) {
  return ReadIpcStream(Buffer::Copy(bytes));
}

Result<IpcContents> ReadIpcFileBytes(BufferPtr bytes) {
  LND_ASSIGN_OR_RETURN(auto reader, IpcFileReader::Open(std::move(bytes)));
  IpcContents out;
  out.schema = reader.schema();
  for (int i = 0; i < reader.num_record_batches(); ++i) {
    LND_ASSIGN_OR_RETURN(RecordBatchPtr batch, reader.ReadRecordBatch(i));
    out.batches.push_back(std::move(batch));
  }
  return out;
}

Result<IpcContents> ReadIpcFileBytes(std::span<const std::uint8_t> bytes) {
  return ReadIpcFileBytes(Buffer::Copy(bytes));
}

Result<IpcContents> ReadIpcFile(const std::string& path) {
  LND_ASSIGN_OR_RETURN(BufferPtr bytes, internal::ReadWholeFile(path));
  return ReadIpcFileBytes(std::move(bytes)).WithContext("'" + path + "'");
}

}  // namespace lance_nd::array::ipc
