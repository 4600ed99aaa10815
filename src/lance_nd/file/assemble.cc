#include "lance_nd/file/assemble.h"

#include <algorithm>
#include <string>

#include "lance_nd/file/value_builder.h"

namespace lance_nd::file::internal {
namespace {

using array::TypeId;

// Values [from, to) of each segment's value blocks, in output order.
std::vector<ValueBuilder::Piece> ValuePieces(const std::vector<Segment>& segs) {
  std::vector<ValueBuilder::Piece> pieces;
  for (const Segment& sg : segs) {
    const IndexedPage& ip = *sg.page;
    const std::uint64_t from = ip.index.Value(sg.rb), to = ip.index.Value(sg.re);
    std::uint64_t base = 0;
    for (const auto& block : ip.page.values) {
      const std::uint64_t end = base + block.num_values;
      const std::uint64_t a = std::max(from, base), b = std::min(to, end);
      if (a < b) pieces.push_back({&block, a - base, b - a});
      base = end;
      if (base >= to) break;
    }
  }
  return pieces;
}

// The validity / offsets of every layer of a leaf from its segments' levels.
Result<std::vector<LayerArrays>> UnravelSegments(const ColumnInfo& info,
                                                 const std::vector<Segment>& segs,
                                                 std::uint64_t num_values,
                                                 const std::string& where) {
  const bool lists = info.scheme->num_lists() > 0;
  std::uint64_t num_rows = 0;
  bool dense = true;
  for (const Segment& sg : segs) {
    dense = dense && sg.page->page.def_zero;
    num_rows += sg.re - sg.rb;
  }
  if (dense) {
    std::vector<RepSpan> spans;
    spans.reserve(segs.size());
    for (const Segment& sg : segs) {
      const IndexedPage& ip = *sg.page;
      const std::uint64_t b = ip.index.Entry(sg.rb), e = ip.index.Entry(sg.re);
      spans.push_back({lists ? ip.page.rep.data() + b : nullptr, e - b});
    }
    return UnravelDense(*info.scheme, spans, num_rows, num_values, where);
  }
  LeafLevels levels;
  for (const Segment& sg : segs) {
    AppendRowLevels(sg.page->page, sg.page->index, sg.rb, sg.re, lists, &levels);
  }
  return Unravel(*info.scheme, levels, num_values, where);
}

}  // namespace

Result<LeafResult> AssembleLeaf(const ReaderState& state, int c, const std::vector<Segment>& segs,
                                int threads, const array::BufferPtr& column_values) {
  const ColumnInfo& info = state.column(c);
  const std::string where = state.ColumnWhere(c);
  LND_ASSIGN_OR_RETURN(ValueBuilder vb, ValueBuilder::Make(info.node->field->type()));
  const std::vector<ValueBuilder::Piece> pieces = ValuePieces(segs);
  if (!vb.AdoptContiguous(pieces, column_values)) {
    LND_RETURN_NOT_OK_CTX(vb.AppendMany(pieces, threads), where);
  }
  LeafResult out;
  LND_ASSIGN_OR_RETURN(out.layers, UnravelSegments(info, segs, vb.length(), where));
  const LayerArrays& leaf = out.layers.back();
  LND_ASSIGN_OR_RETURN(out.leaf, vb.Finish(leaf.validity, leaf.null_count));
  return out;
}

Result<array::ArrayPtr> AssembleField(const ReaderState& state, const FieldNode& node,
                                      const array::FieldPtr& field, const ProjNode* pn,
                                      std::size_t depth, const std::map<int, LeafResult>& leaves) {
  if (node.is_leaf()) {
    const LeafResult& lr = leaves.at(node.column);
    if (lr.layers.size() != depth + 1) {
      return Status::Corrupt(state.ColumnWhere(node.column), ": level depth mismatch");
    }
    return lr.leaf;
  }
  // A struct's or list's own validity (and offsets) come from any leaf below it.
  std::vector<int> under;
  if (pn != nullptr) {
    CollectLeaves(*pn, &under);
  } else {
    CollectLeaves(node, &under);
  }
  if (under.empty()) return Status::Corrupt("field '", node.field->name(), "' has no leaf column");
  const LayerArrays& la = leaves.at(under[0]).layers.at(depth);
  if (field->type()->id() != TypeId::kStruct) {  // list / large list
    LND_ASSIGN_OR_RETURN(
        auto child, AssembleField(state, node.children[0], field->type()->value_field(), nullptr,
                                  depth + 1, leaves));
    return array::MakeArrayData(field->type(), la.length, {la.validity, la.offsets},
                                {std::move(child)}, la.null_count);
  }
  std::vector<array::ArrayPtr> kids;
  const auto& child_fields = field->type()->children();
  const bool pruned = pn != nullptr && !pn->whole;
  const std::size_t num_children = pruned ? pn->children.size() : node.children.size();
  for (std::size_t i = 0; i < num_children; ++i) {
    const FieldNode& child = pruned ? *pn->children[i].node : node.children[i];
    const ProjNode* child_pn = pruned ? &pn->children[i] : nullptr;
    LND_ASSIGN_OR_RETURN(auto a,
                         AssembleField(state, child, child_fields[i], child_pn, depth + 1, leaves));
    if (a->length != la.length) {
      return Status::Corrupt("struct '", node.field->name(), "' has ",
                             static_cast<std::uint64_t>(la.length), " rows but a child has ",
                             static_cast<std::uint64_t>(a->length));
    }
    kids.push_back(std::move(a));
  }
  return array::MakeArrayData(field->type(), la.length, {la.validity}, std::move(kids),
                              la.null_count);
}

}  // namespace lance_nd::file::internal
