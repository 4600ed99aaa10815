// Result<T>: a value or an error Status (std::expected is C++23-only on g++ 12).
#pragma once

#include <cstdlib>
#include <utility>
#include <variant>

#include "lance_nd/core/status.h"

namespace lance_nd {

template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}      // NOLINT(google-explicit-constructor)
  Result(Status error) : v_(std::move(error)) {  // NOLINT(google-explicit-constructor)
    if (std::get<Status>(v_).ok()) {
      v_ = Status::InvalidArgument("internal error: Result built from an OK status");
    }
  }

  bool ok() const noexcept { return std::holds_alternative<T>(v_); }
  const Status& status() const& {
    static const Status kOkStatus;
    return ok() ? kOkStatus : std::get<Status>(v_);
  }
  Status status() && { return ok() ? Status() : std::get<Status>(std::move(v_)); }

  T& operator*() & { return std::get<T>(v_); }
  const T& operator*() const& { return std::get<T>(v_); }
  T&& operator*() && { return std::get<T>(std::move(v_)); }
  T* operator->() { return &std::get<T>(v_); }
  const T* operator->() const { return &std::get<T>(v_); }

  T& value() & { return std::get<T>(v_); }
  const T& value() const& { return std::get<T>(v_); }
  T&& value() && { return std::get<T>(std::move(v_)); }

  T ValueOr(T fallback) && { return ok() ? std::get<T>(std::move(v_)) : std::move(fallback); }

  /// \brief Add context to the error, if any (see Status::WithContext).
  template <typename... P>
  Result WithContext(const P&... pieces) && {
    if (ok()) return std::move(*this);
    return std::get<Status>(v_).WithContext(pieces...);
  }

 private:
  std::variant<Status, T> v_;
};

}  // namespace lance_nd

// The assignment macros take declarations ("int x") as lhs, which cannot be parenthesised.
// NOLINTBEGIN(bugprone-macro-parentheses)
#define LND_CONCAT_IMPL(a, b) a##b
#define LND_CONCAT(a, b) LND_CONCAT_IMPL(a, b)

/// \brief Return the Status of `expr` from the enclosing function when it is not OK.
/// (Each use names its own status variable, so uses nested in a lambda do not shadow.)
#define LND_RETURN_NOT_OK(expr) LND_RETURN_NOT_OK_IMPL(LND_CONCAT(_lnd_st_, __COUNTER__), expr)
#define LND_RETURN_NOT_OK_IMPL(st, expr) \
  do {                                   \
    ::lance_nd::Status st = (expr);      \
    if (!st.ok()) [[unlikely]]           \
      return st;                         \
  } while (false)

/// \brief Like LND_RETURN_NOT_OK, adding context to the error.
#define LND_RETURN_NOT_OK_CTX(expr, ctx) \
  LND_RETURN_NOT_OK_CTX_IMPL(LND_CONCAT(_lnd_st_, __COUNTER__), expr, ctx)
#define LND_RETURN_NOT_OK_CTX_IMPL(st, expr, ctx) \
  do {                                            \
    ::lance_nd::Status st = (expr);               \
    if (!st.ok()) [[unlikely]]                    \
      return st.WithContext(ctx);                 \
  } while (false)

#define LND_ASSIGN_OR_RETURN_IMPL(tmp, lhs, rexpr) \
  auto tmp = (rexpr);                              \
  if (!tmp.ok()) [[unlikely]]                      \
    return std::move(tmp).status();                \
  lhs = std::move(*tmp)

/// \brief `lhs = value of rexpr`, or return its error.
#define LND_ASSIGN_OR_RETURN(lhs, rexpr) \
  LND_ASSIGN_OR_RETURN_IMPL(LND_CONCAT(_lnd_r_, __LINE__), lhs, rexpr)

#define LND_ASSIGN_OR_RETURN_CTX_IMPL(tmp, lhs, rexpr, ctx) \
  auto tmp = (rexpr);                                       \
  if (!tmp.ok()) [[unlikely]]                               \
    return std::move(tmp).status().WithContext(ctx);        \
  lhs = std::move(*tmp)

#define LND_ASSIGN_OR_RETURN_CTX(lhs, rexpr, ctx) \
  LND_ASSIGN_OR_RETURN_CTX_IMPL(LND_CONCAT(_lnd_r_, __LINE__), lhs, rexpr, ctx)
// NOLINTEND(bugprone-macro-parentheses)
