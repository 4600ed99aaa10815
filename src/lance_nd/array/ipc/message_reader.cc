// Decoding of Arrow IPC messages from untrusted bytes: every length, offset and count is
// checked before use, and every decoded column is validated.
#include "lance_nd/array/ipc/message_reader.h"

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "lance_nd/array/ipc/compression.h"
#include "lance_nd/core/internal/checked_math.h"
#include "lance_nd/core/internal/endian.h"

namespace lance_nd::array::ipc::internal {
namespace {

constexpr std::uint32_t kContinuation = 0xFFFFFFFFu;

bool IsAligned(const void* p, std::size_t a) {
  return reinterpret_cast<std::uintptr_t>(p) % a == 0;
}

/// The bytes of a bitmap of `length` bits, for an untrusted length: rounded up without
/// computing length + 7, which overflows near INT64_MAX.
int64_t BitmapBytes(int64_t length) { return length / 8 + (length % 8 != 0 ? 1 : 0); }

/// Walks the field nodes and buffers of one record batch in depth-first order.
class ArrayLoader {
 public:
  ArrayLoader(const fb::RecordBatch& rb, BufferPtr body, Compression codec, std::string what)
      : nodes_(rb.nodes()),
        buffers_(rb.buffers()),
        body_(std::move(body)),
        codec_(codec),
        what_(std::move(what)) {}

  Result<ArrayPtr> Load(const Field& field, const std::string& path) {
    const DataTypePtr& type = field.type();
    const int node_index = next_node_;
    if (nodes_ == nullptr || static_cast<std::size_t>(next_node_) >= nodes_->size()) {
      return Status::Corrupt(what_ + ": " + path + ": needs field node " +
                             std::to_string(node_index) + " but the batch has only " +
                             std::to_string(nodes_ == nullptr ? 0 : nodes_->size()));
    }
    const fb::FieldNode node =
        LoadStruct(*nodes_, static_cast<flatbuffers::uoffset_t>(next_node_++));
    const int64_t length = node.length();
    const int64_t nulls = node.null_count();
    if (length < 0 || nulls < 0 || nulls > length) {
      return Status::Corrupt(what_ + ": " + path + ": field node " + std::to_string(node_index) +
                             " has length " + std::to_string(length) + " and null count " +
                             std::to_string(nulls) + " (expected 0 <= null count <= length)");
    }
    if (type->id() == TypeId::kNull) {
      return MakeArrayData(type, length, {}, {}, length);
    }
    std::vector<BufferPtr> buffers;
    std::vector<ArrayPtr> children;
    LND_ASSIGN_OR_RETURN(BufferPtr validity, NextBuffer(path));
    if (nulls == 0) {
      validity = nullptr;
    } else {
      LND_RETURN_NOT_OK(CheckSize(validity, BitmapBytes(length), path, "validity bitmap"));
    }
    buffers.push_back(std::move(validity));
    switch (type->id()) {
      case TypeId::kBool: {
        LND_ASSIGN_OR_RETURN(BufferPtr values, NextBuffer(path));
        LND_RETURN_NOT_OK(CheckSize(values, BitmapBytes(length), path, "value bitmap"));
        buffers.push_back(std::move(values));
        break;
      }
      case TypeId::kUtf8:
      case TypeId::kBinary:
      case TypeId::kLargeUtf8:
      case TypeId::kLargeBinary: {
        const int width = (type->id() == TypeId::kUtf8 || type->id() == TypeId::kBinary) ? 4 : 8;
        LND_ASSIGN_OR_RETURN(BufferPtr offsets, Offsets(length, width, path));
        LND_ASSIGN_OR_RETURN(BufferPtr data, NextBuffer(path));
        buffers.push_back(std::move(offsets));
        buffers.push_back(std::move(data));
        break;
      }
      case TypeId::kList:
      case TypeId::kLargeList: {
        const int width = type->id() == TypeId::kList ? 4 : 8;
        LND_ASSIGN_OR_RETURN(BufferPtr offsets, Offsets(length, width, path));
        buffers.push_back(std::move(offsets));
        const Field& child = *type->value_field();
        LND_ASSIGN_OR_RETURN(ArrayPtr c, Load(child, path + "." + child.name()));
        children.push_back(std::move(c));
        break;
      }
      case TypeId::kFixedSizeList: {
        const Field& child = *type->value_field();
        LND_ASSIGN_OR_RETURN(ArrayPtr c, Load(child, path + "." + child.name()));
        children.push_back(std::move(c));
        break;
      }
      case TypeId::kStruct: {
        for (const FieldPtr& child : type->children()) {
          LND_ASSIGN_OR_RETURN(ArrayPtr c, Load(*child, path + "." + child->name()));
          children.push_back(std::move(c));
        }
        break;
      }
      default: {
        const int64_t width =
            type->id() == TypeId::kFixedSizeBinary ? type->fixed_size() : type->byte_width();
        const auto need = CheckedMul<int64_t>(length, width);
        LND_ASSIGN_OR_RETURN(BufferPtr values, NextBuffer(path));
        if (!need || width < 0) {
          return Status::Corrupt(what_ + ": " + path + ": length " + std::to_string(length) +
                                 " overflows the value buffer size");
        }
        LND_RETURN_NOT_OK(CheckSize(values, *need, path, "value buffer"));
        buffers.push_back(std::move(values));
        break;
      }
    }
    return MakeArrayData(type, length, std::move(buffers), std::move(children),
                         nulls == 0 ? 0 : ArrayData::kUnknownNullCount);
  }

