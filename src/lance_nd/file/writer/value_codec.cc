#include "lance_nd/file/writer/value_codec.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <string>

#include "lance_nd/core/internal/endian.h"
#include "lance_nd/file/encoding/compressive.h"
#include "lance_nd/file/encoding/util.h"

namespace lance_nd::file::internal::writer {
namespace {

using array::Buffer;
using array::BufferPtr;

constexpr std::uint64_t kMaxChunkValues = 4096;
constexpr std::uint64_t kFlatChunkBytes = 4096;      // flat values per chunk: 2^k * width <= 4 KiB
constexpr std::uint64_t kVariableChunkBytes = 4096;  // variable chunks aim at <= 4 KiB
constexpr std::uint8_t kVariablePad = 0x48;

BufferPtr ToBuffer(std::vector<std::uint8_t> bytes) { return Buffer::FromVector(std::move(bytes)); }

// A non-owning view of `bytes[offset, offset + size)`: only for buffers used while the page's
// SlotValues are alive (everything the page encoder produces is copied out of them).
BufferPtr View(std::span<const std::uint8_t> bytes, std::uint64_t offset, std::uint64_t size) {
  return std::make_shared<const Buffer>(bytes.data() + offset, static_cast<int64_t>(size), nullptr);
}

pb21::CompressiveEncoding Flat(std::uint64_t bits) {
  pb21::CompressiveEncoding e;
  e.mutable_flat()->set_bits_per_value(bits);
  return e;
}

std::uint64_t FloorPow2(std::uint64_t v) { return v == 0 ? 0 : std::bit_floor(v); }

// Cut n values into chunks of `per_chunk` (power of two); the last takes the rest.
std::vector<std::pair<std::uint64_t, std::uint64_t>> EvenChunks(std::uint64_t n,
                                                                std::uint64_t per_chunk) {
  std::vector<std::pair<std::uint64_t, std::uint64_t>> out;
  for (std::uint64_t start = 0; start < n; start += per_chunk) {
    out.emplace_back(start, std::min(per_chunk, n - start));
  }
  return out;
}

// Bits [start, start + count) of an LSB-first bitmap, re-based to bit 0.
std::vector<std::uint8_t> SliceBits(std::span<const std::uint8_t> bits, std::uint64_t start,
                                    std::uint64_t count) {
  std::vector<std::uint8_t> out((count + 7) / 8, 0);
  for (std::uint64_t i = 0; i < count; ++i) {
    const std::uint64_t b = start + i;
    if ((bits[b >> 3] >> (b & 7)) & 1)
      out[i >> 3] = static_cast<std::uint8_t>(out[i >> 3] | (1u << (i & 7)));
  }
  return out;
}

Result<MiniBlockValues> EncodeFixed(const SlotValues& v, std::uint64_t cap) {
  MiniBlockValues out;
  const auto width = static_cast<std::uint64_t>(v.slot_bytes);
  std::uint64_t per_chunk = std::min<std::uint64_t>(
      kMaxChunkValues, FloorPow2(std::max<std::uint64_t>(1, kFlatChunkBytes / width)));
  if (cap != 0) per_chunk = std::min(per_chunk, cap);
  if (v.kind == LeafKind::kFixedList) {
    auto* fsl = out.encoding.mutable_fixed_size_list();
    fsl->set_items_per_value(static_cast<std::uint64_t>(v.fsl_items));
    *fsl->mutable_values() = Flat(static_cast<std::uint64_t>(v.fsl_item_bytes) * 8);
    if (v.fsl_layers.size() > 1) {
      return Status::NotImplemented(
          "nested fixed_size_list cannot be written with the plain encodings; write it as a "
          "list or a flat fixed_size_list");
    }
    const bool validity = v.fsl_layers[0].any_null;
    fsl->set_has_validity(validity);
    out.num_buffers = validity ? 2 : 1;
  } else {
    out.encoding = Flat(width * 8);
  }
  for (const auto& [start, count] : EvenChunks(v.num_slots, per_chunk)) {
    ValueChunk chunk;
    chunk.num_values = count;
    for (const auto& layer : v.fsl_layers) {
      if (!layer.any_null) continue;
      const auto ipv = static_cast<std::uint64_t>(layer.items_per_value);
      chunk.buffers.push_back(ToBuffer(SliceBits(layer.bitmap, start * ipv, count * ipv)));
    }
    chunk.buffers.push_back(View(v.data(), start * width, count * width));
    out.chunks.push_back(std::move(chunk));
  }
  return out;
}

Result<MiniBlockValues> EncodeBool(const SlotValues& v, std::uint64_t cap) {
  MiniBlockValues out;
  out.encoding = Flat(1);
  std::uint64_t per_chunk = kMaxChunkValues;
  if (cap != 0) per_chunk = std::min(per_chunk, cap);
  for (const auto& [start, count] : EvenChunks(v.num_slots, per_chunk)) {
    ValueChunk chunk;
    chunk.num_values = count;
    chunk.buffers.push_back(ToBuffer(SliceBits(v.bytes, start, count)));
    out.chunks.push_back(std::move(chunk));
  }
  return out;
}

// Lance's variable chunking: double a power-of-two count while offsets + bytes stay <= 4 KiB;
// the count that first exceeds it is taken (as Lance does); the rest goes whole if it fits.
std::uint64_t NextVariableChunk(std::span<const std::uint64_t> offs, std::uint64_t start,
                                std::uint64_t width, std::uint64_t cap) {
  const std::uint64_t n = offs.size() - 1;
  const std::uint64_t limit = cap == 0 ? kMaxChunkValues : std::min(cap, kMaxChunkValues);
  std::uint64_t count = 1;
  std::uint64_t next = 2;
  while (true) {
    if (start + next >= n) {
      const std::uint64_t rest = n - start;
      const std::uint64_t size = offs[n] - offs[start] + (rest + 1) * width;
      if (size <= kVariableChunkBytes && rest <= limit) return rest;
      return std::min(count, rest);
    }
    if (next > limit) return count;
    const std::uint64_t size = offs[start + next] - offs[start] + (next + 1) * width;
    if (size > kVariableChunkBytes) return next;
    count = next;
    next *= 2;
  }
}

Result<MiniBlockValues> EncodeVariable(const SlotValues& v, std::uint64_t cap) {
  MiniBlockValues out;
  const std::uint64_t width = v.bits_per_offset / 8;
  auto* var = out.encoding.mutable_variable();
  *var->mutable_offsets() = Flat(v.bits_per_offset);
  const std::uint64_t n = v.num_slots;
  std::uint64_t start = 0;
  while (start < n) {
    const std::uint64_t count = NextVariableChunk(v.offsets, start, width, cap);
    const std::uint64_t header = (count + 1) * width;
    std::vector<std::uint8_t> buf(header);
    for (std::uint64_t i = 0; i <= count; ++i) {
      const std::uint64_t off = v.offsets[start + i] - v.offsets[start] + header;
      if (width == 4) {
        if (off > 0xFFFFFFFFu) {
          return Status::NotImplemented("a mini-block chunk of strings exceeds 4 GiB");
        }
        StoreLE<std::uint32_t>(buf.data() + i * 4, static_cast<std::uint32_t>(off));
      } else {
        StoreLE<std::uint64_t>(buf.data() + i * 8, off);
      }
    }
    buf.insert(buf.end(), v.bytes.begin() + static_cast<std::ptrdiff_t>(v.offsets[start]),
               v.bytes.begin() + static_cast<std::ptrdiff_t>(v.offsets[start + count]));
    while (buf.size() % width != 0) buf.push_back(kVariablePad);
    ValueChunk chunk;
    chunk.num_values = count;
    chunk.buffers.push_back(ToBuffer(std::move(buf)));
    out.chunks.push_back(std::move(chunk));
    start += count;
  }
  return out;
}

}  // namespace

Result<MiniBlockValues> EncodePlainMiniBlockValues(const SlotValues& values,
                                                   std::uint64_t max_values_per_chunk) {
  switch (values.kind) {
    case LeafKind::kFixed:
    case LeafKind::kFixedList:
      return EncodeFixed(values, max_values_per_chunk);
    case LeafKind::kBool:
      return EncodeBool(values, max_values_per_chunk);
    case LeafKind::kVariable:
      return EncodeVariable(values, max_values_per_chunk);
    case LeafKind::kNull:
    case LeafKind::kEmptyStruct:
      break;
  }
  return Status::Internal("no mini-block values for a data-less leaf");
}

Result<pb21::CompressiveEncoding> ChooseLevelEncoding(std::span<const std::uint16_t> levels,
                                                      const ColumnOptions& options) {
  if (options.plain_encodings) return Flat(16);
  LND_ASSIGN_OR_RETURN(auto chosen, encoding::ChooseLevelEncoding(levels, options.request.version));
  return *chosen;
}

Result<pb21::CompressiveEncoding> ChooseZeroLevelEncoding(std::uint64_t n,
                                                          const ColumnOptions& options) {
  if (options.plain_encodings) return Flat(16);
  LND_ASSIGN_OR_RETURN(auto chosen,
                       encoding::ChooseConstantLevelEncoding(n, 0, options.request.version));
  return *chosen;
}

Result<array::BufferPtr> EncodeLevels(const pb21::CompressiveEncoding& ce,
                                      std::span<const std::uint16_t> levels) {
  if (ce.has_flat() && ce.flat().bits_per_value() == 16) {
    return Buffer::Copy(levels.data(), static_cast<int64_t>(levels.size() * 2));
  }
  return encoding::EncodeLevels(ce, levels);
}

Result<encoding::DataBlock> ToDataBlock(const SlotValues& v) {
  using encoding::DataBlock;
  auto bytes = View(v.data(), 0, v.data().size());
  switch (v.kind) {
    case LeafKind::kFixed:
      return DataBlock::Fixed(static_cast<std::uint64_t>(v.slot_bytes) * 8, v.num_slots, bytes);
    case LeafKind::kBool:
      return DataBlock::Fixed(1, v.num_slots, bytes);
    case LeafKind::kFixedList: {
      DataBlock b =
          DataBlock::Fixed(static_cast<std::uint64_t>(v.slot_bytes) * 8, v.num_slots, bytes);
      b.items_per_value = static_cast<std::uint64_t>(v.fsl_items);
      std::int64_t prev = 1;
      for (const auto& layer : v.fsl_layers) {
        encoding::FslLayer l;
        l.dimension = static_cast<std::uint64_t>(layer.items_per_value / prev);
        prev = layer.items_per_value;
        if (layer.any_null)
          l.validity = Buffer::Copy(layer.bitmap.data(), static_cast<int64_t>(layer.bitmap.size()));
        b.fsl.push_back(std::move(l));
      }
      return b;
    }
    case LeafKind::kVariable: {
      BufferPtr offsets;
      if (v.bits_per_offset == 32) {
        // Offsets only grow: the last one bounds them all.
        if (!v.offsets.empty() && v.offsets.back() > 0xFFFFFFFFu) {
          return Status::NotImplemented(
              "a page of 32-bit-offset strings exceeds 4 GiB; write smaller batches");
        }
        std::uint8_t* out = nullptr;
        offsets = Buffer::AllocateUninitialized(static_cast<int64_t>(v.offsets.size() * 4), &out);
        for (std::size_t i = 0; i < v.offsets.size(); ++i) {
          StoreLE<std::uint32_t>(out + i * 4, static_cast<std::uint32_t>(v.offsets[i]));
        }
      } else {
        offsets = Buffer::Copy(v.offsets.data(), static_cast<int64_t>(v.offsets.size() * 8));
      }
      return DataBlock::Variable(v.bits_per_offset, v.num_slots, offsets, bytes);
    }
    case LeafKind::kNull:
    case LeafKind::kEmptyStruct:
      break;
  }
  return Status::Internal("no data block for a data-less leaf");
}

namespace {

MiniBlockValues FromLibrary(encoding::MiniBlockEncoded encoded) {
  MiniBlockValues out;
  out.encoding = *encoded.encoding;
  out.num_buffers = encoded.num_buffers;
  for (auto& c : encoded.chunks)
    out.chunks.push_back(ValueChunk{c.num_values, std::move(c.buffers)});
  return out;
}

}  // namespace

Result<MiniBlockValues> MiniBlockValueEncoder::Encode(std::uint64_t cap) {
  if (options_.plain_encodings || use_fallback_) return EncodePlainMiniBlockValues(values_, cap);
  if (!prepared_) {
    prepared_ = true;
    auto attempt = [&]() -> Result<MiniBlockValues> {
      LND_ASSIGN_OR_RETURN(encoding::DataBlock block, ToDataBlock(values_));
      std::optional<encoding::DictionaryEncoded> dict;
      if (values_.kind == LeafKind::kFixed || values_.kind == LeafKind::kVariable) {
        LND_ASSIGN_OR_RETURN(dict, encoding::MaybeDictionaryEncode(block, options_.request));
      }
      if (dict) {
        block_ = std::move(dict->indices);
      } else {
        block_ = std::move(block);
      }
      LND_ASSIGN_OR_RETURN(auto encoded, encoding::EncodeMiniBlock(block_, options_.request));
      MiniBlockValues out = FromLibrary(std::move(encoded));
      if (dict) {
        out.has_dictionary = true;
        out.dictionary_encoding = *dict->dictionary_encoding;
        out.num_dictionary_items = dict->dictionary.num_values;
        out.dictionary_bytes = dict->dictionary_bytes;
      }
      return out;
    };
    auto result = attempt();
    if (!result.ok()) {
      // The plain encodings always work; a failure of the compressive encoders must not make
      // the file unwritable.
      use_fallback_ = true;
      return EncodePlainMiniBlockValues(values_, cap);
    }
    first_ = *result;
    if (cap == 0) return std::move(*result);
  }
  if (cap == 0) return first_;
  LND_ASSIGN_OR_RETURN(auto encoded, encoding::EncodeMiniBlockWith(first_.encoding, block_, cap));
  MiniBlockValues out = FromLibrary(std::move(encoded));
  out.has_dictionary = first_.has_dictionary;
  out.dictionary_encoding = first_.dictionary_encoding;
  out.num_dictionary_items = first_.num_dictionary_items;
  out.dictionary_bytes = first_.dictionary_bytes;
  return out;
}

Result<PerValueValues> EncodePerValueValues(const SlotValues& v, const ColumnOptions& options) {
  if (!options.plain_encodings && v.kind != LeafKind::kBool) {
    auto lib = [&]() -> Result<PerValueValues> {
      LND_ASSIGN_OR_RETURN(encoding::DataBlock block, ToDataBlock(v));
      LND_ASSIGN_OR_RETURN(encoding::PerValueEncoded encoded,
                           encoding::EncodePerValue(block, options.request));
      PerValueValues out;
      out.encoding = *encoded.encoding;
      const encoding::DataBlock& b = encoded.values;
      out.data = b.data;
      if (b.kind == encoding::DataBlock::Kind::kVariable) {
        out.variable = true;
        out.bits_per_offset = b.bits_per_offset;
        out.offsets.resize(b.num_values + 1);
        for (std::uint64_t i = 0; i <= b.num_values; ++i) {
          out.offsets[i] = b.bits_per_offset == 32
                               ? LoadLE<std::uint32_t>(b.offsets->data() + i * 4)
                               : LoadLE<std::uint64_t>(b.offsets->data() + i * 8);
        }
      } else if (b.kind == encoding::DataBlock::Kind::kFixedWidth) {
        out.bits_per_value = b.bits_per_value;
      } else {
        return Status::NotImplemented("per-value encoding returned a constant block");
      }
      return out;
    };
    auto result = lib();
    if (result.ok()) return result;
  }
  return EncodePlainPerValueValues(v);
}

Result<PerValueValues> EncodePlainPerValueValues(const SlotValues& v) {
  PerValueValues out;
  switch (v.kind) {
    case LeafKind::kFixed:
      out.encoding = Flat(static_cast<std::uint64_t>(v.slot_bytes) * 8);
      out.bits_per_value = static_cast<std::uint64_t>(v.slot_bytes) * 8;
      out.data = View(v.data(), 0, v.data().size());
      return out;
    case LeafKind::kFixedList: {
      auto* fsl = out.encoding.mutable_fixed_size_list();
      fsl->set_items_per_value(static_cast<std::uint64_t>(v.fsl_items));
      *fsl->mutable_values() = Flat(static_cast<std::uint64_t>(v.fsl_item_bytes) * 8);
      if (v.fsl_layers.size() > 1) {
        return Status::NotImplemented(
            "nested fixed_size_list cannot be written with the plain encodings");
      }
      fsl->set_has_validity(v.fsl_layers[0].any_null);
      std::uint64_t row = static_cast<std::uint64_t>(v.slot_bytes);
      for (const auto& layer : v.fsl_layers) {
        if (layer.any_null) row += (static_cast<std::uint64_t>(layer.items_per_value) + 7) / 8;
      }
      out.bits_per_value = row * 8;
      std::vector<std::uint8_t> data;
      data.reserve(row * v.num_slots);
      for (std::uint64_t i = 0; i < v.num_slots; ++i) {
        for (const auto& layer : v.fsl_layers) {
          if (!layer.any_null) continue;
          const auto ipv = static_cast<std::uint64_t>(layer.items_per_value);
          auto bits = SliceBits(layer.bitmap, i * ipv, ipv);
          data.insert(data.end(), bits.begin(), bits.end());
        }
        const std::uint8_t* src = v.data().data() + i * static_cast<std::uint64_t>(v.slot_bytes);
        data.insert(data.end(), src, src + v.slot_bytes);
      }
      out.data = ToBuffer(std::move(data));
      return out;
    }
    case LeafKind::kVariable: {
      out.variable = true;
      out.bits_per_offset = v.bits_per_offset;
      auto* var = out.encoding.mutable_variable();
      *var->mutable_offsets() = Flat(v.bits_per_offset);
      out.data = View(v.data(), 0, v.data().size());
      out.offsets.assign(v.offsets.begin(), v.offsets.end());
      return out;
    }
    case LeafKind::kBool:
      return Status::NotImplemented("booleans cannot be written as full-zip");
    case LeafKind::kNull:
    case LeafKind::kEmptyStruct:
      break;
  }
  return Status::Internal("no per-value values for a data-less leaf");
}

}  // namespace lance_nd::file::internal::writer
