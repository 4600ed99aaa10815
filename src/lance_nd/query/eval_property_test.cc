// Random filters on random batches, checked row by row against a reference evaluator written
// here from SQL's rules: one value at a time, with its own reading of the Arrow arrays.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <optional>

#include "lance_nd/array/view.h"
#include "lance_nd/query/expr.h"
#include "lance_nd/query/filter.h"
#include "lance_nd/testing/random_arrays.h"
#include "lance_nd/testing/status_matchers.h"

namespace lance_nd::query {
namespace {

using array::ArrayData;
using array::DataTypePtr;
using array::MakeField;
using testing::Rng;

// ---- the reference: one row, one value at a time ------------------------------------------

struct Val {
  enum Kind { kNull, kBool, kInt, kUInt, kFloat, kStr } kind = kNull;
  bool b = false;
  std::int64_t i = 0;
  std::uint64_t u = 0;
  double f = 0;
  std::string s;
  int bits = 64;  // integer width of the value's type
};

Val Null() { return {}; }
Val B(bool v) {
  Val x;
  x.kind = Val::kBool;
  x.b = v;
  return x;
}

// The order LanceDB's filters use: -NaN < -inf < ... < -0 < +0 < ... < +inf < +NaN, NaN equal
// to NaN (of its sign); -0 equal to +0 when one side is a literal.
int TotalCompare(double a, double b, bool zero_equal) {
  auto rank = [](double d) { return std::isnan(d) ? (std::signbit(d) ? 0 : 2) : 1; };
  if (rank(a) != rank(b)) return rank(a) < rank(b) ? -1 : 1;
  if (rank(a) != 1) return 0;
  if (a < b) return -1;
  if (a > b) return 1;
  if (!zero_equal && a == 0 && std::signbit(a) != std::signbit(b)) return std::signbit(a) ? -1 : 1;
  return 0;
}

long double Exact(const Val& v) {
  return v.kind == Val::kInt ? static_cast<long double>(v.i) : static_cast<long double>(v.u);
}

std::optional<int> CompareVals(const Val& a, const Val& b, bool zero_equal) {
  if (a.kind == Val::kNull || b.kind == Val::kNull) return std::nullopt;
  if (a.kind == Val::kStr) return a.s < b.s ? -1 : (b.s < a.s ? 1 : 0);
  if (a.kind == Val::kBool) return static_cast<int>(a.b) - static_cast<int>(b.b);
  if (a.kind == Val::kFloat || b.kind == Val::kFloat) {
    auto d = [](const Val& v) {
      return v.kind == Val::kFloat ? v.f
             : v.kind == Val::kInt ? static_cast<double>(v.i)
                                   : static_cast<double>(v.u);
    };
    return TotalCompare(d(a), d(b), zero_equal);
  }
  const long double x = Exact(a), y = Exact(b);  // 64-bit significand: exact for all ints
  return x < y ? -1 : (y < x ? 1 : 0);
}

// Truth values as 0 (false), 1 (unknown), 2 (true): AND is min, OR is max, NOT is 2 - x.
int Truth(const Val& v) { return v.kind == Val::kNull ? 1 : (v.b ? 2 : 0); }
Val FromTruth(int t) { return t == 1 ? Null() : B(t == 2); }

std::vector<std::uint32_t> CodePoints(const std::string& s) {
  std::vector<std::uint32_t> out;
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    const std::size_t n = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
    std::uint32_t cp = 0;
    for (std::size_t k = 0; k < n && i + k < s.size(); ++k) {
      cp = cp * 256 + static_cast<unsigned char>(s[i + k]);
    }
    out.push_back(cp);
    i += n;
  }
  return out;
}

// LIKE by dynamic programming over code points.
bool LikeMatch(const std::string& text, const std::string& pattern) {
  const auto t = CodePoints(text), p = CodePoints(pattern);
  std::vector<std::vector<char>> m(p.size() + 1, std::vector<char>(t.size() + 1, 0));
  m[0][0] = 1;
  for (std::size_t i = 1; i <= p.size(); ++i) {
    for (std::size_t j = 0; j <= t.size(); ++j) {
      if (p[i - 1] == '%') {
        m[i][j] = static_cast<char>(m[i - 1][j] || (j > 0 && m[i][j - 1]));
      } else if (j > 0) {
        m[i][j] = static_cast<char>(m[i - 1][j - 1] && (p[i - 1] == '_' || p[i - 1] == t[j - 1]));
      }
    }
  }
  return m[p.size()][t.size()] != 0;
}

std::int64_t Wrap(std::uint64_t v, int bits) {
  if (bits >= 64) return static_cast<std::int64_t>(v);
  const std::uint64_t m = std::uint64_t{1} << bits;
  v %= m;
  return v >= m / 2 ? static_cast<std::int64_t>(v) - static_cast<std::int64_t>(m)
                    : static_cast<std::int64_t>(v);
}

bool Lit(const Expr& e) { return e.kind == ExprKind::kLiteral; }

class Reference {
 public:
  Reference(const array::RecordBatch& batch, std::int64_t row) : batch_(batch), row_(row) {}

