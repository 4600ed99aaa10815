// Test helpers of widen and staged writes: lance-nd tables written with the nd and table layers
// (EncodeRows + WriteTable, the format marker, optional min/max stats columns computed here
// independently of the writer's own stats), rows read back, numbers as doubles.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "lance_nd/array/builder.h"
#include "lance_nd/array/cast.h"
#include "lance_nd/io/file_system.h"
#include "lance_nd/nd/encoded_schema.h"
#include "lance_nd/nd/format.h"
#include "lance_nd/nd/row_encoding.h"
#include "lance_nd/table/scan.h"
#include "lance_nd/table/write.h"

namespace lance_nd::api::testing {

inline table::TableLocation MemoryTable(std::string name = "t") {
  return {io::MakeMemoryFileSystem(), std::move(name)};
}

/// Numbers of `values` as doubles through a float64 cast (nullopt for nulls).
inline std::vector<std::optional<double>> Doubles(const array::ArrayPtr& values) {
  auto f64 = array::Cast(values, array::Float64(), array::CastMode::kSameKind);
  EXPECT_TRUE(f64.ok()) << f64.status().ToString();
  std::vector<std::optional<double>> out;
  if (!f64.ok()) return out;
  for (int64_t i = 0; i < (*f64)->length; ++i) {
    out.push_back((*f64)->IsNull(i) ? std::nullopt : std::optional((*f64)->values<double>()[i]));
  }
  return out;
}

/// The stats column of `variable` over `rows`: per row the slots holding the smallest and the
/// largest counted value (nulls and NaN skipped), a null struct when the row lacks it.
inline array::ArrayPtr StatsColumnFor(std::span<const nd::NdRecordBatch> rows,
                                      const std::string& variable, const array::DataTypePtr& type) {
  auto min = array::MakeBuilder(type);
  auto max = array::MakeBuilder(type);
  std::uint8_t* bits = nullptr;
  const auto n = static_cast<int64_t>(rows.size());
  auto validity = array::Buffer::AllocateZeroed((n + 7) / 8, &bits);
  for (int64_t r = 0; r < n; ++r) {
    const nd::NdArrowArray* column = rows[static_cast<std::size_t>(r)].GetColumn(variable);
    if (column == nullptr) {
      min->AppendNull();
      max->AppendNull();
      continue;
    }
    array::SetBit(bits, r);
    const auto v = Doubles(column->values());
    int64_t lo = -1, hi = -1;
    for (int64_t i = 0; i < static_cast<int64_t>(v.size()); ++i) {
      const auto& x = v[static_cast<std::size_t>(i)];
      if (!x || std::isnan(*x)) continue;
      if (lo < 0 || *x < *v[static_cast<std::size_t>(lo)]) lo = i;
      if (hi < 0 || *x > *v[static_cast<std::size_t>(hi)]) hi = i;
    }
    if (lo < 0) {
      min->AppendNull();
      max->AppendNull();
    } else {
      EXPECT_TRUE(min->AppendArraySlice(*column->values(), lo, 1).ok());
      EXPECT_TRUE(max->AppendArraySlice(*column->values(), hi, 1).ok());
    }
  }
  const auto field = nd::StatsField(variable, type);
  return array::MakeArrayData(field->type(), n, {validity}, {*min->Finish(), *max->Finish()});
}

/// `rows` encoded (EncodeRows) with the format marker and, for each variable in `stats_for`
/// (name and value type), its stats column after the others.
inline Result<array::RecordBatchPtr> EncodeTableRows(
    std::span<const nd::NdRecordBatch> rows,
    const std::vector<std::pair<std::string, array::DataTypePtr>>& stats_for = {}) {
  LND_ASSIGN_OR_RETURN(auto batch, nd::EncodeRows(rows));
  std::vector<array::FieldPtr> fields = batch->schema()->fields();
  std::vector<array::ArrayPtr> columns = batch->columns();
  for (const auto& [name, type] : stats_for) {
    fields.push_back(nd::StatsField(name, type));
    columns.push_back(StatsColumnFor(rows, name, type));
  }
  array::Metadata metadata = batch->schema()->metadata();
  metadata.Set(std::string(nd::kFormatMetadataKey), std::string(nd::kFormatVersion));
  if (!stats_for.empty()) {
    metadata.Set(std::string(nd::kStatsMetadataKey), std::string(nd::kStatsMetadataValue));
  }
  return array::RecordBatch::Make(array::MakeSchema(std::move(fields), std::move(metadata)),
                                  batch->num_rows(), std::move(columns));
}

/// A new lance-nd table of `rows`, `rows_per_fragment` rows per fragment, data files of
/// `version`.
inline Result<table::Dataset> WriteNdTable(
    const table::TableLocation& location, std::span<const nd::NdRecordBatch> rows,
    const std::vector<std::pair<std::string, array::DataTypePtr>>& stats_for = {},
    std::int64_t rows_per_fragment = 1 << 20,
    file::FileVersion version = file::FileVersion::kV2_2) {
  LND_ASSIGN_OR_RETURN(auto batch, EncodeTableRows(rows, stats_for));
  table::WriteOptions options;
  options.max_rows_per_file = rows_per_fragment;
  options.file_options.version = version;
  const array::RecordBatchPtr batches[] = {batch};
  return table::WriteTable(location, batches, options);
}

/// Every live row of `ds`, decoded.
inline Result<std::vector<nd::NdRecordBatch>> ReadRows(const table::Dataset& ds) {
  LND_ASSIGN_OR_RETURN(array::RecordBatchPtr batch, table::ReadTable(ds));
  LND_ASSIGN_OR_RETURN(nd::RowDecoder decoder, nd::RowDecoder::Make(batch->schema()));
  return decoder.DecodeAll(*batch);
}

}  // namespace lance_nd::api::testing
