// Encoding of Arrow IPC messages: record batch bodies (re-basing sliced arrays), framing, footer.
#include "lance_nd/array/ipc/message_writer.h"

#include <cstring>
#include <span>
#include <string>
#include <utility>

#include "lance_nd/array/ipc/compression.h"
#include "lance_nd/array/ipc/fbs.h"
#include "lance_nd/array/ipc/schema_codec.h"
#include "lance_nd/core/internal/checked_math.h"
#include "lance_nd/core/internal/endian.h"

namespace lance_nd::array::ipc::internal {
namespace {

constexpr std::uint32_t kContinuation = 0xFFFFFFFFu;
constexpr int64_t kBodyAlignment = 8;

/// Collects the field nodes and the (padded, possibly compressed) buffers of one body.
class BodyWriter {
 public:
  explicit BodyWriter(const IpcWriteOptions& options) : options_(options) {}

  Status AddBuffer(std::span<const std::uint8_t> raw) {
    std::span<const std::uint8_t> stored = raw;
    std::vector<std::uint8_t> compressed;
    if (options_.compression != Compression::kNone) {
      LND_ASSIGN_OR_RETURN(compressed,
                           CompressBodyBuffer(options_.compression, raw, options_.zstd_level));
      stored = compressed;
    }
    const int64_t offset = static_cast<int64_t>(body_.size());
    body_.insert(body_.end(), stored.begin(), stored.end());
    body_.resize(
        static_cast<std::size_t>(AlignUp(static_cast<int64_t>(body_.size()), kBodyAlignment)), 0);
    buffers_.emplace_back(offset, static_cast<int64_t>(stored.size()));
    return Status::OK();
  }

  Status AddArray(const ArrayData& a) {
    const DataType& t = *a.type;
    const int64_t off = a.offset;
    const int64_t len = a.length;
    const int64_t null_count = t.id() == TypeId::kNull ? len : a.null_count();
    nodes_.emplace_back(len, null_count);
    if (t.id() == TypeId::kNull) return Status::OK();  // the null type has no buffers
    // Validity.
    if (null_count == 0 || a.validity() == nullptr) {
      LND_RETURN_NOT_OK(AddBuffer({}));
    } else {
      LND_RETURN_NOT_OK(AddBits(a.validity(), off, len));
    }
    switch (t.id()) {
      case TypeId::kBool:
        return len == 0 ? AddBuffer({}) : AddBits(a.buffers[1]->data(), off, len);
      case TypeId::kUtf8:
      case TypeId::kBinary:
        return AddBinary<int32_t>(a);
      case TypeId::kLargeUtf8:
      case TypeId::kLargeBinary:
        return AddBinary<int64_t>(a);
      case TypeId::kList:
        return AddList<int32_t>(a);
      case TypeId::kLargeList:
        return AddList<int64_t>(a);
      case TypeId::kFixedSizeList: {
        const int64_t size = t.fixed_size();
        LND_ASSIGN_OR_RETURN(ArrayPtr child, Slice(a.children.at(0), off * size, len * size));
        return AddArray(*child);
      }
      case TypeId::kStruct: {
        for (const ArrayPtr& c : a.children) {
          LND_ASSIGN_OR_RETURN(ArrayPtr child, Slice(c, off, len));
          LND_RETURN_NOT_OK(AddArray(*child));
        }
        return Status::OK();
      }
      case TypeId::kFixedSizeBinary: {
        const int64_t w = t.fixed_size();
        if (len * w == 0) return AddBuffer({});
        return AddBuffer(Bytes(a.buffers[1]->data() + off * w, len * w));
      }
      default: {
        const int64_t w = t.byte_width();
        if (w <= 0) {
          return Status::NotImplemented("IPC writer: no buffer layout for type " + t.ToString());
        }
        if (len == 0) return AddBuffer({});
        return AddBuffer(Bytes(a.buffers[1]->data() + off * w, len * w));
      }
    }
  }

  std::vector<fb::FieldNode>& nodes() { return nodes_; }
  std::vector<fb::Buffer>& buffers() { return buffers_; }
  std::vector<std::uint8_t>& body() { return body_; }