  Val Eval(const Expr& e) {
    switch (e.kind) {
      case ExprKind::kLiteral:
        return FromLiteral(e.literal);
      case ExprKind::kColumn:
        return Read(e.path);
      case ExprKind::kNot:
        return FromTruth(2 - Truth(Eval(*e.args[0])));
      case ExprKind::kIsNull: {
        const bool is_null = e.args[0]->kind == ExprKind::kColumn
                                 ? !Present(e.args[0]->path)
                                 : Eval(*e.args[0]).kind == Val::kNull;
        return B(is_null != e.negated);
      }
      case ExprKind::kIsBool: {
        const Val v = Eval(*e.args[0]);
        return B((v.kind != Val::kNull && v.b == e.truth) != e.negated);
      }
      case ExprKind::kBinary:
        return EvalBinary(e);
      case ExprKind::kInList: {
        const Val v = Eval(*e.args[0]);
        int t = 0;  // false unless a match (true) or an unknown comparison
        for (std::size_t i = 1; i < e.args.size(); ++i) {
          const auto c = CompareVals(v, Eval(*e.args[i]), Lit(*e.args[0]) || Lit(*e.args[i]));
          t = std::max(t, !c ? 1 : (*c == 0 ? 2 : 0));
        }
        return FromTruth(e.negated ? 2 - t : t);
      }
      case ExprKind::kBetween: {
        const Val v = Eval(*e.args[0]);
        const auto lo = CompareVals(v, Eval(*e.args[1]), Lit(*e.args[1]));
        const auto hi = CompareVals(v, Eval(*e.args[2]), Lit(*e.args[2]));
        const int t = std::min(!lo ? 1 : (*lo >= 0 ? 2 : 0), !hi ? 1 : (*hi <= 0 ? 2 : 0));
        return FromTruth(e.negated ? 2 - t : t);
      }
      case ExprKind::kLike: {
        const Val v = Eval(*e.args[0]), p = Eval(*e.args[1]);
        if (v.kind == Val::kNull || p.kind == Val::kNull) return Null();
        auto lower = [](std::string x) {
          for (char& c : x) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
          return x;
        };
        const bool m = e.ignore_case ? LikeMatch(lower(v.s), lower(p.s)) : LikeMatch(v.s, p.s);
        return B(m != e.negated);
      }
      default:
        ADD_FAILURE() << "reference cannot evaluate " << ExprToSql(e);
        return Null();
    }
  }

 private:
  static Val FromLiteral(const Literal& l) {
    Val v;
    switch (l.kind) {
      case LiteralKind::kNull:
        break;
      case LiteralKind::kBool:
        return B(l.bool_value);
      case LiteralKind::kInt:
        v.kind = Val::kInt;
        v.i = l.int_value;
        break;
      case LiteralKind::kFloat:
        v.kind = Val::kFloat;
        v.f = l.float_value;
        break;
      case LiteralKind::kString:
        v.kind = Val::kStr;
        v.s = l.string_value;
        break;
    }
    return v;
  }

  Val EvalBinary(const Expr& e) {
    const Val a = Eval(*e.args[0]), b = Eval(*e.args[1]);
    switch (e.op) {
      case BinaryOp::kAnd:
        return FromTruth(std::min(Truth(a), Truth(b)));
      case BinaryOp::kOr:
        return FromTruth(std::max(Truth(a), Truth(b)));
      case BinaryOp::kAdd:
      case BinaryOp::kSub:
      case BinaryOp::kMul:
        return Arith(e.op, a, b);
      default: {
        const auto c = CompareVals(a, b, Lit(*e.args[0]) || Lit(*e.args[1]));
        if (!c) return Null();
        switch (e.op) {
          case BinaryOp::kEq:
            return B(*c == 0);
          case BinaryOp::kNe:
            return B(*c != 0);
          case BinaryOp::kLt:
            return B(*c < 0);
          case BinaryOp::kLe:
            return B(*c <= 0);
          case BinaryOp::kGt:
            return B(*c > 0);
          default:
            return B(*c >= 0);
        }
      }
    }
  }

