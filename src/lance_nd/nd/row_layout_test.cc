// RowDecoder::DecodeRowLayout on random encoded rows, read as a table reader reads them: every
// nd column cut down to the children LayoutProjection() names (or whole when it names the
// column), against the rows DecodeRow gives.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "lance_nd/array/field_path.h"
#include "lance_nd/nd/format.h"
#include "lance_nd/nd/row_encoding.h"
#include "lance_nd/testing/nd_random_rows.h"
#include "lance_nd/testing/nd_test_util.h"
#include "lance_nd/testing/status_matchers.h"

namespace lance_nd::nd {
namespace {

using array::ArrayData;
using array::ArrayPtr;
using array::FieldPtr;
using testing::Rng;

/// `batch` with only what `paths` name: a column named whole stays whole, a struct named by
/// "column.child" paths keeps those children.
array::RecordBatchPtr Project(const array::RecordBatch& batch,
                              const std::vector<std::string>& paths) {
  std::map<std::string, std::set<std::string>, std::less<>> children;
  std::set<std::string, std::less<>> whole;
  for (const std::string& p : paths) {
    const std::vector<std::string> names =
        testing::Unwrap(array::SplitFieldPath(batch.schema()->fields(), p));
    const bool matched = batch.schema()->GetField(names[0]) != nullptr && names.size() <= 2;
    EXPECT_TRUE(matched) << p;
    if (names.size() == 1) whole.insert(names[0]);
    if (names.size() == 2) children[names[0]].insert(names[1]);
  }
  std::vector<FieldPtr> fields;
  std::vector<ArrayPtr> columns;
  for (int i = 0; i < batch.num_columns(); ++i) {
    const FieldPtr& f = batch.schema()->field(i);
    if (whole.contains(f->name())) {
      fields.push_back(f);
      columns.push_back(batch.column(i));
      continue;
    }
    auto it = children.find(f->name());
    if (it == children.end()) continue;
    auto cut = std::make_shared<ArrayData>(*batch.column(i));
    std::vector<FieldPtr> kept;
    cut->children.clear();
    const auto& all = f->type()->children();
    for (std::size_t k = 0; k < all.size(); ++k) {
      if (!it->second.contains(all[k]->name())) continue;
      kept.push_back(all[k]);
      cut->children.push_back(batch.column(i)->children[k]);
    }
    cut->type = array::Struct(kept);
    fields.push_back(array::MakeField(f->name(), cut->type, f->nullable()));
    columns.push_back(std::move(cut));
  }
  return std::make_shared<const array::RecordBatch>(array::MakeSchema(std::move(fields)),
                                                    batch.num_rows(), std::move(columns));
}

TEST(RowLayoutTest, LayoutsOfRandomRowsDescribeTheDecodedRows) {
  int dotted = 0;
  for (int seed = 0; seed < 60; ++seed) {
    Rng rng(static_cast<std::uint64_t>(seed));
    const std::vector<NdRecordBatch> rows = testing::RandomRows(rng);
    const array::RecordBatchPtr batch = testing::Unwrap(EncodeRows(rows));
    const RowDecoder decoder = testing::Unwrap(RowDecoder::Make(batch->schema()));
    const std::vector<std::string> paths = decoder.LayoutProjection();
    for (const std::string& p : paths) {
      EXPECT_FALSE(p.ends_with("." + std::string(kValuesField)) && !p.starts_with("a.b"))
          << "values are never read for a layout: " << p;
    }
    dotted += batch->schema()->GetField("a.b") != nullptr;
    // The cut-down batch, and the whole batch (a reader may give more than was asked).
    for (const array::RecordBatchPtr& read : {Project(*batch, paths), batch}) {
      for (std::size_t r = 0; r < rows.size(); ++r) {
        const NdRecordBatch want =
            testing::Unwrap(decoder.DecodeRow(*batch, static_cast<int64_t>(r)));
        const NdRowLayout got =
            testing::Unwrap(decoder.DecodeRowLayout(*read, static_cast<int64_t>(r)));
        testing::ExpectLayoutOf(want, got,
                                "seed " + std::to_string(seed) + " row " + std::to_string(r));
      }
    }
  }
  EXPECT_GT(dotted, 0) << "no seed drew the dotted variable name";
}

TEST(RowLayoutTest, MissingPartsAndRowsOutOfRangeAreErrors) {
  Rng rng(5);
  const std::vector<NdRecordBatch> rows = testing::RandomRows(rng);
  const array::RecordBatchPtr batch = testing::Unwrap(EncodeRows(rows));
  const RowDecoder decoder = testing::Unwrap(RowDecoder::Make(batch->schema()));
  LND_EXPECT_ERROR(decoder.DecodeRowLayout(*batch, batch->num_rows()), StatusCode::kInvalidArgument,
                   "out of range");
  const std::string first = decoder.Variables().front()->name();
  std::vector<std::string> without_sizes;
  for (const std::string& p : decoder.LayoutProjection()) {
    if (p != array::JoinFieldPath({first, std::string(kDimSizesField)}) && p != first) {
      without_sizes.push_back(p);
    }
  }
  without_sizes.push_back(array::JoinFieldPath({first, std::string(kDimNamesField)}));
  std::size_t r = 0;
  while (r < rows.size() && rows[r].GetColumn(first) == nullptr) ++r;
  ASSERT_LT(r, rows.size()) << "no row holds " << first;
  const auto result =
      decoder.DecodeRowLayout(*Project(*batch, without_sizes), static_cast<int64_t>(r));
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().detail().kind, ErrorKind::kSchemaMismatch)
      << result.status().ToString();
  EXPECT_NE(result.status().ToString().find("dim_sizes"), std::string::npos)
      << result.status().ToString();
}

}  // namespace
}  // namespace lance_nd::nd