 private:
  Result<BufferPtr> NextBuffer(const std::string& path) {
    const int index = next_buffer_++;
    if (buffers_ == nullptr || static_cast<std::size_t>(index) >= buffers_->size()) {
      return Status::Corrupt(what_ + ": " + path + ": needs buffer " + std::to_string(index) +
                             " but the batch has only " +
                             std::to_string(buffers_ == nullptr ? 0 : buffers_->size()));
    }
    const fb::Buffer b = LoadStruct(*buffers_, static_cast<flatbuffers::uoffset_t>(index));
    const int64_t offset = b.offset();
    const int64_t length = b.length();
    const auto end = CheckedAdd(offset, length);
    if (offset < 0 || length < 0 || !end || *end > body_->size()) {
      return Status::Corrupt(what_ + ": buffer " + std::to_string(index) + " (offset " +
                             std::to_string(offset) + ", length " + std::to_string(length) +
                             ") exceeds body length " + std::to_string(body_->size()));
    }
    if (length == 0) return Buffer::Empty();
    LND_ASSIGN_OR_RETURN(BufferPtr raw, Buffer::Slice(body_, offset, length));
    if (codec_ != Compression::kNone) {
      return DecompressBodyBuffer(codec_, raw, what_ + ": buffer " + std::to_string(index));
    }
    if (!IsAligned(raw->data(), 8)) return Buffer::Copy(raw->data(), raw->size());
    return raw;
  }

  // Offsets buffer of a variable-size layout; an empty buffer for a zero-length array becomes
  // a single zero offset.
  Result<BufferPtr> Offsets(int64_t length, int width, const std::string& path) {
    LND_ASSIGN_OR_RETURN(BufferPtr offsets, NextBuffer(path));
    if (length == 0 && offsets->size() < width) {
      return Buffer::Copy(std::vector<std::uint8_t>(static_cast<std::size_t>(width), 0));
    }
    // length + 1 offsets; a node may claim up to INT64_MAX rows, so the count is checked too.
    const auto count = CheckedAdd<int64_t>(length, 1);
    const auto need = count ? CheckedMul<int64_t>(*count, width) : std::nullopt;
    if (!need) {
      return Status::Corrupt(what_ + ": " + path + ": length " + std::to_string(length) +
                             " overflows the offsets buffer size");
    }
    LND_RETURN_NOT_OK(CheckSize(offsets, *need, path, "offsets buffer"));
    return offsets;
  }

  Status CheckSize(const BufferPtr& buffer, int64_t need, const std::string& path,
                   const char* kind) {
    if (buffer->size() < need) {
      return Status::Corrupt(what_ + ": " + path + ": " + kind + " holds " +
                             std::to_string(buffer->size()) + " bytes, but the field node needs " +
                             std::to_string(need));
    }
    return Status::OK();
  }