  // Signed integers wrap at the wider operand's width; floats are IEEE doubles.
  static Val Arith(BinaryOp op, const Val& a, const Val& b) {
    if (a.kind == Val::kNull || b.kind == Val::kNull) return Null();
    Val r;
    if (a.kind == Val::kFloat || b.kind == Val::kFloat) {
      const double x = a.kind == Val::kFloat ? a.f : static_cast<double>(a.i);
      const double y = b.kind == Val::kFloat ? b.f : static_cast<double>(b.i);
      r.kind = Val::kFloat;
      r.f = op == BinaryOp::kAdd ? x + y : op == BinaryOp::kSub ? x - y : x * y;
      return r;
    }
    const auto x = static_cast<std::uint64_t>(a.i), y = static_cast<std::uint64_t>(b.i);
    r.kind = Val::kInt;
    r.bits = std::max(a.bits, b.bits);
    r.i = Wrap(op == BinaryOp::kAdd ? x + y : op == BinaryOp::kSub ? x - y : x * y, r.bits);
    return r;
  }

  // Follows the path through struct children by name; a null struct on the way hides the rest.
  const ArrayData* Walk(const ColumnPath& dotted, std::int64_t* slot, bool* present) const {
    // The schema's one dotted name, `a.b`, written as a path a.b.
    const ColumnPath path = dotted == ColumnPath{"a", "b"} ? ColumnPath{"a.b"} : dotted;
    const ArrayData* a = batch_.GetColumnByName(path[0]).get();
    *slot = row_;
    *present = true;
    for (std::size_t k = 1; k < path.size(); ++k) {
      if (a->IsNull(*slot)) *present = false;
      const auto& children = a->type->children();
      for (std::size_t c = 0; c < children.size(); ++c) {
        if (children[c]->name() == path[k]) {
          *slot += a->offset;
          a = a->children[c].get();
          break;
        }
      }
    }
    if (a->IsNull(*slot)) *present = false;
    return a;
  }

  bool Present(const ColumnPath& path) const {
    std::int64_t slot = 0;
    bool present = false;
    Walk(path, &slot, &present);
    return present;
  }

  Val Read(const ColumnPath& path) const {
    std::int64_t slot = 0;
    bool present = false;
    const ArrayData* a = Walk(path, &slot, &present);
    Val v;
    if (!present) return v;
    v.bits = a->type->bit_width();
    switch (a->type->id()) {
      case array::TypeId::kBool:
        return B(array::BoolView(*a).Value(slot));
      case array::TypeId::kInt8:
        v.kind = Val::kInt;
        // NOLINTNEXTLINE(bugprone-signed-char-misuse): int8 values are numbers
        v.i = array::PrimitiveView<std::int8_t>(*a).Value(slot);
        break;
      case array::TypeId::kInt32:
        v.kind = Val::kInt;
        v.i = array::PrimitiveView<std::int32_t>(*a).Value(slot);
        break;
      case array::TypeId::kInt64:
        v.kind = Val::kInt;
        v.i = array::PrimitiveView<std::int64_t>(*a).Value(slot);
        break;
      case array::TypeId::kUInt16:
        v.kind = Val::kUInt;
        v.u = array::PrimitiveView<std::uint16_t>(*a).Value(slot);
        break;
      case array::TypeId::kUInt64:
        v.kind = Val::kUInt;
        v.u = array::PrimitiveView<std::uint64_t>(*a).Value(slot);
        break;
      case array::TypeId::kFloat32:
        v.kind = Val::kFloat;
        v.f = array::PrimitiveView<float>(*a).Value(slot);
        break;
      case array::TypeId::kFloat64:
        v.kind = Val::kFloat;
        v.f = array::PrimitiveView<double>(*a).Value(slot);
        break;
      case array::TypeId::kUtf8:
      case array::TypeId::kLargeUtf8:
        v.kind = Val::kStr;
        v.s = std::string(array::BinaryView(*a).Value(slot));
        break;
      default:
        ADD_FAILURE() << "reference cannot read " << a->type->ToString();
    }
    return v;
  }

