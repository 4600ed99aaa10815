// Fuzz target: the nd row decoder on record batches read from arbitrary Arrow IPC stream bytes.
// Whatever decodes must re-encode, and the re-encoded rows must decode to equal nd batches; each
// row's layout (RowDecoder::DecodeRowLayout) must describe the decoded row.
#include <cstdint>
#include <cstdlib>
#include <span>

#include "lance_nd/array/ipc.h"
#include "lance_nd/nd/row_encoding.h"

namespace {

/// The layout of row `i` of `batch` names the arrays of `row` in order, with their dimensions,
/// value types and attributes, and its global attributes.
bool LayoutDescribes(const lance_nd::nd::RowDecoder& decoder,
                     const lance_nd::array::RecordBatch& batch,
                     const lance_nd::nd::NdRecordBatch& row, int64_t i) {
  auto layout = decoder.DecodeRowLayout(batch, i);
  if (!layout.ok() || layout->arrays.size() != static_cast<std::size_t>(row.num_columns())) {
    return false;
  }
  for (int c = 0; c < row.num_columns(); ++c) {
    const auto& got = layout->arrays[static_cast<std::size_t>(c)];
    const auto& want = row.column(c);
    if (got.name != row.column_name(c) || !(got.dimensions == want.dimensions()) ||
        !got.value_type->Equals(*want.value_type()) || !(got.attributes == want.attributes())) {
      return false;
    }
  }
  return layout->global_attributes == row.attributes();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace lance_nd;
  auto contents = array::ipc::ReadIpcStream(std::span<const std::uint8_t>(data, size));
  if (!contents.ok()) return 0;
  auto decoder = nd::RowDecoder::Make(contents->schema);
  if (!decoder.ok()) return 0;
  for (const auto& batch : contents->batches) {
    auto rows = decoder->DecodeAll(*batch);
    if (!rows.ok()) continue;
    for (std::size_t i = 0; i < rows->size(); ++i) {
      if (!LayoutDescribes(*decoder, *batch, (*rows)[i], static_cast<int64_t>(i))) std::abort();
    }
    auto encoded = nd::EncodeRows(*rows);
    if (!encoded.ok()) std::abort();
    auto again = nd::RowDecoder::Make((*encoded)->schema());
    if (!again.ok()) std::abort();
    auto back = again->DecodeAll(**encoded);
    if (!back.ok() || back->size() != rows->size()) std::abort();
    for (std::size_t i = 0; i < rows->size(); ++i) {
      if (!((*back)[i] == (*rows)[i])) std::abort();
    }
  }
  return 0;
}
