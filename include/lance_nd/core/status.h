// Status: the error type of every fallible lance-nd function. No exceptions cross the API.
#pragma once

#include <concepts>
#include <cstdint>
#include <memory>
#include <sstream>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "lance_nd/export.h"

namespace lance_nd {

/// \brief The kind of an error. Callers branch on the kind, humans read the message.
enum class StatusCode : std::uint8_t {
  kOk = 0,
  kInvalidArgument,
  kSchemaMismatch,
  kCorrupt,
  kIOError,
  kNotImplemented,
  kNotFound,
  kAlreadyExists,
  kCommitConflict,
  kInvalidTable,
  kWriterFailed,
  kInternal,   // a broken invariant inside lance-nd: a bug, never the caller's input
  kCancelled,  // the caller asked the operation to stop
};

/// \brief A stable lowercase name of the code ("invalid argument", "corrupt", ...).
LANCE_ND_EXPORT std::string_view StatusCodeName(StatusCode code) noexcept;

/// \brief A finer kind inside a StatusCode, for callers (and the Python exceptions) to branch on
/// without parsing messages. The nd kinds are those of the nd-arrow encoding.
enum class ErrorKind : std::uint8_t {
  kUnspecified = 0,
  kInvalidDimensions,  // empty or duplicate dimension name, size that cannot be stored
  kShapeMismatch,      // values length differs from the product of the sizes, no broadcast
  kInvalidAttribute,   // an attribute that is not one non-null value
  kInvalidEncoding,    // stored data that breaks the nd encoding
  kSchemaMismatch,     // types or schemas that do not match
  kNotSupported,       // a valid request lance-nd does not support
  kTableNotFound,      // nothing at the table's uri (code kNotFound)
  kTableExists,        // a table is already there (code kAlreadyExists)
  kCastRejected,       // a type differs from the table's and the casting mode refuses it
  kParseError,         // a filter (SQL) that does not parse or bind
};

/// \brief A stable lowercase name of the kind ("invalid dimensions", ...; "" when unspecified).
LANCE_ND_EXPORT std::string_view ErrorKindName(ErrorKind kind) noexcept;

/// \brief The typed detail a Status carries besides its code and message.
struct LANCE_ND_EXPORT ErrorDetail {
  ErrorKind kind = ErrorKind::kUnspecified;
  /// Whether retrying the same operation can succeed (e.g. a commit that lost a race).
  bool retryable = false;
  bool operator==(const ErrorDetail&) const = default;
};

namespace internal {

template <typename T>
void AppendPiece(std::string& out, const T& piece) {
  using D = std::decay_t<T>;
  if constexpr (std::is_same_v<D, char>) {
    out.push_back(piece);
  } else if constexpr (std::is_same_v<D, bool>) {
    out.append(piece ? "true" : "false");
  } else if constexpr (std::is_convertible_v<const T&, std::string_view>) {
    out.append(std::string_view(piece));
  } else if constexpr (std::is_enum_v<D>) {
    out.append(std::to_string(static_cast<std::underlying_type_t<D>>(piece)));
  } else if constexpr (std::is_arithmetic_v<D>) {
    out.append(std::to_string(piece));
  } else {
    std::ostringstream s;
    s << piece;
    out.append(s.str());
  }
}

/// \brief The pieces concatenated: strings as they are, numbers in decimal, enums as their value.
template <typename... Pieces>
std::string StrCat(const Pieces&... pieces) {
  std::string out;
  (AppendPiece(out, pieces), ...);
  return out;
}

}  // namespace internal

/// \brief Success, or an error kind plus a message that says what was found, what was expected
/// and what to do. OK costs one null pointer; copies share the immutable state.
///
/// Constructors take the message in pieces: `Status::Corrupt("page ", i, ": ", n, " rows")`.
class [[nodiscard]] LANCE_ND_EXPORT Status {
 public:
  Status() = default;