  const flatbuffers::Vector<const fb::FieldNode*>* nodes_;
  const flatbuffers::Vector<const fb::Buffer*>* buffers_;
  BufferPtr body_;
  Compression codec_;
  std::string what_;
  int next_node_ = 0;
  int next_buffer_ = 0;
};

}  // namespace

template <typename T>
Result<BufferPtr> VerifyRoot(const BufferPtr& bytes, int64_t offset, int64_t length,
                             const std::string& what, const T** root) {
  LND_ASSIGN_OR_RETURN(BufferPtr meta, Buffer::Slice(bytes, offset, length));
  if (!IsAligned(meta->data(), 8)) meta = Buffer::Copy(meta->data(), meta->size());
  if (length >= static_cast<int64_t>(FLATBUFFERS_MAX_BUFFER_SIZE)) {
    return Status::Corrupt(what + ": flatbuffer of " + std::to_string(length) +
                           " bytes is too large");
  }
  flatbuffers::Verifier verifier(meta->data(), static_cast<std::size_t>(meta->size()),
                                 kMaxFlatbufferDepth, kMaxFlatbufferTables);
  if (!verifier.VerifyBuffer<T>(nullptr)) {
    return Status::Corrupt(what + ": metadata flatbuffer (" + std::to_string(length) +
                           " bytes at offset " + std::to_string(offset) + ") failed verification");
  }
  *root = flatbuffers::GetRoot<T>(meta->data());
  return meta;
}

template Result<BufferPtr> VerifyRoot<fb::Message>(const BufferPtr&, int64_t, int64_t,
                                                   const std::string&, const fb::Message**);
template Result<BufferPtr> VerifyRoot<fb::Footer>(const BufferPtr&, int64_t, int64_t,
                                                  const std::string&, const fb::Footer**);

Status CheckVersion(fb::MetadataVersion version, const std::string& what) {
  const int v = static_cast<int>(version);
  if (v < static_cast<int>(fb::MetadataVersion::V4)) {
    return Status::NotImplemented(what + ": metadata version V" + std::to_string(v + 1) +
                                  " (Arrow before 0.15) is not supported; expected V4 or V5");
  }
  if (v > static_cast<int>(fb::MetadataVersion::V5)) {
    return Status::NotImplemented(what + ": metadata version V" + std::to_string(v + 1) +
                                  " is newer than the V5 this reader understands");
  }
  return Status::OK();
}

std::string MessageHeaderName(fb::MessageHeader type) {
  switch (static_cast<int>(type)) {
    case 0:
      return "empty";
    case 1:
      return "schema";
    case 2:
      return "dictionary batch";
    case 3:
      return "record batch";
    case 4:
      return "tensor";
    case 5:
      return "sparse tensor";
    default:
      return "unknown (" + std::to_string(static_cast<int>(type)) + ")";
  }
}

Result<DecodedMessage> ReadMessage(const BufferPtr& bytes, int64_t offset,
                                   const std::string& what) {
  DecodedMessage out;
  const int64_t size = bytes->size();
  if (offset < 0 || offset > size) {
    return Status::Corrupt(what + ": offset " + std::to_string(offset) + " is outside the " +
                           std::to_string(size) + " bytes of input");
  }
  const int64_t remaining = size - offset;
  out.end_offset = offset;
  if (remaining == 0) return out;  // end of the bytes at a message boundary
  if (remaining < 4) {
    return Status::Corrupt(what + ": truncated message prefix (" + std::to_string(remaining) +
                           " bytes left at offset " + std::to_string(offset) +
                           ", expected at least 4)");
  }
  const std::uint8_t* p = bytes->data() + offset;
  int64_t prefix = 4;
  int32_t meta_len = LoadLE<int32_t>(p);
  if (LoadLE<std::uint32_t>(p) == kContinuation) {
    if (remaining < 8) {
      return Status::Corrupt(what + ": truncated message prefix (" + std::to_string(remaining) +
                             " bytes left at offset " + std::to_string(offset) + ", expected 8)");
    }
    prefix = 8;
    meta_len = LoadLE<int32_t>(p + 4);
  }
  if (meta_len == 0) {  // end-of-stream marker
    out.end_offset = offset + prefix;
    return out;
  }
  if (meta_len < 0 || meta_len > remaining - prefix) {
    return Status::Corrupt(what + ": metadata length " + std::to_string(meta_len) + " at offset " +
                           std::to_string(offset) + " exceeds the " +
                           std::to_string(remaining - prefix) + " bytes that follow");
  }
  const fb::Message* message = nullptr;
  LND_ASSIGN_OR_RETURN(out.metadata,
                       VerifyRoot<fb::Message>(bytes, offset + prefix, meta_len, what, &message));
  LND_RETURN_NOT_OK(CheckVersion(message->version(), what));
  const int64_t body_offset = offset + prefix + meta_len;
  const int64_t body_length = message->body_length();
  if (body_length < 0 || body_length > size - body_offset) {
    return Status::Corrupt(what + ": body length " + std::to_string(body_length) + " exceeds the " +
                           std::to_string(size - body_offset) + " bytes left after the metadata");
  }
  LND_ASSIGN_OR_RETURN(out.body, Buffer::Slice(bytes, body_offset, body_length));
  out.message = message;
  out.end_offset = body_offset + body_length;
  return out;
}

Result<RecordBatchPtr> LoadRecordBatch(const SchemaPtr& schema, const fb::Message& message,
                                       const BufferPtr& body, const std::string& what) {
  const fb::RecordBatch* rb = message.header_as_RecordBatch();
  if (rb == nullptr) return Status::Corrupt(what + ": record batch message has no header");
  const int64_t num_rows = rb->length();
  if (num_rows < 0) {
    return Status::Corrupt(what + ": negative row count " + std::to_string(num_rows));
  }
  Compression codec = Compression::kNone;
  if (const fb::BodyCompression* c = rb->compression()) {
    if (c->method() != fb::BodyCompressionMethod::BUFFER) {
      return Status::NotImplemented(what + ": body compression method " +
                                    std::to_string(static_cast<int>(c->method())) +
                                    " is not supported (only BUFFER)");
    }
    switch (c->codec()) {
      case fb::CompressionType::LZ4_FRAME:
        codec = Compression::kLz4Frame;
        break;
      case fb::CompressionType::ZSTD:
        codec = Compression::kZstd;
        break;
      default:
        return Status::Corrupt(what + ": unknown body compression codec " +
                               std::to_string(static_cast<int>(c->codec())) +
                               " (expected 0 = LZ4_FRAME or 1 = ZSTD)");
    }
  }
  ArrayLoader loader(*rb, body, codec, what);
  std::vector<ArrayPtr> columns;
  columns.reserve(static_cast<std::size_t>(schema->num_fields()));
  for (int i = 0; i < schema->num_fields(); ++i) {
    const Field& field = *schema->field(i);
    const std::string path = "column " + std::to_string(i) + " '" + field.name() + "'";
    LND_ASSIGN_OR_RETURN(ArrayPtr col, loader.Load(field, path));
    if (col->length != num_rows) {
      return Status::Corrupt(what, ": ", path, " has ", col->length,
                             " rows, but the batch declares ", num_rows);
    }
    if (Status st = Validate(*col); !st.ok()) {
      return Status::Corrupt(what + ": " + path + ": " + std::string(st.message()));
    }
    columns.push_back(std::move(col));
  }
  return std::make_shared<const RecordBatch>(schema, num_rows, std::move(columns));
}

Result<BufferPtr> ReadWholeFile(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) {
    return Status::IOError("cannot open '" + path + "' for reading: " + std::strerror(errno));
  }
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> guard(f, &std::fclose);
  if (std::fseek(f, 0, SEEK_END) != 0) {
    return Status::IOError("cannot seek in '" + path + "': " + std::strerror(errno));
  }
  const long size = std::ftell(f);
  if (size < 0 || std::fseek(f, 0, SEEK_SET) != 0) {
    return Status::IOError("cannot size '" + path + "': " + std::strerror(errno));
  }
  std::uint8_t* data = nullptr;
  BufferPtr out = Buffer::AllocateZeroed(size, &data);
  if (size > 0 &&
      std::fread(data, 1, static_cast<std::size_t>(size), f) != static_cast<std::size_t>(size)) {
    return Status::IOError("short read of '" + path + "' (" + std::to_string(size) +
                           " bytes expected)");
  }
  return out;
}

}  // namespace lance_nd::array::ipc::internal
