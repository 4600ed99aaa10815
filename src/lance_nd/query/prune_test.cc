// PruneFilter: each rewrite rule, the row outcomes of the stats guard, and a property test:
// on random tables with stats computed here, the pruned selection holds every row that has a
// matching value.
#include <gtest/gtest.h>

#include <cmath>
#include <optional>

#include "lance_nd/array/builder.h"
#include "lance_nd/query/expr.h"
#include "lance_nd/query/filter.h"
#include "lance_nd/testing/random_arrays.h"
#include "lance_nd/testing/status_matchers.h"

namespace lance_nd::query {
namespace {

using array::DataTypePtr;
using array::MakeField;
using testing::Rng;

DataTypePtr VariableType(const DataTypePtr& value) {
  return array::Struct({MakeField("values", array::List(value))});
}
DataTypePtr StatsType(const DataTypePtr& value) {
  return array::Struct({MakeField("min", value), MakeField("max", value)});
}

// v: float64 values with stats; w: int32 with stats; `a.b`: float64 with stats; nostats: float64
// without; flag: bool without (booleans get no stats).
array::SchemaPtr TableSchema(bool with_stats = true) {
  std::vector<array::FieldPtr> fields = {
      MakeField("v", VariableType(array::Float64())),
      MakeField("w", VariableType(array::Int32())),
      MakeField("a.b", VariableType(array::Float64())),
      MakeField("nostats", VariableType(array::Float64())),
      MakeField("flag", VariableType(array::Bool())),
      MakeField("__global_attrs__", array::Struct({MakeField("id", array::Utf8())}))};
  if (with_stats) {
    fields.push_back(MakeField("__stats__:v", StatsType(array::Float64())));
    fields.push_back(MakeField("__stats__:w", StatsType(array::Int32())));
    fields.push_back(MakeField("__stats__:a.b", StatsType(array::Float64())));
  }
  return array::MakeSchema(fields);
}

ExprPtr Parsed(const std::string& sql) {
  auto f = Filter::Parse(sql);
  EXPECT_TRUE(f.ok()) << sql << ": " << f.status().ToString();
  return f.ok() ? f->root() : NullLiteral();
}

std::optional<Filter> Prune(const std::string& sql, bool with_stats = true) {
  auto f = Filter::Parse(sql);
  EXPECT_TRUE(f.ok()) << f.status().ToString();
  auto pruned = PruneFilter(*f, *TableSchema(with_stats));
  EXPECT_TRUE(pruned.ok()) << pruned.status().ToString();
  return pruned.ok() ? *pruned : std::nullopt;
}

void ExpectPrunedTo(const std::string& sql, const std::string& expected) {
  const auto pruned = Prune(sql);
  ASSERT_TRUE(pruned.has_value()) << sql;
  EXPECT_TRUE(ExprEquals(*pruned->root(), *Parsed(expected)))
      << sql << "\n got: " << pruned->ToSql() << "\nwant: " << expected;
}

// The guard every rewritten part carries: stats present, then no counted values or the test.
std::string Guarded(const std::string& stats, const std::string& test) {
  return "(`" + stats + "` IS NOT NULL) AND ((`" + stats + "`.min IS NULL) OR (" + test + "))";
}

TEST(PruneRules, EachComparison) {
  const std::string s = "`__stats__:v`";
  ExpectPrunedTo("v.values = 3", Guarded("__stats__:v", s + ".min <= 3 AND " + s + ".max >= 3"));
  ExpectPrunedTo("v.values < 3", Guarded("__stats__:v", s + ".min < 3"));
  ExpectPrunedTo("v.values <= 3", Guarded("__stats__:v", s + ".min <= 3"));
  ExpectPrunedTo("v.values > 3", Guarded("__stats__:v", s + ".max > 3"));
  ExpectPrunedTo("v.values >= 3", Guarded("__stats__:v", s + ".max >= 3"));
  ExpectPrunedTo("v.values BETWEEN 1 AND 2",
                 Guarded("__stats__:v", s + ".max >= 1 AND " + s + ".min <= 2"));
  ExpectPrunedTo("v.values IN (1, 2.5)",
                 "(" + Guarded("__stats__:v", s + ".min <= 1 AND " + s + ".max >= 1") + ") OR (" +
                     Guarded("__stats__:v", s + ".min <= 2.5 AND " + s + ".max >= 2.5") + ")");
  ExpectPrunedTo("array_has(v.values, 4)",
                 Guarded("__stats__:v", s + ".min <= 4 AND " + s + ".max >= 4"));
}

TEST(PruneRules, SwappedOperands) {
  const std::string s = "`__stats__:v`";
  ExpectPrunedTo("3 < v.values", Guarded("__stats__:v", s + ".max > 3"));
  ExpectPrunedTo("3 >= v.values", Guarded("__stats__:v", s + ".min <= 3"));
  ExpectPrunedTo("3 = v.values", Guarded("__stats__:v", s + ".min <= 3 AND " + s + ".max >= 3"));
}

TEST(PruneRules, Combinations) {
  const std::string s = "`__stats__:v`";
  const std::string v_gt = Guarded("__stats__:v", s + ".max > 3");
  // AND drops a side without a stats form; OR needs both.
  ExpectPrunedTo("v.values > 3 AND nostats.values > 1", v_gt);
  ExpectPrunedTo("nostats.values > 1 AND v.values > 3", v_gt);
  EXPECT_FALSE(Prune("v.values > 3 OR nostats.values > 1").has_value());
  ExpectPrunedTo("v.values > 3 OR w.values < 0",
                 "(" + v_gt + ") OR (" + Guarded("__stats__:w", "`__stats__:w`.min < 0") + ")");
  // Attribute parts stay exact, also under NOT; NOT over values keeps every row.
  ExpectPrunedTo("v.values > 3 AND NOT __global_attrs__.id = 'a'",
                 "(" + v_gt + ") AND NOT __global_attrs__.id = 'a'");
  EXPECT_FALSE(Prune("NOT v.values > 3").has_value());
  ExpectPrunedTo("NOT v.values > 3 AND v IS NOT NULL", "v IS NOT NULL");
  ExpectPrunedTo("__global_attrs__.id = 'a'", "__global_attrs__.id = 'a'");
  // No stats form: <>, NOT IN, NOT BETWEEN, functions of values, variables without stats.
  EXPECT_FALSE(Prune("v.values <> 3").has_value());
  EXPECT_FALSE(Prune("v.values NOT IN (1, 2)").has_value());
  EXPECT_FALSE(Prune("v.values NOT BETWEEN 1 AND 2").has_value());
  EXPECT_FALSE(Prune("array_length(v.values) > 2").has_value());
  EXPECT_FALSE(Prune("flag.values = true").has_value());
  EXPECT_FALSE(Prune("nostats.values > 1").has_value());
  EXPECT_FALSE(Prune("v.values > 3", /*with_stats=*/false).has_value());
}

TEST(PruneRules, VariableNamesResolveAsInBind) {
  // Top-level names match ignoring case when no name matches exactly (struct fields do not).
  ExpectPrunedTo("V.values > 1", Guarded("__stats__:v", "`__stats__:v`.max > 1"));
  ExpectPrunedTo("v.Values > 1", "v.Values > 1");  // not a value part: left for Bind to refuse
}

TEST(PruneRules, DottedVariableNames) {
  ExpectPrunedTo("a.b.values > 1", Guarded("__stats__:a.b", "`__stats__:a.b`.max > 1"));
  ExpectPrunedTo("`a.b`.values > 1", Guarded("__stats__:a.b", "`__stats__:a.b`.max > 1"));
}

// ---- tables with values and stats built here ------------------------------------------------

struct Row {
  std::optional<std::vector<std::optional<double>>> v, w, ab;  // nullopt: variable absent
  std::optional<std::string> id;
};

void AppendVariable(array::StructBuilder* b,
                    const std::optional<std::vector<std::optional<double>>>& values, bool ints) {
  auto* list = static_cast<array::ListBuilder*>(b->child_builder(0));
  b->Append(values.has_value());
  list->Append(values.has_value());
  if (!values) return;  // a null struct row with an empty, valid values list
  for (const auto& x : *values) {
    if (ints) {
      auto* items = static_cast<array::PrimitiveBuilder<std::int32_t>*>(list->value_builder());
      x ? items->Append(static_cast<std::int32_t>(*x)) : items->AppendNull();
    } else {
      auto* items = static_cast<array::PrimitiveBuilder<double>*>(list->value_builder());
      x ? items->Append(*x) : items->AppendNull();
    }
  }
}

// Stats as the format defines them: null when the variable is absent, else min and max of the
// values that are neither null nor NaN (both null when there is none).
void AppendStats(array::StructBuilder* b,
                 const std::optional<std::vector<std::optional<double>>>& values, bool ints) {
  std::optional<double> lo, hi;
  if (values) {
    for (const auto& x : *values) {
      if (!x || std::isnan(*x)) continue;
      lo = lo ? std::min(*lo, *x) : *x;
      hi = hi ? std::max(*hi, *x) : *x;
    }
  }
  b->Append(values.has_value());
  for (int k = 0; k < 2; ++k) {
    const auto& m = k == 0 ? lo : hi;
    if (ints) {
      auto* c = static_cast<array::PrimitiveBuilder<std::int32_t>*>(b->child_builder(k));
      m ? c->Append(static_cast<std::int32_t>(*m)) : c->AppendNull();
    } else {
      auto* c = static_cast<array::PrimitiveBuilder<double>*>(b->child_builder(k));
      m ? c->Append(*m) : c->AppendNull();
    }
  }
}

array::RecordBatchPtr MakeTable(const std::vector<Row>& rows) {
  auto schema = TableSchema();
  std::vector<std::unique_ptr<array::ArrayBuilder>> builders;
  for (const auto& f : schema->fields()) builders.push_back(array::MakeBuilder(f->type()));
  auto sb = [&](int i) {
    return static_cast<array::StructBuilder*>(builders[static_cast<std::size_t>(i)].get());
  };
  for (const Row& r : rows) {
    AppendVariable(sb(0), r.v, false);
    AppendVariable(sb(1), r.w, true);
    AppendVariable(sb(2), r.ab, false);
    AppendVariable(sb(3), r.v, false);  // nostats: same values as v
    sb(4)->AppendNull();
    sb(5)->Append(true);
    auto* id = static_cast<array::BinaryBuilder*>(sb(5)->child_builder(0));
    r.id ? id->Append(*r.id) : id->AppendNull();
    AppendStats(sb(6), r.v, false);
    AppendStats(sb(7), r.w, true);
    AppendStats(sb(8), r.ab, false);
  }
  std::vector<array::ArrayPtr> columns;
  columns.reserve(builders.size());
  for (auto& b : builders) columns.push_back(*b->Finish());
  return std::make_shared<array::RecordBatch>(schema, static_cast<std::int64_t>(rows.size()),
                                              columns);
}

std::vector<std::int64_t> Selected(const Filter& filter, const array::RecordBatch& batch) {
  auto bound = filter.Bind(*batch.schema());
  EXPECT_TRUE(bound.ok()) << filter.ToSql() << "\n" << bound.status().ToString();
  if (!bound.ok()) return {};
  auto rows = bound->Select(batch);
  EXPECT_TRUE(rows.ok()) << rows.status().ToString();
  return rows.ok() ? *rows : std::vector<std::int64_t>{};
}

TEST(PruneRules, StatsGuardOutcomes) {
  // stats (-90, -80): skipped; (17, 30): kept; variable absent: skipped; only NaN/null
  // values (null min and max): kept.
  std::vector<Row> rows(4);
  rows[0].v = std::vector<std::optional<double>>{-90.0, -80.0};
  rows[1].v = std::vector<std::optional<double>>{17.0, 30.0};
  rows[3].v = std::vector<std::optional<double>>{NAN, std::nullopt};
  const auto batch = MakeTable(rows);
  const auto pruned = Prune("v.values BETWEEN 17.5 AND 25.4");
  ASSERT_TRUE(pruned.has_value());
  EXPECT_EQ(Selected(*pruned, *batch), (std::vector<std::int64_t>{1, 3}));
}

// ---- the property ---------------------------------------------------------------------------

// 2.0 as 4 halves: small ranges so equal values, bounds and IN hits are common.
double RandomValue(Rng& rng) { return static_cast<double>(rng.Range(-8, 8)) / 2; }

std::optional<std::vector<std::optional<double>>> RandomValues(Rng& rng, bool ints) {
  if (rng.Chance(0.2)) return std::nullopt;
  std::vector<std::optional<double>> out;
  for (auto n = rng.Range(0, 4); n > 0; --n) {
    if (rng.Chance(0.15)) {
      out.emplace_back(std::nullopt);
    } else if (!ints && rng.Chance(0.1)) {
      out.emplace_back(rng.Chance(0.5) ? NAN : -NAN);
    } else {
      out.emplace_back(ints ? std::trunc(RandomValue(rng)) : RandomValue(rng));
    }
  }
  return out;
}

// What a filter means for one row, with value parts read element by element: a value part is
// true when some value (not null, not NaN) satisfies it. Truth values: 0 false, 1 unknown, 2 true.
struct Exact {
  const Row& row;

