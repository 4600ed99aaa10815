// Test helpers of the api layer: tables in memory, reading every row back with the table and nd
// layers (not the Scanner), and seeded random rows whose variables keep one type per table.
#pragma once

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <utility>
#include <vector>

#include "lance_nd/api/table.h"
#include "lance_nd/io/file_system.h"
#include "lance_nd/nd/row_encoding.h"
#include "lance_nd/table/scan.h"
#include "lance_nd/testing/nd_random_rows.h"

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
