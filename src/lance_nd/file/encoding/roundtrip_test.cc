// Encode-then-decode round trips of random data for every encoding and width, plus the
// heuristics' choices on data whose Lance 12 encoding is documented.
#include <gtest/gtest.h>

#include <random>
#include <set>
#include <string>
#include <vector>

#include "lance_nd/array/type.h"
#include "lance_nd/file/encoding/compressive.h"
#include "lance_nd/file/encoding/fsst.h"
#include "lance_nd/file/encoding/general.h"
#include "lance_nd/file/encoding/test_util.h"
#include "lance_nd/testing/status_matchers.h"

namespace lance_nd::file::internal::encoding {
namespace {

using testing::DecodeAllFixed;
using testing::DecodeAllStrings;
using testing::FixedOf;
using testing::StringsOf;
using testing::ToStrings;
using testing::ToVector;
using Case = pb::CompressiveEncoding::CompressionCase;

template <typename T>
std::vector<T> RandomValues(std::size_t n, std::uint64_t max, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<T> v(n);
  for (auto& x : v) x = static_cast<T>(max == ~0ull ? rng() : rng() % (max + 1));
  return v;
}

template <typename T>
std::vector<std::uint8_t> AsBytes(const std::vector<T>& v) {
  std::vector<std::uint8_t> b(v.size() * sizeof(T));
  if (!v.empty()) std::memcpy(b.data(), v.data(), b.size());
  return b;
}

void CheckChunkShape(const MiniBlockEncoded& enc, std::uint64_t total) {
  std::uint64_t sum = 0;
  for (std::size_t i = 0; i < enc.chunks.size(); ++i) {
    const auto n = enc.chunks[i].num_values;
    if (i + 1 < enc.chunks.size()) {
      EXPECT_TRUE(n > 0 && (n & (n - 1)) == 0 && n <= 4096) << "chunk " << i << " holds " << n;
    }
    EXPECT_EQ(enc.chunks[i].buffers.size(), enc.num_buffers);
    sum += n;
  }
  EXPECT_EQ(sum, total);
}

template <typename T>
void RoundTripWith(const pb::CompressiveEncoding& ce, const std::vector<T>& v) {
  auto values = FixedOf(v);
  LND_ASSERT_OK_AND_ASSIGN(auto enc, EncodeMiniBlockWith(ce, values));
  CheckChunkShape(enc, v.size());
  EXPECT_EQ(DecodeAllFixed(enc), AsBytes(v)) << EncodingName(ce);
}

template <typename T>
void AllWidthsAllEncodings() {
  constexpr std::uint64_t kBits = sizeof(T) * 8;
  for (std::uint64_t w : std::vector<std::uint64_t>{0, 1, 3, kBits / 2, kBits - 1, kBits}) {
    const std::uint64_t max = w == 64 ? ~0ull : (1ull << w) - 1;
    for (std::size_t n : std::vector<std::size_t>{1, 7, 1024, 1500, 5000}) {
      auto v = RandomValues<T>(n, max, n * 31 + w);
      RoundTripWith(MakeFlat(kBits), v);
      RoundTripWith(MakeInlineBitpacking(kBits), v);
      RoundTripWith(MakeRle(kBits), v);
      if (kBits >= 16) RoundTripWith(MakeByteStreamSplit(kBits), v);
      RoundTripWith(MakeGeneral(EncodingRequest::Compression::kLz4, std::nullopt, MakeFlat(kBits)),
                    v);
      RoundTripWith(MakeGeneral(EncodingRequest::Compression::kZstd, 3, MakeRle(kBits)), v);
      // block context: inline (n <= 1024 per Lance; we accept more), out-of-line, rle, flat
      auto values = FixedOf(v);
      for (const auto& ce :
           {MakeOutOfLineBitpacking(kBits, w), MakeRle(kBits), MakeFlat(kBits),
            MakeInlineBitpacking(kBits),
            MakeGeneral(EncodingRequest::Compression::kZstd, std::nullopt, MakeFlat(kBits))}) {
        LND_ASSERT_OK_AND_ASSIGN(auto bytes, EncodeBlock(ce, values));
        LND_ASSERT_OK_AND_ASSIGN(auto dec, DecodeBlock(ce, bytes, n));
        EXPECT_EQ(ToVector<T>(dec), v) << EncodingName(ce) << " n=" << n << " w=" << w;
      }
    }
  }
}

TEST(RoundTrip, U8AllEncodings) { AllWidthsAllEncodings<std::uint8_t>(); }
TEST(RoundTrip, U16AllEncodings) { AllWidthsAllEncodings<std::uint16_t>(); }
TEST(RoundTrip, U32AllEncodings) { AllWidthsAllEncodings<std::uint32_t>(); }
TEST(RoundTrip, U64AllEncodings) { AllWidthsAllEncodings<std::uint64_t>(); }

TEST(RoundTrip, RunsLongerThan255AndRleChunks) {
  std::vector<std::uint32_t> v;
  for (int r = 0; r < 40; ++r)
    v.insert(v.end(), static_cast<std::size_t>(37 + r * 97), static_cast<std::uint32_t>(r));
  RoundTripWith(MakeRle(32), v);
  LND_ASSERT_OK_AND_ASSIGN(auto enc, EncodeMiniBlock(FixedOf(v), EncodingRequest{}));
  EXPECT_EQ(enc.encoding->compression_case(), Case::kRle);
}

TEST(RoundTrip, FlatBooleansAndOddWidths) {
  std::vector<std::uint8_t> bits(1250);
  std::mt19937 rng(5);
  for (auto& b : bits) b = static_cast<std::uint8_t>(rng());
  auto values = DataBlock::Fixed(1, 10000, testing::Bytes(bits));
  LND_ASSERT_OK_AND_ASSIGN(auto enc, EncodeMiniBlock(values, EncodingRequest{}));
  EXPECT_EQ(enc.encoding->compression_case(), Case::kFlat);
  EXPECT_EQ(enc.chunks.size(), 3u);  // 4096 booleans per chunk
  EXPECT_EQ(enc.chunks[0].num_values, 4096u);
  EXPECT_EQ(DecodeAllFixed(enc), bits);
}

TEST(RoundTrip, VariableStringsChunked) {
  std::vector<std::string> s;
  std::mt19937 rng(9);
  for (int i = 0; i < 3000; ++i)
    s.push_back(std::string(rng() % 40, static_cast<char>('a' + rng() % 26)));
  for (std::uint32_t width : {32u, 64u}) {
    LND_ASSERT_OK_AND_ASSIGN(auto enc,
                             EncodeMiniBlockWith(MakeVariable(width), StringsOf(s, width)));
    CheckChunkShape(enc, s.size());
    for (const auto& c : enc.chunks) EXPECT_EQ(c.buffers[0]->size() % (width / 8), 0);
    EXPECT_EQ(DecodeAllStrings(enc), s);
  }
}

TEST(RoundTrip, VariableChunkSizesFollowLance) {
  // 4-byte strings: Lance's doubling overshoots 4 KiB once, giving 512 values per chunk.
  std::vector<std::string> s(2000, "abcd");
  LND_ASSERT_OK_AND_ASSIGN(auto enc, EncodeMiniBlock(StringsOf(s), EncodingRequest{}));
  EXPECT_EQ(enc.encoding->compression_case(), Case::kVariable);
  ASSERT_GE(enc.chunks.size(), 2u);
  EXPECT_EQ(enc.chunks[0].num_values, 512u);
}

TEST(RoundTrip, FsstMiniBlockAndPerValue) {
  std::vector<std::string> s;
  std::mt19937 rng(3);
  const char* words[] = {"temperature", "salinity", "pressure", "longitude", "latitude"};
  std::uint64_t total = 0;
  while (total < 60000) {
    std::string x = std::string(words[rng() % 5]) + "_" + std::to_string(rng() % 1000);
    total += x.size();
    s.push_back(x);
  }
  LND_ASSERT_OK_AND_ASSIGN(auto enc, EncodeMiniBlock(StringsOf(s), EncodingRequest{}));
  ASSERT_EQ(enc.encoding->compression_case(), Case::kFsst);
  std::uint64_t encoded = 0;
  for (const auto& c : enc.chunks) encoded += static_cast<std::uint64_t>(c.buffers[0]->size());
  EXPECT_LT(encoded, total) << "FSST should compress repetitive strings";
  EXPECT_EQ(DecodeAllStrings(enc), s);

  LND_ASSERT_OK_AND_ASSIGN(auto pv, EncodePerValue(StringsOf(s), EncodingRequest{}));
  ASSERT_EQ(pv.encoding->compression_case(), Case::kFsst);
  LND_ASSERT_OK_AND_ASSIGN(auto dec, DecodePerValueVariable(*pv.encoding, pv.values));
  EXPECT_EQ(ToStrings(dec), s);
}

// Enough values for several compression parts joined in order (and on two threads), strings
// of 0..40 bytes including empty ones and bytes no symbol covers.
TEST(RoundTrip, FsstManyValuesAcrossParts) {
  std::vector<std::string> s;
  std::mt19937 rng(11);
  const char* words[] = {"sea_surface_", "temperature", "K", "", "analysed_sst_"};
  for (int i = 0; i < 70000; ++i) {
    std::string x = words[rng() % 5];
    if (rng() % 7 == 0) x.push_back(static_cast<char>(rng() % 256));
    x += std::to_string(rng() % 100000);
    s.push_back(x);
  }
  LND_ASSERT_OK_AND_ASSIGN(FsstCompressed fsst, FsstCompress(StringsOf(s), /*force=*/true));
  EXPECT_EQ(fsst.values.num_values, s.size());
  LND_ASSERT_OK_AND_ASSIGN(auto back, FsstDecompress(fsst.table, fsst.values));
  EXPECT_EQ(ToStrings(back), s);
}

TEST(RoundTrip, FsstSmallInputStaysRaw) {
  auto values = StringsOf({"hello", "world"});
  LND_ASSERT_OK_AND_ASSIGN(auto f, FsstCompress(values));
  EXPECT_FALSE(f.table.enabled);
  auto table = SerializeFsstTable(f.table);
  EXPECT_EQ(table->size(), 2312);
  LND_ASSERT_OK_AND_ASSIGN(auto parsed, ParseFsstTable(table->span()));
  LND_ASSERT_OK_AND_ASSIGN(auto dec, FsstDecompress(parsed, f.values));
  EXPECT_EQ(ToStrings(dec), (std::vector<std::string>{"hello", "world"}));
}

TEST(Fsst, DecodesHandmadeTable) {
  FsstTable t;
  t.enabled = true;
  t.num_symbols = 2;
  t.symbols[0] = 0x6c6c6568;  // "hell" (first byte in the low byte)
  t.lengths[0] = 4;
  t.symbols[1] = 0x6f;  // "o"
  t.lengths[1] = 1;
  auto bytes = SerializeFsstTable(t);
  LND_ASSERT_OK_AND_ASSIGN(auto parsed, ParseFsstTable(bytes->span()));
  auto compressed = StringsOf({std::string("\x00\x01", 2), std::string("\xff!\x01", 3)});
  LND_ASSERT_OK_AND_ASSIGN(auto dec, FsstDecompress(parsed, compressed));
  EXPECT_EQ(ToStrings(dec), (std::vector<std::string>{"hello", "!o"}));
  LND_EXPECT_ERROR(FsstDecompress(parsed, StringsOf({std::string("\x05", 1)})),
                   StatusCode::kCorrupt, "fsst: value 0 uses code 5 but the table has 2 symbols");
  LND_EXPECT_ERROR(FsstDecompress(parsed, StringsOf({std::string("\xff", 1)})),
                   StatusCode::kCorrupt, "ends with an escape code");
}

TEST(RoundTrip, FixedSizeListWithValidity) {
  // FSL<u16, 3> over 700 rows with an item bitmap
  const std::size_t rows = 700;
  auto data = RandomValues<std::uint16_t>(rows * 3, 60000, 1);
  std::vector<std::uint8_t> bits((rows * 3 + 7) / 8);
  std::mt19937 rng(2);
  for (auto& b : bits) b = static_cast<std::uint8_t>(rng());
  DataBlock values = DataBlock::Fixed(48, rows, testing::Values(data));
  values.items_per_value = 3;
  values.fsl.push_back({3, testing::Bytes(bits)});
  LND_ASSERT_OK_AND_ASSIGN(auto enc, EncodeMiniBlock(values, EncodingRequest{}));
  ASSERT_EQ(enc.encoding->compression_case(), Case::kFixedSizeList);
  EXPECT_EQ(enc.num_buffers, 2u);
  CheckChunkShape(enc, rows);
  std::vector<std::uint16_t> got;
  std::vector<bool> valid;
  for (const auto& c : enc.chunks) {
    LND_ASSERT_OK_AND_ASSIGN(auto dec, DecodeMiniBlock(*enc.encoding, c.buffers, c.num_values));
    ASSERT_EQ(dec.fsl.size(), 1u);
    auto part = ToVector<std::uint16_t>(DataBlock::Fixed(16, c.num_values * 3, dec.data));
    got.insert(got.end(), part.begin(), part.end());
    for (std::uint64_t i = 0; i < c.num_values * 3; ++i) {
      valid.push_back(array::GetBit(dec.fsl[0].validity->data(), static_cast<int64_t>(i)));
    }
  }
  EXPECT_EQ(got, data);
  for (std::size_t i = 0; i < valid.size(); ++i) {
    ASSERT_EQ(valid[i], array::GetBit(bits.data(), static_cast<int64_t>(i))) << i;
  }
  // per-value (full-zip) form
  LND_ASSERT_OK_AND_ASSIGN(auto pv, EncodePerValue(values, EncodingRequest{}));
  EXPECT_EQ(pv.values.bits_per_value, 8u * (1 + 6));
  LND_ASSERT_OK_AND_ASSIGN(
      auto dec, DecodePerValueFixed(*pv.encoding, pv.values.data, rows, pv.values.bits_per_value));
  EXPECT_EQ(ToVector<std::uint16_t>(DataBlock::Fixed(16, rows * 3, dec.data)), data);
  EXPECT_EQ(std::memcmp(dec.fsl[0].validity->data(), bits.data(), rows * 3 / 8), 0);
}

TEST(RoundTrip, GeneralPerValueStrings) {
  std::vector<std::string> s;
  for (int i = 0; i < 3; ++i) s.push_back(std::string(40000, static_cast<char>('x' + i)));
  s.push_back("");
  LND_ASSERT_OK_AND_ASSIGN(auto pv, EncodePerValue(StringsOf(s), EncodingRequest{}));
  ASSERT_EQ(pv.encoding->compression_case(), Case::kGeneral);
  EXPECT_LT(pv.values.data->size(), 3000);
  LND_ASSERT_OK_AND_ASSIGN(auto dec, DecodePerValueVariable(*pv.encoding, pv.values));
  EXPECT_EQ(ToStrings(dec), s);
}

TEST(RoundTrip, GeneralPerValueIsZstdEvenWhenLz4IsAsked) {
  // Lance 12 cannot read per-value lz4 and writes zstd there itself.
  std::vector<std::string> s(2000, "some text that repeats");
  EncodingRequest lz4;
  lz4.compression = EncodingRequest::Compression::kLz4;
  LND_ASSERT_OK_AND_ASSIGN(auto pv, EncodePerValue(StringsOf(s), lz4));
  ASSERT_EQ(pv.encoding->compression_case(), Case::kGeneral);
  EXPECT_EQ(pv.encoding->general().compression().scheme(), pb::COMPRESSION_ALGORITHM_ZSTD);
  LND_ASSERT_OK_AND_ASSIGN(auto dec, DecodePerValueVariable(*pv.encoding, pv.values));
  EXPECT_EQ(ToStrings(dec), s);
}

TEST(RoundTrip, PackedStruct) {
  pb::CompressiveEncoding ce;
  ce.mutable_packed_struct()->add_bits_per_value(32);
  ce.mutable_packed_struct()->add_bits_per_value(16);
  *ce.mutable_packed_struct()->mutable_values() = MakeFlat(48);
  auto rows = RandomValues<std::uint8_t>(6 * 300, 255, 8);
  auto values = DataBlock::Fixed(48, 300, testing::Values(rows));
  LND_ASSERT_OK_AND_ASSIGN(auto enc, EncodeMiniBlockWith(ce, values));
  EXPECT_EQ(DecodeAllFixed(enc), rows);
}

// ---- heuristics ----------------------------------------------------------------------------

TEST(Heuristics, FloatsStayFlatWhenBitpackingDoesNotPay) {
  // Random f32 around 273..313 on 1243 values -> flat(32) (two blocks of 993 words > raw;
  // docs/lance-file-format.md §4.15).
  std::mt19937 rng(1);
  std::vector<float> v(1243);
  for (auto& x : v) x = 273.0f + static_cast<float>(rng() % 4000) / 100.0f;
  LND_ASSERT_OK_AND_ASSIGN(auto enc, EncodeMiniBlock(FixedOf(v), EncodingRequest{}));
  EXPECT_EQ(enc.encoding->compression_case(), Case::kFlat);
  EXPECT_EQ(enc.chunks[0].num_values, 1024u);
}

TEST(Heuristics, SmallIntegersAreBitpacked) {
  auto v = RandomValues<std::uint32_t>(5000, 1000, 4);
  LND_ASSERT_OK_AND_ASSIGN(auto enc, EncodeMiniBlock(FixedOf(v), EncodingRequest{}));
  EXPECT_EQ(enc.encoding->compression_case(), Case::kInlineBitpacking);
  EXPECT_EQ(enc.chunks[0].num_values, 1024u);
  EXPECT_EQ(enc.chunks[0].buffers[0]->size(), 4 * (1 + 320));  // W=10: 1 + 1024*10/32 words
  EXPECT_EQ(DecodeAllFixed(enc), AsBytes(v));
}

TEST(Heuristics, NegativeIntegersStayFlat) {
  std::vector<std::int32_t> v(3000);
  std::mt19937 rng(7);
  for (auto& x : v) x = static_cast<std::int32_t>(rng() % 10001) - 5000;
  LND_ASSERT_OK_AND_ASSIGN(auto enc, EncodeMiniBlock(FixedOf(v), EncodingRequest{}));
  EXPECT_EQ(enc.encoding->compression_case(), Case::kFlat);
}

TEST(Heuristics, CompressionNoneForcesFlat) {
  EncodingRequest r;
  r.compression = EncodingRequest::Compression::kNone;
  auto v = RandomValues<std::uint32_t>(5000, 3, 4);
  LND_ASSERT_OK_AND_ASSIGN(auto enc, EncodeMiniBlock(FixedOf(v), r));
  EXPECT_EQ(enc.encoding->compression_case(), Case::kFlat);
}

TEST(Heuristics, ZstdRequestWrapsAndBssOn) {
  EncodingRequest r;
  r.compression = EncodingRequest::Compression::kZstd;
  r.bss = EncodingRequest::Bss::kOn;
  std::vector<double> v(4000);
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = 1000.0 + static_cast<double>(i % 17) * 0.25;
  LND_ASSERT_OK_AND_ASSIGN(auto enc, EncodeMiniBlock(FixedOf(v), r));
  ASSERT_EQ(enc.encoding->compression_case(), Case::kGeneral);
  EXPECT_EQ(enc.encoding->general().compression().scheme(), pb::COMPRESSION_ALGORITHM_ZSTD);
  EXPECT_EQ(enc.encoding->general().values().compression_case(), Case::kByteStreamSplit);
  // 2.2: one chunk of up to 128 KiB of values (here all 4000); 2.1: Lance's 4 KiB chunks.
  EXPECT_EQ(enc.chunks.size(), 1u);
  EXPECT_EQ(DecodeAllFixed(enc), AsBytes(v));
  r.version = FileVersion::kV2_1;
  LND_ASSERT_OK_AND_ASSIGN(auto enc21, EncodeMiniBlock(FixedOf(v), r));
  EXPECT_EQ(enc21.chunks[0].num_values, 512u);
  EXPECT_EQ(DecodeAllFixed(enc21), AsBytes(v));
}

TEST(Heuristics, LevelEncodings) {
  std::vector<std::uint16_t> few(10, 1);
  LND_ASSERT_OK_AND_ASSIGN(auto a, ChooseLevelEncoding(few, FileVersion::kV2_1));
  EXPECT_EQ(a->compression_case(), Case::kFlat);  // bitpacking a 10-level page does not pay
  LND_ASSERT_OK_AND_ASSIGN(auto b, ChooseLevelEncoding(few, FileVersion::kV2_2));
  EXPECT_EQ(b->compression_case(), Case::kRle);
  std::vector<std::uint16_t> alt(459);
  for (std::size_t i = 0; i < alt.size(); ++i) alt[i] = static_cast<std::uint16_t>(i % 2);
  LND_ASSERT_OK_AND_ASSIGN(auto c, ChooseLevelEncoding(alt, FileVersion::kV2_2));
  EXPECT_EQ(c->compression_case(), Case::kInlineBitpacking);
  std::vector<std::uint16_t> many(5000);
  for (std::size_t i = 0; i < many.size(); ++i) many[i] = static_cast<std::uint16_t>(i % 3);
  LND_ASSERT_OK_AND_ASSIGN(auto d, ChooseLevelEncoding(many, FileVersion::kV2_1));
  ASSERT_EQ(d->compression_case(), Case::kOutOfLineBitpacking);
  EXPECT_EQ(d->out_of_line_bitpacking().values().flat().bits_per_value(), 2u);
  LND_ASSERT_OK_AND_ASSIGN(auto bytes, EncodeLevels(*d, many));
  LND_ASSERT_OK_AND_ASSIGN(auto dec, DecodeBlock(*d, bytes, many.size()));
  EXPECT_EQ(ToVector<std::uint16_t>(dec), many);
}

TEST(Heuristics, DictionaryForRepeatedStrings) {
  std::vector<std::string> s;
  for (int i = 0; i < 1000; ++i) s.push_back(i % 2 ? "longitude" : "latitude");
  for (auto version : {FileVersion::kV2_1, FileVersion::kV2_2}) {
    EncodingRequest r;
    r.version = version;
    LND_ASSERT_OK_AND_ASSIGN(auto d, MaybeDictionaryEncode(StringsOf(s), r));
    ASSERT_TRUE(d.has_value());
    EXPECT_EQ(d->dictionary.num_values, 2u);
    EXPECT_EQ(d->indices.bits_per_value, 32u);
    EXPECT_EQ(d->dictionary_encoding->compression_case(),
              version == FileVersion::kV2_2 ? Case::kGeneral : Case::kVariable);
    LND_ASSERT_OK_AND_ASSIGN(auto dict,
                             DecodeBlock(*d->dictionary_encoding, d->dictionary_bytes, 2));
    LND_ASSERT_OK_AND_ASSIGN(auto back, GatherDictionary(dict, d->indices));
    EXPECT_EQ(ToStrings(back), s);
  }
  // too few values, or all distinct: no dictionary
  std::vector<std::string> distinct;
  for (int i = 0; i < 300; ++i) distinct.push_back("value-" + std::to_string(i));
  LND_ASSERT_OK_AND_ASSIGN(auto none,
                           MaybeDictionaryEncode(StringsOf(distinct), EncodingRequest{}));
  EXPECT_FALSE(none.has_value());
  std::vector<std::string> eight(8, "same");
  LND_ASSERT_OK_AND_ASSIGN(auto none2, MaybeDictionaryEncode(StringsOf(eight), EncodingRequest{}));
  EXPECT_FALSE(none2.has_value());
}

// The unique-value count is exact: a page with max_unique distinct values gets a dictionary,
// one more distinct value does not; values are kept in first-occurrence order and every index
// points at its own value (many values sharing hash slots included).
TEST(Heuristics, DictionaryCardinalityLimitIsExact) {
  for (const std::uint64_t distinct : {500u, 501u}) {
    std::vector<std::string> s;
    for (std::uint64_t i = 0; i < 5000; ++i) {
      s.push_back("v" + std::to_string((i * 7919) % distinct) + "-padding-to-make-it-pay");
    }
    EncodingRequest r;
    r.dict_max_cardinality = 500;
    LND_ASSERT_OK_AND_ASSIGN(auto d, MaybeDictionaryEncode(StringsOf(s), r));
    ASSERT_EQ(d.has_value(), distinct == 500) << distinct;
    if (!d) continue;
    EXPECT_EQ(d->dictionary.num_values, 500u);
    LND_ASSERT_OK_AND_ASSIGN(auto dict,
                             DecodeBlock(*d->dictionary_encoding, d->dictionary_bytes, 500));
    EXPECT_EQ(ToStrings(dict)[0], s[0]);
    EXPECT_EQ(ToStrings(dict)[1], s[1]);
    LND_ASSERT_OK_AND_ASSIGN(auto back, GatherDictionary(dict, d->indices));
    EXPECT_EQ(ToStrings(back), s);
  }
  // 64-bit values: the same limit
  for (const std::uint64_t distinct : {300u, 301u}) {
    std::vector<std::uint64_t> v(3000);
    for (std::size_t i = 0; i < v.size(); ++i) v[i] = ((i * 31) % distinct) << 40;
    EncodingRequest r;
    r.dict_max_cardinality = 300;
    LND_ASSERT_OK_AND_ASSIGN(auto d, MaybeDictionaryEncode(FixedOf(v), r));
    ASSERT_EQ(d.has_value(), distinct == 300) << distinct;
    if (!d) continue;
    LND_ASSERT_OK_AND_ASSIGN(auto dict,
                             DecodeBlock(*d->dictionary_encoding, d->dictionary_bytes, 300));
    LND_ASSERT_OK_AND_ASSIGN(auto back, GatherDictionary(dict, d->indices));
    EXPECT_EQ(ToVector<std::uint64_t>(back), v);
  }
}

// The exact rule a dictionary follows when every value is looked at: fewer distinct values
// than the limit, and indices + distinct bytes + their offsets below the size ratio.
bool DictionaryPays(const std::vector<std::string>& s, std::uint32_t width,
                    const EncodingRequest& r) {
  std::set<std::string> distinct(s.begin(), s.end());
  std::uint64_t data = 0, distinct_bytes = 0;
  for (const auto& v : s) data += v.size();
  for (const auto& v : distinct) distinct_bytes += v.size();
  const double size = static_cast<double>((s.size() + 1) * (width / 8) + data);
  const std::uint64_t dict = s.size() * 4 + distinct_bytes + (distinct.size() + 1) * (width / 8);
  return distinct.size() <= r.dict_max_cardinality &&
         static_cast<double>(dict) < r.dict_size_ratio * size;
}

// Generated pages of fewer than 1024 distinct values (short values compared by words, long ones
// by bytes, prefixes of each other, empty ones), laid out at random, in runs or in cycles:
// the sample of 1024 values always repeats, so the choice is exactly the full rule's, and a
// dictionary gives back every value.
TEST(Heuristics, DictionaryOfGeneratedPagesFollowsTheExactRule) {
  std::mt19937_64 rng(17);
  int with_dictionary = 0;
  for (int page = 0; page < 120; ++page) {
    const std::size_t distinct = 1 + rng() % 1000;
    std::vector<std::string> pool;
    for (std::size_t i = 0; i < distinct; ++i) {
      const std::size_t len = rng() % 3 == 0 ? rng() % 40 : rng() % 17;
      std::string v(len, 'a');
      for (auto& c : v) c = static_cast<char>('a' + rng() % 3);
      pool.push_back(v + std::to_string(i % 50 == 0 ? 0 : i));  // some repeat in the pool
    }
    const std::size_t n = 100 + rng() % 30000;
    const int layout = static_cast<int>(rng() % 3);
    const std::size_t run = 1 + n / distinct;
    std::vector<std::string> s(n);
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t k = layout == 0   ? rng() % distinct
                            : layout == 1 ? (i / run) % distinct
                                          : i % distinct;
      s[i] = pool[k];
    }
    const std::uint32_t width = rng() % 2 ? 32 : 64;
    EncodingRequest r;
    r.dict_max_cardinality = 1 + rng() % 1200;
    LND_ASSERT_OK_AND_ASSIGN(auto d, MaybeDictionaryEncode(StringsOf(s, width), r));
    ASSERT_EQ(d.has_value(), DictionaryPays(s, width, r))
        << "page " << page << ": " << n << " values, " << distinct << " distinct";
    if (!d) continue;
    ++with_dictionary;
    LND_ASSERT_OK_AND_ASSIGN(auto dict, DecodeBlock(*d->dictionary_encoding, d->dictionary_bytes,
                                                    d->dictionary.num_values));
    const std::vector<std::string> items = ToStrings(dict);
    EXPECT_EQ(std::set<std::string>(items.begin(), items.end()).size(), items.size());
    LND_ASSERT_OK_AND_ASSIGN(auto back, GatherDictionary(dict, d->indices));
    EXPECT_EQ(ToStrings(back), s) << "page " << page;
  }
  EXPECT_GT(with_dictionary, 20);  // the pages exercise both outcomes
  EXPECT_LT(with_dictionary, 110);
}

// A large page whose sample never repeats (ids) gives up without a full pass; one whose values
// come in runs of repeats (a sorted column) keeps its dictionary.
TEST(Heuristics, DictionarySampleGivesUpOnlyOnDistinctSamples) {
  std::vector<std::string> ids, sorted;
  for (int i = 0; i < 50000; ++i) {
    ids.push_back("r" + std::to_string(i));
    sorted.push_back("category-" + std::to_string(i / 8));  // 6250 values, each 8 times
  }
  LND_ASSERT_OK_AND_ASSIGN(auto none, MaybeDictionaryEncode(StringsOf(ids), EncodingRequest{}));
  EXPECT_FALSE(none.has_value());
  LND_ASSERT_OK_AND_ASSIGN(auto d, MaybeDictionaryEncode(StringsOf(sorted), EncodingRequest{}));
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->dictionary.num_values, 6250u);
  LND_ASSERT_OK_AND_ASSIGN(auto dict,
                           DecodeBlock(*d->dictionary_encoding, d->dictionary_bytes, 6250));
  LND_ASSERT_OK_AND_ASSIGN(auto back, GatherDictionary(dict, d->indices));
  EXPECT_EQ(ToStrings(back), sorted);
}