 private:
  static std::span<const std::uint8_t> Bytes(const std::uint8_t* p, int64_t n) {
    if (n <= 0 || p == nullptr) return {};
    return {p, static_cast<std::size_t>(n)};
  }

  // `len` bits starting at bit `off`, re-based to bit 0.
  Status AddBits(const std::uint8_t* bits, int64_t off, int64_t len) {
    const int64_t nbytes = BytesForBits(len);
    if (len == 0) return AddBuffer({});
    if (off % 8 == 0) return AddBuffer(Bytes(bits + off / 8, nbytes));
    std::vector<std::uint8_t> out(static_cast<std::size_t>(nbytes), 0);
    for (int64_t i = 0; i < len; ++i) {
      if (GetBit(bits, off + i)) SetBit(out.data(), i);
    }
    return AddBuffer(out);
  }

  // Offsets of slots [0, len], shifted to start at 0 (a zero-length array gets one zero).
  template <typename O>
  std::vector<std::uint8_t> RebasedOffsets(const O* offsets, int64_t len) {
    std::vector<std::uint8_t> out(static_cast<std::size_t>(len + 1) * sizeof(O), 0);
    if (len == 0) return out;
    const O base = offsets[0];
    for (int64_t i = 0; i <= len; ++i) {
      StoreLE<O>(out.data() + static_cast<std::size_t>(i) * sizeof(O),
                 static_cast<O>(offsets[i] - base));
    }
    return out;
  }

  template <typename O>
  Status AddBinary(const ArrayData& a) {
    const O* offsets = a.length == 0 ? nullptr : a.buffers[1]->data_as<O>() + a.offset;
    const int64_t len = a.length;
    LND_RETURN_NOT_OK(AddBuffer(RebasedOffsets(offsets, len)));
    const int64_t begin = len == 0 ? 0 : static_cast<int64_t>(offsets[0]);
    const int64_t end = len == 0 ? 0 : static_cast<int64_t>(offsets[len]);
    if (end == begin) return AddBuffer({});
    return AddBuffer(Bytes(a.buffers[2]->data() + begin, end - begin));
  }

  template <typename O>
  Status AddList(const ArrayData& a) {
    const O* offsets = a.length == 0 ? nullptr : a.buffers[1]->data_as<O>() + a.offset;
    const int64_t len = a.length;
    LND_RETURN_NOT_OK(AddBuffer(RebasedOffsets(offsets, len)));
    const int64_t begin = len == 0 ? 0 : static_cast<int64_t>(offsets[0]);
    const int64_t end = len == 0 ? 0 : static_cast<int64_t>(offsets[len]);
    LND_ASSIGN_OR_RETURN(ArrayPtr child, Slice(a.children.at(0), begin, end - begin));
    return AddArray(*child);
  }

