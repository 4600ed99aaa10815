// Test helpers of the api layer: tables in memory, reading every row back with the table and nd
// layers (not the Scanner), seeded random rows whose variables keep one type per table; and
// lance-nd tables written straight through the nd encoding and the table layer (format marker,
// optional stats columns computed here), so that the read and maintenance side is tested
// without depending on the api's own writer.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <random>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "lance_nd/api/table.h"
#include "lance_nd/array/builder.h"
#include "lance_nd/array/view.h"
#include "lance_nd/io/file_system.h"
#include "lance_nd/nd/encoded_schema.h"
#include "lance_nd/nd/format.h"
#include "lance_nd/nd/random_rows.h"
#include "lance_nd/nd/row_encoding.h"
#include "lance_nd/nd/schema_merge.h"
#include "lance_nd/table/evolution.h"
#include "lance_nd/table/scan.h"
#include "lance_nd/table/write.h"

namespace lance_nd::api_testing {

using nd::testing::AttrKind;
using nd::testing::Rng;
using nd::testing::ValueKind;

/// A table location on a fresh in-memory file system.
inline table::TableLocation MemoryTable(std::string name = "t") {
  return {io::MakeMemoryFileSystem(), std::move(name)};
}

/// Every live row of `ds`, decoded.
inline Result<std::vector<nd::NdRecordBatch>> ReadRows(const table::Dataset& ds) {
  LND_ASSIGN_OR_RETURN(array::RecordBatchPtr batch, table::ReadTable(ds));
  LND_ASSIGN_OR_RETURN(nd::RowDecoder decoder, nd::RowDecoder::Make(batch->schema()));
  return decoder.DecodeAll(*batch);
}

/// Variables with one value type each, attribute types per (variable, key) and per global key:
/// rows drawn from one universe can go into one table in any order.
struct Universe {
  std::vector<std::pair<std::string, ValueKind>> vars;
  std::vector<std::vector<AttrKind>> attr_kinds;
  std::vector<AttrKind> global_kinds;
};

inline const std::vector<std::string>& AttrKeys() {
  static const std::vector<std::string> keys = {"units", "long_name", "scale", "valid_range",
                                                "flags"};
  return keys;
}
inline const std::vector<std::string>& GlobalKeys() {
  static const std::vector<std::string> keys = {"id", "title", "chunk", "history"};
  return keys;
}

inline Universe RandomUniverse(Rng& rng, int num_vars = 8) {
  Universe u;
  for (int i = 0; i < num_vars; ++i) {
    const auto kind = static_cast<ValueKind>(nd::testing::Uniform(rng, 0, 9));
    u.vars.emplace_back("v" + std::to_string(i), kind);
    std::vector<AttrKind> kinds;
    for (std::size_t k = 0; k < AttrKeys().size(); ++k) {
      kinds.push_back(static_cast<AttrKind>(nd::testing::Uniform(rng, 0, 9)));
    }
    u.attr_kinds.push_back(std::move(kinds));
  }
  for (std::size_t k = 0; k < GlobalKeys().size(); ++k) {
    u.global_kinds.push_back(static_cast<AttrKind>(nd::testing::Uniform(rng, 0, 9)));
  }
  return u;
}

/// One row: each variable present with probability `p_var` (rank 0-3 over x/y/z/time, sizes
/// 0-4), random attributes and global attributes.
inline nd::NdRecordBatch RandomRow(Rng& rng, const Universe& u, double p_var = 0.5) {
  using nd::testing::Chance;
  using nd::testing::Uniform;
  static const std::vector<std::string> dims = {"x", "y", "z", "time"};
  std::vector<std::uint64_t> sizes;
  for (std::size_t d = 0; d < dims.size(); ++d) {
    sizes.push_back(static_cast<std::uint64_t>(Uniform(rng, 0, 4)));
  }
  std::vector<std::pair<std::string, nd::NdArrowArray>> arrays;
  for (std::size_t v = 0; v < u.vars.size(); ++v) {
    if (!Chance(rng, p_var)) continue;
    const auto rank = static_cast<std::size_t>(Uniform(rng, 0, 3));
    std::vector<nd::Dimension> row_dims;
    for (std::size_t k = 0; k < rank; ++k) row_dims.push_back({dims[k], sizes[k]});
    nd::Dimensions d = nd::testing::Unwrap(nd::Dimensions::Make(std::move(row_dims)));
    array::ArrayPtr values = nd::testing::RandomValues(rng, u.vars[v].second, d.num_elements());
    nd::Attributes attrs;
    for (std::size_t k = 0; k < AttrKeys().size(); ++k) {
      if (Chance(rng, 0.3))
        nd::testing::SetRandomAttr(rng, attrs, AttrKeys()[k], u.attr_kinds[v][k]);
    }
    arrays.emplace_back(u.vars[v].first, nd::testing::Unwrap(nd::NdArrowArray::Make(
                                             std::move(values), std::move(d), std::move(attrs))));
  }
  nd::Attributes globals;
  for (std::size_t k = 0; k < GlobalKeys().size(); ++k) {
    if (Chance(rng, 0.3))
      nd::testing::SetRandomAttr(rng, globals, GlobalKeys()[k], u.global_kinds[k]);
  }
  return nd::testing::Unwrap(nd::NdRecordBatch::FromArrays(std::move(arrays), std::move(globals)));
}

inline std::vector<nd::NdRecordBatch> RandomRows(Rng& rng, const Universe& u, int n,
                                                 double p_var = 0.5) {
  std::vector<nd::NdRecordBatch> rows;
  for (int i = 0; i < n; ++i) rows.push_back(RandomRow(rng, u, p_var));
  return rows;
}

/// Expect `got` to equal `want` row by row (nd::NdRecordBatch::Equals).
inline void ExpectSameRows(const std::vector<nd::NdRecordBatch>& want,
                           const std::vector<nd::NdRecordBatch>& got) {
  ASSERT_EQ(want.size(), got.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    EXPECT_TRUE(want[i].Equals(got[i]))
        << "row " << i << "\nwant: " << want[i].ToString() << "\ngot:  " << got[i].ToString();
  }
}

}  // namespace lance_nd::api_testing