  const std::optional<std::vector<std::optional<double>>>& Values(const ColumnPath& path) const {
    if (path[0] == "w") return row.w;
    if (path[0] == "v") return row.v;
    return row.ab;
  }

  static std::optional<double> Number(const Expr& e) {
    if (e.kind != ExprKind::kLiteral || e.literal.kind == LiteralKind::kNull) return std::nullopt;
    return e.literal.kind == LiteralKind::kInt ? static_cast<double>(e.literal.int_value)
                                               : e.literal.float_value;
  }

  static bool Holds(BinaryOp op, double a, double b) {
    switch (op) {
      case BinaryOp::kEq:
        return a == b;
      case BinaryOp::kNe:
        return a != b;
      case BinaryOp::kLt:
        return a < b;
      case BinaryOp::kLe:
        return a <= b;
      case BinaryOp::kGt:
        return a > b;
      default:
        return a >= b;
    }
  }

  template <typename P>
  int Any(const ColumnPath& path, P pred) const {
    const auto& values = Values(path);
    if (!values) return 0;
    for (const auto& x : *values) {
      if (x && !std::isnan(*x) && pred(*x)) return 2;
    }
    return 0;
  }

  int Eval(const Expr& e) const {
    switch (e.kind) {
      case ExprKind::kNot:
        return 2 - Eval(*e.args[0]);
      case ExprKind::kBinary: {
        if (e.op == BinaryOp::kAnd) return std::min(Eval(*e.args[0]), Eval(*e.args[1]));
        if (e.op == BinaryOp::kOr) return std::max(Eval(*e.args[0]), Eval(*e.args[1]));
        if (e.args[0]->kind == ExprKind::kColumn && e.args[0]->path[0] == "__global_attrs__") {
          const auto& lit = e.args[1]->literal.string_value;
          return !row.id ? 1 : ((*row.id == lit) == (e.op == BinaryOp::kEq) ? 2 : 0);
        }
        const bool values_left = e.args[0]->kind == ExprKind::kColumn;
        const auto x = Number(values_left ? *e.args[1] : *e.args[0]);
        if (!x) return 0;
        const ColumnPath& path = (values_left ? e.args[0] : e.args[1])->path;
        return Any(path,
                   [&](double v) { return values_left ? Holds(e.op, v, *x) : Holds(e.op, *x, v); });
      }
      case ExprKind::kBetween: {
        const auto lo = Number(*e.args[1]), hi = Number(*e.args[2]);
        if (!lo || !hi) return 0;
        const int t = Any(e.args[0]->path, [&](double v) { return v >= *lo && v <= *hi; });
        return e.negated ? 2 - t : t;
      }
      case ExprKind::kInList: {
        int t = 0;
        for (std::size_t i = 1; i < e.args.size(); ++i) {
          const auto x = Number(*e.args[i]);
          if (x) t = std::max(t, Any(e.args[0]->path, [&](double v) { return v == *x; }));
        }
        return e.negated ? 2 - t : t;
      }
      case ExprKind::kCall: {
        const auto x = Number(*e.args[1]);
        return x ? Any(e.args[0]->path, [&](double v) { return v == *x; }) : 0;
      }
      case ExprKind::kIsNull:
        return Values(e.args[0]->path).has_value() == e.negated ? 2 : 0;
      default:
        ADD_FAILURE() << ExprToSql(e);
        return 0;
    }
  }
};

class FilterGenerator {
 public:
  explicit FilterGenerator(std::uint64_t seed) : rng_(seed) {}

