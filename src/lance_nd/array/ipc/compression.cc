// LZ4 frame / zstd body-buffer (de)compression for Arrow IPC.
#include "lance_nd/array/ipc/compression.h"

#include <lz4frame.h>
#include <zstd.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>

#include "lance_nd/core/internal/endian.h"

namespace lance_nd::array::ipc::internal {
namespace {

constexpr int64_t kPrefix = 8;

// One decompression step: consume from [src, src+src_size) into [dst, dst+dst_size). Sets the
// bytes consumed and produced; `done` is true once the frame ended.
class Decoder {
 public:
  virtual ~Decoder() = default;
  virtual Status Step(const std::uint8_t* src, std::size_t* src_size, std::uint8_t* dst,
                      std::size_t* dst_size, bool* done) = 0;
};

class Lz4Decoder final : public Decoder {
 public:
  Lz4Decoder() {
    if (LZ4F_isError(LZ4F_createDecompressionContext(&ctx_, LZ4F_VERSION))) ctx_ = nullptr;
  }
  ~Lz4Decoder() override {
    if (ctx_ != nullptr) LZ4F_freeDecompressionContext(ctx_);
  }
  Status Step(const std::uint8_t* src, std::size_t* src_size, std::uint8_t* dst,
              std::size_t* dst_size, bool* done) override {
    if (ctx_ == nullptr) return Status::IOError("cannot create an LZ4 decompression context");
    const std::size_t r = LZ4F_decompress(ctx_, dst, dst_size, src, src_size, nullptr);
    if (LZ4F_isError(r)) {
      return Status::Corrupt(std::string("invalid LZ4 frame: ") + LZ4F_getErrorName(r));
    }
    *done = r == 0;
    return Status::OK();
  }

 private:
  LZ4F_dctx* ctx_ = nullptr;
};

class ZstdDecoder final : public Decoder {
 public:
  ZstdDecoder() : ctx_(ZSTD_createDStream()) {}
  ~ZstdDecoder() override { ZSTD_freeDStream(ctx_); }
  Status Step(const std::uint8_t* src, std::size_t* src_size, std::uint8_t* dst,
              std::size_t* dst_size, bool* done) override {
    if (ctx_ == nullptr) return Status::IOError("cannot create a zstd decompression context");
    ZSTD_inBuffer in{src, *src_size, 0};
    ZSTD_outBuffer out{dst, *dst_size, 0};
    const std::size_t r = ZSTD_decompressStream(ctx_, &out, &in);
    if (ZSTD_isError(r)) {
      return Status::Corrupt(std::string("invalid zstd frame: ") + ZSTD_getErrorName(r));
    }
    *src_size = in.pos;
    *dst_size = out.pos;
    *done = r == 0;
    return Status::OK();
  }

 private:
  ZSTD_DStream* ctx_;
};

}  // namespace

std::string_view CompressionName(Compression codec) {
  switch (codec) {
    case Compression::kNone:
      return "none";
    case Compression::kLz4Frame:
      return "LZ4_FRAME";
    case Compression::kZstd:
      return "ZSTD";
  }
  return "?";
}

Result<BufferPtr> DecompressBodyBuffer(Compression codec, const BufferPtr& stored,
                                       std::string_view what) {
  if (stored->size() == 0) return stored;
  if (stored->size() < kPrefix) {
    return Status::Corrupt(std::string(what) + ": compressed buffer of " +
                           std::to_string(stored->size()) +
                           " bytes is shorter than its 8-byte length prefix");
  }
  const int64_t declared = LoadLE<int64_t>(stored->data());
  if (declared == -1) return Buffer::Slice(stored, kPrefix, stored->size() - kPrefix);
  if (declared < 0) {
    return Status::Corrupt(std::string(what) + ": negative uncompressed length " +
                           std::to_string(declared));
  }
  std::unique_ptr<Decoder> decoder;
  if (codec == Compression::kLz4Frame) {
    decoder = std::make_unique<Lz4Decoder>();
  } else {
    decoder = std::make_unique<ZstdDecoder>();
  }
  const std::uint8_t* src = stored->data() + kPrefix;
  std::size_t src_left = static_cast<std::size_t>(stored->size() - kPrefix);
  // Grow the output with what is really produced, so a tiny input declaring a huge length
  // cannot make us allocate it.
  BufferBuilder out;
  int64_t produced = 0;
  out.Resize(std::min<int64_t>(declared, std::max<int64_t>(4096, stored->size() * 8)));
  bool done = false;
  int stalled = 0;
  while (!done) {
    if (produced == out.size() && out.size() < declared) {
      out.Resize(std::min<int64_t>(declared, std::max<int64_t>(out.size() * 2, 4096)));
    }
    std::size_t in_n = src_left;
    std::size_t out_n = static_cast<std::size_t>(out.size() - produced);
    LND_RETURN_NOT_OK_CTX(decoder->Step(src, &in_n, out.mutable_data() + produced, &out_n, &done),
                          std::string(what) + " (" + std::string(CompressionName(codec)) + ")");
    src += in_n;
    src_left -= in_n;
    produced += static_cast<int64_t>(out_n);
    if (in_n == 0 && out_n == 0 && !done) {
      if (++stalled > 2) {
        return Status::Corrupt(std::string(what) + ": " + std::string(CompressionName(codec)) +
                               (src_left == 0
                                    ? " frame is truncated"
                                    : " frame holds more than the declared uncompressed length ") +
                               (src_left == 0 ? std::string() : std::to_string(declared)));
      }
    } else {
      stalled = 0;
    }
  }
  if (produced != declared) {
    return Status::Corrupt(std::string(what) + ": " + std::string(CompressionName(codec)) +
                           " frame decompressed to " + std::to_string(produced) +
                           " bytes, but its prefix declares " + std::to_string(declared));
  }
  out.Resize(produced);
  return out.Finish();
}

Result<std::vector<std::uint8_t>> CompressBodyBuffer(Compression codec,
                                                     std::span<const std::uint8_t> raw,
                                                     int zstd_level) {
  std::vector<std::uint8_t> out;
  if (raw.empty()) return out;
  std::size_t bound = 0;
  if (codec == Compression::kLz4Frame) {
    bound = LZ4F_compressFrameBound(raw.size(), nullptr);
  } else {
    bound = ZSTD_compressBound(raw.size());
  }
  out.resize(static_cast<std::size_t>(kPrefix) + bound);
  StoreLE<int64_t>(out.data(), static_cast<int64_t>(raw.size()));
  std::size_t n = 0;
  if (codec == Compression::kLz4Frame) {
    n = LZ4F_compressFrame(out.data() + kPrefix, bound, raw.data(), raw.size(), nullptr);
    if (LZ4F_isError(n)) {
      return Status::IOError(std::string("LZ4 compression failed: ") + LZ4F_getErrorName(n));
    }
  } else {
    n = ZSTD_compress(out.data() + kPrefix, bound, raw.data(), raw.size(), zstd_level);
    if (ZSTD_isError(n)) {
      return Status::IOError(std::string("zstd compression failed: ") + ZSTD_getErrorName(n));
    }
  }
  out.resize(static_cast<std::size_t>(kPrefix) + n);
  return out;
}

}  // namespace lance_nd::array::ipc::internal
