#include "lance_nd/table/tags.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <random>
#include <string>

#include "lance_nd/core/internal/untrusted_text.h"
#include "lance_nd/table/maintenance/table_fixture_test_util.h"
#include "lance_nd/table/tags/ops_test_util.h"
#include "lance_nd/table/test_util.h"
#include "lance_nd/testing/status_matchers.h"

namespace lance_nd::table {
namespace {

using ops_testing::CopyLocalTree;
using ops_testing::Lance12TaggedTable;
using ops_testing::ReadText;
using ops_testing::TempDir;

TEST(TagJsonTest, MatchesLance12BytesExactly) {
  auto local = io::LocalFileSystem();
  for (const std::string name : {"x", "v-one"}) {
    const std::string file = Lance12TaggedTable() + "/_refs/tags/" + name + ".json";
    LND_ASSERT_OK_AND_ASSIGN(std::string text, ReadText(*local, file));
    LND_ASSERT_OK_AND_ASSIGN(TagInfo tag, ParseTagFileJson(text, name, file));
    EXPECT_EQ(tag.name, name);
    EXPECT_FALSE(tag.branch.has_value());
    EXPECT_EQ(TagFileJson(tag), text);
  }
}

TEST(TagJsonTest, ParseRejectsNonTags) {
  LND_EXPECT_ERROR(ParseTagFileJson("{", "t", "f.json"), StatusCode::kCorrupt,
                   "tag file 'f.json' is not valid JSON");
  LND_EXPECT_ERROR(ParseTagFileJson("[1]", "t", "f.json"), StatusCode::kCorrupt,
                   "is not a JSON object");
  LND_EXPECT_ERROR(ParseTagFileJson("{\"manifestSize\": 3}", "t", "f.json"), StatusCode::kCorrupt,
                   "has no \"version\"");
  LND_EXPECT_ERROR(ParseTagFileJson("{\"version\": -1}", "t", "f.json"), StatusCode::kCorrupt,
                   "\"version\" that is not an unsigned integer");
  LND_EXPECT_ERROR(ParseTagFileJson("{\"version\": \"2\"}", "t", "f.json"), StatusCode::kCorrupt,
                   "\"version\" that is not an unsigned integer");
  LND_EXPECT_ERROR(ParseTagFileJson("{\"version\": 0}", "t", "f.json"), StatusCode::kCorrupt,
                   "version 0");
  LND_EXPECT_ERROR(ParseTagFileJson("{\"version\": 2, \"branch\": 5}", "t", "f.json"),
                   StatusCode::kCorrupt, "\"branch\" that is neither null nor a string");
  LND_EXPECT_ERROR(ParseTagFileJson("{\"version\": 2, \"manifestSize\": 1.5}", "t", "f.json"),
                   StatusCode::kCorrupt, "\"manifestSize\" that is not an unsigned integer");
  // The older form (snake_case size absent, no timestamps) still reads.
  LND_ASSERT_OK_AND_ASSIGN(TagInfo old, ParseTagFileJson("{\"version\": 7}", "t", "f"));
  EXPECT_EQ(old.version, 7u);
  EXPECT_EQ(old.manifest_size, 0u);
  EXPECT_TRUE(old.created_at.empty());
}

// `{"version": 2, "metadata": [[...]]}` with the whole document `depth` levels deep.
std::string TagNestedTo(int depth) {
  return "{\"version\": 2, \"metadata\": " + std::string(depth - 1, '[') +
         std::string(depth - 1, ']') + "}";
}

// Tag files are read from disk: their nesting is bounded before the parse (at the limit they
// read; one level past it and far past it they are corrupt, without recursing).
TEST(TagJsonTest, DeeplyNestedTagFileIsCorrupt) {
  const int limit = lance_nd::internal::kMaxJsonNesting;
  LND_ASSERT_OK_AND_ASSIGN(TagInfo ok, ParseTagFileJson(TagNestedTo(limit), "t", "f.json"));
  EXPECT_EQ(ok.version, 2u);
  std::mt19937 rng(33);
  std::uniform_int_distribution<int> past(limit + 1, 200'000);
  for (int depth : {limit + 1, 100'000, past(rng), past(rng), past(rng)}) {
    SCOPED_TRACE(depth);
    LND_EXPECT_ERROR(ParseTagFileJson(TagNestedTo(depth), "t", "_refs/tags/t.json"),
                     StatusCode::kCorrupt,
                     "tag file '_refs/tags/t.json' nests arrays and objects more than " +
                         std::to_string(limit) + " levels deep; expected a JSON object");
  }
  // Brackets inside a string do not count.
  LND_ASSERT_OK(ParseTagFileJson(
      "{\"version\": 2, \"branch\": \"" + std::string(100'000, '[') + "\"}", "t", "f"));
}

TEST(TagJsonTest, EscapesStrings) {
  TagInfo t;
  t.version = 3;
  t.branch = "a\"b\\c\n\x01";
  t.created_at = "c";
  t.updated_at = "u";
  const std::string json = TagFileJson(t);
  EXPECT_NE(json.find("\"branch\": \"a\\\"b\\\\c\\n\\u0001\""), std::string::npos) << json;
  LND_ASSERT_OK_AND_ASSIGN(TagInfo back, ParseTagFileJson(json, "", "f"));
  EXPECT_EQ(back, t);
}

TEST(TagNameTest, LanceRules) {
  for (const char* ok : {"x", "v-one", "release_1.2", "A9", "a.b.c", "lock", "x.locks"}) {
    LND_EXPECT_OK(ValidateTagName(ok));
  }
  LND_EXPECT_ERROR(ValidateTagName(""), StatusCode::kInvalidArgument, "cannot be empty");
  LND_EXPECT_ERROR(ValidateTagName("a/b"), StatusCode::kInvalidArgument,
                   "invalid tag name 'a/b': only ASCII letters, digits");
  LND_EXPECT_ERROR(ValidateTagName("a b"), StatusCode::kInvalidArgument, "only ASCII");
  LND_EXPECT_ERROR(ValidateTagName("\xc3\xa9"), StatusCode::kInvalidArgument, "only ASCII");
  LND_EXPECT_ERROR(ValidateTagName(".a"), StatusCode::kInvalidArgument, "cannot begin with '.'");
  LND_EXPECT_ERROR(ValidateTagName("a."), StatusCode::kInvalidArgument, "cannot end with '.'");
  LND_EXPECT_ERROR(ValidateTagName("a.lock"), StatusCode::kInvalidArgument, "'.lock'");
  LND_EXPECT_ERROR(ValidateTagName("a..b"), StatusCode::kInvalidArgument, "cannot contain '..'");
}

TEST(TagsLance12Test, ListsAndOpensLanceTags) {
  auto local = io::LocalFileSystem();
  LND_ASSERT_OK_AND_ASSIGN(auto tags, ListTags(TableLocation(local, Lance12TaggedTable())));
  ASSERT_EQ(tags.size(), 2u);
  EXPECT_EQ(tags[0].name, "v-one");
  EXPECT_EQ(tags[0].version, 1u);
  EXPECT_EQ(tags[0].manifest_size, 443u);
  EXPECT_EQ(tags[1].name, "x");
  EXPECT_EQ(tags[1].version, 2u);
  EXPECT_EQ(tags[1].manifest_size, 464u);
  LND_ASSERT_OK_AND_ASSIGN(Dataset v1,
                           OpenTag(TableLocation(local, Lance12TaggedTable()), "v-one"));
  EXPECT_EQ(v1.version(), 1u);
  EXPECT_EQ(v1.CountRows(), 3u);
  LND_ASSERT_OK_AND_ASSIGN(Dataset v2, OpenTag(TableLocation(local, Lance12TaggedTable()), "x"));
  EXPECT_EQ(v2.CountRows(), 5u);
}

// A copy of the Lance 12 tagged table without its tags, in memory or on local disk.
class TagsTest : public ops_testing::MemoryOrLocalTableTest {
 protected:
  void SetUp() override {
    MemoryOrLocalTableTest::SetUp();
    LND_ASSERT_OK(CopyLocalTree(Lance12TaggedTable(), *fs_, table_));
    LND_ASSERT_OK(fs_->Delete(table_ + "/_refs/tags/x.json"));
    LND_ASSERT_OK(fs_->Delete(table_ + "/_refs/tags/v-one.json"));
  }
};

// "YYYY-MM-DDTHH:MM:SS" + optional ".mmm" / ".uuuuuu" / ".nnnnnnnnn" + "Z".
bool IsRfc3339Utc(const std::string& s) {
  const std::string shape = "dddd-dd-ddTdd:dd:dd";
  auto digit = [](char c) { return c >= '0' && c <= '9'; };
  if (s.size() < shape.size() + 1 || s.back() != 'Z') return false;
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == 'd' ? !digit(s[i]) : s[i] != shape[i]) return false;
  }
  const std::size_t frac = s.size() - 1 - shape.size();
  if (frac == 0) return true;
  if ((frac != 4 && frac != 7 && frac != 10) || s[shape.size()] != '.') return false;
  for (std::size_t i = shape.size() + 1; i + 1 < s.size(); ++i) {
    if (!digit(s[i])) return false;
  }
  return true;
}

TEST_P(TagsTest, CreateWritesLanceForm) {
  LND_ASSERT_OK_AND_ASSIGN(auto none, ListTags(TableLocation(fs_, table_)));
  EXPECT_TRUE(none.empty());
  LND_ASSERT_OK_AND_ASSIGN(TagInfo created, CreateTag(TableLocation(fs_, table_), "rel-1", 2));
  // What CreateTag returns is what its file holds.
  LND_ASSERT_OK_AND_ASSIGN(TagInfo read, GetTag(TableLocation(fs_, table_), "rel-1"));
  EXPECT_EQ(created, read);
  EXPECT_EQ(created.name, "rel-1");
  EXPECT_EQ(created.version, 2u);
  LND_ASSERT_OK_AND_ASSIGN(std::string text, ReadText(*fs_, table_ + "/_refs/tags/rel-1.json"));
  // Same shape as Lance's file; only the timestamps differ. (No std::regex: g++ 12 under
  // ASan reports a false -Wmaybe-uninitialized inside libstdc++'s regex compiler.)
  const std::string key = "\"createdAt\": \"";
  const std::size_t at = text.find(key);
  ASSERT_NE(at, std::string::npos) << text;
  const std::size_t end = text.find('"', at + key.size());
  ASSERT_NE(end, std::string::npos) << text;
  const std::string stamp = text.substr(at + key.size(), end - at - key.size());
  EXPECT_TRUE(IsRfc3339Utc(stamp)) << stamp;
  const std::string expected = "{\n  \"branch\": null,\n  \"version\": 2,\n  \"createdAt\": \"" +
                               stamp + "\",\n  \"updatedAt\": \"" + stamp +
                               "\",\n  \"manifestSize\": 464,\n  \"metadata\": {}\n}";
  EXPECT_EQ(text, expected);
  LND_ASSERT_OK_AND_ASSIGN(TagInfo got, GetTag(TableLocation(fs_, table_), "rel-1"));
  EXPECT_EQ(got.version, 2u);
  EXPECT_EQ(got.manifest_size, 464u);
  LND_ASSERT_OK_AND_ASSIGN(Dataset ds, OpenTag(TableLocation(fs_, table_), "rel-1"));
  EXPECT_EQ(ds.version(), 2u);
  EXPECT_EQ(ds.CountRows(), 5u);
}

TEST_P(TagsTest, CreateListDelete) {
  LND_ASSERT_OK(CreateTag(TableLocation(fs_, table_), "b", 3));
  LND_ASSERT_OK(CreateTag(TableLocation(fs_, table_), "a", 1));
  LND_ASSERT_OK(CreateTag(TableLocation(fs_, table_), "c", 1));
  // A temporary file and a non-tag name in the directory are ignored.
  LND_ASSERT_OK(testing::WriteBytes(*fs_, table_ + "/_refs/tags/.tmpAB12", {'x'}));
  LND_ASSERT_OK_AND_ASSIGN(auto tags, ListTags(TableLocation(fs_, table_)));
  ASSERT_EQ(tags.size(), 3u);
  EXPECT_EQ(tags[0].name, "a");
  EXPECT_EQ(tags[1].name, "b");
  EXPECT_EQ(tags[1].version, 3u);
  EXPECT_EQ(tags[1].manifest_size, 510u);
  EXPECT_EQ(tags[2].name, "c");
  LND_ASSERT_OK(DeleteTag(TableLocation(fs_, table_), "b"));
  LND_ASSERT_OK_AND_ASSIGN(tags, ListTags(TableLocation(fs_, table_)));
  ASSERT_EQ(tags.size(), 2u);
  EXPECT_EQ(tags[1].name, "c");
  // Deleted tags can be created again, at another version.
  LND_ASSERT_OK(CreateTag(TableLocation(fs_, table_), "b", 2));
  LND_ASSERT_OK_AND_ASSIGN(TagInfo b, GetTag(TableLocation(fs_, table_), "b"));
  EXPECT_EQ(b.version, 2u);
}

TEST_P(TagsTest, Errors) {
  LND_ASSERT_OK(CreateTag(TableLocation(fs_, table_), "x", 1));
  LND_EXPECT_ERROR(CreateTag(TableLocation(fs_, table_), "x", 2), StatusCode::kAlreadyExists,
                   "tag 'x' already exists");
  LND_ASSERT_OK_AND_ASSIGN(TagInfo x, GetTag(TableLocation(fs_, table_), "x"));
  EXPECT_EQ(x.version, 1u);  // not overwritten
  LND_EXPECT_ERROR(CreateTag(TableLocation(fs_, table_), "y", 99), StatusCode::kNotFound,
                   "cannot tag version 99 of table");
  LND_EXPECT_ERROR(CreateTag(TableLocation(fs_, table_), "y", 0), StatusCode::kNotFound,
                   "versions 1..3");
  LND_EXPECT_ERROR(CreateTag(TableLocation(fs_, table_), "a..b", 1), StatusCode::kInvalidArgument,
                   "'..'");
  LND_EXPECT_ERROR(CreateTag(TableLocation(fs_, table_), "../x", 1), StatusCode::kInvalidArgument,
                   "only ASCII");
  LND_EXPECT_ERROR(DeleteTag(TableLocation(fs_, table_), "nope"), StatusCode::kNotFound,
                   "tag 'nope' does not exist");
  LND_EXPECT_ERROR(GetTag(TableLocation(fs_, table_), "nope"), StatusCode::kNotFound,
                   "tag 'nope' does not exist");
  LND_EXPECT_ERROR(OpenTag(TableLocation(fs_, table_), "nope"), StatusCode::kNotFound,
                   "tag 'nope' does not exist");
  LND_EXPECT_ERROR(CreateTag(TableLocation(fs_, table_ + "-missing"), "x", 1),
                   StatusCode::kNotFound, "no Lance table");
  // A tag whose version was removed: OpenTag says which tag and version.
  LND_ASSERT_OK(testing::WriteBytes(
      *fs_, table_ + "/_refs/tags/gone.json",
      std::vector<std::uint8_t>{'{', '"', 'v', 'e', 'r', 's', 'i', 'o', 'n', '"', ':', '9', '}'}));
  LND_EXPECT_ERROR(OpenTag(TableLocation(fs_, table_), "gone"), StatusCode::kNotFound,
                   "opening tag 'gone' (version 9)");
  LND_ASSERT_OK(testing::WriteBytes(*fs_, table_ + "/_refs/tags/bad.json", {'[', ']'}));
  LND_EXPECT_ERROR(ListTags(TableLocation(fs_, table_)), StatusCode::kCorrupt, "bad.json");
  LND_ASSERT_OK(fs_->Delete(table_ + "/_refs/tags/bad.json"));
  const std::string deep = TagNestedTo(100'000);
  LND_ASSERT_OK(testing::WriteBytes(*fs_, table_ + "/_refs/tags/deep.json",
                                    std::vector<std::uint8_t>(deep.begin(), deep.end())));
  LND_EXPECT_ERROR(ListTags(TableLocation(fs_, table_)), StatusCode::kCorrupt,
                   "deep.json' nests arrays and objects more than");
  LND_EXPECT_ERROR(OpenTag(TableLocation(fs_, table_), "deep"), StatusCode::kCorrupt,
                   "deep.json' nests arrays and objects more than");
  LND_ASSERT_OK(fs_->Delete(table_ + "/_refs/tags/deep.json"));
  LND_ASSERT_OK(testing::WriteBytes(
      *fs_, table_ + "/_refs/tags/br.json",
      std::vector<std::uint8_t>{'{', '"', 'v', 'e', 'r', 's', 'i', 'o', 'n', '"', ':', '1', ',',
                                '"', 'b', 'r', 'a', 'n', 'c', 'h', '"', ':', '"', 'd', '"', '}'}));
  LND_EXPECT_ERROR(OpenTag(TableLocation(fs_, table_), "br"), StatusCode::kNotImplemented,
                   "branch 'd'");
}

INSTANTIATE_TEST_SUITE_P(MemoryAndLocal, TagsTest, ::testing::Values(false, true),
                         ops_testing::MemoryOrLocalName);

}  // namespace
}  // namespace lance_nd::table
