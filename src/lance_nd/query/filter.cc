// Filter and BoundFilter: the public face of parse, bind and evaluate.
#include "lance_nd/query/filter.h"

#include <algorithm>

#include "lance_nd/query/bound.h"
#include "lance_nd/query/evaluator.h"
#include "lance_nd/query/expr.h"

namespace lance_nd::query {

struct BoundFilter::Impl {
  Filter filter;
  std::shared_ptr<const BoundNode> root;
  std::vector<ColumnPath> paths;
};

namespace {

void CollectPaths(const Expr& e, std::vector<ColumnPath>* out) {
  if (e.kind == ExprKind::kColumn && std::find(out->begin(), out->end(), e.path) == out->end()) {
    out->push_back(e.path);
  }
  for (const auto& a : e.args) CollectPaths(*a, out);
}

}  // namespace

std::vector<ColumnPath> Filter::ColumnPaths() const {
  std::vector<ColumnPath> out;
  CollectPaths(*root_, &out);
  return out;
}

Result<BoundFilter> Filter::Bind(const array::Schema& schema) const {
  auto impl = std::make_shared<BoundFilter::Impl>(BoundFilter::Impl{*this, nullptr, {}});
  LND_ASSIGN_OR_RETURN(impl->root, BindTree(impl->filter, schema, &impl->paths));
  return BoundFilter(std::move(impl));
}

BoundFilter::BoundFilter(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}

const std::vector<ColumnPath>& BoundFilter::column_paths() const { return impl_->paths; }
const Filter& BoundFilter::filter() const { return impl_->filter; }

Result<array::ArrayPtr> BoundFilter::Evaluate(const array::RecordBatch& batch) const {
  LND_ASSIGN_OR_RETURN(ColumnPtr c, EvaluateTree(*impl_->root, batch, impl_->filter.sql()));
  const std::int64_t n = batch.num_rows();
  std::uint8_t* valid_bits = nullptr;
  std::uint8_t* value_bits = nullptr;
  auto validity = array::Buffer::AllocateZeroed(array::BytesForBits(n), &valid_bits);
  auto values = array::Buffer::AllocateZeroed(array::BytesForBits(n), &value_bits);
  std::int64_t nulls = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    const auto k = static_cast<std::size_t>(i);
    if (c->valid[k]) {
      array::SetBit(valid_bits, i);
      if (!c->bools.empty() && c->bools[k]) array::SetBit(value_bits, i);
    } else {
      ++nulls;
    }
  }
  return array::MakeArrayData(array::Bool(), n, {nulls > 0 ? validity : nullptr, values}, {},
                              nulls);
}

Result<std::vector<std::int64_t>> BoundFilter::Select(const array::RecordBatch& batch) const {
  LND_ASSIGN_OR_RETURN(ColumnPtr c, EvaluateTree(*impl_->root, batch, impl_->filter.sql()));
  std::vector<std::int64_t> rows;
  for (std::int64_t i = 0; i < c->length && !c->bools.empty(); ++i) {
    const auto k = static_cast<std::size_t>(i);
    if (c->valid[k] && c->bools[k]) rows.push_back(i);
  }
  return rows;
}

}  // namespace lance_nd::query