  const array::RecordBatch& batch_;
  std::int64_t row_;
};

// ---- the batch and the filter generator -----------------------------------------------------

DataTypePtr InnerType() { return array::Struct({MakeField("y", array::Float64())}); }
DataTypePtr StType() {
  return array::Struct({MakeField("x", array::Int32()), MakeField("name", array::Utf8()),
                        MakeField("inner", InnerType())});
}

array::SchemaPtr TestSchema() {
  return array::MakeSchema({MakeField("i8", array::Int8()), MakeField("i32", array::Int32()),
                            MakeField("i64", array::Int64()), MakeField("u16", array::UInt16()),
                            MakeField("u64", array::UInt64()), MakeField("f32", array::Float32()),
                            MakeField("f64", array::Float64()), MakeField("s", array::Utf8()),
                            MakeField("ls", array::LargeUtf8()), MakeField("flag", array::Bool()),
                            MakeField("st", StType()), MakeField("a.b", array::Float64())});
}

array::RecordBatchPtr RandomBatch(std::uint64_t seed, std::int64_t rows) {
  auto schema = TestSchema();
  std::vector<array::ArrayPtr> columns;
  Rng rng(seed);
  for (const auto& f : schema->fields()) {
    testing::RandomArrayOptions options;
    options.sliced = rng.Chance(0.5);
    options.max_binary_length = 3;  // short strings: equal values and LIKE matches happen
    columns.push_back(testing::RandomArray(f->type(), rows, 0.2, rng.Next(), options));
  }
  return std::make_shared<array::RecordBatch>(schema, rows, columns);
}

const std::vector<ColumnPath>& NumberColumns() {
  static const std::vector<ColumnPath> kPaths = {{"i8"},    {"i32"},     {"i64"},
                                                 {"u16"},   {"u64"},     {"f32"},
                                                 {"f64"},   {"st", "x"}, {"st", "inner", "y"},
                                                 {"a", "b"}};
  return kPaths;
}
const std::vector<ColumnPath>& SignedColumns() {
  static const std::vector<ColumnPath> kPaths = {{"i8"}, {"i32"}, {"i64"}, {"st", "x"}};
  return kPaths;
}
const std::vector<ColumnPath>& StringColumns() {
  static const std::vector<ColumnPath> kPaths = {{"s"}, {"ls"}, {"st", "name"}};
  return kPaths;
}
const std::vector<ColumnPath>& AnyColumns() {
  static const std::vector<ColumnPath> kPaths = {{"st"}, {"st", "inner"}, {"flag"},
                                                 {"s"},  {"f64"},         {"a.b"}};
  return kPaths;
}

class Generator {
 public:
  explicit Generator(std::uint64_t seed) : rng_(seed) {}

  ExprPtr Condition(int depth) {
    if (depth <= 0) return Leaf();
    switch (rng_.Below(6)) {
      case 0:
        return Binary(BinaryOp::kAnd, Condition(depth - 1), Condition(depth - 1));
      case 1:
        return Binary(BinaryOp::kOr, Condition(depth - 1), Condition(depth - 1));
      case 2:
        return Not(Condition(depth - 1));
      case 3:
        return IsBool(Condition(depth - 1), rng_.Chance(0.5), rng_.Chance(0.5));
      default:
        return Leaf();
    }
  }

 private:
  template <typename T>
  const T& Pick(const std::vector<T>& v) {
    return v[rng_.Below(v.size())];
  }

  ExprPtr Leaf() {
    switch (rng_.Below(9)) {
      case 0:
        return IsNull(ColumnRef(Pick(AnyColumns())), rng_.Chance(0.5));
      case 1:
        return Binary(static_cast<BinaryOp>(rng_.Below(6)), String(), String());
      case 2: {
        std::vector<ExprPtr> items;
        for (auto i = rng_.Range(1, 4); i > 0; --i) {
          items.push_back(rng_.Chance(0.15) ? NullLiteral() : Number(0));
        }
        return InList(Number(1), items, rng_.Chance(0.5));
      }
      case 3:
        return Between(Number(1), Number(0), Number(0), rng_.Chance(0.5));
      case 4:
        return Like(ColumnRef(Pick(StringColumns())), StringLiteral(Pattern()), rng_.Chance(0.5),
                    "", rng_.Chance(0.3));
      case 5:
        return Binary(static_cast<BinaryOp>(rng_.Below(6)), ColumnRef({"flag"}),
                      BoolLiteral(rng_.Chance(0.5)));
      case 6:
        return rng_.Chance(0.5) ? BoolLiteral(rng_.Chance(0.5)) : NullLiteral();
      default:
        return Binary(static_cast<BinaryOp>(rng_.Below(6)), Number(1), Number(1));
    }
  }

