// Filter::Bind: names to columns (longest top-level name first), types checked per operator.
#include <algorithm>
#include <string>

#include "lance_nd/query/bound.h"
#include "lance_nd/query/coercion.h"
#include "lance_nd/query/parse_error.h"

namespace lance_nd::query {

using array::DataTypePtr;
using array::TypeId;

namespace {

constexpr std::size_t kMaxListedColumns = 40;

std::string Join(const ColumnPath& path, std::size_t begin, std::size_t end) {
  std::string out;
  for (std::size_t i = begin; i < end; ++i) out += (i > begin ? "." : "") + path[i];
  return out;
}

void ListPaths(const std::vector<array::FieldPtr>& fields, const std::string& prefix,
               std::vector<std::string>* out) {
  for (const auto& f : fields) {
    const std::string name = prefix + f->name();
    out->push_back(name);
    if (f->type()->id() == TypeId::kStruct) ListPaths(f->type()->children(), name + ".", out);
  }
}

bool IsBoolOrNull(const DataTypePtr& t) {
  return t->id() == TypeId::kBool || t->id() == TypeId::kNull;
}
bool IsStringOrNull(const DataTypePtr& t) {
  return t->id() == TypeId::kUtf8 || t->id() == TypeId::kLargeUtf8 || t->id() == TypeId::kNull;
}

DataTypePtr LiteralType(const Literal& l) {
  switch (l.kind) {
    case LiteralKind::kNull:
      return array::Null();
    case LiteralKind::kBool:
      return array::Bool();
    case LiteralKind::kInt:
      return array::Int64();
    case LiteralKind::kFloat:
      return array::Float64();
    case LiteralKind::kString:
      return array::Utf8();
  }
  return array::Null();
}

class Binder {
 public:
  Binder(const Filter& filter, const array::Schema& schema) : filter_(filter), schema_(schema) {}

  Result<std::shared_ptr<const BoundNode>> Bind(const Expr& e) {
    auto node = std::make_shared<BoundNode>();
    node->expr = &e;
    for (const auto& a : e.args) {
      LND_ASSIGN_OR_RETURN(auto bound, Bind(*a));
      node->args.push_back(std::move(bound));
    }
    LND_RETURN_NOT_OK(Type(e, node.get()));
    return std::shared_ptr<const BoundNode>(std::move(node));
  }

  std::vector<ColumnPath> paths;

 private:
  Status Error(const Expr& e, const std::string& what) const {
    return FilterError(filter_.sql(), e.position, what);
  }
  static std::string TypeName(const BoundNode& n) { return n.type->ToString(); }

  Status Type(const Expr& e, BoundNode* n) {
    const auto& a = n->args;
    switch (e.kind) {
      case ExprKind::kLiteral:
        n->type = LiteralType(e.literal);
        return Status::OK();
      case ExprKind::kColumn:
        return Resolve(e, n);
      case ExprKind::kNot:
        if (!IsBoolOrNull(a[0]->type)) {
          return Error(e, "NOT expects a boolean operand, found " + TypeName(*a[0]));
        }
        n->type = array::Bool();
        return Status::OK();
      case ExprKind::kNegate:
        if (!IsNumberKind(KindOf(*a[0]->type)) && KindOf(*a[0]->type) != Kind::kDuration &&
            a[0]->type->id() != TypeId::kNull) {
          return Error(e, "unary - expects a number, found " + TypeName(*a[0]));
        }
        n->type = a[0]->type;
        return Status::OK();
      case ExprKind::kBinary:
        return TypeBinary(e, n);
      case ExprKind::kIsNull:
        n->type = array::Bool();
        return Status::OK();
      case ExprKind::kIsBool:
        if (!IsBoolOrNull(a[0]->type)) {
          return Error(e, "IS TRUE / IS FALSE expects a boolean operand, found " + TypeName(*a[0]));
        }
        n->type = array::Bool();
        return Status::OK();
      case ExprKind::kInList:
        for (std::size_t i = 1; i < a.size(); ++i) {
          LND_RETURN_NOT_OK(Comparable(e, "IN", *a[0], *a[i]));
        }
        n->type = array::Bool();
        return Status::OK();
      case ExprKind::kBetween:
        LND_RETURN_NOT_OK(Comparable(e, "BETWEEN", *a[0], *a[1]));
        LND_RETURN_NOT_OK(Comparable(e, "BETWEEN", *a[0], *a[2]));
        n->type = array::Bool();
        return Status::OK();
      case ExprKind::kLike:
        if (!IsStringOrNull(a[0]->type) || !IsStringOrNull(a[1]->type)) {
          return Error(
              e, "LIKE expects strings, found " + TypeName(*a[0]) + " LIKE " + TypeName(*a[1]));
        }
        n->type = array::Bool();
        return Status::OK();
      case ExprKind::kCast:
        if (!CanCastType(*a[0]->type, *e.cast_type)) {
          return Error(e,
                       "CAST cannot convert " + TypeName(*a[0]) + " to " + e.cast_type->ToString());
        }
        n->type = e.cast_type;
        return Status::OK();
      case ExprKind::kCall:
        return TypeCall(e, n);
    }
    return Status::OK();
  }

