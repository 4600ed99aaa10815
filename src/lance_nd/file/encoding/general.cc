// LZ4 / zstd framing of Lance's general compression.
#include "lance_nd/file/encoding/general.h"

#include <lz4.h>
#include <zstd.h>
#include <zstd_errors.h>

#include <algorithm>
#include <limits>
#include <vector>

#include "lance_nd/core/internal/endian.h"
#include "lance_nd/file/encoding/util.h"

namespace lance_nd::file::internal::encoding {
namespace {

using detail::Corrupt;

// Neither LZ4 (max ratio ~255) nor zstd (an RLE block of 128 KiB costs a few bytes) can expand
// a buffer beyond these ratios; larger declared sizes are forged.
constexpr std::uint64_t kLz4MaxRatio = 256;
constexpr std::uint64_t kZstdMaxRatio = 65536;
// No single Lance buffer we read is expected to exceed this once decompressed.
constexpr std::uint64_t kMaxDecompressedBytes = std::uint64_t{1} << 31;

// The raw LZ4 block (after the size prefix) into exactly out.size() bytes, the declared size.
Status Lz4BlockInto(std::span<const std::uint8_t> block, std::span<std::uint8_t> out) {
  const std::uint64_t csize = block.size();
  const std::uint64_t usize = out.size();
  if (usize == 0 && csize <= 1) return Status::OK();  // an empty input compresses to one token
  if (csize > static_cast<std::uint64_t>(std::numeric_limits<int>::max()) ||
      usize > static_cast<std::uint64_t>(std::numeric_limits<int>::max())) {
    return Corrupt("general(lz4)", "compressed block of ", csize, " bytes is too large");
  }
  const int got = LZ4_decompress_safe(reinterpret_cast<const char*>(block.data()),
                                      reinterpret_cast<char*>(out.data()), static_cast<int>(csize),
                                      static_cast<int>(usize));
  if (got < 0 || static_cast<std::uint64_t>(got) != usize) {
    return Corrupt("general(lz4)", "LZ4 block of ", csize, " bytes did not decompress to the ",
                   usize, " bytes its prefix declares (",
                   got < 0 ? std::string("invalid data") : std::to_string(got) + " bytes", ")");
  }
  return Status::OK();
}

// The size an LZ4 buffer's prefix declares, if its block can produce that much.
Result<std::uint64_t> Lz4DeclaredSize(std::span<const std::uint8_t> input) {
  if (input.size() < 4) {
    return Corrupt("general(lz4)", "buffer of ", input.size(),
                   " bytes is shorter than its 4-byte size prefix");
  }
  const std::uint64_t usize = LoadLE<std::uint32_t>(input.data());
  const std::uint64_t csize = input.size() - 4;
  if (usize > csize * kLz4MaxRatio + 16 || usize > std::numeric_limits<int>::max()) {
    return Corrupt("general(lz4)", "declared uncompressed size ", usize, " is impossible for ",
                   csize, " compressed bytes");
  }
  return usize;
}

Result<array::BufferPtr> Lz4Decompress(std::span<const std::uint8_t> input) {
  LND_ASSIGN_OR_RETURN(const std::uint64_t usize, Lz4DeclaredSize(input));
  std::uint8_t* out = nullptr;
  auto buffer = detail::Allocate(usize, &out);
  LND_RETURN_NOT_OK(Lz4BlockInto(input.subspan(4), {out, static_cast<std::size_t>(usize)}));
  return buffer;
}

// A bare zstd frame (no size prefix): streamed into a growing buffer, bounded by the largest
// output a frame of this size can have.
Result<array::BufferPtr> ZstdDecompressBareFrame(std::span<const std::uint8_t> frame) {
  const std::uint64_t cap = std::min(frame.size() * kZstdMaxRatio + 65536, kMaxDecompressedBytes);
  ZSTD_DStream* ds = ZSTD_createDStream();
  if (ds == nullptr) return Status::IOError("general(zstd): cannot create a zstd stream");
  std::vector<std::uint8_t> out;
  out.reserve(static_cast<std::size_t>(std::min<std::uint64_t>(cap, 1 << 20)));
  ZSTD_inBuffer in{frame.data(), frame.size(), 0};
  std::vector<std::uint8_t> chunk(ZSTD_DStreamOutSize());
  std::size_t ret = 1;
  bool too_big = false;
  while (true) {
    ZSTD_outBuffer ob{chunk.data(), chunk.size(), 0};
    ret = ZSTD_decompressStream(ds, &ob, &in);
    if (ZSTD_isError(ret)) break;
    if (out.size() + ob.pos > cap) {
      too_big = true;
      break;
    }
    out.insert(out.end(), chunk.data(), chunk.data() + ob.pos);
    if (ret == 0) break;
    if (in.pos == in.size && ob.pos < ob.size) break;  // input exhausted: truncated frame
  }
  ZSTD_freeDStream(ds);
  if (ZSTD_isError(ret)) {
    return Corrupt("general(zstd)", "invalid zstd frame of ", frame.size(),
                   " bytes: ", ZSTD_getErrorName(ret));
  }
  if (too_big) {
    return Corrupt("general(zstd)", "frame of ", frame.size(),
                   " bytes decompresses to more than the allowed ", cap, " bytes");
  }
  if (ret != 0) {
    return Corrupt("general(zstd)", "zstd frame of ", frame.size(), " bytes is truncated");
  }
  return array::Buffer::FromVector(std::move(out));
}

bool IsBareZstdFrame(std::span<const std::uint8_t> input) {
  return input.size() < 8 ||
         (LoadLE<std::uint32_t>(input.data()) == 0xFD2FB528u && (input[4] & 0x10) == 0);
}

// A declared size that no frame of this many bytes can produce is forged.
Status CheckZstdDeclared(std::uint64_t declared, std::uint64_t frame_bytes) {
  if (declared > frame_bytes * kZstdMaxRatio + 65536 || declared > kMaxDecompressedBytes) {
    return Corrupt("general(zstd)", "declared uncompressed size ", declared, " is impossible for ",
                   frame_bytes, " compressed bytes");
  }
  return Status::OK();
}

// One-shot decompression of a frame whose size is declared, into exactly that many bytes, with
// one reusable context per thread (creating a stream per chunk cost more than decompressing).
Status ZstdDecompressExact(std::span<const std::uint8_t> frame, std::span<std::uint8_t> out) {
  struct DCtx {
    ZSTD_DCtx* ctx = ZSTD_createDCtx();
    ~DCtx() { ZSTD_freeDCtx(ctx); }
  };
  thread_local DCtx dctx;
  if (dctx.ctx == nullptr) return Status::IOError("general(zstd): cannot create a zstd context");
  const std::size_t got =
      ZSTD_decompressDCtx(dctx.ctx, out.data(), out.size(), frame.data(), frame.size());
  if (ZSTD_isError(got)) {
    if (ZSTD_getErrorCode(got) == ZSTD_error_dstSize_tooSmall) {
      return Corrupt("general(zstd)", "frame of ", frame.size(),
                     " bytes decompresses to more than the declared ", out.size(), " bytes");
    }
    return Corrupt("general(zstd)", "invalid zstd frame of ", frame.size(),
                   " bytes: ", ZSTD_getErrorName(got));
  }
  if (got != out.size()) {
    return Corrupt("general(zstd)", "zstd frame of ", frame.size(), " bytes decompressed to ", got,
                   " bytes, its prefix declares ", out.size());
  }
  return Status::OK();
}

Result<array::BufferPtr> ZstdDecompress(std::span<const std::uint8_t> input) {
  if (input.empty()) return array::Buffer::Empty();
  if (IsBareZstdFrame(input)) return ZstdDecompressBareFrame(input);
  const std::uint64_t usize = LoadLE<std::uint64_t>(input.data());
  LND_RETURN_NOT_OK(CheckZstdDeclared(usize, input.size() - 8));
  std::uint8_t* out = nullptr;
  auto buffer = array::Buffer::AllocateUninitialized(static_cast<int64_t>(usize), &out);
  LND_RETURN_NOT_OK(ZstdDecompressExact(input.subspan(8), {out, static_cast<std::size_t>(usize)}));
  return buffer;
}

}  // namespace

Result<array::BufferPtr> GeneralDecompress(GeneralScheme scheme,
                                           std::span<const std::uint8_t> input) {
  switch (scheme) {
    case GeneralScheme::kLz4:
      return Lz4Decompress(input);
    case GeneralScheme::kZstd:
      return ZstdDecompress(input);
  }
  return Status::NotImplemented("general: unknown compression scheme ", static_cast<int>(scheme));
}

Status GeneralDecompressInto(GeneralScheme scheme, std::span<const std::uint8_t> input,
                             std::span<std::uint8_t> out) {
  if (scheme == GeneralScheme::kZstd) {
    if (input.empty() || IsBareZstdFrame(input)) {
      return Status::NotImplemented("general(zstd): a bare frame has no declared size");
    }
    const std::uint64_t usize = LoadLE<std::uint64_t>(input.data());
    LND_RETURN_NOT_OK(CheckZstdDeclared(usize, input.size() - 8));
    if (usize != out.size()) {
      return Corrupt("general(zstd)", "prefix declares ", usize, " bytes, expected ", out.size());
    }
    return ZstdDecompressExact(input.subspan(8), out);
  }
  if (scheme == GeneralScheme::kLz4) {
    if (input.size() < 4) {
      return Corrupt("general(lz4)", "buffer of ", input.size(),
                     " bytes is shorter than its 4-byte size prefix");
    }
    const std::uint64_t usize = LoadLE<std::uint32_t>(input.data());
    if (usize != out.size()) {
      return Corrupt("general(lz4)", "prefix declares ", usize, " bytes, expected ", out.size());
    }
    return Lz4BlockInto(input.subspan(4), out);
  }
  return Status::NotImplemented("general: unknown compression scheme ", static_cast<int>(scheme));
}

Result<std::span<const std::uint8_t>> GeneralDecompressToScratch(
    GeneralScheme scheme, std::span<const std::uint8_t> input, std::vector<std::uint8_t>* scratch) {
  std::uint64_t declared = 0;
  if (scheme == GeneralScheme::kZstd) {
    if (input.empty() || IsBareZstdFrame(input)) {
      return Status::NotImplemented("general(zstd): a bare frame has no declared size");
    }
    declared = LoadLE<std::uint64_t>(input.data());
    LND_RETURN_NOT_OK(CheckZstdDeclared(declared, input.size() - 8));
  } else if (scheme == GeneralScheme::kLz4) {
    LND_ASSIGN_OR_RETURN(declared, Lz4DeclaredSize(input));
  } else {
    return Status::NotImplemented("general: unknown compression scheme ", static_cast<int>(scheme));
  }
  if (scratch->size() < declared) scratch->resize(static_cast<std::size_t>(declared));
  const std::span<std::uint8_t> out(scratch->data(), static_cast<std::size_t>(declared));
  LND_RETURN_NOT_OK(GeneralDecompressInto(scheme, input, out));
  return std::span<const std::uint8_t>(out);
}

std::uint64_t GeneralCompressBound(GeneralScheme scheme, std::uint64_t input_bytes) {
  if (scheme == GeneralScheme::kLz4) {
    if (input_bytes > static_cast<std::uint64_t>(LZ4_MAX_INPUT_SIZE)) return 0;
    return 4 + static_cast<std::uint64_t>(LZ4_compressBound(static_cast<int>(input_bytes)));
  }
  return 8 + ZSTD_compressBound(static_cast<std::size_t>(input_bytes));
}

Result<std::uint64_t> GeneralCompressInto(GeneralScheme scheme, std::span<const std::uint8_t> input,
                                          std::optional<std::int32_t> level,
                                          std::span<std::uint8_t> out) {
  if (scheme == GeneralScheme::kLz4) {
    if (input.size() > static_cast<std::size_t>(LZ4_MAX_INPUT_SIZE)) {
      return Status::InvalidArgument("general(lz4): a buffer of ", input.size(),
                                     " bytes exceeds LZ4's block limit; use zstd");
    }
    if (out.size() < GeneralCompressBound(scheme, input.size())) {
      return Status::InvalidArgument("general(lz4): output space is below the bound");
    }
    StoreLE<std::uint32_t>(out.data(), static_cast<std::uint32_t>(input.size()));
    const int n = LZ4_compress_default(
        reinterpret_cast<const char*>(input.data()), reinterpret_cast<char*>(out.data() + 4),
        static_cast<int>(input.size()), static_cast<int>(out.size() - 4));
    if (n <= 0 && !input.empty()) return Status::IOError("general(lz4): compression failed");
    return std::uint64_t{4} + static_cast<std::uint64_t>(n < 0 ? 0 : n);
  }
  if (scheme == GeneralScheme::kZstd) {
    if (out.size() < GeneralCompressBound(scheme, input.size())) {
      return Status::InvalidArgument("general(zstd): output space is below the bound");
    }
    StoreLE<std::uint64_t>(out.data(), input.size());
    // One compression context per thread, reused: ZSTD_compressCCtx at a level gives the same
    // frame as ZSTD_compress (which makes a fresh context per call).
    struct CCtx {
      ZSTD_CCtx* ctx = ZSTD_createCCtx();
      ~CCtx() { ZSTD_freeCCtx(ctx); }
    };
    thread_local CCtx cctx;
    const std::size_t bound = out.size() - 8;
    const std::size_t n =
        cctx.ctx != nullptr
            ? ZSTD_compressCCtx(cctx.ctx, out.data() + 8, bound, input.data(), input.size(),
                                level.value_or(0))
            : ZSTD_compress(out.data() + 8, bound, input.data(), input.size(), level.value_or(0));
    if (ZSTD_isError(n)) {
      return Status::IOError("general(zstd): compression failed: ", ZSTD_getErrorName(n));
    }
    return std::uint64_t{8} + n;
  }
  return Status::NotImplemented("general: unknown compression scheme ", static_cast<int>(scheme));
}

Result<array::BufferPtr> GeneralCompress(GeneralScheme scheme, std::span<const std::uint8_t> input,
                                         std::optional<std::int32_t> level) {
  // (an unknown scheme or an input over LZ4's limit is refused by GeneralCompressInto)
  const std::uint64_t bound = GeneralCompressBound(scheme, input.size());
  // Output space: a per-thread scratch (grown, never shrunk, up to 1 MiB) so that no
  // bound-sized buffer is allocated per call; bigger outputs use a local vector.
  constexpr std::uint64_t kMaxKept = std::uint64_t{1} << 20;
  thread_local std::vector<std::uint8_t> scratch;
  std::vector<std::uint8_t> local;
  std::vector<std::uint8_t>& space = bound <= kMaxKept ? scratch : local;
  if (space.size() < bound) space.resize(static_cast<std::size_t>(bound));
  LND_ASSIGN_OR_RETURN(
      const std::uint64_t n,
      GeneralCompressInto(scheme, input, level, {space.data(), static_cast<std::size_t>(bound)}));
  return array::Buffer::Copy(space.data(), static_cast<int64_t>(n));
}

}  // namespace lance_nd::file::internal::encoding
