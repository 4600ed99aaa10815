// Arrow C Stream Interface: export a batch source as an ArrowArrayStream, read a foreign one.
#include <cerrno>
#include <cstring>
#include <exception>
#include <new>
#include <string>
#include <utility>
#include <vector>

#include "lance_nd/array/c_data.h"

namespace lance_nd::array {
namespace {

int ErrnoFor(const Status& status) {
  switch (status.code()) {
    case StatusCode::kOk:
      return 0;
    case StatusCode::kInvalidArgument:
    case StatusCode::kSchemaMismatch:
      return EINVAL;
    case StatusCode::kNotImplemented:
      return ENOSYS;
    default:
      return EIO;
  }
}

struct ExportedStream {
  SchemaPtr schema;
  RecordBatchSource source;
  std::string last_error;
};

ExportedStream* PrivateOf(ArrowArrayStream* stream) {
  return static_cast<ExportedStream*>(stream->private_data);
}

int Fail(ExportedStream* priv, const Status& status) {
  priv->last_error = status.ToString();
  return ErrnoFor(status);
}

/// Runs a callback body, turning exceptions (which must not cross the C ABI) into errno values.
template <typename F>
int Guarded(ExportedStream* priv, F&& body) {
  try {
    return body();
  } catch (const std::bad_alloc&) {
    priv->last_error = "out of memory";
    return ENOMEM;
  } catch (const std::exception& e) {
    priv->last_error = std::string("unexpected exception: ") + e.what();
    return EIO;
  } catch (...) {
    priv->last_error = "unexpected exception";
    return EIO;
  }
}

int StreamGetSchema(ArrowArrayStream* stream, ArrowSchema* out) {
  ExportedStream* priv = PrivateOf(stream);
  return Guarded(priv, [&] {
    const Status st = ExportSchema(*priv->schema, out);
    return st.ok() ? 0 : Fail(priv, st);
  });
}

int StreamGetNext(ArrowArrayStream* stream, ArrowArray* out) {
  ExportedStream* priv = PrivateOf(stream);
  return Guarded(priv, [&] {
    if (out == nullptr) return Fail(priv, Status::InvalidArgument("get_next: out is null"));
    Result<RecordBatchPtr> next = priv->source();
    if (!next.ok()) return Fail(priv, next.status());
    const RecordBatchPtr& batch = *next;
    if (batch == nullptr) {
      std::memset(out, 0, sizeof(*out));  // end of stream: a released array
      return 0;
    }
    if (batch->schema() == nullptr || !batch->schema()->Equals(*priv->schema, false)) {
      return Fail(priv, Status::SchemaMismatch(
                            "the batch source produced a batch of schema {" +
                            (batch->schema() ? batch->schema()->ToString() : "null") +
                            "} in a stream of schema {" + priv->schema->ToString() + "}"));
    }
    const Status st = ExportRecordBatch(*batch, out);
    return st.ok() ? 0 : Fail(priv, st);
  });
}

const char* StreamGetLastError(ArrowArrayStream* stream) {
  const ExportedStream* priv = PrivateOf(stream);
  return priv->last_error.empty() ? nullptr : priv->last_error.c_str();
}

void StreamRelease(ArrowArrayStream* stream) {
  if (stream == nullptr || stream->release == nullptr) return;
  delete PrivateOf(stream);
  stream->release = nullptr;
  stream->private_data = nullptr;
}

}  // namespace

Status ExportRecordBatchStream(SchemaPtr schema, RecordBatchSource source, ArrowArrayStream* out) {
  if (out == nullptr) {
    return Status::InvalidArgument(
        "the output ArrowArrayStream pointer is null; pass a struct to fill");
  }
  if (schema == nullptr) return Status::InvalidArgument("cannot export a stream without schema");
  if (!source) return Status::InvalidArgument("cannot export a stream without a batch source");
  auto* priv = new ExportedStream{std::move(schema), std::move(source), {}};
  out->get_schema = &StreamGetSchema;
  out->get_next = &StreamGetNext;
  out->get_last_error = &StreamGetLastError;
  out->release = &StreamRelease;
  out->private_data = priv;
  return Status::OK();
}

Status ExportRecordBatchStream(SchemaPtr schema, std::vector<RecordBatchPtr> batches,
                               ArrowArrayStream* out) {
  auto state =
      std::make_shared<std::pair<std::vector<RecordBatchPtr>, std::size_t>>(std::move(batches), 0);
  RecordBatchSource source = [state]() -> Result<RecordBatchPtr> {
    if (state->second >= state->first.size()) return RecordBatchPtr{};
    return state->first[state->second++];
  };
  return ExportRecordBatchStream(std::move(schema), std::move(source), out);
}

// ---- Import ---------------------------------------------------------------------------------

CStreamReader::CStreamReader(ArrowArrayStream stream, SchemaPtr schema)
    : stream_(stream), schema_(std::move(schema)) {}

CStreamReader::~CStreamReader() { Close(); }

void CStreamReader::Close() {
  if (stream_.release != nullptr) stream_.release(&stream_);
  stream_.release = nullptr;
}

Status CStreamReader::ProducerError(const char* what, int code) {
  const char* text = nullptr;
  if (stream_.get_last_error != nullptr) text = stream_.get_last_error(&stream_);
  std::string msg = "ArrowArrayStream " + std::string(what) + " failed with errno " +
                    std::to_string(code) + " (" + std::strerror(code) +
                    "): " + (text != nullptr ? std::string(text) : std::string("no error message"));
  switch (code) {
    case EINVAL:
      return Status::InvalidArgument(std::move(msg));
    case ENOSYS:
      return Status::NotImplemented(std::move(msg));
    default:
      return Status::IOError(std::move(msg));
  }
}

Result<std::unique_ptr<CStreamReader>> CStreamReader::Make(ArrowArrayStream* stream) {
  if (stream == nullptr) return Status::InvalidArgument("the ArrowArrayStream pointer is null");
  if (stream->release == nullptr) {
    return Status::InvalidArgument(
        "the ArrowArrayStream is already released (release == NULL); export a fresh one");
  }
  const ArrowArrayStream moved = *stream;
  stream->release = nullptr;
  // From here the reader owns the stream: its destructor releases it on every path.
  std::unique_ptr<CStreamReader> reader(new CStreamReader(moved, nullptr));
  if (moved.get_schema == nullptr || moved.get_next == nullptr) {
    return Status::InvalidArgument("the ArrowArrayStream has a null get_schema or get_next");
  }
  ArrowSchema c_schema{};
  const int rc = reader->stream_.get_schema(&reader->stream_, &c_schema);
  if (rc != 0) return reader->ProducerError("get_schema", rc);
  LND_ASSIGN_OR_RETURN_CTX(reader->schema_, ImportSchema(&c_schema),
                           "the schema of an ArrowArrayStream");
  return reader;
}

Result<RecordBatchPtr> CStreamReader::ReadNext() {
  if (stream_.release == nullptr) {
    return Status::InvalidArgument("ReadNext on a closed CStreamReader");
  }
  if (!error_.ok()) return error_;
  if (finished_) return RecordBatchPtr{};
  ArrowArray c_array{};
  const int rc = stream_.get_next(&stream_, &c_array);
  if (rc != 0) {
    error_ = ProducerError("get_next", rc);
    return error_;
  }
  if (c_array.release == nullptr) {
    finished_ = true;
    return RecordBatchPtr{};
  }
  auto batch = ImportRecordBatch(&c_array, schema_);
  if (!batch.ok()) error_ = batch.status();
  return batch;
}

Result<std::vector<RecordBatchPtr>> CStreamReader::ReadAll() {
  std::vector<RecordBatchPtr> out;
  while (true) {
    LND_ASSIGN_OR_RETURN(RecordBatchPtr batch, ReadNext());
    if (batch == nullptr) return out;
    out.push_back(std::move(batch));
  }
}

Result<std::unique_ptr<CStreamReader>> ImportRecordBatchStream(ArrowArrayStream* stream) {
  return CStreamReader::Make(stream);
}

}  // namespace lance_nd::array
