// The choice of encoding, as Lance 12 makes it: which scheme a page's values get in a
// mini-block (flat, bit-packing, RLE, byte-stream-split, FSST, variable, under general
// compression or not), which one its levels get, and which one full-zip values get.
#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <vector>

#include "lance_nd/file/encoding/compressive.h"
#include "lance_nd/file/encoding/encode_internal.h"
#include "lance_nd/file/encoding/fastlanes.h"
#include "lance_nd/file/encoding/schemes.h"
#include "lance_nd/file/encoding/util.h"
#include "lance_nd/file/encoding/variable_util.h"

namespace lance_nd::file::internal::encoding {
namespace {

using C = EncodingRequest::Compression;

// Values longer than this (or pages of more bytes) are where FSST and per-value zstd pay.
constexpr std::uint64_t kLargeBytes = std::uint64_t{32} * 1024;

bool ShouldUseBss(const DataBlock& v, EncodingRequest::Bss mode) {
  if (v.bits_per_value != 32 && v.bits_per_value != 64) return false;
  if (mode == EncodingRequest::Bss::kOff) return false;
  if (mode == EncodingRequest::Bss::kOn) return true;
  // Auto: average Shannon entropy of each byte position over the first 64 values < 4 bits.
  const std::uint64_t sample = std::min<std::uint64_t>(v.num_values, 64);
  if (sample == 0) return false;
  const std::uint64_t w = v.bits_per_value / 8;
  double sum = 0;
  for (std::uint64_t pos = 0; pos < w; ++pos) {
    std::array<std::uint32_t, 256> counts{};
    for (std::uint64_t i = 0; i < sample; ++i) ++counts[v.data->data()[i * w + pos]];
    double e = 0;
    for (std::uint32_t c : counts) {
      if (c == 0) continue;
      const double p = static_cast<double>(c) / static_cast<double>(sample);
      e -= p * std::log2(p);
    }
    sum += std::floor(e * 1000.0) / 1000.0;
  }
  return sum / static_cast<double>(w) < 0.5 * 8.0;
}

// Values per chunk of byte-stream-split under general compression: large chunks in 2.2 pages
// (32-bit chunk words), else the encoder's default.
std::uint64_t BssGeneralValuesPerChunk(const DataBlock& v, const EncodingRequest& r) {
  if (r.version < FileVersion::kV2_2) return 0;
  return std::min(detail::kMaxLargeChunkValues,
                  detail::kLargeBssChunkBytes / (v.bits_per_value / 8));
}

bool WantsGeneral(const EncodingRequest& r) {
  return r.compression == C::kLz4 || r.compression == C::kZstd;
}

// Variable values: FSST when asked or when long values fill a large page, else variable.
pb::CompressiveEncoding ChooseVariable(const DataBlock& values, const EncodingRequest& request) {
  if (request.compression == C::kNone) return MakeVariable(values.bits_per_offset);
  const detail::VariableSizes sizes = detail::MeasureVariable(values);
  if (request.compression == C::kFsst || (sizes.max_len >= 5 && sizes.data_size >= kLargeBytes)) {
    pb::CompressiveEncoding ce;
    ce.mutable_fsst();  // table filled by the encoder
    return ce;
  }
  return MakeVariable(values.bits_per_offset);
}

// Fixed-width words: RLE when runs are few and it is the smallest, else bit-packing when it is
// smaller than the raw values, else flat.
pb::CompressiveEncoding ChooseFixedWords(const DataBlock& values, const EncodingRequest& request) {
  const std::uint64_t bits = values.bits_per_value;
  const std::uint64_t raw = values.num_values * bits / 8;
  const std::uint64_t packed = detail::InlineBitpackedBytes(values);
  const double max_runs = static_cast<double>(values.num_values) * request.rle_threshold;
  // The run count alone rules RLE out for most data; bytes are counted only when needed.
  const bool few_runs = static_cast<double>(detail::CountRuns(values)) < max_runs;
  const detail::RleSize rle = few_runs ? detail::MeasureRle(values) : detail::RleSize{0, raw};
  if (few_runs && static_cast<double>(rle.runs) < max_runs && rle.bytes < raw &&
      rle.bytes < packed) {
    return MakeRle(bits);
  }
  if (packed < raw) return MakeInlineBitpacking(bits);
  return MakeFlat(bits);
}

}  // namespace

Result<MiniBlockEncoded> EncodeMiniBlock(const DataBlock& values, const EncodingRequest& request) {
  MiniBlockEncoded base;
  if (values.kind == DataBlock::Kind::kVariable) {
    LND_RETURN_NOT_OK(detail::ValidateVariable(values, "variable"));
    LND_ASSIGN_OR_RETURN(base, EncodeMiniBlockWith(ChooseVariable(values, request), values));
  } else if (values.kind == DataBlock::Kind::kFixedWidth) {
    LND_RETURN_NOT_OK(detail::CheckFixed(values, "mini-block"));
    pb::CompressiveEncoding ce;
    if (!values.fsl.empty()) {
      ce.mutable_fixed_size_list();
    } else if (request.compression == C::kNone || !detail::IsWordWidth(values.bits_per_value) ||
               values.num_values == 0) {
      ce = MakeFlat(values.bits_per_value);
    } else if (WantsGeneral(request) && ShouldUseBss(values, request.bss)) {
      return detail::ChunkByteStreamSplitGeneral(values, BssGeneralValuesPerChunk(values, request),
                                                 request.compression, request.compression_level);
    } else {
      ce = ChooseFixedWords(values, request);
    }
    LND_ASSIGN_OR_RETURN(base, EncodeMiniBlockWith(ce, values));
  } else {
    return Status::InvalidArgument(
        "mini-block: constant and all-null values use the constant page layout, not a "
        "compressive encoding");
  }
  if (WantsGeneral(request)) {
    return detail::WrapGeneral(std::move(base), request.compression, request.compression_level);
  }
  return base;
}

namespace {

// The level encoding from what it depends on: the count, the runs and the union of the bits.
std::shared_ptr<pb::CompressiveEncoding> ChooseLevelEncodingOf(std::uint64_t n, std::uint64_t runs,
                                                               std::uint16_t bits,
                                                               FileVersion version) {
  if (n == 0) return detail::Share(MakeFlat(16));
  if (version >= FileVersion::kV2_2 && static_cast<double>(runs) < 0.5 * static_cast<double>(n)) {
    return detail::Share(MakeRle(16));
  }
  const auto width = static_cast<std::uint64_t>(std::bit_width(bits));
  const std::uint64_t raw = n * 2;
  if (width < 16) {
    if (n <= kFastLanesBlock) {
      const std::uint64_t packed = 2 + 128 * width;
      if (packed < raw) return detail::Share(MakeInlineBitpacking(16));
    } else {
      const std::uint64_t full = n / kFastLanesBlock;
      const std::uint64_t tail = n % kFastLanesBlock;
      const std::uint64_t tail_bytes =
          tail == 0 ? 0 : std::min<std::uint64_t>(128 * width, tail * 2);
      if (full * 128 * width + tail_bytes < raw) {
        return detail::Share(MakeOutOfLineBitpacking(16, width));
      }
    }
  }
  return detail::Share(MakeFlat(16));
}

}  // namespace

Result<std::shared_ptr<pb::CompressiveEncoding>> ChooseLevelEncoding(
    std::span<const std::uint16_t> levels, FileVersion version) {
  const std::uint64_t n = levels.size();
  if (n == 0) return ChooseLevelEncodingOf(0, 0, 0, version);
  // One pass, branch-free so that it vectorises: the run count and the union of the bits.
  const std::uint16_t* l = levels.data();
  std::uint64_t changes = 0;
  std::uint16_t acc = l[0];
  for (std::size_t i = 1; i < n; ++i) {
    changes += static_cast<std::uint64_t>(l[i] != l[i - 1]);
    acc = static_cast<std::uint16_t>(acc | l[i]);
  }
  return ChooseLevelEncodingOf(n, changes + 1, acc, version);
}

Result<std::shared_ptr<pb::CompressiveEncoding>> ChooseConstantLevelEncoding(std::uint64_t n,
                                                                             std::uint16_t level,
                                                                             FileVersion version) {
  return ChooseLevelEncodingOf(n, n == 0 ? 0 : 1, level, version);
}

Result<PerValueEncoded> EncodePerValue(const DataBlock& values, const EncodingRequest& request) {
  PerValueEncoded out;
  if (values.kind == DataBlock::Kind::kFixedWidth) {
    const auto need = detail::BytesForBitsChecked(values.num_values, values.bits_per_value);
    if (!need || detail::Size(values.data) < *need) {
      return detail::InvalidInput("per-value", "the data buffer is too short");
    }
    if (!values.fsl.empty()) return detail::EncodeFixedSizeListPerValue(values);
    out.encoding = detail::Share(MakeFlat(values.bits_per_value));
    out.values = values;
    return out;
  }
  if (values.kind != DataBlock::Kind::kVariable) {
    return Status::InvalidArgument("per-value: constant/all-null values use the constant layout");
  }
  LND_RETURN_NOT_OK(detail::ValidateVariable(values, "variable"));
  const detail::VariableSizes sizes = detail::MeasureVariable(values);
  if (request.compression != C::kNone) {
    if ((sizes.max_len > kLargeBytes || WantsGeneral(request)) && sizes.data_size >= kLargeBytes) {
      // Per value, Lance 12 compresses with zstd even when lz4 is asked for (its reader fails
      // on per-value lz4: "LZ4 compressed data too short"); so do we.
      return detail::EncodeGeneralPerValue(
          values, request.compression == C::kZstd ? request.compression_level : std::nullopt);
    }
    if (request.compression == C::kFsst || (sizes.max_len >= 5 && sizes.data_size >= kLargeBytes)) {
      return detail::EncodeFsstPerValue(values, request.compression == C::kFsst);
    }
  }
  out.encoding = detail::Share(MakeVariable(values.bits_per_offset));
  out.values = values;
  return out;
}

}  // namespace lance_nd::file::internal::encoding
