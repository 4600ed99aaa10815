#include "lance_nd/file/encoding/fuzz_entry.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <string>
#include <vector>

#include "encodings_v2_1.pb.h"
#include "lance_nd/core/internal/endian.h"
#include "lance_nd/file/encoding/compressive.h"
#include "lance_nd/file/encoding/fsst.h"

namespace lance_nd::file::internal::encoding {
namespace {

using C = EncodingRequest::Compression;

class Reader {
 public:
  Reader(const std::uint8_t* d, std::size_t n) : d_(d), n_(n) {}
  bool U8(std::uint8_t& v) {
    if (pos_ + 1 > n_) return false;
    v = d_[pos_++];
    return true;
  }
  bool U16(std::uint16_t& v) {
    if (pos_ + 2 > n_) return false;
    v = LoadLE<std::uint16_t>(d_ + pos_);
    pos_ += 2;
    return true;
  }
  bool Bytes(std::size_t len, BufferPtr& out) {
    if (pos_ + len > n_) return false;
    out = array::Buffer::Copy(d_ + pos_, static_cast<int64_t>(len));
    pos_ += len;
    return true;
  }
  BufferPtr Rest() {
    auto b = array::Buffer::Copy(d_ + pos_, static_cast<int64_t>(n_ - pos_));
    pos_ = n_;
    return b;
  }

 private:
  const std::uint8_t* d_;
  std::size_t n_;
  std::size_t pos_ = 0;
};

// Read every output byte so that sanitizers see out-of-bounds views.
std::uint64_t Touch(const DataBlock& b) {
  std::uint64_t acc = 0;
  auto sum = [&](const BufferPtr& buf) {
    if (!buf) return;
    for (int64_t i = 0; i < buf->size(); ++i) acc += buf->data()[i];
  };
  sum(b.data);
  sum(b.offsets);
  for (const auto& l : b.fsl) sum(l.validity);
  return acc;
}

volatile std::uint64_t g_sink = 0;

void Check(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "encoding fuzz: round trip mismatch: %s\n", what);
    std::abort();
  }
}

// Re-encode decoded fixed values with the heuristics and decode again.
void RoundTripFixed(const DataBlock& b) {
  if (b.kind != DataBlock::Kind::kFixedWidth || !b.fsl.empty()) return;
  if (b.bits_per_value != 8 && b.bits_per_value != 16 && b.bits_per_value != 32 &&
      b.bits_per_value != 64 && b.bits_per_value != 1) {
    return;
  }
  for (C c : {C::kDefault, C::kLz4}) {
    EncodingRequest r;
    r.compression = c;
    auto enc = EncodeMiniBlock(b, r);
    Check(enc.ok(), "EncodeMiniBlock failed on decoded values");
    std::vector<std::uint8_t> got;
    for (const auto& chunk : enc->chunks) {
      auto dec = DecodeMiniBlock(*enc->encoding, chunk.buffers, chunk.num_values);
      Check(dec.ok(), "decoding our own mini-block failed");
      const std::uint64_t bytes = (dec->bits_per_value * dec->num_values + 7) / 8;
      got.insert(got.end(), dec->data->data(), dec->data->data() + bytes);
    }
    const std::uint64_t bytes = (b.bits_per_value * b.num_values + 7) / 8;
    Check(
        got.size() == bytes && (bytes == 0 || std::memcmp(got.data(), b.data->data(), bytes) == 0),
        "values changed");
  }
}

void Consume(const Result<DataBlock>& r) {
  if (std::getenv("LND_FUZZ_VERBOSE") != nullptr) {
    std::fprintf(stderr, "%s\n", r.ok() ? "ok" : r.status().ToString().c_str());
  }
  if (r.ok()) g_sink = g_sink + Touch(*r);
}

std::vector<pb::CompressiveEncoding> SynthTable() {
  std::vector<pb::CompressiveEncoding> t;
  for (std::uint64_t b : std::initializer_list<std::uint64_t>{1, 8, 16, 32, 64})
    t.push_back(MakeFlat(b));
  t.push_back(MakeVariable(32));
  t.push_back(MakeVariable(64));
  for (std::uint64_t b : std::initializer_list<std::uint64_t>{8, 16, 32, 64})
    t.push_back(MakeInlineBitpacking(b));
  for (std::uint64_t w : std::initializer_list<std::uint64_t>{0, 1, 3, 7})
    t.push_back(MakeOutOfLineBitpacking(16, w));
  t.push_back(MakeOutOfLineBitpacking(64, 33));
  for (std::uint64_t b : std::initializer_list<std::uint64_t>{8, 16, 32, 64})
    t.push_back(MakeRle(b));
  t.push_back(MakeByteStreamSplit(32));
  t.push_back(MakeByteStreamSplit(64));
  t.push_back(MakeGeneral(C::kLz4, std::nullopt, MakeFlat(32)));
  t.push_back(MakeGeneral(C::kZstd, std::nullopt, MakeFlat(16)));
  t.push_back(MakeGeneral(C::kLz4, std::nullopt, MakeVariable(32)));
  std::vector<FslLayer> layers{{3, array::Buffer::Empty()}};
  t.push_back(MakeFixedSizeList(layers, 16));
  std::vector<FslLayer> plain{{2, nullptr}, {2, nullptr}};
  t.push_back(MakeFixedSizeList(plain, 32));
  // fsst over variable with a fixed small table ("ab", "c")
  FsstTable table;
  table.enabled = true;
  table.num_symbols = 2;
  table.symbols[0] = 0x6261;
  table.lengths[0] = 2;
  table.symbols[1] = 0x63;
  table.lengths[1] = 1;
  auto bytes = SerializeFsstTable(table);
  pb::CompressiveEncoding f;
  f.mutable_fsst()->set_symbol_table(std::string(reinterpret_cast<const char*>(bytes->data()),
                                                 static_cast<std::size_t>(bytes->size())));
  *f.mutable_fsst()->mutable_values() = MakeVariable(32);
  t.push_back(f);
  t.push_back(MakeConstant(std::nullopt));
  return t;
}

}  // namespace

