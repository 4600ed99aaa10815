// Byte sinks for the IPC writers: memory or a file created at a path.
#pragma once

#include <cstdint>
#include <cstdio>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "lance_nd/core/result.h"

namespace lance_nd::array::ipc::internal {

class Sink {
 public:
  virtual ~Sink() = default;
  virtual Status Write(std::span<const std::uint8_t> bytes) = 0;
  virtual Status Close() = 0;
  /// Bytes written so far.
  int64_t position() const { return position_; }
  /// In-memory sinks hand their bytes over; file sinks return nothing.
  virtual std::vector<std::uint8_t> TakeBytes() { return {}; }

 protected:
  int64_t position_ = 0;
};

std::unique_ptr<Sink> MakeMemorySink();
Result<std::unique_ptr<Sink>> MakeFileSink(const std::string& path);

}  // namespace lance_nd::array::ipc::internal
