// GoogleTest helpers for Status / Result: check the kind and a message substring.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "lance_nd/core/result.h"

#define LND_ASSERT_OK(expr)                                            \
  do {                                                                 \
    const ::lance_nd::Status _s = ::lance_nd::testing::ToStatus(expr); \
    ASSERT_TRUE(_s.ok()) << _s.ToString();                             \
  } while (false)

#define LND_EXPECT_OK(expr)                                            \
  do {                                                                 \
    const ::lance_nd::Status _s = ::lance_nd::testing::ToStatus(expr); \
    EXPECT_TRUE(_s.ok()) << _s.ToString();                             \
  } while (false)

#define LND_ASSERT_OK_AND_ASSIGN(lhs, rexpr)                \
  auto LND_CONCAT(_lnd_t_, __LINE__) = (rexpr);             \
  ASSERT_TRUE(LND_CONCAT(_lnd_t_, __LINE__).ok())           \
      << LND_CONCAT(_lnd_t_, __LINE__).status().ToString(); \
  lhs = std::move(*LND_CONCAT(_lnd_t_, __LINE__))

/// Expect an error of kind `code` whose message contains `substr`.
#define LND_EXPECT_ERROR(expr, expected_code, substr)                    \
  do {                                                                   \
    const ::lance_nd::Status _s = ::lance_nd::testing::ToStatus(expr);   \
    EXPECT_EQ(_s.code(), (expected_code)) << _s.ToString();              \
    EXPECT_NE(std::string(_s.message()).find(substr), std::string::npos) \
        << "message was: " << _s.message();                              \
  } while (false)

namespace lance_nd::testing {
inline const Status& ToStatus(const Status& s) { return s; }
template <typename T>
const Status& ToStatus(const Result<T>& r) {
  return r.status();
}
}  // namespace lance_nd::testing