void FuzzDecodeProto(const std::uint8_t* data, std::size_t size) {
  Reader r(data, size);
  std::uint8_t context = 0;
  std::uint16_t n = 0;
  std::uint16_t len = 0;
  BufferPtr ce_bytes;
  if (!r.U8(context) || !r.U16(n) || !r.U16(len) || !r.Bytes(len, ce_bytes)) return;
  pb::CompressiveEncoding ce;
  if (!ce.ParseFromArray(ce_bytes->data(), static_cast<int>(ce_bytes->size()))) return;
  std::uint8_t count = 0;
  if (!r.U8(count)) return;
  std::vector<BufferPtr> buffers;
  for (std::uint8_t i = 0; i < count % 5; ++i) {
    std::uint16_t blen = 0;
    BufferPtr b;
    if (!r.U16(blen) || !r.Bytes(blen, b)) return;
    buffers.push_back(std::move(b));
  }
  const BufferPtr first = buffers.empty() ? array::Buffer::Empty() : buffers[0];
  (void)EncodingName(ce);
  (void)MiniBlockBufferCount(ce);
  switch (context % 5) {
    case 0:
      Consume(DecodeBlock(ce, first, n));
      break;
    case 1:
      Consume(DecodeMiniBlock(ce, buffers, n));
      break;
    case 2:
      Consume(DecodePerValueFixed(ce, first, n, static_cast<std::uint64_t>(n % 97) * 8));
      break;
    case 3: {
      const std::uint32_t w = n % 2 ? 64 : 32;
      const std::int64_t wb = w / 8;
      if (buffers.size() < 2 || buffers[0]->size() < wb) return;
      DataBlock enc = DataBlock::Variable(
          w, static_cast<std::uint64_t>(buffers[0]->size() / wb - 1), buffers[0], buffers[1]);
      Consume(DecodePerValueVariable(ce, enc));
      break;
    }
    default: {
      auto dict = DecodeBlock(ce, first, n % 64);
      if (!dict.ok() || buffers.size() < 2) return;
      // at most 256 indices keep the materialised output small
      const auto num_indices =
          std::min<std::uint64_t>(256, static_cast<std::uint64_t>(buffers[1]->size()));
      Consume(GatherDictionary(*dict, DataBlock::Fixed(8, num_indices, buffers[1])));
      break;
    }
  }
}

void FuzzDecodeSynth(const std::uint8_t* data, std::size_t size) {
  static const std::vector<pb::CompressiveEncoding> kTable = SynthTable();
  Reader r(data, size);
  std::uint8_t selector = 0;
  std::uint16_t n = 0;
  if (!r.U8(selector) || !r.U16(n)) return;
  const auto& ce = kTable[selector % kTable.size()];
  const bool block = (selector / kTable.size()) % 2 == 1;
  BufferPtr rest = r.Rest();
  std::vector<BufferPtr> buffers;
  auto count = MiniBlockBufferCount(ce);
  const std::uint64_t want = count.ok() ? *count : 1;
  if (want <= 1 || block) {
    buffers.push_back(rest);
  } else {
    // split the bytes into `want` parts: the first byte of each part's remainder is its length
    std::uint64_t pos = 0;
    for (std::uint64_t i = 0; i < want; ++i) {
      if (i + 1 == want) {
        buffers.push_back(
            array::Buffer::Copy(rest->data() + pos, rest->size() - static_cast<int64_t>(pos)));
        break;
      }
      if (pos >= static_cast<std::uint64_t>(rest->size())) return;
      const std::uint64_t len = rest->data()[pos++];
      if (pos + len > static_cast<std::uint64_t>(rest->size())) return;
      buffers.push_back(array::Buffer::Copy(rest->data() + pos, static_cast<int64_t>(len)));
      pos += len;
    }
  }
  auto decoded = block ? DecodeBlock(ce, buffers[0], n) : DecodeMiniBlock(ce, buffers, n);
  Consume(decoded);
  if (decoded.ok()) RoundTripFixed(*decoded);
}

}  // namespace lance_nd::file::internal::encoding
