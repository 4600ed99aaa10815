// Tests of the Arrow C Stream Interface export (ExportRecordBatchStream) and import
// (CStreamReader).
#include <gtest/gtest.h>

#include <cerrno>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "lance_nd/array/builder.h"
#include "lance_nd/array/c_data.h"
#include "lance_nd/testing/status_matchers.h"

namespace lance_nd::array {
namespace {

SchemaPtr TestSchema() {
  return MakeSchema({MakeField("id", Int32(), false), MakeField("name", Utf8())},
                    Metadata({{"origin", "test"}}));
}

RecordBatchPtr Batch(int32_t first, int32_t rows) {
  std::vector<std::optional<int32_t>> ids;
  std::vector<std::optional<std::string>> names;
  for (int32_t i = 0; i < rows; ++i) {
    ids.emplace_back(first + i);
    if ((first + i) % 3 == 0) {
      names.emplace_back(std::nullopt);
    } else {
      names.emplace_back("n" + std::to_string(first + i));
    }
  }
  auto batch = RecordBatch::Make(
      TestSchema(), rows, {MakePrimitiveArray<int32_t>(Int32(), ids), MakeStringArray(names)});
  EXPECT_TRUE(batch.ok()) << batch.status().ToString();
  return *batch;
}

TEST(CStream, RoundTripsBatchesAndSchema) {
  std::vector<RecordBatchPtr> batches = {Batch(0, 5), Batch(5, 0), Batch(5, 17)};
  ArrowArrayStream stream{};
  LND_ASSERT_OK(ExportRecordBatchStream(TestSchema(), batches, &stream));
  LND_ASSERT_OK_AND_ASSIGN(std::unique_ptr<CStreamReader> reader, ImportRecordBatchStream(&stream));
  EXPECT_EQ(stream.release, nullptr) << "the reader owns the stream";
  EXPECT_TRUE(reader->schema()->Equals(*TestSchema(), /*check_metadata=*/true));
  LND_ASSERT_OK_AND_ASSIGN(std::vector<RecordBatchPtr> back, reader->ReadAll());
  ASSERT_EQ(back.size(), batches.size());
  for (std::size_t i = 0; i < back.size(); ++i) {
    EXPECT_TRUE(back[i]->Equals(*batches[i])) << back[i]->ToString();
  }
  LND_ASSERT_OK_AND_ASSIGN(RecordBatchPtr after_end, reader->ReadNext());
  EXPECT_EQ(after_end, nullptr);
}

TEST(CStream, ConsumerSeesEndAsReleasedArray) {
  ArrowArrayStream stream{};
  LND_ASSERT_OK(
      ExportRecordBatchStream(TestSchema(), std::vector<RecordBatchPtr>{Batch(0, 2)}, &stream));
  ArrowSchema schema{};
  ASSERT_EQ(stream.get_schema(&stream, &schema), 0);
  EXPECT_STREQ(schema.format, "+s");
  schema.release(&schema);
  ArrowArray array{};
  ASSERT_EQ(stream.get_next(&stream, &array), 0);
  ASSERT_NE(array.release, nullptr);
  EXPECT_EQ(array.length, 2);
  array.release(&array);
  ASSERT_EQ(stream.get_next(&stream, &array), 0);
  EXPECT_EQ(array.release, nullptr);
  EXPECT_EQ(stream.get_last_error(&stream), nullptr);
  stream.release(&stream);
  EXPECT_EQ(stream.release, nullptr);
}

TEST(CStream, SourceErrorsBecomeErrnoAndLastErrorThenStatus) {
  struct Case {
    Status error;
    int expected_errno;
    StatusCode expected_code;
  };
  const std::vector<Case> cases = {
      {Status::IOError("disk on fire"), EIO, StatusCode::kIOError},
      {Status::InvalidArgument("bad row 7"), EINVAL, StatusCode::kInvalidArgument},
      {Status::NotImplemented("no float128"), ENOSYS, StatusCode::kNotImplemented},
      {Status::Corrupt("page checksum"), EIO, StatusCode::kIOError},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.error.ToString());
    int calls = 0;
    RecordBatchSource source = [&calls, error = c.error]() -> Result<RecordBatchPtr> {
      if (calls++ == 0) return Batch(0, 3);
      return error;
    };
    ArrowArrayStream raw{};
    LND_ASSERT_OK(ExportRecordBatchStream(TestSchema(), source, &raw));
    // The C view of the error.
    ArrowArray array{};
    ASSERT_EQ(raw.get_next(&raw, &array), 0);
    array.release(&array);
    EXPECT_EQ(raw.get_next(&raw, &array), c.expected_errno);
    ASSERT_NE(raw.get_last_error(&raw), nullptr);
    EXPECT_EQ(std::string(raw.get_last_error(&raw)), c.error.ToString());
    raw.release(&raw);

    // The imported view of the same error.
    calls = 0;
    ArrowArrayStream stream{};
    LND_ASSERT_OK(ExportRecordBatchStream(TestSchema(), source, &stream));
    LND_ASSERT_OK_AND_ASSIGN(std::unique_ptr<CStreamReader> reader,
                             ImportRecordBatchStream(&stream));
    LND_ASSERT_OK_AND_ASSIGN(RecordBatchPtr first, reader->ReadNext());
    ASSERT_NE(first, nullptr);
    const auto next = reader->ReadNext();
    LND_EXPECT_ERROR(next, c.expected_code, std::string(c.error.message()));
    LND_EXPECT_ERROR(next, c.expected_code, "get_next failed with errno");
  }
}

TEST(CStream, BatchOfAnotherSchemaIsReportedAsEinval) {
  const SchemaPtr other = MakeSchema({MakeField("x", Float64())});
  auto wrong = RecordBatch::Make(other, 1, {MakePrimitiveArray<double>(Float64(), {1.0})});
  ASSERT_TRUE(wrong.ok());
  ArrowArrayStream stream{};
  LND_ASSERT_OK(
      ExportRecordBatchStream(TestSchema(), std::vector<RecordBatchPtr>{*wrong}, &stream));
  LND_ASSERT_OK_AND_ASSIGN(std::unique_ptr<CStreamReader> reader, ImportRecordBatchStream(&stream));
  LND_EXPECT_ERROR(reader->ReadNext(), StatusCode::kInvalidArgument, "in a stream of schema");
}

TEST(CStream, CloseReleasesAndLaterReadsFail) {
  bool destroyed = false;
  auto sentinel = std::shared_ptr<int>(new int(0), [&destroyed](int* p) {
    destroyed = true;
    delete p;
  });
  RecordBatchSource source = [sentinel]() -> Result<RecordBatchPtr> { return Batch(0, 1); };
  sentinel.reset();
  ArrowArrayStream stream{};
  LND_ASSERT_OK(ExportRecordBatchStream(TestSchema(), std::move(source), &stream));
  LND_ASSERT_OK_AND_ASSIGN(std::unique_ptr<CStreamReader> reader, ImportRecordBatchStream(&stream));
  EXPECT_FALSE(destroyed);
  reader->Close();
  EXPECT_TRUE(destroyed) << "releasing the stream destroys the source";
  LND_EXPECT_ERROR(reader->ReadNext(), StatusCode::kInvalidArgument, "closed");
  reader->Close();  // idempotent
}

// ---- A hand-written foreign stream ------------------------------------------------------------

struct ForeignStream {
  int* releases;
  int schema_errno = 0;
  int next_errno = 0;
  int served = 0;
  const char* message = nullptr;
};

int ForeignGetSchema(ArrowArrayStream* s, ArrowSchema* out) {
  auto* f = static_cast<ForeignStream*>(s->private_data);
  if (f->schema_errno != 0) return f->schema_errno;
  return ExportSchema(*MakeSchema({MakeField("v", Int64())}), out).ok() ? 0 : EIO;
}

int ForeignGetNext(ArrowArrayStream* s, ArrowArray* out) {
  auto* f = static_cast<ForeignStream*>(s->private_data);
  if (f->served == 1 && f->next_errno != 0) return f->next_errno;
  if (f->served++ == 2) {
    out->release = nullptr;
    return 0;
  }
  auto batch = RecordBatch::Make(MakeSchema({MakeField("v", Int64())}), 2,
                                 {MakePrimitiveArray<int64_t>(Int64(), {f->served, 42})});
  return batch.ok() && ExportRecordBatch(**batch, out).ok() ? 0 : EIO;
}

const char* ForeignLastError(ArrowArrayStream* s) {
  return static_cast<ForeignStream*>(s->private_data)->message;
}

void ForeignRelease(ArrowArrayStream* s) {
  ++*static_cast<ForeignStream*>(s->private_data)->releases;
  s->release = nullptr;
}

ArrowArrayStream MakeForeignStream(ForeignStream* f) {
  ArrowArrayStream s{};
  s.get_schema = &ForeignGetSchema;
  s.get_next = &ForeignGetNext;
  s.get_last_error = &ForeignLastError;
  s.release = &ForeignRelease;
  s.private_data = f;
  return s;
}

TEST(CStream, ReadsAForeignStreamAndReleasesItOnce) {
  int releases = 0;
  ForeignStream f{&releases};
  ArrowArrayStream s = MakeForeignStream(&f);
  {
    LND_ASSERT_OK_AND_ASSIGN(std::unique_ptr<CStreamReader> reader, CStreamReader::Make(&s));
    LND_ASSERT_OK_AND_ASSIGN(std::vector<RecordBatchPtr> batches, reader->ReadAll());
    ASSERT_EQ(batches.size(), 2u);
    EXPECT_TRUE(
        ArrayEquals(*batches[1]->column(0), *MakePrimitiveArray<int64_t>(Int64(), {2, 42})));
    EXPECT_EQ(releases, 0);
  }
  EXPECT_EQ(releases, 1);
}

TEST(CStream, ForeignErrorsCarryTheLastErrorText) {
  int releases = 0;
  ForeignStream f{&releases};
  f.next_errno = ENOMEM;
  f.message = "producer ran out of memory";
  ArrowArrayStream s = MakeForeignStream(&f);
  LND_ASSERT_OK_AND_ASSIGN(std::unique_ptr<CStreamReader> reader, CStreamReader::Make(&s));
  LND_ASSERT_OK(reader->ReadNext());
  LND_EXPECT_ERROR(reader->ReadNext(), StatusCode::kIOError, "producer ran out of memory");
  f.next_errno = 0;  // the reader must not call the producer again after an error
  LND_EXPECT_ERROR(reader->ReadNext(), StatusCode::kIOError, "producer ran out of memory");
  EXPECT_EQ(f.served, 1);
  reader.reset();
  EXPECT_EQ(releases, 1);

  ForeignStream h{&releases};
  h.next_errno = ENOSYS;  // and no message
  ArrowArrayStream s3 = MakeForeignStream(&h);
  LND_ASSERT_OK_AND_ASSIGN(reader, CStreamReader::Make(&s3));
  LND_ASSERT_OK(reader->ReadNext());
  LND_EXPECT_ERROR(reader->ReadNext(), StatusCode::kNotImplemented, "no error message");
  reader.reset();
  EXPECT_EQ(releases, 2);

  ForeignStream g{&releases};
  g.schema_errno = EINVAL;
  g.message = "no schema yet";
  ArrowArrayStream s2 = MakeForeignStream(&g);
  LND_EXPECT_ERROR(CStreamReader::Make(&s2), StatusCode::kInvalidArgument,
                   "get_schema failed with errno");
  EXPECT_EQ(s2.release, nullptr);
  EXPECT_EQ(releases, 3) << "released also when Make fails";

  ArrowArrayStream released{};
  LND_EXPECT_ERROR(CStreamReader::Make(&released), StatusCode::kInvalidArgument,
                   "already released");
}

}  // namespace
}  // namespace lance_nd::array
