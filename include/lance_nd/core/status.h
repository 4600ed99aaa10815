// Status: the error type of every fallible lance-nd function. No exceptions cross the API.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

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
};

/// \brief A stable lowercase name of the code ("invalid argument", "corrupt", ...).
std::string_view StatusCodeName(StatusCode code) noexcept;

/// \brief Success, or an error kind plus a message that says what was found, what was expected
/// and what to do. OK costs one null pointer; copies share the immutable state.
class [[nodiscard]] Status {
 public:
  Status() = default;

  static Status OK() { return {}; }
  static Status InvalidArgument(std::string msg) {
    return {StatusCode::kInvalidArgument, std::move(msg)};
  }
  static Status SchemaMismatch(std::string msg) {
    return {StatusCode::kSchemaMismatch, std::move(msg)};
  }
  static Status Corrupt(std::string msg) { return {StatusCode::kCorrupt, std::move(msg)}; }
  static Status IOError(std::string msg) { return {StatusCode::kIOError, std::move(msg)}; }
  static Status NotImplemented(std::string msg) {
    return {StatusCode::kNotImplemented, std::move(msg)};
  }
  static Status NotFound(std::string msg) { return {StatusCode::kNotFound, std::move(msg)}; }
  static Status AlreadyExists(std::string msg) {
    return {StatusCode::kAlreadyExists, std::move(msg)};
  }
  /// \brief A commit lost a race. `retryable` says whether retrying the operation can succeed.
  static Status CommitConflict(std::string msg, bool retryable = false) {
    Status s{StatusCode::kCommitConflict, std::move(msg)};
    s.retryable_ = retryable;
    return s;
  }
  static Status InvalidTable(std::string msg) {
    return {StatusCode::kInvalidTable, std::move(msg)};
  }
  static Status WriterFailed(std::string msg) {
    return {StatusCode::kWriterFailed, std::move(msg)};
  }

  bool ok() const noexcept { return state_ == nullptr; }
  StatusCode code() const noexcept { return ok() ? StatusCode::kOk : state_->code; }
  std::string_view message() const noexcept {
    return ok() ? std::string_view{} : std::string_view{state_->message};
  }
  bool retryable() const noexcept { return retryable_; }

  bool IsInvalidArgument() const noexcept { return code() == StatusCode::kInvalidArgument; }
  bool IsSchemaMismatch() const noexcept { return code() == StatusCode::kSchemaMismatch; }
  bool IsCorrupt() const noexcept { return code() == StatusCode::kCorrupt; }
  bool IsIOError() const noexcept { return code() == StatusCode::kIOError; }
  bool IsNotImplemented() const noexcept { return code() == StatusCode::kNotImplemented; }
  bool IsNotFound() const noexcept { return code() == StatusCode::kNotFound; }
  bool IsAlreadyExists() const noexcept { return code() == StatusCode::kAlreadyExists; }
  bool IsCommitConflict() const noexcept { return code() == StatusCode::kCommitConflict; }

  /// \brief Prepend what the caller was doing: "column 2 'pixels': page 7: <message>".
  Status WithContext(std::string_view what) const;

  /// \brief "corrupt: <message>", or "OK".
  std::string ToString() const;

 private:
  struct State {
    StatusCode code;
    std::string message;
  };
  Status(StatusCode code, std::string msg)
      : state_(std::make_shared<const State>(State{code, std::move(msg)})) {}
  std::shared_ptr<const State> state_;
  bool retryable_ = false;
};

}  // namespace lance_nd