TEST(Heuristics, Dictionary64BitOnlyIn22) {
  std::vector<std::uint64_t> v(1000);
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = (i * 7919) % 100 + 1000000000000ull;
  EncodingRequest r21;
  r21.version = FileVersion::kV2_1;
  LND_ASSERT_OK_AND_ASSIGN(auto a, MaybeDictionaryEncode(FixedOf(v), r21));
  EXPECT_FALSE(a.has_value());
  LND_ASSERT_OK_AND_ASSIGN(auto b, MaybeDictionaryEncode(FixedOf(v), EncodingRequest{}));
  ASSERT_TRUE(b.has_value());
  EXPECT_EQ(b->dictionary.num_values, 100u);
  LND_ASSERT_OK_AND_ASSIGN(auto dict,
                           DecodeBlock(*b->dictionary_encoding, b->dictionary_bytes, 100));
  LND_ASSERT_OK_AND_ASSIGN(auto back, GatherDictionary(dict, b->indices));
  EXPECT_EQ(ToVector<std::uint64_t>(back), v);
}

TEST(Request, FromFieldMetadata) {
  array::Metadata m;
  m.Set("lance-encoding:compression", "zstd");
  m.Set("lance-encoding:compression-level", "9");
  m.Set("lance-encoding:bss", "off");
  m.Set("lance-encoding:rle-threshold", "0.25");
  LND_ASSERT_OK_AND_ASSIGN(auto r, EncodingRequest::FromFieldMetadata(m, FileVersion::kV2_1));
  EXPECT_EQ(r.compression, EncodingRequest::Compression::kZstd);
  EXPECT_EQ(r.compression_level, 9);
  EXPECT_EQ(r.bss, EncodingRequest::Bss::kOff);
  EXPECT_DOUBLE_EQ(r.rle_threshold, 0.25);
  EXPECT_EQ(r.version, FileVersion::kV2_1);
  m.Set("lance-encoding:compression", "brotli");
  LND_EXPECT_ERROR(
      EncodingRequest::FromFieldMetadata(m, FileVersion::kV2_2), StatusCode::kInvalidArgument,
      "lance-encoding:compression = 'brotli' is invalid; expected none, lz4, zstd or fsst");
  m.Set("lance-encoding:compression", "lz4");
  m.Set("lance-encoding:rle-threshold", "2");
  LND_EXPECT_ERROR(EncodingRequest::FromFieldMetadata(m, FileVersion::kV2_2),
                   StatusCode::kInvalidArgument, "lance-encoding:rle-threshold = '2' is invalid");
}

