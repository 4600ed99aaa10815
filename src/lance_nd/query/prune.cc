// PruneFilter: value comparisons rewritten onto per-row min/max stats columns.
//
// Each part of the filter is one of: exact (reads no variable values: kept as written), a stats
// test (a value comparison rewritten onto `__stats__:<v>`), or "keep all" (values with no stats
// form). AND drops a keep-all side, OR with a keep-all side keeps all, NOT only stays over
// exact parts. Since only AND and OR combine rewritten parts, and each rewritten part is TRUE
// wherever the value comparison can be TRUE, the result keeps every row that can match.
#include <string>

#include "lance_nd/query/expr.h"
#include "lance_nd/query/filter.h"

namespace lance_nd::query {
namespace {

constexpr const char* kStatsPrefix = "__stats__:";
constexpr const char* kGlobalAttrs = "__global_attrs__";

enum class Part { kExact, kStats, kAll };

struct Pruned {
  Part part = Part::kExact;
  ExprPtr expr;  // kExact: the original part; kStats: the stats test; kAll: unused
};

class Pruner {
 public:
  explicit Pruner(const array::Schema& schema) : schema_(schema) {}

  Pruned Prune(const ExprPtr& e) {
    if (!ReadsValues(*e)) return {Part::kExact, e};
    switch (e->kind) {
      case ExprKind::kBinary:
        if (e->op == BinaryOp::kAnd) return PruneAnd(Prune(e->args[0]), Prune(e->args[1]));
        if (e->op == BinaryOp::kOr) return PruneOr(Prune(e->args[0]), Prune(e->args[1]));
        return PruneComparison(*e);
      case ExprKind::kBetween:
        return PruneBetween(*e);
      case ExprKind::kInList:
        return PruneIn(*e);
      case ExprKind::kCall:
        if (e->function == "array_has" || e->function == "array_contains") return PruneArrayHas(*e);
        return {Part::kAll, nullptr};
      default:  // NOT over values, IS NULL on values, arithmetic on values, ...
        return {Part::kAll, nullptr};
    }
  }

 private:
  static Pruned PruneAnd(const Pruned& l, const Pruned& r) {
    if (l.part == Part::kAll) return r;
    if (r.part == Part::kAll) return l;
    const Part p = l.part == Part::kStats || r.part == Part::kStats ? Part::kStats : Part::kExact;
    return {p, Binary(BinaryOp::kAnd, l.expr, r.expr)};
  }

  static Pruned PruneOr(const Pruned& l, const Pruned& r) {
    if (l.part == Part::kAll || r.part == Part::kAll) return {Part::kAll, nullptr};
    const Part p = l.part == Part::kStats || r.part == Part::kStats ? Part::kStats : Part::kExact;
    return {p, Binary(BinaryOp::kOr, l.expr, r.expr)};
  }

  // The variable whose values `e` reads (a column path <variable>.values), or "".
  std::string ValueVariable(const Expr& e) const {
    if (e.kind != ExprKind::kColumn || e.path.size() < 2 || e.path.back() != "values") return {};
    std::string written;
    for (std::size_t i = 0; i + 1 < e.path.size(); ++i) written += (i > 0 ? "." : "") + e.path[i];
    std::string name = TopLevelName(written);
    if (name.empty() || name == kGlobalAttrs || name.rfind("__stats__", 0) == 0) return {};
    // A longer top-level name that swallows ".values" would make this an ordinary column.
    if (schema_.GetField(name + ".values")) return {};
    return name;
  }

  // The schema's name for a top-level column written `name`: the same name, else the one
  // name that differs only in case (as Bind resolves it), else "".
  std::string TopLevelName(const std::string& name) const {
    if (schema_.GetField(name)) return name;
    const auto lower = [](std::string x) {
      for (char& c : x) {
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
      }
      return x;
    };
    std::string found;
    for (const auto& f : schema_.fields()) {
      if (lower(f->name()) != lower(name)) continue;
      if (!found.empty()) return {};
      found = f->name();
    }
    return found;
  }

  bool ReadsValues(const Expr& e) const {
    if (!ValueVariable(e).empty()) return true;
    for (const auto& a : e.args) {
      if (ReadsValues(*a)) return true;
    }
    return false;
  }

  // `__stats__:v` if the table has it as Struct{min, max}.
  bool HasStats(const std::string& variable) const {
    const auto field = schema_.GetField(kStatsPrefix + variable);
    if (!field || field->type()->id() != array::TypeId::kStruct) return false;
    bool min = false, max = false;
    for (const auto& c : field->type()->children()) {
      min = min || c->name() == "min";
      max = max || c->name() == "max";
    }
    return min && max;
  }

  static ExprPtr Stat(const std::string& variable, const char* which) {
    return ColumnRef({kStatsPrefix + variable, which});
  }

