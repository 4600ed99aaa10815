// Property test: decode(encode(rows)) == rows for random nd batches (seeded generator).
#include <gtest/gtest.h>

#include "lance_nd/nd/row_encoding.h"
#include "lance_nd/nd/schema_merge.h"
#include "lance_nd/testing/nd_random_rows.h"
#include "lance_nd/testing/status_matchers.h"

namespace lance_nd::nd {
namespace {

using testing::Chance;
using testing::RandomRows;
using testing::Rng;
using testing::Uniform;

/// Fields declared non-nullable hold no nulls anywhere (Lance refuses them).
void ExpectNoNullsInNonNullable(const array::Field& field, const array::ArrayData& a,
                                const std::string& path) {
  if (!field.nullable()) {
    EXPECT_EQ(a.null_count(), 0) << path;
  }
  const auto& type = *field.type();
  if (type.id() == array::TypeId::kStruct) {
    for (std::size_t i = 0; i < type.children().size(); ++i) {
      ExpectNoNullsInNonNullable(*type.children()[i], *a.children[i],
                                 path + "." + type.children()[i]->name());
    }
  } else if (type.id() == array::TypeId::kList) {
    ExpectNoNullsInNonNullable(*type.value_field(), *a.children[0], path + "[]");
  }
}

TEST(RoundTrip, RandomBatches) {
  int checked_rows = 0;
  for (uint64_t seed = 1; seed <= 400; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    Rng rng(seed);
    const std::vector<NdRecordBatch> rows = RandomRows(rng);
    LND_ASSERT_OK_AND_ASSIGN(array::RecordBatchPtr batch, EncodeRows(rows));
    LND_ASSERT_OK(batch->Validate());
    ASSERT_EQ(batch->num_rows(), static_cast<int64_t>(rows.size()));
    for (int c = 0; c < batch->num_columns(); ++c) {
      ExpectNoNullsInNonNullable(*batch->schema()->field(c), *batch->column(c),
                                 batch->schema()->field(c)->name());
    }
    LND_ASSERT_OK_AND_ASSIGN(RowDecoder decoder, RowDecoder::Make(batch->schema()));
    LND_ASSERT_OK_AND_ASSIGN(std::vector<NdRecordBatch> back, decoder.DecodeAll(*batch));
    ASSERT_EQ(back.size(), rows.size());
    for (std::size_t i = 0; i < rows.size(); ++i) {
      EXPECT_EQ(back[i], rows[i]) << "row " << i << "\nwrote:\n"
                                  << rows[i].ToString() << "read:\n"
                                  << back[i].ToString();
      ++checked_rows;
    }
    // Decoded rows hold zero-copy slices; encoding them again must give the same rows.
    LND_ASSERT_OK_AND_ASSIGN(array::RecordBatchPtr again, EncodeRows(back));
    LND_ASSERT_OK(again->Validate());
    LND_ASSERT_OK_AND_ASSIGN(RowDecoder decoder2, RowDecoder::Make(again->schema()));
    LND_ASSERT_OK_AND_ASSIGN(std::vector<NdRecordBatch> back2, decoder2.DecodeAll(*again));
    ASSERT_EQ(back2.size(), rows.size());
    for (std::size_t i = 0; i < rows.size(); ++i) EXPECT_EQ(back2[i], rows[i]) << "row " << i;
    // Decoding a slice gives the same rows.
    if (!rows.empty()) {
      const int64_t offset = Uniform(rng, 0, batch->num_rows() - 1);
      const int64_t length = Uniform(rng, 0, batch->num_rows() - offset);
      LND_ASSERT_OK_AND_ASSIGN(array::RecordBatchPtr slice, batch->Slice(offset, length));
      for (int64_t i = 0; i < length; ++i) {
        LND_ASSERT_OK_AND_ASSIGN(NdRecordBatch row, decoder.DecodeRow(*slice, i));
        EXPECT_EQ(row, rows[static_cast<std::size_t>(offset + i)]);
      }
    }
  }
  EXPECT_GT(checked_rows, 1000);
}

// Schema evolution: a table written from the first rows, extended with the schema of the
// rest, holds all rows encoded in the merged schema.
TEST(RoundTrip, MergedSchemaHoldsAllRows) {
  for (uint64_t seed = 1000; seed < 1200; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    Rng rng(seed);
    const std::vector<NdRecordBatch> rows = RandomRows(rng);
    const auto split = static_cast<std::size_t>(Uniform(rng, 0, static_cast<int64_t>(rows.size())));
    const std::span<const NdRecordBatch> all(rows);
    LND_ASSERT_OK_AND_ASSIGN(array::RecordBatchPtr first, EncodeRows(all.first(split)));
    LND_ASSERT_OK_AND_ASSIGN(array::RecordBatchPtr second, EncodeRows(all.subspan(split)));
    LND_ASSERT_OK_AND_ASSIGN(array::SchemaPtr merged,
                             MergeEncodedSchema(*first->schema(), *second->schema()));
    // Every field of the first part keeps its position.
    for (int i = 0; i < first->schema()->num_fields(); ++i) {
      EXPECT_EQ(merged->field(i)->name(), first->schema()->field(i)->name());
    }
    LND_ASSERT_OK_AND_ASSIGN(array::RecordBatchPtr batch, EncodeRowsAs(rows, *merged));
    LND_ASSERT_OK(batch->Validate());
    EXPECT_TRUE(batch->schema()->Equals(*merged));
    LND_ASSERT_OK_AND_ASSIGN(RowDecoder decoder, RowDecoder::Make(merged));
    LND_ASSERT_OK_AND_ASSIGN(std::vector<NdRecordBatch> back, decoder.DecodeAll(*batch));
    ASSERT_EQ(back.size(), rows.size());
    for (std::size_t i = 0; i < rows.size(); ++i) EXPECT_EQ(back[i], rows[i]) << "row " << i;
  }
}

}  // namespace
}  // namespace lance_nd::nd
