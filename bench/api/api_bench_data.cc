#include "api_bench_data.h"

#include <string>
#include <utility>

#include "../bench_data.h"
#include "lance_nd/array/buffer.h"
#include "lance_nd/array/type.h"
#include "lance_nd/nd/attributes.h"
#include "lance_nd/nd/dimensions.h"
#include "lance_nd/nd/nd_array.h"
#include "lance_nd/nd/row_encoding.h"

namespace lance_nd::bench {
namespace {

constexpr int kCells = 16;  // time=1 x lat=4 x lon=4

Result<nd::NdArrowArray> SstRow(std::int64_t row, std::int64_t rows, const nd::Dimensions& dims) {
  // 7919 is prime, so row * 7919 mod rows visits every base once (rows not a multiple of it).
  const double base = 100.0 * static_cast<double>((row * 7919) % rows) / static_cast<double>(rows);
  std::vector<float> values(kCells);
  for (int i = 0; i < kCells; ++i) values[i] = static_cast<float>(base + i / 16.0);
  auto data = array::MakeArrayData(
      array::Float32(), kCells, {nullptr, array::Buffer::Copy(values.data(), kCells * 4)}, {}, 0);
  nd::Attributes attrs;
  attrs.Set("units", "K");
  return nd::NdArrowArray::Make(std::move(data), dims, std::move(attrs));
}

}  // namespace

Result<std::vector<nd::NdRecordBatch>> MakeFilterRows(std::int64_t rows) {
  LND_ASSIGN_OR_RETURN(nd::Dimensions dims, nd::Dimensions::Make(std::vector<nd::Dimension>{
                                                {"time", 1}, {"lat", 4}, {"lon", 4}}));
  std::vector<nd::NdRecordBatch> out;
  out.reserve(static_cast<std::size_t>(rows));
  for (std::int64_t r = 0; r < rows; ++r) {
    LND_ASSIGN_OR_RETURN(nd::NdArrowArray sst, SstRow(r, rows, dims));
    nd::Attributes globals;
    globals.Set("id", "r" + std::to_string(r));
    globals.Set("group", static_cast<std::int32_t>(r % 100));
    globals.Set("source", "model-" + std::to_string(r % 7));
    LND_ASSIGN_OR_RETURN(nd::NdRecordBatch b, nd::NdRecordBatch::FromArrays(
                                                  {{"sst", std::move(sst)}}, std::move(globals)));
    out.push_back(std::move(b));
  }
  return out;
}

Result<std::vector<nd::NdRecordBatch>> MakeGridRows(std::int64_t rows, int lat, int lon) {
  LND_ASSIGN_OR_RETURN(array::RecordBatchPtr encoded, MakeNdGrids(rows, lat, lon, false));
  LND_ASSIGN_OR_RETURN(nd::RowDecoder decoder, nd::RowDecoder::Make(encoded->schema()));
  return decoder.DecodeAll(*encoded);
}

}  // namespace lance_nd::bench
