// Errors: a failed Status is thrown as StatusError; the module's translator raises it as the
// lance_nd.errors exception of its code and kind, carrying the library's message.
#pragma once

#include <exception>
#include <string>
#include <utility>

#include "lance_nd/core/result.h"
#include "lance_nd/core/status.h"

namespace lance_nd::python {

class StatusError : public std::exception {
 public:
  explicit StatusError(Status status) : status_(std::move(status)), text_(status_.ToString()) {}
  const Status& status() const { return status_; }
  const char* what() const noexcept override { return text_.c_str(); }

 private:
  Status status_;
  std::string text_;
};

inline void ThrowIfError(const Status& status) {
  if (!status.ok()) throw StatusError(status);
}

template <typename T>
T Unwrap(Result<T> result) {
  ThrowIfError(result.status());
  return std::move(result).value();
}

/// \brief Install the translator of StatusError into lance_nd.errors exceptions.
void RegisterErrorTranslator();

}  // namespace lance_nd::python
