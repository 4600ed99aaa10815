// SQL's three-valued logic, written out as the standard's truth tables (T, F, N = unknown), over
// every pair of operand states.
#include <gtest/gtest.h>

#include "lance_nd/array/builder.h"
#include "lance_nd/array/view.h"
#include "lance_nd/query/filter.h"
#include "lance_nd/testing/status_matchers.h"

namespace lance_nd::query {
namespace {

using array::MakeField;

std::optional<bool> State(char c) {
  if (c == 'N') return std::nullopt;
  return c == 'T';
}

// Rows: (a, b) for a in T F N and b in T F N; x: int a per row; sliced by one row.
array::RecordBatchPtr TruthBatch() {
  std::vector<std::optional<bool>> a = {true}, b = {true};  // the row cut off by the slice
  std::vector<std::optional<std::int32_t>> x = {0};
  const std::string states = "TFN";
  for (char sa : states) {
    for (char sb : states) {
      a.push_back(State(sa));
      b.push_back(State(sb));
      x.push_back(sa == 'N' ? std::nullopt : std::optional<std::int32_t>(sa == 'T' ? 1 : 2));
    }
  }
  auto cut = [](const array::ArrayPtr& arr) { return *array::Slice(arr, 1, 9); };
  auto schema = array::MakeSchema({MakeField("a", array::Bool()), MakeField("b", array::Bool()),
                                   MakeField("x", array::Int32())});
  return std::make_shared<array::RecordBatch>(
      schema, 9,
      std::vector<array::ArrayPtr>{
          cut(array::MakeBoolArray(a)), cut(array::MakeBoolArray(b)),
          cut(array::MakePrimitiveArray<std::int32_t>(array::Int32(), x))});
}

// The filter's value on the 9 rows as "TFN..." text.
std::string Outcome(const std::string& sql) {
  auto batch = TruthBatch();
  auto f = Filter::Parse(sql);
  EXPECT_TRUE(f.ok()) << f.status().ToString();
  auto bound = f->Bind(*batch->schema());
  EXPECT_TRUE(bound.ok()) << bound.status().ToString();
  auto result = bound->Evaluate(*batch);
  EXPECT_TRUE(result.ok()) << result.status().ToString();
  if (!result.ok()) return "error";
  std::string out;
  const array::BoolView v(**result);
  for (std::int64_t i = 0; i < 9; ++i) out += v.IsNull(i) ? 'N' : (v.Value(i) ? 'T' : 'F');
  return out;
}

// Truth tables row by row: a = T (b = T F N), a = F (...), a = N (...).
TEST(ThreeValuedLogic, BinaryConnectives) {
  EXPECT_EQ(Outcome("a AND b"),
            "TFN"
            "FFF"
            "NFN");
  EXPECT_EQ(Outcome("a OR b"),
            "TTT"
            "TFN"
            "TNN");
  EXPECT_EQ(Outcome("b AND a"),
            "TFN"
            "FFF"
            "NFN");
  EXPECT_EQ(Outcome("b OR a"),
            "TTT"
            "TFN"
            "TNN");
}

TEST(ThreeValuedLogic, UnaryTests) {
  EXPECT_EQ(Outcome("NOT a"),
            "FFF"
            "TTT"
            "NNN");
  EXPECT_EQ(Outcome("a IS NULL"),
            "FFF"
            "FFF"
            "TTT");
  EXPECT_EQ(Outcome("a IS NOT NULL"),
            "TTT"
            "TTT"
            "FFF");
  EXPECT_EQ(Outcome("a IS TRUE"),
            "TTT"
            "FFF"
            "FFF");
  EXPECT_EQ(Outcome("a IS NOT TRUE"),
            "FFF"
            "TTT"
            "TTT");
  EXPECT_EQ(Outcome("a IS FALSE"),
            "FFF"
            "TTT"
            "FFF");
  EXPECT_EQ(Outcome("a IS NOT FALSE"),
            "TTT"
            "FFF"
            "TTT");
}

TEST(ThreeValuedLogic, NullOperands) {
  EXPECT_EQ(Outcome("x = NULL"),
            "NNN"
            "NNN"
            "NNN");
  EXPECT_EQ(Outcome("NULL = NULL"),
            "NNN"
            "NNN"
            "NNN");
  EXPECT_EQ(Outcome("NULL AND false"),
            "FFF"
            "FFF"
            "FFF");
  EXPECT_EQ(Outcome("NULL OR true"),
            "TTT"
            "TTT"
            "TTT");
  EXPECT_EQ(Outcome("NOT NULL"),
            "NNN"
            "NNN"
            "NNN");
  EXPECT_EQ(Outcome("x + NULL > 0"),
            "NNN"
            "NNN"
            "NNN");
  // x is 1 (a = T), 2 (a = F), null (a = N).
  EXPECT_EQ(Outcome("x = 1"),
            "TTT"
            "FFF"
            "NNN");
  EXPECT_EQ(Outcome("x IN (1, NULL)"),
            "TTT"
            "NNN"
            "NNN");
  EXPECT_EQ(Outcome("x NOT IN (1, NULL)"),
            "FFF"
            "NNN"
            "NNN");
  EXPECT_EQ(Outcome("x NOT IN (1, 3)"),
            "FFF"
            "TTT"
            "NNN");
  EXPECT_EQ(Outcome("x BETWEEN NULL AND 1"),
            "NNN"
            "FFF"
            "NNN");
  EXPECT_EQ(Outcome("x NOT BETWEEN NULL AND 1"),
            "NNN"
            "TTT"
            "NNN");
  EXPECT_EQ(Outcome("x BETWEEN 0 AND 1 OR b"),
            "TTT"
            "TFN"
            "TNN");
}

}  // namespace
}  // namespace lance_nd::query
