// rle: runs of equal 8/16/32/64-bit values as (value, length <= 255) pairs. Mini-block chunks
// carry the values and the lengths in two buffers; a block (levels) carries both in one buffer
// after a u64 size of the values.
#include <algorithm>
#include <array>
#include <cstring>
#include <vector>

#include "lance_nd/core/internal/endian.h"
#include "lance_nd/file/encoding/encode_internal.h"
#include "lance_nd/file/encoding/schemes.h"
#include "lance_nd/file/encoding/util.h"

namespace lance_nd::file::internal::encoding::detail {
namespace {

constexpr std::uint64_t kRleMaxChunkValues = 2048;

// Bytes of a run of `length` values of `width` bytes (a run longer than 255 is split).
constexpr std::uint64_t RunBytes(std::uint64_t length, std::uint64_t width) {
  return (length + 254) / 255 * (width + 1);
}

// ---- decoding ----------------------------------------------------------------------------

Result<std::uint64_t> RleValueWidth(const pb::Rle& rle) {
  if (rle.values().compression_case() != Case::kFlat || rle.values().flat().has_data() ||
      !IsWordWidth(rle.values().flat().bits_per_value())) {
    return Corrupt("rle", "values must be flat(8|16|32|64), found ", EncodingName(rle.values()));
  }
  if (rle.run_lengths().compression_case() != Case::kFlat ||
      rle.run_lengths().flat().bits_per_value() != 8 || rle.run_lengths().flat().has_data()) {
    return Corrupt("rle", "run lengths must be flat(8), found ", EncodingName(rle.run_lengths()));
  }
  return rle.values().flat().bits_per_value() / 8;
}

// Writes each run's value `length` times (typed fills vectorise; a per-value memcpy of a
// runtime width did not). Returns the number of values produced, at most n.
template <typename T>
std::uint64_t FillRuns(const std::uint8_t* values, const std::uint8_t* lengths, std::uint64_t runs,
                       std::uint64_t n, std::uint8_t* out) {
  T* dst = reinterpret_cast<T*>(out);
  std::uint64_t produced = 0;
  for (std::uint64_t r = 0; r < runs && produced < n; ++r) {
    const std::uint64_t take = std::min<std::uint64_t>(lengths[r], n - produced);
    T value;
    std::memcpy(&value, values + r * sizeof(T), sizeof(T));
    std::fill_n(dst + produced, take, value);
    produced += take;
  }
  return produced;
}

Result<DataBlock> ExpandRuns(const std::uint8_t* values, std::uint64_t values_size,
                             const std::uint8_t* lengths, std::uint64_t lengths_size,
                             std::uint64_t width, std::uint64_t n) {
  if (values_size % width != 0) {
    return Corrupt("rle", "values buffer of ", values_size, " bytes is not a multiple of ", width,
                   "-byte values");
  }
  const std::uint64_t runs = values_size / width;
  if (runs != lengths_size) {
    return Corrupt("rle", runs, " run values but ", lengths_size, " run lengths");
  }
  LND_RETURN_NOT_OK(CheckCount("rle", n));
  if (n > runs * 255) {
    return Corrupt("rle", runs, " runs cannot hold ", n, " values");
  }
  // Uninitialised: the runs fill all n values, or the block is refused below.
  std::uint8_t* out = nullptr;
  auto buffer = array::Buffer::AllocateUninitialized(static_cast<int64_t>(n * width), &out);
  std::uint64_t produced = 0;
  switch (width) {
    case 1:
      produced = FillRuns<std::uint8_t>(values, lengths, runs, n, out);
      break;
    case 2:
      produced = FillRuns<std::uint16_t>(values, lengths, runs, n, out);
      break;
    case 4:
      produced = FillRuns<std::uint32_t>(values, lengths, runs, n, out);
      break;
    default:
      produced = FillRuns<std::uint64_t>(values, lengths, runs, n, out);
      break;
  }
  if (produced < n) {
    return Corrupt("rle", "runs cover ", produced, " values, expected ", n);
  }
  return DataBlock::Fixed(width * 8, n, std::move(buffer));
}

// ---- encoding ----------------------------------------------------------------------------

// Values in the next mini-block chunk from `start`: the last chunk takes what is left when it
// fits, else the largest power of two (<= 2048) whose runs stay within kMaxMiniBlockBytes.
// `cost` is scratch of kRleMaxChunkValues + 1 entries.
std::uint64_t NextRleChunkValues(const DataBlock& v, std::uint64_t start,
                                 std::vector<std::uint64_t>* cost) {
  const std::uint64_t w = v.bits_per_value / 8;
  const std::uint8_t* data = v.data->data();
  const std::uint64_t limit = std::min(kRleMaxChunkValues, v.num_values - start);
  std::uint64_t done = 0;  // cost of completed runs
  std::uint64_t run = 0;
  (*cost)[0] = 0;
  for (std::uint64_t k = 1; k <= limit; ++k) {
    const std::uint8_t* cur = data + (start + k - 1) * w;
    if (run > 0 && std::memcmp(cur, cur - w, w) == 0) {
      ++run;
    } else {
      done += RunBytes(run, w);
      run = 1;
    }
    (*cost)[k] = done + RunBytes(run, w);
  }
  if (start + limit == v.num_values && (*cost)[limit] <= kMaxMiniBlockBytes) return limit;
  std::uint64_t n = 1;
  while (n * 2 <= limit && (*cost)[n * 2] <= kMaxMiniBlockBytes) n *= 2;
  return n;
}

// The runs of values [start, start + n) as (values, lengths) buffers.
EncodedChunk RleChunk(const DataBlock& v, std::uint64_t start, std::uint64_t n) {
  const std::uint64_t w = v.bits_per_value / 8;
  const std::uint8_t* data = v.data->data();
  std::vector<std::uint8_t> values;
  std::vector<std::uint8_t> lengths;
  std::uint64_t i = 0;
  while (i < n) {
    std::uint64_t j = i + 1;
    while (j < n && j - i < 255 &&
           std::memcmp(data + (start + j) * w, data + (start + i) * w, w) == 0) {
      ++j;
    }
    values.insert(values.end(), data + (start + i) * w, data + (start + i + 1) * w);
    lengths.push_back(static_cast<std::uint8_t>(j - i));
    i = j;
  }
  return {n,
          {array::Buffer::FromVector(std::move(values)),
           array::Buffer::FromVector(std::move(lengths))}};
}

// Appends the runs (at most 255 long) of n values of T at d to vals / lens, comparing 8 bytes
// at a time first: levels are mostly long runs of one value.
template <typename T>
void AppendRuns(const std::uint8_t* d, std::uint64_t n, std::vector<std::uint8_t>* vals,
                std::vector<std::uint8_t>* lens) {
  constexpr std::uint64_t kWidth = sizeof(T);
  std::uint64_t i = 0;
  while (i < n) {
    T cur{};
    std::memcpy(&cur, d + i * kWidth, sizeof(T));
    std::uint64_t j = i + 1;
    const std::uint64_t limit = std::min<std::uint64_t>(n, i + 255);
    if constexpr (sizeof(T) < 8) {
      std::uint64_t pattern = 0;
      for (std::size_t k = 0; k < 8 / sizeof(T); ++k) {
        pattern |= static_cast<std::uint64_t>(cur) << (8 * sizeof(T) * k);
      }
      while (j + 8 / sizeof(T) <= limit) {
        std::uint64_t word = 0;
        std::memcpy(&word, d + j * kWidth, 8);
        if (word != pattern) break;
        j += 8 / sizeof(T);
      }
    }
    while (j < limit) {
      T next;
      std::memcpy(&next, d + j * kWidth, sizeof(T));
      if (next != cur) break;
      ++j;
    }
    vals->insert(vals->end(), d + i * kWidth, d + (i + 1) * kWidth);
    lens->push_back(static_cast<std::uint8_t>(j - i));
    i = j;
  }
}

// ---- measuring (for the choice of encoding) ------------------------------------------------

// Runs of equal values in [begin, end): count, RLE bytes, and the first and last run lengths.
struct RunStats {
  std::uint64_t runs = 0, bytes = 0, first = 0, last = 0;
};

template <typename T>
RunStats RunStatsT(const std::uint8_t* d, std::uint64_t begin, std::uint64_t end) {
  RunStats out;
  std::uint64_t i = begin;
  while (i < end) {
    T cur;
    std::memcpy(&cur, d + i * sizeof(T), sizeof(T));
    std::uint64_t j = i + 1;
    while (j < end) {
      T next;
      std::memcpy(&next, d + j * sizeof(T), sizeof(T));
      if (next != cur) break;
      ++j;
    }
    if (out.runs == 0) out.first = j - i;
    out.last = j - i;
    ++out.runs;
    out.bytes += RunBytes(j - i, sizeof(T));
    i = j;
  }
  return out;
}

// Number of runs of equal values: 1 + the positions that differ from their predecessor. A
// branch-free count the compiler vectorises; noisy data (most floats) is rejected for RLE on
// this count alone, without walking the runs.
template <typename T>
std::uint64_t CountRunsT(const std::uint8_t* d, std::uint64_t n) {
  if (n == 0) return 0;
  // Independent loads of each value and its predecessor (no loop-carried value), and a 32-bit
  // counter per block, so that the loop vectorises.
  std::uint64_t changes = 0;
  constexpr std::uint64_t kBlock = std::uint64_t{1} << 30;
  for (std::uint64_t b = 1; b < n; b += kBlock) {
    const std::uint64_t e = std::min(n, b + kBlock);
    std::uint32_t c = 0;
    for (std::uint64_t i = b; i < e; ++i) {
      T prev, cur;
      std::memcpy(&prev, d + (i - 1) * sizeof(T), sizeof(T));
      std::memcpy(&cur, d + i * sizeof(T), sizeof(T));
      c += cur != prev ? 1u : 0u;
    }
    changes += c;
  }
  return changes + 1;
}

RunStats RunStatsOf(const DataBlock& v, std::uint64_t begin, std::uint64_t end) {
  const std::uint8_t* d = v.data->data();
  switch (v.bits_per_value / 8) {
    case 1:
      return RunStatsT<std::uint8_t>(d, begin, end);
    case 2:
      return RunStatsT<std::uint16_t>(d, begin, end);
    case 4:
      return RunStatsT<std::uint32_t>(d, begin, end);
    default:
      return RunStatsT<std::uint64_t>(d, begin, end);
  }
}

}  // namespace

Result<DataBlock> DecodeRleBlock(const pb::Rle& rle, const BufferPtr& bytes, std::uint64_t n) {
  LND_ASSIGN_OR_RETURN(const std::uint64_t width, RleValueWidth(rle));
  if (Size(bytes) < 8) {
    return Corrupt("rle (block)", "buffer of ", Size(bytes),
                   " bytes is shorter than its 8-byte size header");
  }
  const std::uint64_t values_size = LoadLE<std::uint64_t>(bytes->data());
  if (values_size > Size(bytes) - 8) {
    return Corrupt("rle (block)", "values of ", values_size, " bytes overrun the ", Size(bytes),
                   "-byte buffer");
  }
  return ExpandRuns(bytes->data() + 8, values_size, bytes->data() + 8 + values_size,
                    Size(bytes) - 8 - values_size, width, n);
}

Result<DataBlock> DecodeRleMiniBlock(const pb::Rle& rle, std::span<const BufferPtr> buffers,
                                     std::uint64_t n) {
  LND_ASSIGN_OR_RETURN(const std::uint64_t width, RleValueWidth(rle));
  if (buffers.size() != 2) {
    return Corrupt("rle", "chunk has ", buffers.size(), " value buffers, expected 2");
  }
  if (n == 0) return DataBlock::Fixed(width * 8, 0, nullptr);
  const BufferPtr v = buffers[0] ? buffers[0] : array::Buffer::Empty();
  const BufferPtr l = buffers[1] ? buffers[1] : array::Buffer::Empty();
  return ExpandRuns(v->data(), Size(v), l->data(), Size(l), width, n);
}

Result<MiniBlockEncoded> ChunkRle(const DataBlock& v) {
  const std::uint64_t w = v.bits_per_value / 8;
  if (v.bits_per_value % 8 != 0 || (w != 1 && w != 2 && w != 4 && w != 8)) {
    return InvalidInput("rle", "values must be 8, 16, 32 or 64 bits");
  }
  MiniBlockEncoded out = NewEncoded();
  *out.encoding = MakeRle(v.bits_per_value);
  out.num_buffers = 2;
  std::vector<std::uint64_t> cost(kRleMaxChunkValues + 1);  // bytes for the first k values
  for (std::uint64_t start = 0; start < v.num_values;) {
    const std::uint64_t n = NextRleChunkValues(v, start, &cost);
    out.chunks.push_back(RleChunk(v, start, n));
    start += n;
  }
  return out;
}

Result<BufferPtr> EncodeRleBlock(const pb::Rle& rle, const DataBlock& values) {
  if (rle.values().compression_case() != Case::kFlat) {
    return InvalidInput("rle", "values must be flat");
  }
  const std::uint64_t bits = rle.values().flat().bits_per_value();
  if (values.kind != DataBlock::Kind::kFixedWidth || values.bits_per_value != bits) {
    return InvalidInput("rle", "expects fixed-width values of ", bits, " bits");
  }
  if (Size(values.data) < values.num_values * bits / 8) {
    return InvalidInput("rle", "the data buffer is smaller than num_values * bits_per_value");
  }
  std::vector<std::uint8_t> vals;
  std::vector<std::uint8_t> lens;
  const std::uint8_t* d = values.data->data();
  switch (bits) {
    case 8:
      AppendRuns<std::uint8_t>(d, values.num_values, &vals, &lens);
      break;
    case 16:
      AppendRuns<std::uint16_t>(d, values.num_values, &vals, &lens);
      break;
    case 32:
      AppendRuns<std::uint32_t>(d, values.num_values, &vals, &lens);
      break;
    case 64:
      AppendRuns<std::uint64_t>(d, values.num_values, &vals, &lens);
      break;
    default:
      return InvalidInput("rle", "values must be 8, 16, 32 or 64 bits");
  }
  std::vector<std::uint8_t> out(8 + vals.size() + lens.size());
  StoreLE<std::uint64_t>(out.data(), vals.size());
  if (!vals.empty()) std::memcpy(out.data() + 8, vals.data(), vals.size());
  if (!lens.empty()) std::memcpy(out.data() + 8 + vals.size(), lens.data(), lens.size());
  return array::Buffer::FromVector(std::move(out));
}

std::uint64_t CountRuns(const DataBlock& v) {
  const std::uint8_t* d = v.data->data();
  switch (v.bits_per_value / 8) {
    case 1:
      return CountRunsT<std::uint8_t>(d, v.num_values);
    case 2:
      return CountRunsT<std::uint16_t>(d, v.num_values);
    case 4:
      return CountRunsT<std::uint32_t>(d, v.num_values);
    default:
      return CountRunsT<std::uint64_t>(d, v.num_values);
  }
}

RleSize MeasureRle(const DataBlock& v) {
  // The two halves are counted on two threads and merged.
  const std::uint64_t w = v.bits_per_value / 8;
  const std::uint8_t* d = v.data->data();
  const std::uint64_t n = v.num_values;
  constexpr std::uint64_t kMinSplit = 1 << 16;
  if (n < 2 * kMinSplit) {
    const RunStats s = RunStatsOf(v, 0, n);
    return {s.runs, s.bytes};
  }
  const std::uint64_t mid = n / 2;
  std::array<RunStats, 2> parts;
  ParallelFor(2, 1, [&](std::uint64_t b, std::uint64_t) {
    parts[b] = b == 0 ? RunStatsOf(v, 0, mid) : RunStatsOf(v, mid, n);
  });
  RleSize out{parts[0].runs + parts[1].runs, parts[0].bytes + parts[1].bytes};
  if (std::memcmp(d + (mid - 1) * w, d + mid * w, w) == 0) {
    // the run across the middle was counted twice
    out.runs -= 1;
    out.bytes = out.bytes - RunBytes(parts[0].last, w) - RunBytes(parts[1].first, w) +
                RunBytes(parts[0].last + parts[1].first, w);
  }
  return out;
}

}  // namespace lance_nd::file::internal::encoding::detail