  Status Comparable(const Expr& e, const std::string& op, const BoundNode& x,
                    const BoundNode& y) const {
    if (ComparisonType(x.type, y.type)) return Status::OK();
    return Error(e, "operator " + op + " cannot compare " + TypeName(x) + " with " + TypeName(y) +
                        "; compare values of one kind (numbers, strings, booleans, dates/"
                        "timestamps) or CAST one side");
  }

  Status TypeBinary(const Expr& e, BoundNode* n) {
    const BoundNode& x = *n->args[0];
    const BoundNode& y = *n->args[1];
    const std::string op = BinaryOpSql(e.op);
    if (e.op == BinaryOp::kAnd || e.op == BinaryOp::kOr) {
      if (!IsBoolOrNull(x.type) || !IsBoolOrNull(y.type)) {
        return Error(e, "operator " + op + " expects booleans, found " + TypeName(x) + " " + op +
                            " " + TypeName(y));
      }
      n->type = array::Bool();
      return Status::OK();
    }
    if (e.op <= BinaryOp::kGe) {
      LND_RETURN_NOT_OK(Comparable(e, op, x, y));
      n->type = array::Bool();
      return Status::OK();
    }
    n->type = ArithmeticType(x.type, y.type);
    if (!n->type) {
      return Error(e, "operator " + op + " expects numbers, found " + TypeName(x) + " " + op + " " +
                          TypeName(y));
    }
    return Status::OK();
  }

  Status TypeCall(const Expr& e, BoundNode* n) {
    const auto& a = n->args;
    const auto arity = [&](std::size_t k) {
      return a.size() == k ? Status::OK()
                           : Error(e, e.function + " takes " + std::to_string(k) +
                                          " argument(s), found " + std::to_string(a.size()));
    };
    const auto list_arg = [&]() {
      return KindOf(*a[0]->type) == Kind::kList
                 ? Status::OK()
                 : Error(e, e.function + " expects a list as its first argument, found " +
                                TypeName(*a[0]));
    };
    if (e.function == "array_has" || e.function == "array_contains") {
      LND_RETURN_NOT_OK(arity(2));
      LND_RETURN_NOT_OK(list_arg());
      BoundNode item;
      item.type = a[0]->type->value_type();
      LND_RETURN_NOT_OK(Comparable(e, e.function, item, *a[1]));
      n->type = array::Bool();
      return Status::OK();
    }
    if (e.function == "array_length") {
      LND_RETURN_NOT_OK(arity(1));
      LND_RETURN_NOT_OK(list_arg());
      n->type = array::UInt64();
      return Status::OK();
    }
    if (e.function == "abs") {
      LND_RETURN_NOT_OK(arity(1));
      if (!IsNumberKind(KindOf(*a[0]->type))) {
        return Error(e, "abs expects a number, found " + TypeName(*a[0]));
      }
      n->type = a[0]->type;
      return Status::OK();
    }
    return Error(e, "unknown function " + e.function +
                        "; the functions are array_has, array_contains, "
                        "array_length and abs");
  }

