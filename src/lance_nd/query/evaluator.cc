#include "lance_nd/query/evaluator.h"

#include <map>

#include "lance_nd/query/cast_column.h"
#include "lance_nd/query/kernels.h"
#include "lance_nd/query/parse_error.h"

namespace lance_nd::query {
namespace {

using array::ArrayData;

std::size_t Z(std::int64_t i) { return static_cast<std::size_t>(i); }

std::string PathText(const ColumnPath& path) {
  std::string out;
  for (const auto& p : path) out += (out.empty() ? "" : ".") + p;
  return out;
}

ColumnPtr Broadcast(const Literal& l, std::int64_t n) {
  auto c = std::make_shared<Column>();
  c->length = n;
  c->valid.assign(Z(n), 1);
  switch (l.kind) {
    case LiteralKind::kNull:
      return NullColumn(n);
    case LiteralKind::kBool:
      c->kind = Kind::kBool;
      c->type = array::Bool();
      c->bools.assign(Z(n), l.bool_value ? 1 : 0);
      break;
    case LiteralKind::kInt:
      c->kind = Kind::kInt;
      c->type = array::Int64();
      c->ints.assign(Z(n), l.int_value);
      break;
    case LiteralKind::kFloat:
      c->kind = Kind::kFloat;
      c->type = array::Float64();
      c->floats.assign(Z(n), l.float_value);
      break;
    case LiteralKind::kString: {
      c->kind = Kind::kString;
      c->type = array::Utf8();
      auto text = std::make_shared<const std::string>(l.string_value);
      c->strings.assign(Z(n), std::string_view(*text));
      c->arena = std::move(text);
      break;
    }
  }
  return c;
}

// LanceDB finds -0 equal to +0 when a float is compared with a literal, and not when two
// columns are compared (both checked against LanceDB 0.39).
bool IsLiteral(const BoundNode& n) { return n.expr->kind == ExprKind::kLiteral; }

class Evaluator {
 public:
  // An AND / OR chain (the parser builds it left-deep) is folded in a loop, so a chain of
  // thousands of terms costs no stack depth.
  Result<ColumnPtr> EvalChain(const BoundNode& node) {
    const BinaryOp op = node.expr->op;
    std::vector<const BoundNode*> rights;
    const BoundNode* left = &node;
    while (left->expr->kind == ExprKind::kBinary && left->expr->op == op) {
      rights.push_back(left->args[1].get());
      left = left->args[0].get();
    }
    LND_ASSIGN_OR_RETURN(ColumnPtr acc, Eval(*left));
    for (auto it = rights.rbegin(); it != rights.rend(); ++it) {
      LND_ASSIGN_OR_RETURN(ColumnPtr right, Eval(**it));
      acc = op == BinaryOp::kAnd ? AndColumns(*acc, *right) : OrColumns(*acc, *right);
    }
    return acc;
  }

  Evaluator(const array::RecordBatch& batch, std::string_view sql)
      : batch_(batch), n_(batch.num_rows()), sql_(sql) {}

  Result<ColumnPtr> Eval(const BoundNode& node) {
    const Expr& e = *node.expr;
    if (e.kind == ExprKind::kBinary && (e.op == BinaryOp::kAnd || e.op == BinaryOp::kOr)) {
      return EvalChain(node);
    }
    std::vector<ColumnPtr> a;
    for (const auto& arg : node.args) {
      LND_ASSIGN_OR_RETURN(ColumnPtr c, Eval(*arg));
      a.push_back(std::move(c));
    }
    Result<ColumnPtr> result = Apply(node, a);
    if (result.ok()) return result;
    return Located(node, result.status());
  }

 private:
  // A failure of this node's own operation (a value that does not cast, say) points at the
  // node in the filter text and names the operand types, as a bind-time error does.
  Status Located(const BoundNode& node, const Status& st) const {
    if (st.detail().kind == ErrorKind::kParseError || st.code() != StatusCode::kInvalidArgument) {
      return st;
    }
    std::string what(st.message());
    if (what.starts_with("filter: ")) what.erase(0, 8);
    if (node.expr->kind == ExprKind::kCast && !node.args.empty()) {
      what += " (casting " + node.args[0]->type->ToString() + " to " + node.type->ToString() + ")";
    } else if (!node.args.empty()) {
      what += " (operands:";
      for (std::size_t i = 0; i < node.args.size(); ++i) {
        what += (i ? ", " : " ") + node.args[i]->type->ToString();
      }
      what += "; compare values of one type, or CAST one side explicitly)";
    }
    return FilterError(sql_, node.expr->position, what);
  }