  const IpcWriteOptions& options_;
  std::vector<fb::FieldNode> nodes_;
  std::vector<fb::Buffer> buffers_;
  std::vector<std::uint8_t> body_;
};

Result<EncodedMessage> Frame(flatbuffers::FlatBufferBuilder& fbb, std::vector<std::uint8_t> body) {
  const int64_t fb_size = static_cast<int64_t>(fbb.GetSize());
  const int64_t padded = AlignUp(fb_size, kBodyAlignment);
  auto meta_len = CheckedCast<int32_t>(padded);
  if (!meta_len || *meta_len > 0x7FFFFFF0) {
    return Status::InvalidArgument("IPC message metadata of " + std::to_string(fb_size) +
                                   " bytes exceeds the 2 GiB flatbuffer limit");
  }
  EncodedMessage out;
  out.header.resize(static_cast<std::size_t>(8 + padded), 0);
  StoreLE<std::uint32_t>(out.header.data(), kContinuation);
  StoreLE<int32_t>(out.header.data() + 4, *meta_len);
  std::memcpy(out.header.data() + 8, fbb.GetBufferPointer(), static_cast<std::size_t>(fb_size));
  out.metadata_length = 8 + *meta_len;
  out.body_length = static_cast<int64_t>(body.size());
  out.body = std::move(body);
  return out;
}

}  // namespace

Status CheckBatchMatchesSchema(const Schema& schema, const RecordBatch& batch) {
  if (batch.num_columns() != schema.num_fields()) {
    return Status::InvalidArgument("record batch has " + std::to_string(batch.num_columns()) +
                                   " columns, but the IPC writer's schema has " +
                                   std::to_string(schema.num_fields()) + " fields");
  }
  for (int i = 0; i < batch.num_columns(); ++i) {
    const ArrayPtr& col = batch.column(i);
    const Field& f = *schema.field(i);
    if (!col || !col->type) {
      return Status::InvalidArgument("record batch column " + std::to_string(i) + " is null");
    }
    if (!col->type->Equals(*f.type(), /*check_metadata=*/false)) {
      return Status::InvalidArgument("record batch column " + std::to_string(i) + " ('" + f.name() +
                                     "') has type " + col->type->ToString() +
                                     ", but the IPC writer's schema says " + f.type()->ToString());
    }
    if (col->length != batch.num_rows()) {
      return Status::InvalidArgument("record batch column " + std::to_string(i) + " ('" + f.name() +
                                     "') has " + std::to_string(col->length) + " rows, the batch " +
                                     std::to_string(batch.num_rows()));
    }
  }
  return Status::OK();
}

Result<EncodedMessage> EncodeSchemaMessage(const Schema& schema) {
  flatbuffers::FlatBufferBuilder fbb;
  LND_ASSIGN_OR_RETURN(auto s, BuildSchema(fbb, schema));
  auto msg =
      fb::CreateMessage(fbb, fb::MetadataVersion::V5, fb::MessageHeader::Schema, s.Union(), 0);
  fbb.Finish(msg);
  return Frame(fbb, {});
}

Result<EncodedMessage> EncodeRecordBatchMessage(const RecordBatch& batch,
                                                const IpcWriteOptions& options) {
  BodyWriter body(options);
  for (const ArrayPtr& col : batch.columns()) {
    LND_RETURN_NOT_OK(body.AddArray(*col));
  }
  flatbuffers::FlatBufferBuilder fbb;
  auto nodes = fbb.CreateVectorOfStructs(body.nodes());
  auto buffers = fbb.CreateVectorOfStructs(body.buffers());
  flatbuffers::Offset<fb::BodyCompression> compression;
  if (options.compression != Compression::kNone) {
    compression = fb::CreateBodyCompression(fbb,
                                            options.compression == Compression::kZstd
                                                ? fb::CompressionType::ZSTD
                                                : fb::CompressionType::LZ4_FRAME,
                                            fb::BodyCompressionMethod::BUFFER);
  }
  auto rb = fb::CreateRecordBatch(fbb, batch.num_rows(), nodes, buffers, compression);
  const int64_t body_length = static_cast<int64_t>(body.body().size());
  auto msg = fb::CreateMessage(fbb, fb::MetadataVersion::V5, fb::MessageHeader::RecordBatch,
                               rb.Union(), body_length);
  fbb.Finish(msg);
  return Frame(fbb, std::move(body.body()));
}

Result<std::vector<std::uint8_t>> EncodeFooter(const Schema& schema,
                                               const std::vector<BlockLocation>& batches) {
  flatbuffers::FlatBufferBuilder fbb;
  LND_ASSIGN_OR_RETURN(auto s, BuildSchema(fbb, schema));
  std::vector<fb::Block> blocks;
  blocks.reserve(batches.size());
  for (const BlockLocation& b : batches) {
    blocks.emplace_back(b.offset, b.metadata_length, b.body_length);
  }
  auto dictionaries = fbb.CreateVectorOfStructs(std::vector<fb::Block>{});
  auto record_batches = fbb.CreateVectorOfStructs(blocks);
  auto footer = fb::CreateFooter(fbb, fb::MetadataVersion::V5, s, dictionaries, record_batches);
  fbb.Finish(footer);
  return std::vector<std::uint8_t>(fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize());
}

std::vector<std::uint8_t> EndOfStreamMarker() {
  std::vector<std::uint8_t> out(8, 0);
  StoreLE<std::uint32_t>(out.data(), kContinuation);
  return out;
}

}  // namespace lance_nd::array::ipc::internal