  // Longest matching name among `fields` for parts[begin..], so `a.b` (one name) wins over a
  // struct `a` with a child `b`.
  static int Match(const std::vector<array::FieldPtr>& fields, const ColumnPath& parts,
                   std::size_t begin, std::size_t* end) {
    for (std::size_t k = parts.size(); k > begin; --k) {
      const std::string name = Join(parts, begin, k);
      for (std::size_t i = 0; i < fields.size(); ++i) {
        if (fields[i]->name() == name) {
          *end = k;
          return static_cast<int>(i);
        }
      }
    }
    return -1;
  }

  static std::string Lower(std::string s) {
    for (char& c : s) {
      if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    }
    return s;
  }

  // The longest top-level name equal to the leading parts up to case, if only one field is.
  static int MatchIgnoringCase(const std::vector<array::FieldPtr>& fields, const ColumnPath& parts,
                               std::size_t* end) {
    for (std::size_t k = parts.size(); k > 0; --k) {
      const std::string name = Lower(Join(parts, 0, k));
      int found = -1;
      for (std::size_t i = 0; i < fields.size(); ++i) {
        if (Lower(fields[i]->name()) != name) continue;
        if (found >= 0) return -1;  // ambiguous
        found = static_cast<int>(i);
      }
      if (found >= 0) {
        *end = k;
        return found;
      }
    }
    return -1;
  }

  Status Resolve(const Expr& e, BoundNode* n) {
    const std::vector<array::FieldPtr>* fields = &schema_.fields();
    std::size_t begin = 0;
    ColumnPath resolved;
    DataTypePtr type;
    while (begin < e.path.size()) {
      if (fields == nullptr) {
        return Error(e, "column " + Join(resolved, 0, resolved.size()) + " is " + type->ToString() +
                            ", not a struct: it has no field " + e.path[begin]);
      }
      std::size_t end = 0;
      int i = Match(*fields, e.path, begin, &end);
      // LanceDB finds top-level columns whatever the case of the name (struct fields not).
      if (i < 0 && begin == 0) i = MatchIgnoringCase(*fields, e.path, &end);
      if (i < 0) return UnknownColumn(e);
      const auto& field = (*fields)[static_cast<std::size_t>(i)];
      resolved.push_back(field->name());
      type = field->type();
      fields = type->id() == TypeId::kStruct ? &type->children() : nullptr;
      begin = end;
    }
    // Types the kernels cannot read (decimals) still answer IS NULL; operators refuse them.
    n->type = type;
    n->path = resolved;
    if (std::find(paths.begin(), paths.end(), resolved) == paths.end()) paths.push_back(resolved);
    return Status::OK();
  }

  Status UnknownColumn(const Expr& e) const {
    std::vector<std::string> names;
    ListPaths(schema_.fields(), "", &names);
    std::string list;
    for (std::size_t i = 0; i < names.size() && i < kMaxListedColumns; ++i) {
      list += (i > 0 ? ", " : "") + names[i];
    }
    if (names.size() > kMaxListedColumns) {
      list += ", ... (" + std::to_string(names.size()) + " in all)";
    }
    if (names.empty()) list = "(none)";
    return Error(e,
                 "unknown column " + Join(e.path, 0, e.path.size()) + "; the columns are: " + list +
                     " (names are case-sensitive; quote names with other characters in backticks)");
  }

  const Filter& filter_;
  const array::Schema& schema_;
};

}  // namespace

Result<std::shared_ptr<const BoundNode>> BindTree(const Filter& filter, const array::Schema& schema,
                                                  std::vector<ColumnPath>* paths) {
  Binder binder(filter, schema);
  LND_ASSIGN_OR_RETURN(auto root, binder.Bind(*filter.root()));
  if (!IsBoolOrNull(root->type)) {
    return FilterError(filter.sql(), filter.root()->position,
                       "a filter must be a condition (boolean), found an expression of type " +
                           root->type->ToString());
  }
  *paths = std::move(binder.paths);
  return root;
}

}  // namespace lance_nd::query