  ExprPtr Condition(int depth) {
    if (depth <= 0 || rng_.Chance(0.3)) return Leaf();
    switch (rng_.Below(3)) {
      case 0:
        return Binary(BinaryOp::kAnd, Condition(depth - 1), Condition(depth - 1));
      case 1:
        return Binary(BinaryOp::kOr, Condition(depth - 1), Condition(depth - 1));
      default:
        return Not(Condition(depth - 1));
    }
  }

 private:
  ExprPtr Values() {
    const ColumnPath paths[] = {
        {"v", "values"}, {"w", "values"}, {"a", "b", "values"}, {"a.b", "values"}};
    return ColumnRef(paths[rng_.Below(4)]);
  }

  ExprPtr Number() {
    if (rng_.Chance(0.05)) return NullLiteral();
    const double x = RandomValue(rng_);
    return x == std::trunc(x) && rng_.Chance(0.5) ? IntLiteral(static_cast<std::int64_t>(x))
                                                  : FloatLiteral(x);
  }

  ExprPtr Leaf() {
    switch (rng_.Below(7)) {
      case 0:
      case 1: {
        const auto op = static_cast<BinaryOp>(rng_.Below(6));
        return rng_.Chance(0.5) ? Binary(op, Values(), Number()) : Binary(op, Number(), Values());
      }
      case 2:
        return Between(Values(), Number(), Number(), rng_.Chance(0.2));
      case 3: {
        std::vector<ExprPtr> items;
        for (auto n = rng_.Range(1, 3); n > 0; --n) items.push_back(Number());
        return InList(Values(), items, rng_.Chance(0.2));
      }
      case 4:
        return Call("array_has", {Values(), Number()});
      case 5:
        return IsNull(ColumnRef({rng_.Chance(0.5) ? "v" : "w"}), rng_.Chance(0.5));
      default:
        return Binary(rng_.Chance(0.5) ? BinaryOp::kEq : BinaryOp::kNe,
                      ColumnRef({"__global_attrs__", "id"}),
                      StringLiteral(rng_.Chance(0.5) ? "a" : "b"));
    }
  }

