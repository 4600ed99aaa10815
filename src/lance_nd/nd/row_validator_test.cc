// ValidateRows agrees with DecodeAll: on generated valid batches both pass, and on the same
// batches with bytes of their Arrow IPC form damaged, both fail (with the same error kind) or
// both pass.
#include <gtest/gtest.h>

#include "lance_nd/array/ipc.h"
#include "lance_nd/nd/row_encoding.h"
#include "lance_nd/testing/nd_random_rows.h"
#include "lance_nd/testing/nd_test_util.h"
#include "lance_nd/testing/status_matchers.h"

namespace lance_nd::nd {
namespace {

using testing::Rng;
using testing::Uniform;

// `batch` judged both ways: the outcomes must agree.
void ExpectAgreement(const array::RecordBatchPtr& batch, const std::string& context) {
  auto decoder = RowDecoder::Make(batch->schema());
  if (!decoder.ok()) return;  // the schema itself is refused before either check runs
  const Status validated = decoder->ValidateRows(*batch);
  const auto decoded = decoder->DecodeAll(*batch);
  ASSERT_EQ(validated.ok(), decoded.ok()) << context << "\nvalidate: " << validated.ToString()
                                          << "\ndecode: " << decoded.status().ToString();
  if (!validated.ok()) {
    EXPECT_EQ(validated.code(), decoded.status().code()) << context;
  }
}

TEST(RowValidatorTest, GeneratedBatchesPass) {
  Rng rng(11);
  for (int trial = 0; trial < 200; ++trial) {
    const std::vector<NdRecordBatch> rows = testing::RandomRows(rng);
    LND_ASSERT_OK_AND_ASSIGN(array::RecordBatchPtr batch, EncodeRows(rows));
    LND_ASSERT_OK_AND_ASSIGN(RowDecoder decoder, RowDecoder::Make(batch->schema()));
    LND_EXPECT_OK(decoder.ValidateRows(*batch));
  }
}

TEST(RowValidatorTest, DamagedBatchesAreJudgedAsTheDecoderJudgesThem) {
  Rng rng(12);
  int judged = 0;
  int refused = 0;
  for (int trial = 0; trial < 1000; ++trial) {
    const std::vector<NdRecordBatch> rows = testing::RandomRows(rng);
    LND_ASSERT_OK_AND_ASSIGN(array::RecordBatchPtr batch, EncodeRows(rows));
    const array::RecordBatchPtr batches[] = {batch};
    LND_ASSERT_OK_AND_ASSIGN(std::vector<std::uint8_t> bytes,
                             array::ipc::WriteIpcStream(batch->schema(), batches));
    for (int damage = 0; damage < 20; ++damage) {
      std::vector<std::uint8_t> damaged = bytes;
      const int flips = static_cast<int>(Uniform(rng, 1, 3));
      for (int f = 0; f < flips; ++f) {
        // The second half of the stream is mostly the batch's buffers (offsets, sizes, validity),
        // where damage reaches the row checks rather than the IPC reader.
        const auto size = static_cast<int64_t>(damaged.size());
        const auto at = static_cast<std::size_t>(Uniform(rng, size / 2, size - 1));
        damaged[at] = static_cast<std::uint8_t>(Uniform(rng, 0, 255));
      }
      auto read = array::ipc::ReadIpcStream(damaged);
      if (!read.ok() || read->batches.size() != 1) continue;
      ++judged;
      auto decoder = RowDecoder::Make(read->batches[0]->schema());
      if (decoder.ok() && !decoder->ValidateRows(*read->batches[0]).ok()) ++refused;
      ExpectAgreement(read->batches[0], "trial " + std::to_string(trial));
    }
  }
  // The damage must reach the row checks for the comparison to mean anything.
  EXPECT_GT(judged, 1000);
  EXPECT_GT(refused, 60);
}

TEST(RowValidatorTest, RowsWhoseArraysDisagreeOnAnAxisAreRefused) {
  // Two arrays over axis x with sizes 2 and 3 cannot share one grid. Rows cannot be built that
  // way, so the batch is spliced from two encodings of single-array rows.
  const NdRecordBatch a = testing::Batch({{"u", testing::Nd(testing::F64({1, 2}), {{"x", 2}})}});
  const NdRecordBatch b = testing::Batch({{"v", testing::Nd(testing::F64({1, 2, 3}), {{"x", 3}})}});
  LND_ASSERT_OK_AND_ASSIGN(array::RecordBatchPtr ea, EncodeRows(std::span(&a, 1)));
  LND_ASSERT_OK_AND_ASSIGN(array::RecordBatchPtr eb, EncodeRows(std::span(&b, 1)));
  LND_ASSERT_OK_AND_ASSIGN(
      array::RecordBatchPtr spliced,
      array::RecordBatch::Make(array::MakeSchema({ea->schema()->field(0), eb->schema()->field(0)}),
                               1, {ea->column(0), eb->column(0)}));
  LND_ASSERT_OK_AND_ASSIGN(RowDecoder decoder, RowDecoder::Make(spliced->schema()));
  LND_EXPECT_ERROR(decoder.ValidateRows(*spliced), StatusCode::kCorrupt,
                   "row 0: shape mismatch: axis 'x' has sizes 2 and 3");
  ExpectAgreement(spliced, "spliced");
}

// Large batches are checked in ranges of rows on several threads: a single broken row is found
// wherever it lies, and named. The batch is damaged by giving one row's array a size its values
// do not have.
TEST(RowValidatorTest, ABrokenRowIsFoundInAnyRangeOfALargeBatch) {
  Rng rng(13);
  std::vector<NdRecordBatch> rows;
  const int n = 40000;
  for (int r = 0; r < n; ++r) {
    const auto k = static_cast<std::uint64_t>(Uniform(rng, 1, 3));
    std::vector<std::optional<double>> v(k, static_cast<double>(r));
    rows.push_back(testing::Batch({{"v", testing::Nd(testing::F64(v), {{"x", k}})}}));
  }
  LND_ASSERT_OK_AND_ASSIGN(array::RecordBatchPtr batch, EncodeRows(rows));
  LND_ASSERT_OK_AND_ASSIGN(RowDecoder decoder, RowDecoder::Make(batch->schema()));
  LND_EXPECT_OK(decoder.ValidateRows(*batch));
  for (int trial = 0; trial < 6; ++trial) {
    const int64_t bad = trial == 0 ? n - 1 : Uniform(rng, 0, n - 1);
    SCOPED_TRACE("row " + std::to_string(bad));
    // dim_sizes is child 2 of the array's struct, a list of uint32: one size per row here.
    auto column = std::make_shared<array::ArrayData>(*batch->column(0));
    auto sizes = std::make_shared<array::ArrayData>(*column->children[2]);
    auto items = std::make_shared<array::ArrayData>(*sizes->children[0]);
    const array::Buffer& old = *items->buffers[1];
    items->buffers[1] = array::Buffer::Copy(old.data(), old.size());
    auto* data = const_cast<std::uint32_t*>(
        reinterpret_cast<const std::uint32_t*>(items->buffers[1]->data()));
    data[items->offset + bad] += 1;
    sizes->children[0] = items;
    column->children[2] = sizes;
    LND_ASSERT_OK_AND_ASSIGN(array::RecordBatchPtr damaged,
                             array::RecordBatch::Make(batch->schema(), n, {column}));
    LND_EXPECT_ERROR(decoder.ValidateRows(*damaged), StatusCode::kCorrupt,
                     "row " + std::to_string(bad) + ":");
  }
}

}  // namespace
}  // namespace lance_nd::nd
