// Seeds of the IPC fuzz corpora (fuzz/corpus/array_ipc_{stream,file}/): regenerated with
// LANCE_ND_WRITE_IPC_SEEDS=1, and checked to still read back on every run.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include "lance_nd/array/ipc.h"
#include "lance_nd/array/ipc/ipc_test_util.h"
#include "lance_nd/testing/status_matchers.h"
#include "lance_nd/testing/test_env.h"

namespace lance_nd::array::ipc {
namespace {

namespace fs = std::filesystem;
using Bytes = std::vector<std::uint8_t>;

struct Seed {
  std::string name;
  SchemaPtr schema;
  std::vector<RecordBatchPtr> batches;
  IpcWriteOptions options;
};

std::vector<Seed> Seeds() {
  const SchemaPtr all = testing::AllTypesSchema();
  const SchemaPtr small =
      MakeSchema({MakeField("i", Int32()), MakeField("s", Utf8()), MakeField("l", List(Float64())),
                  MakeField("st", Struct({MakeField("b", Bool()),
                                          MakeField("t", Timestamp(TimeUnit::kMicro, "UTC"))}))},
                 Metadata({{"k", "v"}}));
  auto sliced = testing::RandomBatch(all, 20, 9, 0.3)->Slice(3, 9);
  return {
      {"all_types", all, {testing::RandomBatch(all, 5, 1, 0.3)}, {}},
      {"all_types_no_nulls", all, {testing::RandomBatch(all, 4, 2, 0.0)}, {}},
      {"all_types_lz4", all, {testing::RandomBatch(all, 4, 3, 0.3)}, {Compression::kLz4Frame}},
      {"all_types_zstd", all, {testing::RandomBatch(all, 4, 4, 0.3)}, {Compression::kZstd}},
      {"all_types_sliced", all, {*sliced}, {}},
      {"small_two_batches",
       small,
       {testing::RandomBatch(small, 6, 5, 0.3), testing::RandomBatch(small, 2, 6, 0.5)},
       {}},
      {"small_empty_batch", small, {testing::RandomBatch(small, 0, 7, 0.3)}, {}},
      {"schema_only", small, {}, {}},
  };
}

Bytes ReadBytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return Bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

TEST(IpcFuzzSeeds, RegenerateWhenAsked) {
  if (std::getenv("LANCE_ND_WRITE_IPC_SEEDS") == nullptr) {
    GTEST_SKIP() << "set LANCE_ND_WRITE_IPC_SEEDS=1 and LANCE_ND_SOURCE_DIR to regenerate";
  }
  const fs::path root = fs::path(lance_nd::testing::SourceDir()) / "fuzz" / "corpus";
  fs::create_directories(root / "array_ipc_stream");
  fs::create_directories(root / "array_ipc_file");
  for (const Seed& s : Seeds()) {
    LND_ASSERT_OK_AND_ASSIGN(Bytes stream, WriteIpcStream(s.schema, s.batches, s.options));
    LND_ASSERT_OK_AND_ASSIGN(Bytes file, WriteIpcFileBytes(s.schema, s.batches, s.options));
    std::ofstream(root / "array_ipc_stream" / (s.name + ".arrows"), std::ios::binary)
        .write(reinterpret_cast<const char*>(stream.data()),
               static_cast<std::streamsize>(stream.size()));
    std::ofstream(root / "array_ipc_file" / (s.name + ".arrow"), std::ios::binary)
        .write(reinterpret_cast<const char*>(file.data()),
               static_cast<std::streamsize>(file.size()));
  }
}

TEST(IpcFuzzSeeds, CommittedSeedsReadBack) {
  const fs::path root = fs::path(lance_nd::testing::SourceDir()) / "fuzz" / "corpus";
  int n = 0;
  for (const Seed& s : Seeds()) {
    const fs::path stream_path = root / "array_ipc_stream" / (s.name + ".arrows");
    const fs::path file_path = root / "array_ipc_file" / (s.name + ".arrow");
    ASSERT_TRUE(fs::exists(stream_path)) << stream_path;
    ASSERT_TRUE(fs::exists(file_path)) << file_path;
    LND_ASSERT_OK_AND_ASSIGN(auto from_stream, ReadIpcStream(ReadBytes(stream_path)));
    LND_ASSERT_OK_AND_ASSIGN(auto from_file, ReadIpcFile(file_path.string()));
    EXPECT_TRUE(from_stream.schema->Equals(*s.schema)) << s.name;
    EXPECT_TRUE(from_file.schema->Equals(*s.schema)) << s.name;
    ASSERT_EQ(from_stream.batches.size(), s.batches.size()) << s.name;
    ASSERT_EQ(from_file.batches.size(), s.batches.size()) << s.name;
    for (std::size_t i = 0; i < s.batches.size(); ++i) {
      EXPECT_EQ(from_stream.batches[i]->num_rows(), s.batches[i]->num_rows());
      EXPECT_TRUE(from_file.batches[i]->Equals(*from_stream.batches[i])) << s.name;
    }
    ++n;
  }
  EXPECT_EQ(n, 8);
}

}  // namespace
}  // namespace lance_nd::array::ipc