  ExprPtr Number(int depth) {
    switch (rng_.Below(depth > 0 ? 5 : 3)) {
      case 0:
      case 1:
        return ColumnRef(Pick(NumberColumns()));
      case 2:
        return NumberLiteral();
      case 3: {  // signed integer arithmetic (wraps at the wider width)
        const BinaryOp op = static_cast<BinaryOp>(static_cast<int>(BinaryOp::kAdd) +
                                                  static_cast<int>(rng_.Below(3)));
        return Binary(
            op, ColumnRef(Pick(SignedColumns())),
            rng_.Chance(0.5) ? ColumnRef(Pick(SignedColumns())) : IntLiteral(rng_.Range(-3, 3)));
      }
      default: {
        const BinaryOp op = static_cast<BinaryOp>(static_cast<int>(BinaryOp::kAdd) +
                                                  static_cast<int>(rng_.Below(3)));
        return Binary(op, ColumnRef({"f64"}),
                      FloatLiteral(static_cast<double>(rng_.Range(-4, 4)) / 2));
      }
    }
  }

  ExprPtr NumberLiteral() {
    if (rng_.Chance(0.5)) return IntLiteral(rng_.Range(-3, 3));
    constexpr double kInf = std::numeric_limits<double>::infinity();
    const double picks[] = {0.0,  -0.0,  0.5, -1.5, std::numeric_limits<double>::quiet_NaN(),
                            kInf, -kInf, 1e30};
    return FloatLiteral(picks[rng_.Below(8)]);
  }

  ExprPtr String() {
    if (rng_.Chance(0.5)) return ColumnRef(Pick(StringColumns()));
    return StringLiteral(Pattern());
  }

  std::string Pattern() {
    const char* pieces[] = {"", "%", "_", "a", "\xc3\xa9", "%_", "_%", "%A%"};
    std::string p;
    for (auto i = rng_.Range(0, 3); i > 0; --i) p += pieces[rng_.Below(8)];
    return p;
  }

  Rng rng_;
};

TEST(FilterEvaluate, RandomFiltersMatchTheReference) {
  int checked_rows = 0;
  for (std::uint64_t seed = 0; seed < 1500; ++seed) {
    const auto batch = RandomBatch(seed, 40);
    Generator gen(seed * 7919 + 1);
    const ExprPtr tree = gen.Condition(static_cast<int>(seed % 4));
    const Filter filter(tree);
    auto bound = filter.Bind(*batch->schema());
    ASSERT_TRUE(bound.ok()) << ExprToSql(*tree) << "\n" << bound.status().ToString();
    auto result = bound->Evaluate(*batch);
    ASSERT_TRUE(result.ok()) << ExprToSql(*tree) << "\n" << result.status().ToString();
    auto selected = bound->Select(*batch);
    ASSERT_TRUE(selected.ok());
    std::vector<std::int64_t> expected_rows;
    const array::BoolView view(**result);
    for (std::int64_t row = 0; row < batch->num_rows(); ++row) {
      const Val want = Reference(*batch, row).Eval(*tree);
      const std::string got = view.IsNull(row) ? "null" : (view.Value(row) ? "true" : "false");
      const std::string expected = want.kind == Val::kNull ? "null" : (want.b ? "true" : "false");
      ASSERT_EQ(got, expected) << "seed " << seed << " row " << row << ": " << ExprToSql(*tree);
      if (want.kind == Val::kBool && want.b) expected_rows.push_back(row);
      ++checked_rows;
    }
    ASSERT_EQ(*selected, expected_rows) << "seed " << seed << ": " << ExprToSql(*tree);
  }
  EXPECT_EQ(checked_rows, 1500 * 40);
}

}  // namespace
}  // namespace lance_nd::query
