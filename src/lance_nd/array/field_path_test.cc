#include "lance_nd/array/field_path.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "lance_nd/testing/status_matchers.h"

namespace lance_nd::array {
namespace {

using Names = std::vector<std::string>;

// A name of 1-6 characters drawn mostly from those netCDF and xarray allow, dots and
// backticks included, so that many names collide with paths through their siblings.
std::string RandomName(std::mt19937& rng) {
  static const std::string kChars = "ab._`-+ 1#é";
  std::uniform_int_distribution<int> len(1, 6);
  std::uniform_int_distribution<std::size_t> pick(0, kChars.size() - 1);
  std::string name;
  const int n = len(rng);
  for (int i = 0; i < n; ++i) name += kChars[pick(rng)];
  return name;
}

std::vector<FieldPtr> RandomFields(std::mt19937& rng, int depth) {
  std::vector<FieldPtr> fields;
  std::vector<std::string> used;
  const int n = std::uniform_int_distribution<int>(1, 4)(rng);
  for (int i = 0; i < n; ++i) {
    std::string name = RandomName(rng);
    if (std::find(used.begin(), used.end(), name) != used.end()) continue;
    used.push_back(name);
    const bool nested = depth < 3 && std::bernoulli_distribution(0.5)(rng);
    fields.push_back(MakeField(name, nested ? Struct(RandomFields(rng, depth + 1)) : Int32()));
  }
  return fields;
}

void CollectPaths(const std::vector<FieldPtr>& fields, Names prefix, std::vector<Names>* out) {
  for (const FieldPtr& f : fields) {
    Names path = prefix;
    path.push_back(f->name());
    out->push_back(path);
    if (f->type()->id() == TypeId::kStruct) CollectPaths(f->type()->children(), path, out);
  }
}

TEST(FieldPathTest, JoinedPathsSplitBackIntoTheirNamesInGeneratedSchemas) {
  std::mt19937 rng(20261207);
  int checked = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const std::vector<FieldPtr> fields = RandomFields(rng, 0);
    std::vector<Names> paths;
    CollectPaths(fields, {}, &paths);
    for (const Names& names : paths) {
      const std::string joined = JoinFieldPath(names);
      LND_ASSERT_OK_AND_ASSIGN(Names back, SplitFieldPath(fields, joined));
      EXPECT_EQ(back, names) << "path " << joined;
      ++checked;
    }
  }
  EXPECT_GT(checked, 1000);
}

TEST(FieldPathTest, UnquotedDottedNamesResolveAgainstTheSchema) {
  const std::vector<FieldPtr> fields = {
      MakeField("__global_attrs__", Struct({MakeField("a.b", Int32()), MakeField("c", Int32())})),
      MakeField("x.y", Struct({MakeField("values", Int32())})),
      MakeField("s", Struct({MakeField("t", Struct({MakeField("u", Int32())})),
                             MakeField("t.u", Int32())}))};
  auto split = [&](const std::string& p) { return SplitFieldPath(fields, p); };
  LND_ASSERT_OK_AND_ASSIGN(Names a, split("__global_attrs__.a.b"));
  EXPECT_EQ(a, (Names{"__global_attrs__", "a.b"}));
  LND_ASSERT_OK_AND_ASSIGN(Names b, split("x.y.values"));
  EXPECT_EQ(b, (Names{"x.y", "values"}));
  // Two readings: the longest name wins; backticks choose the other.
  LND_ASSERT_OK_AND_ASSIGN(Names c, split("s.t.u"));
  EXPECT_EQ(c, (Names{"s", "t.u"}));
  LND_ASSERT_OK_AND_ASSIGN(Names d, split("s.t.`u`"));
  EXPECT_EQ(d, (Names{"s", "t", "u"}));
  LND_ASSERT_OK_AND_ASSIGN(Names e, split("x.y"));
  EXPECT_EQ(e, (Names{"x.y"}));
  // No reading: split at every dot, so the caller names the missing part.
  LND_ASSERT_OK_AND_ASSIGN(Names f, split("__global_attrs__.zz.q"));
  EXPECT_EQ(f, (Names{"__global_attrs__", "zz", "q"}));
}

TEST(FieldPathTest, BadQuotingIsRefusedWithThePath) {
  const std::vector<FieldPtr> fields = {MakeField("a", Int32())};
  LND_EXPECT_ERROR(SplitFieldPath(fields, "a.`b"), StatusCode::kInvalidArgument,
                   "field path 'a.`b' has an unterminated backtick");
  LND_EXPECT_ERROR(SplitFieldPath(fields, "`a`b"), StatusCode::kInvalidArgument,
                   "expected '.' after `a`");
  LND_EXPECT_ERROR(SplitFieldPath(fields, "a.``"), StatusCode::kInvalidArgument,
                   "has an empty name");
  LND_EXPECT_ERROR(SplitFieldPath(fields, "a.b`c"), StatusCode::kInvalidArgument,
                   "a backtick inside the name 'b`c'");
  EXPECT_EQ(JoinFieldPath({"a`b", "c.d", "e"}), "`a``b`.`c.d`.e");
  EXPECT_EQ(JoinFieldPath({"x", "y"}), "`x`.y");
  EXPECT_EQ(JoinFieldPath({"x.y"}), "`x.y`");
}

}  // namespace
}  // namespace lance_nd::array
