#include "lance_nd/file/writer/mini_block_page.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <memory>
#include <span>
#include <vector>

#include "lance_nd/file/encoding/chunk_table.h"
#include "lance_nd/file/encoding/encode_internal.h"
#include "lance_nd/file/writer/page_layout.h"
#include "lance_nd/file/writer/value_codec.h"

namespace lance_nd::file::internal::writer {
namespace {

using array::Buffer;
using array::BufferPtr;
using encoding::ChunkWordWidth;

constexpr std::uint8_t kChunkPad = 0xFE;
constexpr std::uint64_t kMaxU16 = 0xFFFF;
// Work items per parallel range: small enough to balance, large enough to amortize.
constexpr std::uint64_t kChunksPerTask = 64;

constexpr std::uint64_t Pad8(std::uint64_t n) { return (n + 7) / 8 * 8; }

struct LevelRange {
  std::uint64_t begin = 0, end = 0;
  std::uint64_t size() const { return end - begin; }
};

// Level entries of each chunk: a chunk ends after the level entry of its last value slot (the
// last chunk takes all remaining entries).
std::vector<LevelRange> ChunkLevelRanges(const ShreddedPage& page, const MiniBlockValues& values) {
  std::vector<LevelRange> ranges(values.chunks.size());
  const bool levels = page.has_rep || page.has_def;
  // Without def levels (or without lists) every level entry holds exactly one slot.
  const bool every_level_is_slot = !page.has_def || page.def_zero || page.max_rep == 0;
  std::uint64_t slot = 0, lpos = 0, walked = 0, seen = 0;
  for (std::size_t c = 0; c < values.chunks.size(); ++c) {
    slot += values.chunks[c].num_values;
    std::uint64_t lend = 0;
    if (levels) {
      if (c + 1 == values.chunks.size()) {
        lend = page.num_levels;
      } else if (every_level_is_slot) {
        lend = slot;
      } else {
        while (seen < slot && walked < page.num_levels) {
          if (page.IsVisible(page.DefAt(walked))) ++seen;
          ++walked;
        }
        lend = walked;
      }
    }
    ranges[c] = LevelRange{lpos, lend};
    lpos = lend;
  }
  return ranges;
}

// The block encodings of the page's rep and def levels, chosen once from all of them.
struct LevelEncodings {
  pb21::CompressiveEncoding rep, def;
};

// One chunk's levels and size, computed before the chunks are laid out.
struct ChunkPlan {
  Status status;  // an encoding error of this chunk's levels
  BufferPtr rep, def;
  std::uint64_t bytes = 0;  // the chunk's size in the data buffer (a multiple of 8)
  // repetition index inputs: rows finishing inside the chunk (entries k >= 1 starting a row),
  // entries after the chunk's last row start, whether entry 0 starts a row
  std::uint64_t rows = 0, leftovers = 0;
  bool starts_row = false;
};

// Lance's repetition index inputs of one chunk's rep levels `rv` (at most kMaxU16 of them).
void CountRows(std::span<const std::uint16_t> rv, std::uint16_t max_rep, ChunkPlan* plan) {
  std::uint32_t rows = 0;  // a local u32 and max_rep: the count vectorises
  for (std::size_t k = 1; k < rv.size(); ++k) rows += rv[k] == max_rep ? 1u : 0u;
  std::uint64_t leftovers = rv.size();
  // No row starts after entry 0: the whole chunk is leftover (long rows: most chunks).
  for (std::size_t k = rows == 0 ? 0 : rv.size(); k-- > 0;) {
    if (rv[k] == max_rep) {
      leftovers = rv.size() - k;
      break;
    }
  }
  plan->rows = rows;
  plan->leftovers = leftovers;
  plan->starts_row = !rv.empty() && rv[0] == max_rep;
}

// Encodes one chunk's levels and sizes it (a chunk of too many levels is left for the layout
// to refuse, in chunk order).
ChunkPlan PlanChunk(const ShreddedPage& page, const ValueChunk& chunk, LevelRange r,
                    const LevelEncodings& enc, ChunkWordWidth width) {
  ChunkPlan plan;
  if (r.size() > kMaxU16) return plan;
  if (page.has_rep) {
    auto rep = EncodeLevels(enc.rep, std::span(page.rep).subspan(r.begin, r.size()));
    if (!rep.ok()) {
      plan.status = rep.status();
      return plan;
    }
    plan.rep = std::move(*rep);
  }
  if (page.has_def) {
    auto def = EncodeLevels(enc.def, DefLevels(page, r.begin, r.size()));
    if (!def.ok()) {
      plan.status = def.status();
      return plan;
    }
    plan.def = std::move(*def);
  }
  // header: level count, level sizes (u16), value buffer sizes (one chunk word wide each)
  std::uint64_t bytes = 2 + (plan.rep ? 2 : 0) + (plan.def ? 2 : 0) +
                        encoding::WordBytes(width) * chunk.buffers.size();
  bytes = Pad8(bytes);
  if (plan.rep) bytes += Pad8(static_cast<std::uint64_t>(plan.rep->size()));
  if (plan.def) bytes += Pad8(static_cast<std::uint64_t>(plan.def->size()));
  for (const auto& b : chunk.buffers) bytes += Pad8(static_cast<std::uint64_t>(b->size()));
  plan.bytes = bytes;
  if (page.has_rep) CountRows(std::span(page.rep).subspan(r.begin, r.size()), page.max_rep, &plan);
  return plan;
}

// Every chunk's plan, on two threads (the output does not depend on the split).
std::vector<ChunkPlan> PlanChunks(const ShreddedPage& page, const MiniBlockValues& values,
                                  const std::vector<LevelRange>& ranges, const LevelEncodings& enc,
                                  ChunkWordWidth width) {
  std::vector<ChunkPlan> plans(values.chunks.size());
  encoding::detail::ParallelFor(
      plans.size(), kChunksPerTask, [&](std::uint64_t cb, std::uint64_t ce) {
        for (std::uint64_t c = cb; c < ce; ++c) {
          plans[c] = PlanChunk(page, values.chunks[c], ranges[c], enc, width);
        }
      });
  return plans;
}

// The chunk table, the repetition index and each chunk's offset in the data buffer.
struct ChunkLayout {
  std::vector<std::uint8_t> words;
  std::vector<std::uint64_t> rep_index;  // (rows, leftovers) per chunk, when the page has rep
  std::vector<std::uint64_t> offsets;    // num_chunks + 1
};

// Whether a chunk meets the limits of the chunk header (u16 level count and level sizes; value
// buffer sizes as wide as a chunk word).
bool FitsChunkHeader(const ChunkPlan& plan, const ValueChunk& chunk, LevelRange r,
                     ChunkWordWidth width) {
  if (r.size() > kMaxU16) return false;
  if (plan.rep && static_cast<std::uint64_t>(plan.rep->size()) > kMaxU16) return false;
  if (plan.def && static_cast<std::uint64_t>(plan.def->size()) > kMaxU16) return false;
  const std::uint64_t max_buffer = width == ChunkWordWidth::k32 ? 0xFFFFFFFFu : kMaxU16;
  for (const auto& b : chunk.buffers) {
    if (static_cast<std::uint64_t>(b->size()) > max_buffer) return false;
  }
  return true;
}

// Lays the chunks out in order; nullopt when one breaks a limit (the caller retries with fewer
// values per chunk), an error when a chunk's levels failed to encode.
Result<std::optional<ChunkLayout>> LayOutChunks(const ShreddedPage& page,
                                                const MiniBlockValues& values,
                                                const std::vector<LevelRange>& ranges,
                                                const std::vector<ChunkPlan>& plans,
                                                ChunkWordWidth width) {
  const std::size_t num_chunks = plans.size();
  ChunkLayout out;
  out.words.reserve(num_chunks * encoding::WordBytes(width));
  if (page.has_rep) out.rep_index.reserve(num_chunks * 2);
  out.offsets.assign(num_chunks + 1, 0);
  for (std::size_t c = 0; c < num_chunks; ++c) {
    const ChunkPlan& plan = plans[c];
    const ValueChunk& chunk = values.chunks[c];
    if (ranges[c].size() > kMaxU16) return std::optional<ChunkLayout>();
    LND_RETURN_NOT_OK(plan.status);
    if (!FitsChunkHeader(plan, chunk, ranges[c], width)) return std::optional<ChunkLayout>();
    const bool last = c + 1 == num_chunks;
    std::uint64_t log_n = 0;
    if (!last) {
      // 2.2 chunks (32-bit words) may hold up to 2^15 values, 2.1 chunks Lance's 4096.
      const std::uint64_t max_values = width == ChunkWordWidth::k32
                                           ? encoding::detail::kMaxLargeChunkValues
                                           : encoding::detail::kMaxMiniBlockValues;
      if (!std::has_single_bit(chunk.num_values) || chunk.num_values > max_values) {
        return Status::Internal("mini-block chunk of ", chunk.num_values,
                                " values is not a power of two <= ", max_values);
      }
      log_n = static_cast<std::uint64_t>(std::countr_zero(chunk.num_values));
    }
    const auto word = encoding::ChunkWord(width, plan.bytes, log_n);
    if (!word) return std::optional<ChunkLayout>();
    encoding::AppendChunkWord(width, *word, &out.words);
    if (page.has_rep) {
      std::uint64_t rows = plan.rows;
      const std::uint64_t leftovers = last ? 0 : plan.leftovers;
      // A chunk that starts a row ends the previous chunk's leftover row there.
      if (c != 0 && ranges[c].size() > 0 && plan.starts_row && out.rep_index.back() != 0) {
        out.rep_index[out.rep_index.size() - 2] += 1;
        out.rep_index.back() = 0;
      }
      if (last) rows += 1;
      out.rep_index.push_back(rows);
      out.rep_index.push_back(leftovers);
    }
    out.offsets[c + 1] = out.offsets[c] + plan.bytes;
  }
  return std::optional<ChunkLayout>(std::move(out));
}

// Writes one chunk at `p`: header (level count, level sizes, value buffer sizes), then the rep
// levels, def levels and value buffers, each padded to 8 bytes with kChunkPad.
void WriteChunk(const ChunkPlan& plan, const ValueChunk& chunk, LevelRange r, ChunkWordWidth width,
                std::uint8_t* p) {
  auto put16 = [&](std::uint64_t v) {
    *p++ = static_cast<std::uint8_t>(v & 0xFF);
    *p++ = static_cast<std::uint8_t>((v >> 8) & 0xFF);
  };
  auto pad = [&](std::uint8_t* from) {
    const std::uint64_t used = static_cast<std::uint64_t>(p - from);
    const std::uint64_t n = Pad8(used) - used;
    std::memset(p, kChunkPad, n);
    p += n;
  };
  auto put_bytes = [&](const BufferPtr& b) {
    std::uint8_t* const from = p;
    if (b->size() > 0) std::memcpy(p, b->data(), static_cast<std::size_t>(b->size()));
    p += b->size();
    pad(from);
  };
  std::uint8_t* const start = p;
  put16(r.size());
  if (plan.rep) put16(static_cast<std::uint64_t>(plan.rep->size()));
  if (plan.def) put16(static_cast<std::uint64_t>(plan.def->size()));
  for (const auto& b : chunk.buffers) {
    const auto size = static_cast<std::uint64_t>(b->size());
    put16(size & 0xFFFF);
    if (width == ChunkWordWidth::k32) put16(size >> 16);
  }
  pad(start);
  if (plan.rep) put_bytes(plan.rep);
  if (plan.def) put_bytes(plan.def);
  for (const auto& b : chunk.buffers) put_bytes(b);
}

// The data buffer: every chunk written at its offset (uninitialised memory, every byte written),
// on two threads.
BufferPtr WriteChunks(const MiniBlockValues& values, const std::vector<LevelRange>& ranges,
                      const std::vector<ChunkPlan>& plans,
                      const std::vector<std::uint64_t>& offsets, ChunkWordWidth width) {
  const std::uint64_t total = offsets.back();
  // Aligned buffer storage: a large page gets huge pages, which spares thousands of page faults.
  std::uint8_t* base = nullptr;
  BufferPtr data = Buffer::AllocateUninitialized(static_cast<int64_t>(total), &base);
  encoding::detail::ParallelFor(
      plans.size(), kChunksPerTask, [&](std::uint64_t cb, std::uint64_t ce) {
        for (std::uint64_t c = cb; c < ce; ++c) {
          WriteChunk(plans[c], values.chunks[c], ranges[c], width, base + offsets[c]);
        }
      });
  return data;
}

EncodedPage AssemblePage(const ShreddedPage& page, const MiniBlockValues& values,
                         const LevelEncodings& enc, ChunkLayout layout, BufferPtr data,
                         ChunkWordWidth width) {
  EncodedPage out;
  out.num_rows = page.num_rows;
  out.buffers.push_back(Buffer::FromVector(std::move(layout.words)));
  out.buffers.push_back(std::move(data));
  if (values.has_dictionary) out.buffers.push_back(values.dictionary_bytes);
  if (page.has_rep) {
    out.buffers.push_back(
        Buffer::Copy(layout.rep_index.data(), static_cast<int64_t>(layout.rep_index.size() * 8)));
  }
  pb21::PageLayout pl;
  auto* mb = pl.mutable_mini_block_layout();
  if (page.has_rep) *mb->mutable_rep_compression() = enc.rep;
  if (page.has_def) *mb->mutable_def_compression() = enc.def;
  *mb->mutable_value_compression() = values.encoding;
  if (values.has_dictionary) {
    *mb->mutable_dictionary() = values.dictionary_encoding;
    mb->set_num_dictionary_items(values.num_dictionary_items);
  }
  AddLayers(page, mb->mutable_layers());
  mb->set_num_buffers(values.num_buffers);
  if (page.has_rep) mb->set_repetition_index_depth(1);
  mb->set_num_items(page.values.num_slots);
  if (width == ChunkWordWidth::k32) mb->set_has_large_chunk(true);
  out.layout = SerializeLayout(pl);
  return out;
}

// One attempt with at most `cap` values per chunk (0: the encoder's choice): the page, or else
// the next cap to try (0 when none is left).
struct MiniBlockAttempt {
  std::optional<EncodedPage> page;
  std::uint64_t retry_cap = 0;
};

Result<MiniBlockAttempt> TryMiniBlock(const ShreddedPage& page, const ColumnOptions& options,
                                      MiniBlockValueEncoder* encoder, std::uint64_t cap) {
  // Lance 12 writes 32-bit chunk words (has_large_chunk) in every 2.2 mini-block page.
  const ChunkWordWidth width =
      options.version == FileVersion::kV2_2 ? ChunkWordWidth::k32 : ChunkWordWidth::k16;
  LND_ASSIGN_OR_RETURN(MiniBlockValues values, encoder->Encode(cap));
  std::uint64_t max_chunk_values = 0;
  for (const auto& c : values.chunks) max_chunk_values = std::max(max_chunk_values, c.num_values);
  MiniBlockAttempt attempt;
  // Retries cut chunks to Lance's sizes (large 2.2 chunks are only a first choice).
  attempt.retry_cap = max_chunk_values > 1 ? std::min(std::bit_floor(max_chunk_values) / 2,
                                                      encoding::detail::kMaxMiniBlockValues)
                                           : 0;

  const std::vector<LevelRange> ranges = ChunkLevelRanges(page, values);
  LevelEncodings enc;
  if (page.has_rep) {
    LND_ASSIGN_OR_RETURN(enc.rep, ChooseLevelEncoding(page.rep, options));
  }
  if (page.has_def) {
    LND_ASSIGN_OR_RETURN(enc.def, page.def_zero ? ChooseZeroLevelEncoding(page.num_levels, options)
                                                : ChooseLevelEncoding(page.def, options));
  }
  const std::vector<ChunkPlan> plans = PlanChunks(page, values, ranges, enc, width);
  LND_ASSIGN_OR_RETURN(std::optional<ChunkLayout> layout,
                       LayOutChunks(page, values, ranges, plans, width));
  if (!layout) return attempt;
  BufferPtr data = WriteChunks(values, ranges, plans, layout->offsets, width);
  attempt.page = AssemblePage(page, values, enc, std::move(*layout), std::move(data), width);
  return attempt;
}

}  // namespace

Result<std::optional<EncodedPage>> EncodeMiniBlockPage(const ShreddedPage& page,
                                                       const ColumnOptions& options) {
  MiniBlockValueEncoder encoder(page.values, options);
  std::uint64_t cap = 0;
  while (true) {
    LND_ASSIGN_OR_RETURN(MiniBlockAttempt attempt, TryMiniBlock(page, options, &encoder, cap));
    if (attempt.page) return std::move(attempt.page);
    if (attempt.retry_cap == 0) return std::optional<EncodedPage>();
    cap = attempt.retry_cap;
  }
}

}  // namespace lance_nd::file::internal::writer
