// Broadcasting by dimension name and target-grid inference.
#include <algorithm>
#include <optional>

#include "lance_nd/array/builder.h"
#include "lance_nd/nd/errors.h"
#include "lance_nd/nd/record_batch.h"

namespace lance_nd::nd {
namespace {

std::string ColumnLabel(std::span<const std::string> names, std::size_t i) {
  if (i < names.size()) return "column '" + names[i] + "'";
  return "column " + std::to_string(i);
}

// True when every column's axes are axes of `grid` with the same size or size 1: the merge
// below would then change nothing (it changes the grid only to add axes or to replace a size
// 1 of the grid).
bool FitsOnto(std::span<const NdArrowArray> columns, const Dimensions& grid) {
  for (const NdArrowArray& c : columns) {
    for (const Dimension& d : c.dimensions().dims()) {
      const std::optional<uint64_t> size = grid.SizeOf(d.name);
      if (!size || (*size != d.size && d.size != 1)) return false;
    }
  }
  return true;
}

}  // namespace

Status CheckBroadcast(const Dimensions& from, const Dimensions& target) {
  for (const Dimension& d : from.dims()) {
    const auto size = target.SizeOf(d.name);
    if (!size) {
      return ShapeMismatch("dimensions " + from.ToString() + " do not broadcast onto " +
                           target.ToString() + ": the target has no dimension '" + d.name + "'");
    }
    if (*size != d.size && d.size != 1) {
      return ShapeMismatch("dimensions " + from.ToString() + " do not broadcast onto " +
                           target.ToString() + ": dimension '" + d.name + "' has size " +
                           std::to_string(d.size) + " but the target has " + std::to_string(*size) +
                           " (only size 1 broadcasts)");
    }
  }
  return Status::OK();
}

Result<Dimensions> InferTarget(std::span<const NdArrowArray> columns,
                               std::span<const std::string> names) {
  if (columns.empty()) return Dimensions();
  std::size_t first = 0;
  for (std::size_t i = 1; i < columns.size(); ++i) {
    if (columns[i].rank() > columns[first].rank()) first = i;
  }
  // Most rows: every column lies on the first one's grid, which is then the target as it is
  // (already validated), with no merge and no new Dimensions to check.
  if (FitsOnto(columns, columns[first].dimensions())) return columns[first].dimensions();
  std::vector<Dimension> dims = columns[first].dimensions().dims();
  // Which column gave each axis its current size (for messages).
  std::vector<std::size_t> source(dims.size(), first);
  auto merge = [&](std::size_t c) -> Status {
    for (const Dimension& d : columns[c].dimensions().dims()) {
      auto it = std::find_if(dims.begin(), dims.end(),
                             [&](const Dimension& t) { return t.name == d.name; });
      if (it == dims.end()) {
        dims.push_back(d);
        source.push_back(c);
        continue;
      }
      const auto at = static_cast<std::size_t>(it - dims.begin());
      if (it->size == d.size || d.size == 1) continue;
      if (it->size == 1) {
        it->size = d.size;
        source[at] = c;
        continue;
      }
      return ShapeMismatch("dimension '" + d.name + "' has size " + std::to_string(d.size) +
                           " in " + ColumnLabel(names, c) + " but size " +
                           std::to_string(it->size) + " in " + ColumnLabel(names, source[at]) +
                           "; arrays of one batch must agree on each dimension (or use size 1)");
    }
    return Status::OK();
  };
  for (std::size_t c = 0; c < columns.size(); ++c) {
    if (c == first) continue;
    LND_RETURN_NOT_OK(merge(c));
  }
  // The target is logical: only each array's own element count must fit int64.
  return Dimensions::MakeGrid(std::move(dims));
}

Result<NdArrowArray> Broadcast(const NdArrowArray& nd, const Dimensions& target) {
  LND_RETURN_NOT_OK(CheckBroadcast(nd.dimensions(), target));
  if (nd.dimensions() == target) return nd;
  const Dimensions& from = nd.dimensions();
  // C-order strides of the source, then the source stride of each target axis (0: repeat).
  std::vector<int64_t> src_stride(from.rank(), 1);
  for (std::size_t i = from.rank(); i-- > 1;) {
    src_stride[i - 1] = src_stride[i] * static_cast<int64_t>(from[i].size);
  }
  const std::size_t rank = target.rank();
  std::vector<int64_t> stride(rank, 0);
  std::vector<int64_t> size(rank, 0);
  for (std::size_t t = 0; t < rank; ++t) {
    size[t] = static_cast<int64_t>(target[t].size);
    const auto s = from.IndexOf(target[t].name);
    if (s && from[*s].size != 1) stride[t] = src_stride[*s];
  }
  const int64_t total = target.num_elements();
  if (total == Dimensions::kUncountable) {
    return ShapeMismatch("cannot broadcast onto the grid " + target.ToString() +
                         ": its element count overflows a 64-bit integer; read each array on "
                         "its own dimensions");
  }
  auto builder = array::MakeBuilder(nd.value_type());
  const array::ArrayData& values = *nd.values();
  if (total > 0) {
    std::vector<int64_t> index(rank, 0);
    int64_t src = 0;
    int64_t run_start = 0;
    int64_t run_length = 0;
    for (int64_t n = 0; n < total; ++n) {
      if (run_length > 0 && src == run_start + run_length) {
        ++run_length;
      } else {
        if (run_length > 0) {
          LND_RETURN_NOT_OK(builder->AppendArraySlice(values, run_start, run_length));
        }
        run_start = src;
        run_length = 1;
      }
      // Advance the odometer (last axis fastest).
      for (std::size_t t = rank; t-- > 0;) {
        if (++index[static_cast<std::size_t>(t)] < size[t]) {
          src += stride[t];
          break;
        }
        src -= stride[t] * (size[t] - 1);
        index[t] = 0;
      }
    }
    if (run_length > 0) {
      LND_RETURN_NOT_OK(builder->AppendArraySlice(values, run_start, run_length));
    }
  }
  LND_ASSIGN_OR_RETURN(array::ArrayPtr out, builder->Finish());
  return NdArrowArray::Make(std::move(out), target, nd.attributes());
}

}  // namespace lance_nd::nd