TEST(General, RoundTripAndBareZstdFrame) {
  std::vector<std::uint8_t> data(10000);
  for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<std::uint8_t>(i % 13);
  for (auto s : {GeneralScheme::kLz4, GeneralScheme::kZstd}) {
    LND_ASSERT_OK_AND_ASSIGN(auto c, GeneralCompress(s, data));
    EXPECT_LT(c->size(), 2000);
    LND_ASSERT_OK_AND_ASSIGN(auto d, GeneralDecompress(s, c->span()));
    EXPECT_TRUE(d->Equals(*testing::Bytes(data)));
  }
  // Lance also accepts a bare zstd frame (no u64 size prefix).
  LND_ASSERT_OK_AND_ASSIGN(auto c, GeneralCompress(GeneralScheme::kZstd, data));
  LND_ASSERT_OK_AND_ASSIGN(auto d, GeneralDecompress(GeneralScheme::kZstd, c->span().subspan(8)));
  EXPECT_TRUE(d->Equals(*testing::Bytes(data)));
  // empty input
  LND_ASSERT_OK_AND_ASSIGN(auto e, GeneralCompress(GeneralScheme::kLz4, {}));
  LND_ASSERT_OK_AND_ASSIGN(auto f, GeneralDecompress(GeneralScheme::kLz4, e->span()));
  EXPECT_EQ(f->size(), 0);
}

