#include "lance_nd/core/status.h"

namespace lance_nd {

const ErrorDetail Status::kNoDetail{};

std::string_view StatusCodeName(StatusCode code) noexcept {
  switch (code) {
    case StatusCode::kOk:
      return "OK";
    case StatusCode::kInvalidArgument:
      return "invalid argument";
    case StatusCode::kSchemaMismatch:
      return "schema mismatch";
    case StatusCode::kCorrupt:
      return "corrupt";
    case StatusCode::kIOError:
      return "IO error";
    case StatusCode::kNotImplemented:
      return "not implemented";
    case StatusCode::kNotFound:
      return "not found";
    case StatusCode::kAlreadyExists:
      return "already exists";
    case StatusCode::kCommitConflict:
      return "commit conflict";
    case StatusCode::kInvalidTable:
      return "invalid table";
    case StatusCode::kWriterFailed:
      return "writer failed";
    case StatusCode::kInternal:
      return "internal error";
    case StatusCode::kCancelled:
      return "cancelled";
  }
  return "unknown";
}

std::string_view ErrorKindName(ErrorKind kind) noexcept {
  switch (kind) {
    case ErrorKind::kUnspecified:
      return "";
    case ErrorKind::kInvalidDimensions:
      return "invalid dimensions";
    case ErrorKind::kShapeMismatch:
      return "shape mismatch";
    case ErrorKind::kInvalidAttribute:
      return "invalid attribute";
    case ErrorKind::kInvalidEncoding:
      return "invalid encoding";
    case ErrorKind::kSchemaMismatch:
      return "schema mismatch";
    case ErrorKind::kNotSupported:
      return "not supported";
    case ErrorKind::kTableNotFound:
      return "table not found";
    case ErrorKind::kTableExists:
      return "table exists";
    case ErrorKind::kCastRejected:
      return "cast rejected";
    case ErrorKind::kParseError:
      return "parse error";
  }
  return "unknown";
}

Status Status::WithDetail(ErrorDetail detail) const {
  if (ok()) return *this;
  return {state_->code, state_->message, detail};
}

Status Status::WithKind(ErrorKind kind) const { return WithDetail({kind, detail().retryable}); }

Status Status::WithRetryable(bool retryable) const {
  return WithDetail({detail().kind, retryable});
}

Status Status::Prefixed(std::string_view what) const {
  std::string msg;
  msg.reserve(what.size() + 2 + state_->message.size());
  msg.append(what).append(": ").append(state_->message);
  return {state_->code, std::move(msg), state_->detail};
}

std::string Status::ToString() const {
  if (ok()) return "OK";
  std::string out(StatusCodeName(state_->code));
  out.append(": ").append(state_->message);
  return out;
}

}  // namespace lance_nd