  static Status OK() { return {}; }
  template <typename... P>
  static Status InvalidArgument(const P&... pieces) {
    return {StatusCode::kInvalidArgument, internal::StrCat(pieces...)};
  }
  template <typename... P>
  static Status SchemaMismatch(const P&... pieces) {
    return {StatusCode::kSchemaMismatch, internal::StrCat(pieces...)};
  }
  template <typename... P>
  static Status Corrupt(const P&... pieces) {
    return {StatusCode::kCorrupt, internal::StrCat(pieces...)};
  }
  template <typename... P>
  static Status IOError(const P&... pieces) {
    return {StatusCode::kIOError, internal::StrCat(pieces...)};
  }
  template <typename... P>
  static Status NotImplemented(const P&... pieces) {
    return {StatusCode::kNotImplemented, internal::StrCat(pieces...)};
  }
  template <typename... P>
  static Status NotFound(const P&... pieces) {
    return {StatusCode::kNotFound, internal::StrCat(pieces...)};
  }
  template <typename... P>
  static Status AlreadyExists(const P&... pieces) {
    return {StatusCode::kAlreadyExists, internal::StrCat(pieces...)};
  }
  /// \brief A commit lost to an incompatible concurrent commit. Mark it WithRetryable() when
  /// retrying the operation can succeed.
  template <typename... P>
  static Status CommitConflict(const P&... pieces) {
    return {StatusCode::kCommitConflict, internal::StrCat(pieces...)};
  }
  template <typename... P>
  static Status InvalidTable(const P&... pieces) {
    return {StatusCode::kInvalidTable, internal::StrCat(pieces...)};
  }
  template <typename... P>
  static Status WriterFailed(const P&... pieces) {
    return {StatusCode::kWriterFailed, internal::StrCat(pieces...)};
  }
  /// \brief A broken invariant inside lance-nd (a bug to report), never bad input.
  template <typename... P>
  static Status Internal(const P&... pieces) {
    return {StatusCode::kInternal, internal::StrCat(pieces...)};
  }
  template <typename... P>
  static Status Cancelled(const P&... pieces) {
    return {StatusCode::kCancelled, internal::StrCat(pieces...)};
  }

  bool ok() const noexcept { return state_ == nullptr; }
  StatusCode code() const noexcept { return ok() ? StatusCode::kOk : state_->code; }
  std::string_view message() const noexcept {
    return ok() ? std::string_view{} : std::string_view{state_->message};
  }
  const ErrorDetail& detail() const noexcept { return ok() ? kNoDetail : state_->detail; }
  ErrorKind kind() const noexcept { return detail().kind; }
  bool retryable() const noexcept { return detail().retryable; }

  /// \brief This error with `detail` attached (OK stays OK).
  Status WithDetail(ErrorDetail detail) const;
  Status WithKind(ErrorKind kind) const;
  Status WithRetryable(bool retryable = true) const;

  bool IsInvalidArgument() const noexcept { return code() == StatusCode::kInvalidArgument; }
  bool IsSchemaMismatch() const noexcept { return code() == StatusCode::kSchemaMismatch; }
  bool IsCorrupt() const noexcept { return code() == StatusCode::kCorrupt; }
  bool IsIOError() const noexcept { return code() == StatusCode::kIOError; }
  bool IsNotImplemented() const noexcept { return code() == StatusCode::kNotImplemented; }
  bool IsNotFound() const noexcept { return code() == StatusCode::kNotFound; }
  bool IsAlreadyExists() const noexcept { return code() == StatusCode::kAlreadyExists; }
  bool IsCommitConflict() const noexcept { return code() == StatusCode::kCommitConflict; }
  bool IsInvalidTable() const noexcept { return code() == StatusCode::kInvalidTable; }
  bool IsWriterFailed() const noexcept { return code() == StatusCode::kWriterFailed; }
  bool IsInternal() const noexcept { return code() == StatusCode::kInternal; }
  bool IsCancelled() const noexcept { return code() == StatusCode::kCancelled; }

  /// \brief Prepend what the caller was doing: "column 2 'pixels': page 7: <message>".
  /// The code and detail are kept.
  template <typename... P>
  Status WithContext(const P&... pieces) const {
    if (ok()) return *this;
    return Prefixed(internal::StrCat(pieces...));
  }

  /// \brief "corrupt: <message>", or "OK".
  std::string ToString() const;

 private:
  struct State {
    StatusCode code;
    std::string message;
    ErrorDetail detail;
  };
  static const ErrorDetail kNoDetail;
  Status(StatusCode code, std::string msg, ErrorDetail detail = {})
      : state_(std::make_shared<const State>(State{code, std::move(msg), detail})) {}
  Status Prefixed(std::string_view what) const;
  std::shared_ptr<const State> state_;
};

}  // namespace lance_nd