// general(byte_stream_split) compresses each chunk from a per-thread split of its values; the
// chunks must be exactly the general compression of the materialised split chunks, for both
// schemes, the heuristic and the explicit path, widths 16/32/64, a ragged last chunk and
// enough chunks for both threads.
template <typename T>
void ExpectFusedBssEqualsSplitThenCompress(std::uint64_t n) {
  std::vector<T> v(n);
  std::mt19937_64 rng(n);
  for (std::size_t i = 0; i < v.size(); ++i) {
    v[i] = static_cast<T>(static_cast<double>(i % 97) * 0.5 + static_cast<double>(rng() % 8));
  }
  const DataBlock block = DataBlock::Fixed(sizeof(T) * 8, n, testing::Values(v));
  const std::uint64_t bits = sizeof(T) * 8;
  LND_ASSERT_OK_AND_ASSIGN(auto split, EncodeMiniBlockWith(MakeByteStreamSplit(bits), block));
  for (auto scheme : {EncodingRequest::Compression::kZstd, EncodingRequest::Compression::kLz4}) {
    const auto gs =
        scheme == EncodingRequest::Compression::kZstd ? GeneralScheme::kZstd : GeneralScheme::kLz4;
    EncodingRequest r;
    r.compression = scheme;
    r.bss = EncodingRequest::Bss::kOn;
    r.version = FileVersion::kV2_1;  // Lance's chunk sizes (2.2 chunks are larger)
    LND_ASSERT_OK_AND_ASSIGN(auto chosen, EncodeMiniBlock(block, r));
    r.version = FileVersion::kV2_2;
    LND_ASSERT_OK_AND_ASSIGN(auto large, EncodeMiniBlock(block, r));
    if (bits >= 32) {
      const std::uint64_t per_chunk = std::min<std::uint64_t>(32768, 131072 / (bits / 8));
      ASSERT_EQ(large.chunks.size(), (n + per_chunk - 1) / per_chunk);
      EXPECT_EQ(DecodeAllFixed(large), AsBytes(v));
    }
    LND_ASSERT_OK_AND_ASSIGN(
        auto explicit_,
        EncodeMiniBlockWith(MakeGeneral(scheme, std::nullopt, MakeByteStreamSplit(bits)), block));
    // Lance's heuristic splits 32- and 64-bit values only
    std::vector<const MiniBlockEncoded*> encoded{&explicit_};
    if (bits >= 32) encoded.push_back(&chosen);
    for (const auto* enc : encoded) {
      ASSERT_EQ(enc->encoding->compression_case(), Case::kGeneral);
      ASSERT_EQ(enc->encoding->general().values().compression_case(), Case::kByteStreamSplit);
      ASSERT_EQ(enc->chunks.size(), split.chunks.size());
      for (std::size_t c = 0; c < split.chunks.size(); ++c) {
        EXPECT_EQ(enc->chunks[c].num_values, split.chunks[c].num_values);
        LND_ASSERT_OK_AND_ASSIGN(auto want,
                                 GeneralCompress(gs, split.chunks[c].buffers[0]->span()));
        ASSERT_TRUE(enc->chunks[c].buffers[0]->Equals(*want)) << "chunk " << c;
      }
      EXPECT_EQ(DecodeAllFixed(*enc), AsBytes(v));
    }
  }
}

