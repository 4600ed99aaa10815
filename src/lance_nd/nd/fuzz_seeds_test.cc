// Seeds of the nd row-decoder fuzz corpus (fuzz/corpus/nd_row_decoder/): Arrow IPC streams of
// encoded nd rows. Regenerated with LANCE_ND_WRITE_ND_SEEDS=1; checked to decode on every run.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "lance_nd/array/ipc.h"
#include "lance_nd/nd/row_encoding.h"
#include "lance_nd/testing/nd_random_rows.h"
#include "lance_nd/testing/status_matchers.h"
#include "lance_nd/testing/test_env.h"

namespace lance_nd::nd {
namespace {

namespace fs = std::filesystem;
using Bytes = std::vector<std::uint8_t>;
using testing::Batch;
using testing::Nd;

struct Seed {
  std::string name;
  std::vector<NdRecordBatch> rows;
};

std::vector<Seed> Seeds() {
  std::vector<Seed> out;
  auto globals = [](const char* id) {
    Attributes g;
    g.Set("id", id);
    return g;
  };
  Attributes units;
  units.Set("units", "K").Set("valid_range", std::vector<float>{200, 330});
  out.push_back(
      {"wiki_example",
       {Batch({{"x", Nd(testing::F64({0, 1, 2}), {{"x", 3}})},
               {"y", Nd(testing::F64({0, 1, 2, 3}), {{"y", 4}})},
               {"temperature", Nd(testing::Iota32(12), {{"x", 3}, {"y", 4}}, units)}},
              globals("a")),
        Batch({{"pressure", Nd(testing::F32({1000, 1001, 1002}), {{"station", 3}})}}, globals("b")),
        Batch({{"x", Nd(testing::F64({5, 6}), {{"x", 2}})},
               {"y", Nd(testing::F64({0, 1, 2, 3}), {{"y", 4}})},
               {"temperature", Nd(testing::Iota32(8), {{"x", 2}, {"y", 4}})}},
              globals("c"))}});
  for (uint64_t seed : {3u, 5u, 8u, 13u}) {
    testing::Rng rng(seed);
    out.push_back({"random_" + std::to_string(seed), testing::RandomRows(rng)});
  }
  return out;
}

Bytes ReadBytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return Bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

TEST(NdFuzzSeeds, RegenerateWhenAsked) {
  if (std::getenv("LANCE_ND_WRITE_ND_SEEDS") == nullptr) {
    GTEST_SKIP() << "set LANCE_ND_WRITE_ND_SEEDS=1 and LANCE_ND_SOURCE_DIR to regenerate";
  }
  const fs::path dir =
      fs::path(lance_nd::testing::SourceDir()) / "fuzz" / "corpus" / "nd_row_decoder";
  fs::create_directories(dir);
  for (const Seed& s : Seeds()) {
    LND_ASSERT_OK_AND_ASSIGN(array::RecordBatchPtr batch, EncodeRows(s.rows));
    const std::vector<array::RecordBatchPtr> batches = {batch};
    LND_ASSERT_OK_AND_ASSIGN(Bytes bytes, array::ipc::WriteIpcStream(batch->schema(), batches));
    std::ofstream(dir / (s.name + ".arrows"), std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()),
               static_cast<std::streamsize>(bytes.size()));
  }
}

TEST(NdFuzzSeeds, CommittedSeedsDecode) {
  const fs::path dir =
      fs::path(lance_nd::testing::SourceDir()) / "fuzz" / "corpus" / "nd_row_decoder";
  int n = 0;
  for (const Seed& s : Seeds()) {
    SCOPED_TRACE(s.name);
    const fs::path path = dir / (s.name + ".arrows");
    ASSERT_TRUE(fs::exists(path)) << path;
    LND_ASSERT_OK_AND_ASSIGN(auto contents, array::ipc::ReadIpcStream(ReadBytes(path)));
    ASSERT_EQ(contents.batches.size(), 1u);
    LND_ASSERT_OK_AND_ASSIGN(RowDecoder decoder, RowDecoder::Make(contents.schema));
    LND_ASSERT_OK_AND_ASSIGN(std::vector<NdRecordBatch> rows,
                             decoder.DecodeAll(*contents.batches[0]));
    ASSERT_EQ(rows.size(), s.rows.size());
    for (std::size_t i = 0; i < rows.size(); ++i) EXPECT_EQ(rows[i], s.rows[i]) << "row " << i;
    ++n;
  }
  EXPECT_EQ(n, 5);
}

}  // namespace
}  // namespace lance_nd::nd
