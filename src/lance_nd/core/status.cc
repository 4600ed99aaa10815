#include "lance_nd/core/status.h"

namespace lance_nd {

std::string_view StatusCodeName(StatusCode code) noexcept {
  switch (code) {
    case StatusCode::kOk: return "OK";
    case StatusCode::kInvalidArgument: return "invalid argument";
    case StatusCode::kSchemaMismatch: return "schema mismatch";
    case StatusCode::kCorrupt: return "corrupt";
    case StatusCode::kIOError: return "IO error";
    case StatusCode::kNotImplemented: return "not implemented";
    case StatusCode::kNotFound: return "not found";
    case StatusCode::kAlreadyExists: return "already exists";
    case StatusCode::kCommitConflict: return "commit conflict";
    case StatusCode::kInvalidTable: return "invalid table";
    case StatusCode::kWriterFailed: return "writer failed";
  }
  return "unknown";
}

Status Status::WithContext(std::string_view what) const {
  if (ok()) return *this;
  std::string msg;
  msg.reserve(what.size() + 2 + state_->message.size());
  msg.append(what).append(": ").append(state_->message);
  Status out(state_->code, std::move(msg));
  out.retryable_ = retryable_;
  return out;
}

std::string Status::ToString() const {
  if (ok()) return "OK";
  std::string out(StatusCodeName(state_->code));
  out.append(": ").append(state_->message);
  return out;
}

}  // namespace lance_nd