TEST(General, FusedByteStreamSplitEqualsSplitThenCompress) {
  ExpectFusedBssEqualsSplitThenCompress<float>(1024 * 150 + 77);
  ExpectFusedBssEqualsSplitThenCompress<double>(512 * 40 + 1);
  ExpectFusedBssEqualsSplitThenCompress<std::uint16_t>(2048 * 3);
}

TEST(General, IncompressibleByteStreamSplitStaysUncompressed) {
  std::vector<std::uint32_t> v(20000);
  std::mt19937 rng(7);
  for (auto& x : v) x = static_cast<std::uint32_t>(rng());
  EncodingRequest r;
  r.compression = EncodingRequest::Compression::kZstd;
  r.bss = EncodingRequest::Bss::kOn;
  const DataBlock block = DataBlock::Fixed(32, v.size(), testing::Values(v));
  LND_ASSERT_OK_AND_ASSIGN(auto enc, EncodeMiniBlock(block, r));
  EXPECT_EQ(enc.encoding->compression_case(), Case::kByteStreamSplit);
  EXPECT_EQ(DecodeAllFixed(enc), AsBytes(v));
}

TEST(General, CompressIntoChecksItsSpace) {
  std::vector<std::uint8_t> data(5000, 7);
  for (auto s : {GeneralScheme::kLz4, GeneralScheme::kZstd}) {
    std::vector<std::uint8_t> out(GeneralCompressBound(s, data.size()));
    LND_ASSERT_OK_AND_ASSIGN(const std::uint64_t n, GeneralCompressInto(s, data, 1, out));
    LND_ASSERT_OK_AND_ASSIGN(auto want, GeneralCompress(s, data, 1));
    EXPECT_TRUE(array::Buffer::Copy(out.data(), static_cast<int64_t>(n))->Equals(*want));
    LND_EXPECT_ERROR(GeneralCompressInto(s, data, 1, std::span(out).first(out.size() - 1)),
                     StatusCode::kInvalidArgument, "output space is below the bound");
  }
}

}  // namespace
}  // namespace lance_nd::file::internal::encoding