  // Present stats struct AND (no counted values OR the test): null struct skipped, null
  // min/max kept, otherwise the test decides.
  static ExprPtr Guard(const std::string& variable, ExprPtr test) {
    ExprPtr present = IsNull(ColumnRef({kStatsPrefix + variable}), /*negated=*/true);
    ExprPtr empty = IsNull(Stat(variable, "min"));
    return Binary(BinaryOp::kAnd, present, Binary(BinaryOp::kOr, empty, std::move(test)));
  }

  // The stats test for `values op x` (op a comparison, values on the left).
  static ExprPtr Test(const std::string& v, BinaryOp op, const ExprPtr& x) {
    switch (op) {
      case BinaryOp::kEq:
        return Binary(BinaryOp::kAnd, Binary(BinaryOp::kLe, Stat(v, "min"), x),
                      Binary(BinaryOp::kGe, Stat(v, "max"), x));
      case BinaryOp::kLt:
        return Binary(BinaryOp::kLt, Stat(v, "min"), x);
      case BinaryOp::kLe:
        return Binary(BinaryOp::kLe, Stat(v, "min"), x);
      case BinaryOp::kGt:
        return Binary(BinaryOp::kGt, Stat(v, "max"), x);
      case BinaryOp::kGe:
        return Binary(BinaryOp::kGe, Stat(v, "max"), x);
      default:
        return nullptr;
    }
  }

  static BinaryOp Swapped(BinaryOp op) {
    switch (op) {
      case BinaryOp::kLt:
        return BinaryOp::kGt;
      case BinaryOp::kLe:
        return BinaryOp::kGe;
      case BinaryOp::kGt:
        return BinaryOp::kLt;
      case BinaryOp::kGe:
        return BinaryOp::kLe;
      default:
        return op;
    }
  }

  // `v` if `values` is a value column with stats and `other` reads no values, else "".
  std::string StatsVariable(const Expr& values, const Expr& other) const {
    std::string v = ValueVariable(values);
    if (v.empty() || ReadsValues(other) || !HasStats(v)) return {};
    return v;
  }

  Pruned PruneComparison(const Expr& e) const {
    if (e.op > BinaryOp::kGe) return {Part::kAll, nullptr};
    BinaryOp op = e.op;
    std::string v = StatsVariable(*e.args[0], *e.args[1]);
    ExprPtr x = e.args[1];
    if (v.empty()) {
      v = StatsVariable(*e.args[1], *e.args[0]);
      x = e.args[0];
      op = Swapped(op);
    }
    ExprPtr test = v.empty() ? nullptr : Test(v, op, x);
    if (!test) return {Part::kAll, nullptr};
    return {Part::kStats, Guard(v, test)};
  }

  Pruned PruneBetween(const Expr& e) const {
    if (e.negated || ReadsValues(*e.args[1]) || ReadsValues(*e.args[2])) {
      return {Part::kAll, nullptr};
    }
    const std::string v = StatsVariable(*e.args[0], *e.args[1]);
    if (v.empty()) return {Part::kAll, nullptr};
    ExprPtr test = Binary(BinaryOp::kAnd, Binary(BinaryOp::kGe, Stat(v, "max"), e.args[1]),
                          Binary(BinaryOp::kLe, Stat(v, "min"), e.args[2]));
    return {Part::kStats, Guard(v, test)};
  }

  Pruned PruneIn(const Expr& e) const {
    if (e.negated) return {Part::kAll, nullptr};
    ExprPtr any;
    for (std::size_t i = 1; i < e.args.size(); ++i) {
      const std::string v = StatsVariable(*e.args[0], *e.args[i]);
      if (v.empty()) return {Part::kAll, nullptr};
      ExprPtr test = Guard(v, Test(v, BinaryOp::kEq, e.args[i]));
      any = any ? Binary(BinaryOp::kOr, any, test) : test;
    }
    return {Part::kStats, any};
  }

  Pruned PruneArrayHas(const Expr& e) const {
    if (e.args.size() != 2) return {Part::kAll, nullptr};
    const std::string v = StatsVariable(*e.args[0], *e.args[1]);
    if (v.empty()) return {Part::kAll, nullptr};
    return {Part::kStats, Guard(v, Test(v, BinaryOp::kEq, e.args[1]))};
  }

  const array::Schema& schema_;
};

}  // namespace

Result<std::optional<Filter>> PruneFilter(const Filter& filter, const array::Schema& table_schema) {
  Pruner pruner(table_schema);
  const Pruned result = pruner.Prune(filter.root());
  if (result.part == Part::kAll) return std::optional<Filter>();
  if (result.expr == filter.root()) return std::optional<Filter>(filter);  // nothing rewritten
  return std::optional<Filter>(Filter(result.expr));
}

}  // namespace lance_nd::query
