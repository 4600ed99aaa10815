// Encoding of Arrow IPC messages (schema, record batch), framing and the file footer.
#pragma once

#include <cstdint>
#include <vector>

#include "lance_nd/array/array_data.h"
#include "lance_nd/array/ipc.h"
#include "lance_nd/core/result.h"

namespace lance_nd::array::ipc::internal {

/// \brief One framed message: `header` (continuation marker, metadata length, flatbuffer,
/// padding) followed by `body`.
struct EncodedMessage {
  std::vector<std::uint8_t> header;
  std::vector<std::uint8_t> body;
  /// Bytes before the body (marker + length + padded flatbuffer), as a footer Block counts it.
  int32_t metadata_length = 0;
  int64_t body_length = 0;
};

Result<EncodedMessage> EncodeSchemaMessage(const Schema& schema);
Result<EncodedMessage> EncodeRecordBatchMessage(const RecordBatch& batch,
                                                const IpcWriteOptions& options);

/// \brief Where a record batch message was written in a file.
struct BlockLocation {
  int64_t offset = 0;
  int32_t metadata_length = 0;
  int64_t body_length = 0;
};

/// \brief The footer flatbuffer (not framed).
Result<std::vector<std::uint8_t>> EncodeFooter(const Schema& schema,
                                               const std::vector<BlockLocation>& batches);

/// \brief The 8-byte end-of-stream marker.
std::vector<std::uint8_t> EndOfStreamMarker();

/// \brief Checks that `batch` matches `schema` (column count, types, lengths).
Status CheckBatchMatchesSchema(const Schema& schema, const RecordBatch& batch);

}  // namespace lance_nd::array::ipc::internal