namespace lance_nd {

/// \brief The only way tests build a Table besides Table::Open / Write.
struct TableTestPeer {
  static Table Make(table::Dataset ds, bool writable = true) {
    return Table(std::move(ds), writable);
  }
};

namespace api_testing {

using nd::NdRecordBatch;

/// \brief Element `i` of a numeric or temporal array as a double (exact for the test values).
inline double NumberAt(const array::ArrayData& a, int64_t i) {
  switch (a.type->id()) {
    case array::TypeId::kInt8:
      return array::PrimitiveView<int8_t>(a).Value(i);
    case array::TypeId::kInt16:
      return array::PrimitiveView<int16_t>(a).Value(i);
    case array::TypeId::kInt32:
    case array::TypeId::kDate32:
      return array::PrimitiveView<int32_t>(a).Value(i);
    case array::TypeId::kUInt8:
      return array::PrimitiveView<uint8_t>(a).Value(i);
    case array::TypeId::kUInt16:
      return array::PrimitiveView<uint16_t>(a).Value(i);
    case array::TypeId::kUInt32:
      return array::PrimitiveView<uint32_t>(a).Value(i);
    case array::TypeId::kUInt64:
      return static_cast<double>(array::PrimitiveView<uint64_t>(a).Value(i));
    case array::TypeId::kFloat32:
      return array::PrimitiveView<float>(a).Value(i);
    case array::TypeId::kFloat64:
      return array::PrimitiveView<double>(a).Value(i);
    default:  // int64, date64, timestamp, duration
      return static_cast<double>(array::PrimitiveView<int64_t>(a).Value(i));
  }
}

inline bool IsString(const array::DataType& t) {
  return t.id() == array::TypeId::kUtf8 || t.id() == array::TypeId::kLargeUtf8;
}

/// \brief Indices of the smallest and largest counted value (nulls and NaN not counted).
inline std::optional<std::pair<int64_t, int64_t>> ArgMinMax(const array::ArrayData& values) {
  std::optional<std::pair<int64_t, int64_t>> out;
  const bool strings = IsString(*values.type);
  auto less = [&](int64_t x, int64_t y) {
    if (strings) {
      const array::BinaryView v(values);
      return v.Value(x) < v.Value(y);
    }
    return NumberAt(values, x) < NumberAt(values, y);
  };
  for (int64_t i = 0; i < values.length; ++i) {
    if (values.IsNull(i) || (!strings && std::isnan(NumberAt(values, i)))) continue;
    if (!out) {
      out.emplace(i, i);
      continue;
    }
    if (less(i, out->first)) out->first = i;
    if (less(out->second, i)) out->second = i;
  }
  return out;
}

/// \brief The stats column of `variable` over `rows`: a null struct where a row lacks it,
/// null min/max where it has no counted value.
inline Result<array::ArrayPtr> StatsColumn(std::span<const NdRecordBatch> rows,
                                           const array::Field& stats_field,
                                           const std::string& variable) {
  auto builder = array::MakeBuilder(stats_field.type());
  auto& st = static_cast<array::StructBuilder&>(*builder);
  for (const NdRecordBatch& row : rows) {
    const nd::NdArrowArray* column = row.GetColumn(variable);
    if (column == nullptr) {
      st.AppendNull();
      continue;
    }
    st.Append(true);
    const array::ArrayData& values = *column->values();
    const auto mm = ArgMinMax(values);
    for (int k = 0; k < 2; ++k) {
      if (!mm) {
        st.child_builder(k)->AppendNull();
      } else {
        LND_RETURN_NOT_OK(
            st.child_builder(k)->AppendArraySlice(values, k == 0 ? mm->first : mm->second, 1));
      }
    }
  }
  return builder->Finish();
}

/// \brief `encoded` (EncodeRows / EncodeRowsAs output) laid out as `target`: its columns by
/// name, stats columns computed from `rows`.
inline Result<array::RecordBatchPtr> AsTableBatch(std::span<const NdRecordBatch> rows,
                                                  const array::RecordBatch& encoded,
                                                  const array::SchemaPtr& target) {
  std::vector<array::ArrayPtr> columns;
  for (const auto& f : target->fields()) {
    if (auto variable = nd::StatsVariable(f->name())) {
      LND_ASSIGN_OR_RETURN(auto stats, StatsColumn(rows, *f, std::string(*variable)));
      columns.push_back(std::move(stats));
    } else if (auto c = encoded.GetColumnByName(f->name())) {
      columns.push_back(std::move(c));
    } else {
      columns.push_back(array::MakeArrayOfNulls(f->type(), encoded.num_rows()));
    }
  }
  return array::RecordBatch::Make(target, encoded.num_rows(), std::move(columns));
}

/// \brief The schema of `encoded` as a new table's: format marker, stats columns (after the
/// others) and the stats marker when `stats`.
inline array::SchemaPtr NewTableSchema(const array::Schema& encoded, bool stats) {
  std::vector<array::FieldPtr> fields = encoded.fields();
  array::Metadata metadata = encoded.metadata();
  metadata.Set(std::string(nd::kFormatMetadataKey), std::string(nd::kFormatVersion));
  if (stats) {
    metadata.Set(std::string(nd::kStatsMetadataKey), std::string(nd::kStatsMetadataValue));
    for (const auto& f : encoded.fields()) {
      if (!nd::IsNdField(*f)) continue;
      auto logical = nd::LogicalField(*f);
      if (logical.ok() && nd::HasStatsType(*(*logical)->type())) {
        fields.push_back(nd::StatsField(f->name(), (*logical)->type()));
      }
    }
  }
  return array::MakeSchema(std::move(fields), std::move(metadata));
}

/// \brief `rows` with dots in variable names replaced by '_': Lance refuses top-level names
/// with a dot, so such rows cannot be stored (random generators produce them).
inline std::vector<NdRecordBatch> TableRows(const std::vector<NdRecordBatch>& rows) {
  std::vector<NdRecordBatch> out;
  for (const NdRecordBatch& row : rows) {
    std::vector<std::pair<std::string, nd::NdArrowArray>> arrays;
    for (int i = 0; i < row.num_columns(); ++i) {
      std::string name = row.column_name(i);
      std::replace(name.begin(), name.end(), '.', '_');
      arrays.emplace_back(std::move(name), row.column(i));
    }
    auto renamed = NdRecordBatch::FromArrays(std::move(arrays), row.attributes());
    EXPECT_TRUE(renamed.ok()) << renamed.status().ToString();
    if (renamed.ok()) out.push_back(std::move(*renamed));
  }
  return out;
}

struct WriteSpec {
  bool stats = false;  // used when the table is created
  std::int64_t max_rows_per_file = 1024 * 1024;
};

/// \brief Create the table at `location` with `rows`, or append them to it (extending its
/// schema first when they bring new variables or keys, as the nd writer does). One commit for
/// the rows; returns the table at the latest version.
inline Result<Table> WriteRows(const table::TableLocation& location,
                               std::span<const NdRecordBatch> rows, const WriteSpec& spec = {}) {
  LND_ASSIGN_OR_RETURN(array::RecordBatchPtr encoded, nd::EncodeRows(rows));
  table::WriteOptions options;
  options.max_rows_per_file = spec.max_rows_per_file;
  auto existing = table::Dataset::Open(location);
  array::SchemaPtr target;
  if (existing.ok()) {
    table::Dataset ds = std::move(*existing);
    const array::SchemaPtr incoming =
        NewTableSchema(*encoded->schema(), nd::HasStats(*ds.schema()));
    LND_ASSIGN_OR_RETURN(target, nd::MergeEncodedSchema(*ds.schema(), *incoming));
    if (!target->Equals(*ds.schema())) {
      LND_ASSIGN_OR_RETURN(ds, table::EvolveSchema(ds, *target));
    }
    target = ds.schema();
    LND_ASSIGN_OR_RETURN(encoded, nd::EncodeRowsAs(rows, *target));
    options.mode = table::WriteMode::kAppend;
  } else {
    target = NewTableSchema(*encoded->schema(), spec.stats);
    options.mode = table::WriteMode::kCreate;
  }
  LND_ASSIGN_OR_RETURN(array::RecordBatchPtr batch, AsTableBatch(rows, *encoded, target));
  const std::vector<array::RecordBatchPtr> batches{batch};
  LND_ASSIGN_OR_RETURN(table::Dataset written, table::WriteTable(location, batches, options));
  return TableTestPeer::Make(std::move(written));
}

/// \brief `rows` appended one write at a time, in groups of `per_write` (several fragments).
inline Result<Table> WriteInGroups(const table::TableLocation& location,
                                   std::span<const NdRecordBatch> rows, std::size_t per_write,
                                   const WriteSpec& spec = {}) {
  std::optional<Table> table;
  for (std::size_t i = 0; i < rows.size(); i += per_write) {
    LND_ASSIGN_OR_RETURN(
        table, WriteRows(location, rows.subspan(i, std::min(per_write, rows.size() - i)), spec));
  }
  if (!table) return Status::InvalidArgument("WriteInGroups: no rows");
  return std::move(*table);
}

/// \brief A fresh table location on a new memory file system.
inline table::TableLocation MemoryLocation(const std::string& name = "db/t.lance") {
  return table::TableLocation(io::MakeMemoryFileSystem(), name);
}

}  // namespace api_testing
}  // namespace lance_nd
