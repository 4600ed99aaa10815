// Decoding of Arrow IPC messages from untrusted bytes: framing, verification, record batches.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>

#include "lance_nd/array/array_data.h"
#include "lance_nd/array/buffer.h"
#include "lance_nd/array/ipc/fbs.h"
#include "lance_nd/core/result.h"

namespace lance_nd::array::ipc::internal {

/// \brief One message read from a byte range; `message` is null at the end of the stream.
struct DecodedMessage {
  BufferPtr metadata;  // keeps the flatbuffer bytes alive (an aligned copy if needed)
  const fb::Message* message = nullptr;
  BufferPtr body;
  int64_t end_offset = 0;  // offset just past the body
};

/// \brief Read and verify the framed message at `offset` of `bytes`. The end of the bytes, a
/// zero length or the end-of-stream marker give a null `message`. `what` prefixes errors.
Result<DecodedMessage> ReadMessage(const BufferPtr& bytes, int64_t offset, const std::string& what);

/// \brief Verify a flatbuffer holding a root table T; copies it when misaligned.
/// Returns the (possibly copied) bytes; `*root` points into them.
template <typename T>
Result<BufferPtr> VerifyRoot(const BufferPtr& bytes, int64_t offset, int64_t length,
                             const std::string& what, const T** root);

/// \brief Element `i` of a vector of flatbuffer structs, copied out with an unaligned load.
/// The verifier checks only the 4-byte alignment of the length prefix, and older writers
/// (arrow-rs before its 2024 flatbuffers alignment fix, used by Lance for deletion files) put
/// vectors of 8-byte structs 4 bytes off 8-byte alignment, so the elements are never
/// dereferenced in place. `i` must be below `v->size()`.
template <typename T>
T LoadStruct(const flatbuffers::Vector<const T*>& v, flatbuffers::uoffset_t i) {
  T out;
  std::memcpy(static_cast<void*>(&out), v.Data() + std::size_t{i} * sizeof(T), sizeof(T));
  return out;
}

/// \brief Readable name of a message header type ("record batch", "tensor", ...).
std::string MessageHeaderName(fb::MessageHeader type);

/// \brief The record batch of a verified message, checked and validated against `schema`.
Result<RecordBatchPtr> LoadRecordBatch(const SchemaPtr& schema, const fb::Message& message,
                                       const BufferPtr& body, const std::string& what);

/// \brief Check a message's metadata version (V4 and V5 are read).
Status CheckVersion(fb::MetadataVersion version, const std::string& what);

/// \brief Read a whole file into a 64-byte aligned buffer.
Result<BufferPtr> ReadWholeFile(const std::string& path);

}  // namespace lance_nd::array::ipc::internal
