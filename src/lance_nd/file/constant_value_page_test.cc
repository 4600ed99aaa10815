// Constant pages whose value lives in a buffer of its own (Lance 2.2): Lance 12 writes them for a
// list<utf8> column when every list item is the same string, which is what an nd table's
// dim_names column looks like. The buffers are [value, rep levels, def levels].
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "lance_nd/array/array_data.h"
#include "lance_nd/file/reader.h"
#include "lance_nd/file/test_file_builder.h"
#include "lance_nd/io/file.h"
#include "lance_nd/io/file_system.h"
#include "lance_nd/testing/status_matchers.h"
#include "lance_nd/testing/test_env.h"

namespace lance_nd::file {
namespace {

namespace pb = ::lance::encodings21;
using testing::AddField;
using testing::BuildFile;
using testing::LeBytes;
using testing::TestPage;

std::string FixturePath() {
  return lance_nd::testing::SourcePath("src/lance_nd/file/testdata/lance12_constant_strings.lance");
}

std::string Column(const array::RecordBatch& batch, int i) {
  return array::PrettyPrint(*batch.column(i));
}

// Written by testdata/make_constant_strings.mjs: six rows, every list<utf8> column a constant page.
TEST(ConstantValuePageTest, ReadsTheFileLance12Wrote) {
  LND_ASSERT_OK_AND_ASSIGN(auto file, io::LocalFileSystem()->OpenForRead(FixturePath()));
  LND_ASSERT_OK_AND_ASSIGN(auto reader, FileReader::Open(file));
  LND_ASSERT_OK_AND_ASSIGN(auto batch, reader.ReadAll());
  LND_ASSERT_OK(batch->Validate());
  ASSERT_EQ(batch->num_rows(), 6);
  const std::string time = "[\"time\"]";
  EXPECT_EQ(Column(*batch, 0), "[" + std::string(time + ", ") + time + ", " + time + ", " + time +
                                   ", " + time + ", " + time + "]");
  EXPECT_EQ(Column(*batch, 1), "[[\"lat\"], [\"lat\"], null, [\"lat\"], [\"lat\"], [\"lat\"]]");
  const std::string lon = "[\"lon\", \"lon\"]";
  EXPECT_EQ(Column(*batch, 2),
            "[" + lon + ", " + lon + ", " + lon + ", " + lon + ", [], " + lon + "]");
  const array::ArrayData& var = *batch->column(3);
  ASSERT_EQ(var.children.size(), 2u);
  EXPECT_EQ(array::PrettyPrint(*var.children[0]),
            "[[\"x\"], [\"x\"], [\"x\"], [\"x\"], [\"x\"], [\"x\"]]");
  EXPECT_EQ(array::PrettyPrint(*var.children[1]),
            "[\"degrees_north\", \"degrees_north\", \"degrees_north\", \"degrees_north\", "
            "\"degrees_north\", \"degrees_north\"]");

  // Random access and the description agree with the scan.
  const std::vector<std::uint64_t> rows = {4, 2, 0};
  LND_ASSERT_OK_AND_ASSIGN(auto taken, reader.Take(rows));
  EXPECT_EQ(Column(*taken, 1), "[[\"lat\"], null, [\"lat\"]]");
  EXPECT_EQ(Column(*taken, 2), "[[], " + lon + ", " + lon + "]");
  const FileDescription d = reader.Describe();
  ASSERT_EQ(d.columns.size(), 5u);
  for (const auto& c : d.columns) {
    ASSERT_EQ(c.pages.size(), 1u);
    EXPECT_NE(c.pages[0].layout.find("value=buffer 0"), std::string::npos) << c.pages[0].layout;
  }
}

// A hand-made page of list<string> rows [["ab"], ["ab", "ab"], ["ab"]]: the value "ab" (u32 count
// 2, u32 sizes 8 and 2, offsets 0 and 2, the bytes), then raw u16 rep levels, no def levels.
TestPage ListOfConstantString() {
  TestPage p;
  p.num_rows = 3;
  auto* l = p.layout.mutable_constant_layout();
  l->add_layers(pb::REPDEF_ALL_VALID_ITEM);
  l->add_layers(pb::REPDEF_ALL_VALID_LIST);
  std::vector<std::uint8_t> value;
  for (std::uint32_t v : {2u, 8u, 2u, 0u, 2u}) testing::PutU32(&value, v);
  value.push_back('a');
  value.push_back('b');
  p.buffers = {value, LeBytes<std::uint16_t>({1, 1, 0, 1}), {}};
  return p;
}

lance::file::Schema ListOfString() {
  lance::file::Schema s;
  AddField(&s, "dims", 0, -1, "list");
  AddField(&s, "item", 1, 0, "string");
  return s;
}

std::shared_ptr<io::RandomAccessFile> FileOf(std::vector<std::uint8_t> bytes) {
  return io::MakeBufferFile(std::move(bytes), "test.lance");
}

TEST(ConstantValuePageTest, ValueLevelsAndTheirOrder) {
  auto bytes = BuildFile(ListOfString(), 3, {{ListOfConstantString()}});
  LND_ASSERT_OK_AND_ASSIGN(auto reader, FileReader::Open(FileOf(bytes)));
  LND_ASSERT_OK_AND_ASSIGN(auto batch, reader.ReadAll());
  LND_ASSERT_OK(batch->Validate());
  EXPECT_EQ(Column(*batch, 0), "[[\"ab\"], [\"ab\", \"ab\"], [\"ab\"]]");
}

TEST(ConstantValuePageTest, MalformedPagesAreCorrupt) {
  TestPage four = ListOfConstantString();
  four.buffers.push_back({});
  LND_ASSERT_OK_AND_ASSIGN(auto r4,
                           FileReader::Open(FileOf(BuildFile(ListOfString(), 3, {{four}}))));
  LND_EXPECT_ERROR(r4.ReadAll(), StatusCode::kCorrupt,
                   "constant page has 4 buffers; expected 0 to 3 (value, rep levels, def levels)");

  // A value buffer exists only in 2.2.
  auto v21 = BuildFile(ListOfString(), 3, {{ListOfConstantString()}}, 2, 1);
  LND_ASSERT_OK_AND_ASSIGN(auto r21, FileReader::Open(FileOf(v21)));
  LND_EXPECT_ERROR(r21.ReadAll(), StatusCode::kCorrupt,
                   "constant page with 3 buffers in a 2.1 file");

  TestPage both = ListOfConstantString();
  both.layout.mutable_constant_layout()->set_inline_value("ab");
  LND_ASSERT_OK_AND_ASSIGN(auto rb,
                           FileReader::Open(FileOf(BuildFile(ListOfString(), 3, {{both}}))));
  LND_EXPECT_ERROR(rb.ReadAll(), StatusCode::kCorrupt, "both an inline value and a value buffer");

  TestPage swapped = ListOfConstantString();  // levels first, as a misreading would assume
  std::swap(swapped.buffers[0], swapped.buffers[1]);
  LND_ASSERT_OK_AND_ASSIGN(auto rs,
                           FileReader::Open(FileOf(BuildFile(ListOfString(), 3, {{swapped}}))));
  EXPECT_FALSE(rs.ReadAll().ok());
}

}  // namespace
}  // namespace lance_nd::file
