// Parser and SQL writer: generated trees survive ToSql -> Parse; the surface syntax Lance
// accepts reads as expected; errors point at the offending character.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <utility>

#include "lance_nd/query/expr.h"
#include "lance_nd/query/filter.h"
#include "lance_nd/testing/random_arrays.h"
#include "lance_nd/testing/status_matchers.h"

namespace lance_nd::query {
namespace {

using testing::Rng;

constexpr const char* kNames[] = {
    "a",   "B",           "x_1",    "a.b",  "odd`name",          "with space",
    "and", "__stats__:v", "values", "Date", "\xc3\xa9t\xc3\xa9", "9lives",
    "min"};

Literal RandomLiteral(Rng& rng) {
  Literal l;
  switch (rng.Below(5)) {
    case 0:
      break;
    case 1:
      l.kind = LiteralKind::kBool;
      l.bool_value = rng.Chance(0.5);
      break;
    case 2: {
      l.kind = LiteralKind::kInt;
      const std::int64_t picks[] = {0,
                                    1,
                                    -1,
                                    42,
                                    -7,
                                    std::numeric_limits<std::int64_t>::min(),
                                    std::numeric_limits<std::int64_t>::max()};
      l.int_value = rng.Chance(0.5) ? picks[rng.Below(7)] : static_cast<std::int64_t>(rng.Next());
      break;
    }
    case 3: {
      l.kind = LiteralKind::kFloat;
      const double picks[] = {0.0, -0.0, 1.5, -2.25, 1e300, 5e-324, 123.0, 1e20, -3.0e-7};
      double d = rng.Chance(0.5) ? picks[rng.Below(9)]
                                 : (rng.Unit() - 0.5) * std::pow(10.0, rng.Range(-20, 20));
      l.float_value = d;
      break;
    }
    default: {
      l.kind = LiteralKind::kString;
      const std::string picks[] = {"",      "K",           "it's",         "a%b_c",
                                   "\"q\"", "line\nbreak", "\xe2\x82\xac", "--x"};
      l.string_value = picks[rng.Below(8)];
    }
  }
  return l;
}

array::DataTypePtr RandomCastType(Rng& rng) {
  using namespace array;  // NOLINT
  const DataTypePtr types[] = {Int8(),
                               Int16(),
                               Int32(),
                               Int64(),
                               UInt8(),
                               UInt32(),
                               UInt64(),
                               Float32(),
                               Float64(),
                               Utf8(),
                               array::Binary(),
                               Bool(),
                               Date32(),
                               Timestamp(TimeUnit::kSecond),
                               Timestamp(TimeUnit::kMilli),
                               Timestamp(TimeUnit::kMicro),
                               Timestamp(TimeUnit::kNano)};
  return types[rng.Below(std::size(types))];
}

ExprPtr RandomExpr(Rng& rng, int depth) {
  if (depth <= 0 || rng.Chance(0.2)) {
    if (rng.Chance(0.5)) return MakeLiteral(RandomLiteral(rng));
    ColumnPath path;
    const auto parts = rng.Range(1, 3);
    for (std::int64_t i = 0; i < parts; ++i) {
      path.emplace_back(kNames[rng.Below(std::size(kNames))]);
    }
    return ColumnRef(path);
  }
  auto sub = [&] { return RandomExpr(rng, depth - 1); };
  switch (rng.Below(11)) {
    case 0:
      return Not(sub());
    case 1:
      return Negate(sub());
    case 2:
    case 3:
      return Binary(static_cast<BinaryOp>(rng.Below(13)), sub(), sub());
    case 4:
      return IsNull(sub(), rng.Chance(0.5));
    case 5:
      return IsBool(sub(), rng.Chance(0.5), rng.Chance(0.5));
    case 6: {
      std::vector<ExprPtr> items;
      for (auto i = rng.Range(1, 3); i > 0; --i) items.push_back(sub());
      return InList(sub(), items, rng.Chance(0.5));
    }
    case 7:
      return Between(sub(), sub(), sub(), rng.Chance(0.5));
    case 8:
      return Like(sub(), sub(), rng.Chance(0.5),
                  rng.Chance(0.3) ? std::string(1, "\\!'"[rng.Below(3)]) : "");
    case 9:
      return CastTo(sub(), RandomCastType(rng));
    default: {
      const char* names[] = {"array_has", "array_length", "abs", "f"};
      std::vector<ExprPtr> args;
      for (auto i = rng.Range(0, 2); i > 0; --i) args.push_back(sub());
      return Call(names[rng.Below(4)], args);
    }
  }
}

TEST(FilterParser, GeneratedTreesRoundTripThroughSql) {
  for (std::uint64_t seed = 0; seed < 3000; ++seed) {
    Rng rng(seed);
    const ExprPtr tree = RandomExpr(rng, static_cast<int>(rng.Range(1, 5)));
    const std::string sql = ExprToSql(*tree);
    auto parsed = Filter::Parse(sql);
    ASSERT_TRUE(parsed.ok()) << "seed " << seed << ": " << sql << "\n"
                             << parsed.status().ToString();
    ASSERT_TRUE(ExprEquals(*tree, *parsed->root()))
        << "seed " << seed << ": " << sql << "\nreads back as " << parsed->ToSql();
    EXPECT_EQ(parsed->ToSql(), sql) << "seed " << seed;
  }
}

/// A left-deep chain of `length` operators of one binding level (a level picked per chain,
/// operators picked per link: comparisons mix =, <, IN, BETWEEN and LIKE), or `length` nested
/// NOTs or unary minuses, over small random operands: a tree some text of at most the parser's
/// nesting reads as.
ExprPtr RandomChain(Rng& rng, int length) {
  auto operand = [&] { return RandomExpr(rng, static_cast<int>(rng.Range(0, 2))); };
  const auto level = rng.Below(7);
  const bool level_not = rng.Chance(0.5);
  ExprPtr e = operand();
  for (int i = 0; i < length; ++i) {
    switch (level) {
      case 0:
        e = Binary(BinaryOp::kOr, e, operand());
        break;
      case 1:
        e = Binary(BinaryOp::kAnd, e, operand());
        break;
      case 2:
        switch (rng.Below(4)) {
          case 0:
            e = Binary(static_cast<BinaryOp>(rng.Below(6)), e, operand());  // = <> < <= > >=
            break;
          case 1:
            e = InList(e, {operand(), operand()}, rng.Chance(0.5));
            break;
          case 2:
            e = Between(e, operand(), operand(), rng.Chance(0.5));
            break;
          default:
            e = Like(e, operand(), rng.Chance(0.5), "", rng.Chance(0.5));
        }
        break;
      case 3:
        e = Binary(rng.Chance(0.5) ? BinaryOp::kAdd : BinaryOp::kSub, e, operand());
        break;
      case 4:
        e = Binary(static_cast<BinaryOp>(static_cast<int>(BinaryOp::kMul) + rng.Below(3)), e,
                   operand());
        break;
      case 5:
        e = rng.Chance(0.5) ? IsNull(e, rng.Chance(0.5)) : IsBool(e, rng.Chance(0.5), false);
        break;
      default:  // all NOTs or all minuses: `-(NOT a)` needs parentheses in any text
        e = level_not ? Not(e) : Negate(e);
    }
  }
  return e;
}

// Issue 33: a chain of ~130 comparisons parsed, but printed one parenthesis per operator and no
// longer parsed (400 levels at most). Whatever parses prints to SQL that parses to the same tree
// and prints identically, however long its chains (up to what the parser takes).
TEST(FilterParser, GeneratedDeepChainsRoundTripThroughSql) {
  for (std::uint64_t seed = 0; seed < 600; ++seed) {
    Rng rng(seed);
    const int length = static_cast<int>(rng.Chance(0.3) ? rng.Range(100, 300) : rng.Range(1, 40));
    ExprPtr tree = RandomChain(rng, length);
    // Sometimes the chain sits inside a bigger tree, or under another chain.
    if (rng.Chance(0.3)) tree = Binary(BinaryOp::kAnd, RandomExpr(rng, 2), tree);
    if (rng.Chance(0.3))
      tree = IsNull(Between(tree, RandomExpr(rng, 1), RandomExpr(rng, 1), false), false);
    const std::string sql = ExprToSql(*tree);
    SCOPED_TRACE("seed " + std::to_string(seed) + ", chain of " + std::to_string(length));
    auto parsed = Filter::Parse(sql);
    ASSERT_TRUE(parsed.ok()) << sql.substr(0, 300) << "\n" << parsed.status().ToString();
    ASSERT_TRUE(ExprEquals(*tree, *parsed->root()))
        << sql.substr(0, 300) << "\nreads back as " << parsed->ToSql().substr(0, 300);
    EXPECT_EQ(parsed->ToSql(), sql);
  }
}

TEST(FilterParser, ChainsPrintWithoutParentheses) {
  EXPECT_EQ(Filter::Parse("a = 1 = true <> b IN (1) NOT BETWEEN 1 AND 2 LIKE 'x'")->ToSql(),
            "a = 1 = true <> b IN (1) NOT BETWEEN 1 AND 2 LIKE 'x'");
  EXPECT_EQ(Filter::Parse("- - -a")->ToSql(), "- - -a");
  EXPECT_EQ(Filter::Parse("-(-5)")->ToSql(), "- -5");
  EXPECT_EQ(Filter::Parse("-(5)")->ToSql(), "-(5)");
  EXPECT_EQ(Filter::Parse("a = (b = c)")->ToSql(), "a = (b = c)");
  EXPECT_EQ(Filter::Parse("a - (b - c)")->ToSql(), "a - (b - c)");
  std::string chain = "a";
  for (int i = 0; i < 300; ++i) chain += i % 2 == 0 ? " = b" : " LIKE 'x'";
  LND_ASSERT_OK_AND_ASSIGN(auto long_chain, Filter::Parse(chain));
  EXPECT_EQ(long_chain.ToSql(), chain);
}

// A number past double's range reads as an infinite literal, which prints as
// CAST('-inf' AS DOUBLE): an atom, so a minus before it takes no space and no parentheses
// (`- + -5e332` printed `- CAST(...)`, which read back printed `-CAST(...)`).
TEST(FilterParser, InfiniteLiteralsPrintStably) {
  const std::pair<const char*, const char*> cases[] = {
      {"-5e332", "CAST('-inf' AS DOUBLE)"},
      {"- + -5e332", "-CAST('-inf' AS DOUBLE)"},
      {"-(5e332)", "-CAST('inf' AS DOUBLE)"},
      {"-+5e332", "-CAST('inf' AS DOUBLE)"},
      {"a + -5e3 + - + -5e332", "a + -5000.0 + -CAST('-inf' AS DOUBLE)"},
      {"-('x')", "-'x'"}};
  for (const auto& [sql, printed] : cases) {
    LND_ASSERT_OK_AND_ASSIGN(auto filter, Filter::Parse(sql));
    EXPECT_EQ(filter.ToSql(), printed) << sql;
    LND_ASSERT_OK_AND_ASSIGN(auto again, Filter::Parse(filter.ToSql()));
    EXPECT_EQ(again.ToSql(), printed) << sql;
  }
}

void ExpectSame(const std::string& a, const std::string& b) {
  auto fa = Filter::Parse(a);
  auto fb = Filter::Parse(b);
  ASSERT_TRUE(fa.ok()) << a << ": " << fa.status().ToString();
  ASSERT_TRUE(fb.ok()) << b << ": " << fb.status().ToString();
  EXPECT_TRUE(ExprEquals(*fa->root(), *fb->root())) << a << " -> " << fa->ToSql() << "\n"
                                                    << b << " -> " << fb->ToSql();
}

TEST(FilterParser, SurfaceSyntax) {
  ExpectSame("a == 1", "a = 1");
  ExpectSame("a != 1", "a <> 1");
  ExpectSame("a = \"x y\"", "a = `x y`");  // LanceDB reads double quotes as a name
  auto ilike = Filter::Parse("a NOT ILIKE 'x'");
  ASSERT_TRUE(ilike.ok());
  EXPECT_TRUE(
      ExprEquals(*ilike->root(), *Like(ColumnRef({"a"}), StringLiteral("x"), true, "", true)));
  ExpectSame("a and b OR not c", "(a AND b) OR (NOT c)");
  ExpectSame("a = 1 AND b = 2 OR c = 3", "((a = 1) AND (b = 2)) OR (c = 3)");
  ExpectSame("NOT a = 1", "NOT (a = 1)");
  ExpectSame("a + b * c - d", "(a + (b * c)) - d");
  ExpectSame("- a * b", "(-a) * b");
  ExpectSame("a = 1 IS NULL", "(a = 1) IS NULL");
  ExpectSame("a BETWEEN 1 + 1 AND 3 AND b", "(a BETWEEN (1 + 1) AND 3) AND b");
  ExpectSame("`a.b`.values", "`a.b`.`values`");
  ExpectSame("`__stats__:sst`.max > 1 -- a comment", "`__stats__:sst`.max > 1");
  ExpectSame("DATE '2020-01-01'", "CAST('2020-01-01' AS DATE)");
  ExpectSame("TIMESTAMP '2020-01-01 00:00:00'", "CAST('2020-01-01 00:00:00' AS TIMESTAMP(6))");
  ExpectSame("CAST(a AS integer)", "CAST(a AS INT)");
  ExpectSame("CAST(a AS bigint unsigned)", "CAST(a AS BIGINT UNSIGNED)");
  ExpectSame("ARRAY_HAS(v.values, 1)", "array_has(v.values, 1)");
  ExpectSame("a = .5e1", "a = 5.0");
  ExpectSame("x LIKE 'a!%' ESCAPE '!'", "x LIKE 'a!%' ESCAPE '!'");
}

TEST(FilterParser, IdentifiersKeepTheirCase) {
  auto f = Filter::Parse("Sst.Values > 1 AND `Odd Name` = 1");
  ASSERT_TRUE(f.ok());
  const std::vector<ColumnPath> expected = {{"Sst", "Values"}, {"Odd Name"}};
  EXPECT_EQ(f->ColumnPaths(), expected);
}

TEST(FilterParser, LiteralValues) {
  auto f = Filter::Parse("-9223372036854775808");
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(f->root()->literal.kind, LiteralKind::kInt);
  EXPECT_EQ(f->root()->literal.int_value, std::numeric_limits<std::int64_t>::min());
  f = Filter::Parse("9223372036854775808");  // past int64: a float, as Lance reads it
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(f->root()->literal.kind, LiteralKind::kFloat);
  f = Filter::Parse("'it''s'");
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(f->root()->literal.string_value, "it's");
  f = Filter::Parse("`a``b`");
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(f->root()->path, ColumnPath{"a`b"});
}

// The error names the position of the first character that cannot continue the filter.
void ExpectErrorAt(const std::string& sql, std::size_t position, const std::string& words) {
  auto f = Filter::Parse(sql);
  ASSERT_FALSE(f.ok()) << sql;
  EXPECT_EQ(f.status().kind(), ErrorKind::kParseError);
  const std::string message(f.status().message());
  EXPECT_NE(message.find("at position " + std::to_string(position) + " "), std::string::npos)
      << sql << "\n"
      << message;
  EXPECT_NE(message.find(words), std::string::npos) << message;
  EXPECT_NE(message.find('^'), std::string::npos) << message;
}

TEST(FilterParser, ErrorPositions) {
  ExpectErrorAt("a = ", 4, "end of the filter");
  ExpectErrorAt("a = 1 AND", 9, "expected");
  ExpectErrorAt("a = 'x", 4, "unterminated string");
  ExpectErrorAt("a # 1", 2, "unexpected character '#'");
  ExpectErrorAt("a IN (1, 2", 10, "',' or ')'");
  ExpectErrorAt("CAST(a AS wibble)", 10, "type name");
  ExpectErrorAt("a IS 3", 5, "NULL, TRUE or FALSE");
  ExpectErrorAt("a 1", 2, "the number 1");
  ExpectErrorAt("", 0, "expected an expression");
  ExpectErrorAt("a = 1\n  AND )", 12, "line 2, column 7");
}

TEST(FilterParser, DeepNestingIsAnErrorNotACrash) {
  const std::string deep = std::string(100000, '(') + "a" + std::string(100000, ')');
  auto f = Filter::Parse(deep);
  ASSERT_FALSE(f.ok());
  EXPECT_EQ(f.status().kind(), ErrorKind::kParseError);
  EXPECT_NE(std::string(f.status().message()).find("nests more than"), std::string::npos);
  std::string nots;
  for (int i = 0; i < 100000; ++i) nots += "NOT ";
  EXPECT_FALSE(Filter::Parse(nots + "a").ok());
  EXPECT_FALSE(Filter::Parse(std::string(100000, '-') + "a").ok());  // `--` starts a comment
  EXPECT_FALSE(Filter::Parse(std::string(50000, '-') + " a").ok());
  std::string negs;
  for (int i = 0; i < 100000; ++i) negs += "- ";
  EXPECT_FALSE(Filter::Parse(negs + "a").ok());
  std::string chain = "a = 0";
  for (int i = 1; i < 100000; ++i) chain += " OR a = " + std::to_string(i);
  auto long_chain = Filter::Parse(chain);
  ASSERT_FALSE(long_chain.ok());
  EXPECT_NE(std::string(long_chain.status().message()).find("use IN"), std::string::npos);
  // A moderately nested filter still parses.
  EXPECT_TRUE(Filter::Parse(std::string(100, '(') + "a" + std::string(100, ')')).ok());
}

TEST(FilterParser, GeneratedErrorsPointAtTheBreak) {
  for (std::uint64_t seed = 0; seed < 500; ++seed) {
    Rng rng(seed);
    const std::string sql = ExprToSql(*RandomExpr(rng, 3));
    // Cut after an operator that needs a right-hand side: the error is at the end.
    const std::string cut = sql + " AND";
    ExpectErrorAt(cut, cut.size(), "end of the filter");
    // A character no token starts with, put after the filter's text, is reported where it is.
    const std::string bad = sql + " ?";
    ExpectErrorAt(bad, sql.size() + 1, "unexpected character '?'");
  }
}

}  // namespace
}  // namespace lance_nd::query
