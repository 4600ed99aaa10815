#include "lance_nd/core/status.h"

#include <gtest/gtest.h>

#include "lance_nd/core/internal/checked_math.h"
#include "lance_nd/core/result.h"
#include "lance_nd/testing/status_matchers.h"

namespace lance_nd {
namespace {

Result<int> Half(int x) {
  if (x % 2 != 0) return Status::InvalidArgument("odd value " + std::to_string(x));
  return x / 2;
}

Result<int> Quarter(int x) {
  LND_ASSIGN_OR_RETURN_CTX(int h, Half(x), "first halving");
  LND_ASSIGN_OR_RETURN_CTX(int q, Half(h), "second halving");
  return q;
}

TEST(StatusTest, OkIsCheapAndEmpty) {
  Status s;
  EXPECT_TRUE(s.ok());
  EXPECT_EQ(s.code(), StatusCode::kOk);
  EXPECT_TRUE(s.message().empty());
  EXPECT_EQ(s.ToString(), "OK");
  EXPECT_TRUE(s.WithContext("ignored").ok());
}

TEST(StatusTest, ContextChainsOutermostFirst) {
  Status s = Status::Corrupt("zstd frame truncated").WithContext("page 7").WithContext("column 2");
  EXPECT_TRUE(s.IsCorrupt());
  EXPECT_EQ(s.message(), "column 2: page 7: zstd frame truncated");
  EXPECT_EQ(s.ToString(), "corrupt: column 2: page 7: zstd frame truncated");
}

TEST(StatusTest, CommitConflictKeepsRetryableThroughContext) {
  Status s =
      Status::CommitConflict("append lost to delete").WithRetryable().WithContext("commit v3");
  EXPECT_TRUE(s.IsCommitConflict());
  EXPECT_TRUE(s.retryable());
  EXPECT_FALSE(Status::CommitConflict("x").retryable());
}

TEST(StatusTest, EveryCodeHasAName) {
  EXPECT_EQ(StatusCodeName(StatusCode::kSchemaMismatch), "schema mismatch");
  EXPECT_EQ(StatusCodeName(StatusCode::kNotImplemented), "not implemented");
  EXPECT_EQ(StatusCodeName(StatusCode::kAlreadyExists), "already exists");
  EXPECT_EQ(StatusCodeName(StatusCode::kNotFound), "not found");
  EXPECT_EQ(StatusCodeName(StatusCode::kIOError), "IO error");
}

TEST(ResultTest, ValueAndErrorPropagateWithContext) {
  LND_ASSERT_OK_AND_ASSIGN(int q, Quarter(12));
  EXPECT_EQ(q, 3);
  LND_EXPECT_ERROR(Quarter(6), StatusCode::kInvalidArgument, "second halving: odd value 3");
  LND_EXPECT_ERROR(Quarter(5), StatusCode::kInvalidArgument, "first halving: odd value 5");
}

TEST(ResultTest, OkStatusIsNotAValue) {
  Result<int> r{Status::OK()};
  EXPECT_FALSE(r.ok());
  EXPECT_TRUE(r.status().IsInvalidArgument());
}

TEST(CheckedMathTest, DetectsOverflow) {
  EXPECT_EQ(CheckedMul<int64_t>(1 << 20, 1 << 20), int64_t{1} << 40);
  EXPECT_FALSE(CheckedMul<int64_t>(INT64_MAX / 2, 3).has_value());
  EXPECT_FALSE(CheckedAdd<uint32_t>(UINT32_MAX, 1u).has_value());
  EXPECT_FALSE((CheckedCast<uint32_t, int64_t>(-1)).has_value());
  EXPECT_EQ((CheckedCast<uint32_t, int64_t>(7)), 7u);
  EXPECT_EQ(AlignUp(65, 64), 128);
  EXPECT_EQ(AlignUp(64, 64), 64);
}

TEST(StatusTest, MessagesAreBuiltFromPieces) {
  const std::string name = "pixels";
  std::string_view unit = " rows";
  Status s = Status::Corrupt("column '", name, "': ", std::uint64_t{1} << 40, unit, ", ", -3, ' ',
                             true, " ", 2.5);
  EXPECT_EQ(s.message(), "column 'pixels': 1099511627776 rows, -3 true 2.500000");
  EXPECT_EQ(Status::InvalidArgument().message(), "");
  EXPECT_EQ(Status::NotFound("v", 7).WithContext("table ", 'x').message(), "table x: v7");
}

TEST(StatusTest, InternalAndCancelledHaveTheirOwnCodes) {
  Status internal = Status::Internal("empty leaf path");
  EXPECT_TRUE(internal.IsInternal());
  EXPECT_FALSE(internal.IsInvalidArgument());
  EXPECT_EQ(internal.ToString(), "internal error: empty leaf path");
  Status cancelled = Status::Cancelled("stopped by the caller");
  EXPECT_TRUE(cancelled.IsCancelled());
  EXPECT_EQ(cancelled.ToString(), "cancelled: stopped by the caller");
}

TEST(StatusTest, DetailSurvivesContextAndIsIndependentOfTheMessage) {
  Status s = Status::InvalidArgument("x").WithKind(ErrorKind::kShapeMismatch);
  EXPECT_EQ(s.kind(), ErrorKind::kShapeMismatch);
  EXPECT_FALSE(s.retryable());
  Status t = s.WithRetryable().WithContext("array 'a'");
  EXPECT_EQ(t.kind(), ErrorKind::kShapeMismatch);
  EXPECT_TRUE(t.retryable());
  EXPECT_EQ(t.message(), "array 'a': x");
  EXPECT_EQ(s.detail(), (ErrorDetail{ErrorKind::kShapeMismatch, false}));
  EXPECT_EQ(Status::OK().WithKind(ErrorKind::kShapeMismatch).kind(), ErrorKind::kUnspecified);
  EXPECT_EQ(ErrorKindName(ErrorKind::kInvalidDimensions), "invalid dimensions");
  EXPECT_EQ(ErrorKindName(ErrorKind::kUnspecified), "");
}

TEST(StatusTest, ResultContextTakesPieces) {
  Result<int> r = Status::Corrupt("bad");
  Result<int> with = std::move(r).WithContext("page ", 3);
  EXPECT_EQ(with.status().message(), "page 3: bad");
}

}  // namespace
}  // namespace lance_nd