  Result<ColumnPtr> Apply(const BoundNode& node, const std::vector<ColumnPtr>& a) {
    const Expr& e = *node.expr;
    switch (e.kind) {
      case ExprKind::kLiteral:
        return Broadcast(e.literal, n_);
      case ExprKind::kColumn:
        return Load(node.path);
      case ExprKind::kNot:
        return NotColumn(*a[0]);
      case ExprKind::kNegate:
        if (a[0]->type->id() == array::TypeId::kNull) return a[0];
        return NegateColumn(a[0]);
      case ExprKind::kBinary:
        if (e.op == BinaryOp::kAnd) return AndColumns(*a[0], *a[1]);
        if (e.op == BinaryOp::kOr) return OrColumns(*a[0], *a[1]);
        if (e.op <= BinaryOp::kGe) {
          return Compare(e.op, a[0], a[1], IsLiteral(*node.args[0]) || IsLiteral(*node.args[1]));
        }
        return Arithmetic(e.op, a[0], a[1], node.type);
      case ExprKind::kIsNull:
        return IsNullColumn(*a[0], e.negated);
      case ExprKind::kIsBool:
        return IsBoolColumn(*a[0], e.truth, e.negated);
      case ExprKind::kInList:
        return In(node, a, e.negated);
      case ExprKind::kBetween: {
        LND_ASSIGN_OR_RETURN(ColumnPtr ge,
                             Compare(BinaryOp::kGe, a[0], a[1], IsLiteral(*node.args[1])));
        LND_ASSIGN_OR_RETURN(ColumnPtr le,
                             Compare(BinaryOp::kLe, a[0], a[2], IsLiteral(*node.args[2])));
        ColumnPtr both = AndColumns(*ge, *le);
        return e.negated ? NotColumn(*both) : both;
      }
      case ExprKind::kLike: {
        LND_ASSIGN_OR_RETURN(ColumnPtr r, LikeColumns(*a[0], *a[1], e.escape, e.ignore_case));
        return e.negated ? NotColumn(*r) : r;
      }
      case ExprKind::kCast:
        return CastColumn(a[0], node.type);
      case ExprKind::kCall:
        if (e.function == "array_length") return ArrayLength(*a[0]);
        if (e.function == "abs") return AbsColumn(a[0]);
        return ArrayHas(*a[0], a[1], IsLiteral(*node.args[1]));
    }
    return Status::Internal("filter: unknown expression kind");
  }

  // x IN (a, b, ...) is x = a OR x = b OR ...: true on any match, else unknown if anything
  // was unknown, else false.
  static Result<ColumnPtr> In(const BoundNode& node, const std::vector<ColumnPtr>& a,
                              bool negated) {
    ColumnPtr result;
    for (std::size_t i = 1; i < a.size(); ++i) {
      const bool literal = IsLiteral(*node.args[0]) || IsLiteral(*node.args[i]);
      LND_ASSIGN_OR_RETURN(ColumnPtr eq, Compare(BinaryOp::kEq, a[0], a[i], literal));
      result = result ? OrColumns(*result, *eq) : eq;
    }
    return negated ? NotColumn(*result) : result;
  }

  Result<ColumnPtr> Load(const ColumnPath& path) {
    auto it = cache_.find(path);
    if (it != cache_.end()) return it->second;
    const int top = batch_.schema()->FieldIndex(path[0]);
    if (top < 0) {
      return Status::InvalidArgument("filter: the batch has no column ", path[0],
                                     " (the filter was bound to a schema that has it); pass "
                                     "batches that hold every column in column_paths()");
    }
    const ArrayData* array = batch_.column(top).get();
    std::int64_t base = 0;
    std::vector<std::uint8_t> valid(Z(n_), 1);
    for (std::size_t step = 1; step < path.size(); ++step) {
      // Rows of a null struct have null children, whatever the child slots hold.
      const std::uint8_t* bits = array->validity();
      for (std::int64_t i = 0; bits != nullptr && i < n_; ++i) {
        if (!array::GetBit(bits, array->offset + base + i)) valid[Z(i)] = 0;
      }
      const auto& children = array->type->children();
      std::size_t child = children.size();
      for (std::size_t k = 0; k < children.size(); ++k) {
        if (children[k]->name() == path[step]) child = k;
      }
      if (array->type->id() != array::TypeId::kStruct || child == children.size()) {
        return Status::InvalidArgument("filter: the batch has no column ", PathText(path));
      }
      base += array->offset;
      array = array->children[child].get();
    }
    ColumnPtr c = LoadColumn(*array, base, n_, &valid);
    cache_.emplace(path, c);
    return c;
  }

  const array::RecordBatch& batch_;
  std::int64_t n_;
  std::string_view sql_;
  std::map<ColumnPath, ColumnPtr> cache_;
};

}  // namespace

Result<ColumnPtr> EvaluateTree(const BoundNode& root, const array::RecordBatch& batch,
                               std::string_view sql) {
  Evaluator evaluator(batch, sql);
  return evaluator.Eval(root);
}

}  // namespace lance_nd::query
