// Fuzz target: filter SQL from arbitrary bytes, parsed, printed back, bound to a lance-nd table
// schema and evaluated on its rows. Whatever parses must print to SQL that parses to the same
// text again; whatever binds must evaluate without error to one Bool per row, and Select must
// return exactly the rows where Evaluate is TRUE; the stats rewrite must bind too.
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lance_nd/array/array_data.h"
#include "lance_nd/array/builder.h"
#include "lance_nd/nd/record_batch.h"
#include "lance_nd/nd/row_encoding.h"
#include "lance_nd/query/filter.h"

namespace {

using namespace lance_nd;

template <typename T>
T Must(Result<T> result) {
  if (!result.ok()) std::abort();
  return *std::move(result);
}

nd::NdArrowArray Grid(std::vector<std::optional<float>> values, std::vector<std::string> dims,
                      std::vector<std::uint64_t> sizes, nd::Attributes attrs) {
  auto dimensions = Must(nd::Dimensions::Make(dims, sizes));
  return Must(nd::NdArrowArray::Make(array::MakePrimitiveArray<float>(array::Float32(), values),
                                     dimensions, std::move(attrs)));
}

// Three rows: a full one, one without `sst` and without global attributes, one with a
// variable whose name holds a dot.
array::RecordBatchPtr SampleRows() {
  nd::Attributes units;
  units.Set("units", "K").Set("scale", 2.5);
  nd::Attributes ids;
  ids.Set("id", "a").Set("n", std::int64_t{7});
  auto row0 = Must(nd::NdRecordBatch::FromArrays(
      {{"sst", Grid({1.0f, std::nullopt, 300.5f, -2.0f}, {"y", "x"}, {2, 2}, units)},
       {"depth", Grid({5.0f}, {"z"}, {1}, {})}},
      ids));
  auto row1 = Must(nd::NdRecordBatch::FromArrays({{"depth", Grid({}, {"z"}, {0}, {})}}, {}));
  nd::Attributes ids2;
  ids2.Set("id", "b");
  auto nan = std::numeric_limits<float>::quiet_NaN();
  auto row2 = Must(nd::NdRecordBatch::FromArrays({{"a.b", Grid({nan}, {}, {}, {})}}, ids2));
  std::vector<nd::NdRecordBatch> rows{row0, row1, row2};
  return Must(nd::EncodeRows(rows));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const array::RecordBatchPtr batch = SampleRows();
  std::string_view sql(reinterpret_cast<const char*>(data), size);
  auto filter = query::Filter::Parse(sql);
  if (!filter.ok()) return 0;
  std::string printed = filter->ToSql();
  auto again = query::Filter::Parse(printed);
  if (!again.ok() || again->ToSql() != printed) std::abort();
  auto bound = filter->Bind(*batch->schema());
  if (!bound.ok()) return 0;
  auto values = bound->Evaluate(*batch);
  auto selected = bound->Select(*batch);
  if (values.ok() != selected.ok()) std::abort();
  if (!values.ok()) return 0;  // e.g. a division by zero or a failed cast: an error, no crash
  if ((*values)->length != batch->num_rows()) std::abort();
  auto pruned = query::PruneFilter(*filter, *batch->schema());
  if (pruned.ok() && pruned->has_value()) {
    auto reparsed = query::Filter::Parse((*pruned)->ToSql());
    if (!reparsed.ok()) std::abort();
  }
  return 0;
}