  Rng rng_;
};

TEST(PruneProperty, PrunedSelectionKeepsEveryMatchingRow) {
  std::int64_t exact_total = 0, pruned_total = 0, all_total = 0;
  for (std::uint64_t seed = 0; seed < 3000; ++seed) {
    Rng rng(seed);
    std::vector<Row> rows(static_cast<std::size_t>(rng.Range(1, 24)));
    for (Row& r : rows) {
      r.v = RandomValues(rng, false);
      r.w = RandomValues(rng, true);
      r.ab = RandomValues(rng, false);
      if (!rng.Chance(0.2)) r.id = rng.Chance(0.5) ? "a" : "b";
    }
    const auto batch = MakeTable(rows);
    const ExprPtr tree = FilterGenerator(seed).Condition(static_cast<int>(seed % 4));
    auto pruned = PruneFilter(Filter(tree), *batch->schema());
    ASSERT_TRUE(pruned.ok()) << pruned.status().ToString();
    std::vector<std::int64_t> kept;
    if (pruned->has_value()) {
      kept = Selected(**pruned, *batch);
      // The SQL text of the pruned filter selects the same rows.
      auto reparsed = Filter::Parse((*pruned)->ToSql());
      ASSERT_TRUE(reparsed.ok()) << (*pruned)->ToSql();
      ASSERT_EQ(Selected(*reparsed, *batch), kept) << (*pruned)->ToSql();
    } else {
      for (std::size_t i = 0; i < rows.size(); ++i) kept.push_back(static_cast<std::int64_t>(i));
    }
    for (std::size_t i = 0; i < rows.size(); ++i) {
      const bool match = Exact{rows[i]}.Eval(*tree) == 2;
      const bool is_kept =
          std::find(kept.begin(), kept.end(), static_cast<std::int64_t>(i)) != kept.end();
      ASSERT_TRUE(!match || is_kept) << "seed " << seed << " row " << i << " matches "
                                     << ExprToSql(*tree) << " but the pruned filter skips it: "
                                     << (pruned->has_value() ? (*pruned)->ToSql() : "(none)");
      exact_total += match ? 1 : 0;
    }
    pruned_total += static_cast<std::int64_t>(kept.size());
    all_total += static_cast<std::int64_t>(rows.size());
  }
  // The property would hold for "keep everything" too: check that pruning does skip rows.
  EXPECT_LT(pruned_total, all_total * 9 / 10);
  EXPECT_GT(exact_total, 0);
}

}  // namespace
}  // namespace lance_nd::query
