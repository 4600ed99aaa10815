// TableWriter: seeded batch sequences cut into the same files as the one-call writer always cut
// them, one version per commit, nothing visible or left behind without a commit, and errors
// that lose nothing.
#include "lance_nd/table/table_writer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "lance_nd/array/view.h"
#include "lance_nd/file/writer.h"
#include "lance_nd/table/maintenance/table_fixture_test_util.h"
#include "lance_nd/table/scan.h"
#include "lance_nd/table/test_util.h"
#include "lance_nd/testing/status_matchers.h"

namespace lance_nd::table {
namespace {

using testing::TestBatch;

std::vector<std::uint8_t> FileBytes(io::FileSystem& fs, const std::string& path) {
  auto f = fs.OpenForRead(path);
  EXPECT_TRUE(f.ok()) << f.status().ToString();
  if (!f.ok()) return {};
  auto bytes = io::ReadWholeFile(**f);
  EXPECT_TRUE(bytes.ok());
  return bytes.ok() ? **bytes : std::vector<std::uint8_t>{};
}

// The files of the one-call writer as it always cut them: one FileWriter fed slices of the
// batches, rolled when it holds max_rows rows or when the estimate (buffer bytes of the rows
// given, or the bytes already flushed when larger) reaches max_bytes. Returns each file's bytes.
std::vector<std::vector<std::uint8_t>> ReferenceFiles(
    const std::vector<array::RecordBatchPtr>& batches, const WriteOptions& o) {
  auto fs = io::MakeMemoryFileSystem();
  auto fields = FieldsFromSchema(*batches.front()->schema()).value();
  auto schema = SchemaFromFields(fields, {}).value();
  file::WriterOptions file_options = o.file_options;
  for (const LanceField& f : fields) file_options.field_ids.push_back(f.id);
  std::vector<std::string> paths;
  std::unique_ptr<file::FileWriter> writer;
  const io::OutputFile* out = nullptr;
  std::int64_t file_bytes = 0;
  std::function<std::int64_t(const array::ArrayData&)> buffer_bytes =
      [&](const array::ArrayData& a) {
        std::int64_t total = 0;
        for (const auto& b : a.buffers) total += b ? b->size() : 0;
        for (const auto& c : a.children) total += c ? buffer_bytes(*c) : 0;
        return total;
      };
  for (const auto& batch : batches) {
    std::int64_t batch_bytes = 0;
    for (const auto& c : batch->columns()) batch_bytes += buffer_bytes(*c);
    for (std::int64_t offset = 0; offset < batch->num_rows();) {
      if (writer == nullptr) {
        paths.push_back("ref/" + std::to_string(paths.size()));
        auto raw = fs->Create(paths.back()).value();
        out = raw.get();
        file_bytes = 0;
        writer = file::FileWriter::Open(std::move(raw), schema, file_options).value();
      }
      const std::int64_t take =
          std::min(o.max_rows_per_file - static_cast<std::int64_t>(writer->num_rows()),
                   batch->num_rows() - offset);
      EXPECT_TRUE(writer->Write(*batch->Slice(offset, take).value()).ok());
      offset += take;
      file_bytes += batch_bytes / batch->num_rows() * take;
      file_bytes = std::max(file_bytes, static_cast<std::int64_t>(out->position()));
      if (static_cast<std::int64_t>(writer->num_rows()) >= o.max_rows_per_file ||
          file_bytes >= o.max_bytes_per_file) {
        EXPECT_TRUE(writer->Finish().ok());
        writer.reset();
      }
    }
  }
  if (writer != nullptr) {
    EXPECT_TRUE(writer->Finish().ok());
  }
  std::vector<std::vector<std::uint8_t>> files;
  for (const std::string& p : paths) files.push_back(FileBytes(*fs, p));
  return files;
}

std::vector<std::int64_t> IdsOf(const Dataset& ds) {
  auto batch = ReadTable(ds, {{"id"}}).value();
  array::PrimitiveView<std::int64_t> v(*batch->column(0));
  std::vector<std::int64_t> ids;
  for (std::int64_t i = 0; i < v.length(); ++i) ids.push_back(v.Value(i));
  return ids;
}

std::vector<std::int64_t> Range(std::int64_t a, std::int64_t b) {
  std::vector<std::int64_t> out;
  for (std::int64_t i = a; i < b; ++i) out.push_back(i);
  return out;
}

// The names under the table's data/ (empty when there is none).
std::vector<std::string> DataFiles(const TableLocation& t) {
  auto names = t.fs().ListFileNames(t.DataDir());
  return names.ok() ? *names : std::vector<std::string>{};
}

class TableWriterTest : public ops_testing::MemoryOrLocalTableTest {
 protected:
  TableLocation Table() const { return TableLocation(fs_, table_); }
  Dataset Create(std::int64_t rows) {
    const std::vector<array::RecordBatchPtr> b = {TestBatch(0, rows)};
    return WriteTable(Table(), b).value();
  }
  static WriteOptions Append(std::int64_t max_rows = 1024 * 1024) {
    WriteOptions o;
    o.mode = WriteMode::kAppend;
    o.max_rows_per_file = max_rows;
    return o;
  }
};

TEST_P(TableWriterTest, SeededSequencesCutLikeTheOneCallWriter) {
  for (std::uint32_t seed = 1; seed <= 24; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937 rng(seed);
    auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    WriteOptions o;
    o.mode = WriteMode::kCreate;
    o.max_rows_per_file = pick(1, 6) == 1 ? pick(1, 5) : pick(20, 400);
    const int bytes_rule = pick(0, 2);
    o.max_bytes_per_file = bytes_rule == 0 ? (90LL << 30) : bytes_rule == 1 ? 2000 : 12000;
    o.files_in_flight = static_cast<std::size_t>(pick(0, 3));
    std::vector<array::RecordBatchPtr> batches;
    std::int64_t rows = 0;
    const int n = pick(1, 9);
    for (int i = 0; i < n; ++i) {
      const std::int64_t size = pick(0, 4) == 0 ? 0 : pick(1, 300);
      batches.push_back(TestBatch(rows, size));
      rows += size;
    }
    const TableLocation t(fs_, table_ + std::to_string(seed));
    LND_ASSERT_OK_AND_ASSIGN(TableWriter writer, TableWriter::Open(t, batches[0]->schema(), o));
    for (const auto& b : batches) LND_ASSERT_OK(writer.Write(*b));
    EXPECT_EQ(writer.rows_written(), static_cast<std::uint64_t>(rows));
    LND_ASSERT_OK_AND_ASSIGN(Dataset ds, writer.Commit());
    EXPECT_EQ(ds.version(), 1u);
    EXPECT_EQ(IdsOf(ds), Range(0, rows));
    const auto want = ReferenceFiles(batches, o);
    ASSERT_EQ(ds.fragments().size(), want.size());
    for (std::size_t i = 0; i < want.size(); ++i) {
      const DataFile& df = ds.fragments()[i].files.at(0);
      EXPECT_EQ(FileBytes(t.fs(), t.Path(kDataDir, df.path)), want[i]) << "file " << i;
      EXPECT_EQ(df.file_size_bytes, want[i].size());
    }
    EXPECT_EQ(DataFiles(t).size(), want.size());
  }
}

TEST_P(TableWriterTest, ManyWritesMakeOneVersionInvisibleUntilCommit) {
  Create(5);
  LND_ASSERT_OK_AND_ASSIGN(TableWriter writer, TableWriter::Open(Table(), nullptr, Append(40)));
  for (std::int64_t i = 0; i < 10; ++i) LND_ASSERT_OK(writer.Write(*TestBatch(5 + i * 25, 25)));
  // Files are on disk, but no reader sees them before the commit.
  EXPECT_GT(DataFiles(Table()).size(), 1u);
  LND_ASSERT_OK_AND_ASSIGN(Dataset before, Dataset::Open(Table()));
  EXPECT_EQ(before.version(), 1u);
  EXPECT_EQ(before.CountRows(), 5u);
  LND_ASSERT_OK_AND_ASSIGN(Dataset ds, writer.Commit());
  EXPECT_EQ(ds.version(), 2u);
  EXPECT_EQ(ds.versions().versions, (std::vector<std::uint64_t>{1, 2}));
  EXPECT_EQ(ds.transaction()->type(), OperationType::kAppend);
  EXPECT_EQ(ds.fragments().size(), 1u + 7u);  // 250 rows in files of 40
  EXPECT_EQ(IdsOf(ds), Range(0, 255));
}

TEST_P(TableWriterTest, AbortAndDestructionLeaveTheTableUnchanged) {
  Create(5);
  const std::vector<std::string> files_before = DataFiles(Table());
  {
    LND_ASSERT_OK_AND_ASSIGN(TableWriter writer, TableWriter::Open(Table(), nullptr, Append(30)));
    for (int i = 0; i < 4; ++i) LND_ASSERT_OK(writer.Write(*TestBatch(100 + i * 50, 50)));
    LND_ASSERT_OK(writer.Abort());
    LND_ASSERT_OK(writer.Abort());  // twice is fine
    LND_EXPECT_ERROR(writer.Write(*TestBatch(0, 1)), StatusCode::kInvalidArgument, "after Abort");
    LND_EXPECT_ERROR(writer.Commit(), StatusCode::kInvalidArgument, "after Abort");
  }
  EXPECT_EQ(DataFiles(Table()), files_before);
  {
    LND_ASSERT_OK_AND_ASSIGN(TableWriter writer, TableWriter::Open(Table(), nullptr, Append(30)));
    for (int i = 0; i < 4; ++i) LND_ASSERT_OK(writer.Write(*TestBatch(100 + i * 50, 50)));
    EXPECT_GT(DataFiles(Table()).size(), files_before.size());
  }  // destroyed without a commit
  EXPECT_EQ(DataFiles(Table()), files_before);
  LND_ASSERT_OK_AND_ASSIGN(Dataset latest, Dataset::Open(Table()));
  EXPECT_EQ(latest.version(), 1u);
  EXPECT_EQ(IdsOf(latest), Range(0, 5));
}

TEST_P(TableWriterTest, AbortOfACreateLeavesNoTable) {
  {
    LND_ASSERT_OK_AND_ASSIGN(TableWriter writer,
                             TableWriter::Open(Table(), testing::TestSchema(), {}));
    LND_ASSERT_OK(writer.Write(*TestBatch(0, 10)));
  }
  EXPECT_TRUE(DataFiles(Table()).empty());
  LND_EXPECT_ERROR(Dataset::Open(Table()), StatusCode::kNotFound, "no Lance table");
}

TEST_P(TableWriterTest, SchemaMismatchInTheThirdBatchLosesNothing) {
  Create(5);
  LND_ASSERT_OK_AND_ASSIGN(TableWriter writer, TableWriter::Open(Table(), nullptr, Append(7)));
  LND_ASSERT_OK(writer.Write(*TestBatch(5, 10)));
  LND_ASSERT_OK(writer.Write(*TestBatch(15, 10)));
  auto other = array::MakeSchema({array::MakeField("id", array::Int32(), false)});
  std::vector<std::optional<std::int32_t>> v = {1, 2};
  auto bad = array::RecordBatch::Make(other, 2,
                                      {array::MakePrimitiveArray<std::int32_t>(array::Int32(), v)})
                 .value();
  LND_EXPECT_ERROR(writer.Write(*bad), StatusCode::kSchemaMismatch,
                   "field 'id' of the appended data has type int32");
  EXPECT_EQ(writer.rows_written(), 20u);
  LND_ASSERT_OK(writer.Write(*TestBatch(25, 3)));
  LND_ASSERT_OK_AND_ASSIGN(Dataset ds, writer.Commit());
  EXPECT_EQ(ds.version(), 2u);
  EXPECT_EQ(IdsOf(ds), Range(0, 28));
}

TEST_P(TableWriterTest, CreateRefusesABatchOfAnotherSchemaAndGoesOn) {
  LND_ASSERT_OK_AND_ASSIGN(TableWriter writer,
                           TableWriter::Open(Table(), testing::TestSchema(), {}));
  LND_ASSERT_OK(writer.Write(*TestBatch(0, 4)));
  auto other = array::MakeSchema({array::MakeField("id", array::Int64(), false)});
  std::vector<std::optional<std::int64_t>> v = {1};
  auto bad = array::RecordBatch::Make(other, 1,
                                      {array::MakePrimitiveArray<std::int64_t>(array::Int64(), v)})
                 .value();
  LND_EXPECT_ERROR(writer.Write(*bad), StatusCode::kSchemaMismatch,
                   "do not all have the same schema");
  LND_ASSERT_OK_AND_ASSIGN(Dataset ds, writer.Commit());
  EXPECT_EQ(IdsOf(ds), Range(0, 4));
}

TEST_P(TableWriterTest, WriteAfterCommitIsRefusedAndChangesNothing) {
  LND_ASSERT_OK_AND_ASSIGN(TableWriter writer,
                           TableWriter::Open(Table(), testing::TestSchema(), {}));
  LND_ASSERT_OK(writer.Write(*TestBatch(0, 3)));
  LND_ASSERT_OK_AND_ASSIGN(Dataset ds, writer.Commit());
  LND_EXPECT_ERROR(writer.Write(*TestBatch(3, 3)), StatusCode::kInvalidArgument,
                   "after Commit (version 1 was committed)");
  LND_EXPECT_ERROR(writer.Commit(), StatusCode::kInvalidArgument, "after Commit");
  LND_EXPECT_ERROR(writer.Abort(), StatusCode::kInvalidArgument, "after Commit");
  LND_ASSERT_OK_AND_ASSIGN(Dataset latest, Dataset::Open(Table()));
  EXPECT_EQ(latest.version(), 1u);
  EXPECT_EQ(IdsOf(latest), Range(0, 3));
  EXPECT_EQ(DataFiles(Table()).size(), 1u);
}

TEST_P(TableWriterTest, OpenErrorsNameTheProblem) {
  LND_EXPECT_ERROR(TableWriter::Open(Table(), nullptr, Append()), StatusCode::kNotFound,
                   "there is no table there");
  LND_EXPECT_ERROR(TableWriter::Open(Table(), nullptr, {}), StatusCode::kInvalidArgument,
                   "needs a schema");
  LND_EXPECT_ERROR(TableWriter::Open(TableLocation(nullptr, table_), testing::TestSchema(), {}),
                   StatusCode::kInvalidArgument, "needs a file system");
  WriteOptions zero;
  zero.max_rows_per_file = 0;
  LND_EXPECT_ERROR(TableWriter::Open(Table(), testing::TestSchema(), zero),
                   StatusCode::kInvalidArgument, "must be positive");
  Create(2);
  LND_EXPECT_ERROR(TableWriter::Open(Table(), testing::TestSchema(), {}),
                   StatusCode::kAlreadyExists, "use WriteMode::kAppend");
  auto other = array::MakeSchema({array::MakeField("other", array::Int64())});
  LND_EXPECT_ERROR(TableWriter::Open(Table(), other, Append()), StatusCode::kSchemaMismatch,
                   "field 'other' of the appended data is not in the table");
  LND_ASSERT_OK_AND_ASSIGN(TableWriter same,
                           TableWriter::Open(Table(), testing::TestSchema(), Append()));
  EXPECT_TRUE(same.schema()->Equals(*testing::TestSchema(), false));
}

TEST_P(TableWriterTest, OverwriteReplacesRowsAndSchemaInOneVersion) {
  Create(20);
  WriteOptions o;
  o.mode = WriteMode::kOverwrite;
  o.max_rows_per_file = 3;
  LND_ASSERT_OK_AND_ASSIGN(TableWriter writer,
                           TableWriter::Open(Table(), testing::TestSchema(), o));
  LND_ASSERT_OK(writer.Write(*TestBatch(100, 4)));
  LND_ASSERT_OK(writer.Write(*TestBatch(104, 4)));
  LND_ASSERT_OK_AND_ASSIGN(Dataset ds, writer.Commit());
  EXPECT_EQ(ds.version(), 2u);
  EXPECT_EQ(ds.transaction()->type(), OperationType::kOverwrite);
  EXPECT_EQ(ds.fragments().size(), 3u);  // 8 rows in files of 3
  EXPECT_EQ(IdsOf(ds), Range(100, 108));
}

TEST_P(TableWriterTest, AnAppendOfNothingStillCommitsOneVersion) {
  Create(4);
  LND_ASSERT_OK_AND_ASSIGN(TableWriter writer, TableWriter::Open(Table(), nullptr, Append()));
  LND_ASSERT_OK_AND_ASSIGN(Dataset ds, writer.Commit());
  EXPECT_EQ(ds.version(), 2u);
  EXPECT_EQ(IdsOf(ds), Range(0, 4));
}

TEST_P(TableWriterTest, AFailedCommitRemovesItsFiles) {
  // Two creates race: the second one's commit finds the table the first one made.
  LND_ASSERT_OK_AND_ASSIGN(TableWriter loser,
                           TableWriter::Open(Table(), testing::TestSchema(), {}));
  LND_ASSERT_OK(loser.Write(*TestBatch(50, 30)));
  const Dataset winner = Create(3);
  std::vector<std::string> winner_files;
  for (const Fragment& f : winner.fragments()) winner_files.push_back(f.files.at(0).path);
  EXPECT_EQ(DataFiles(Table()).size(), winner_files.size() + 1);  // the loser's, not committed
  const Status st = loser.Commit().status();
  EXPECT_FALSE(st.ok());
  EXPECT_EQ(DataFiles(Table()), winner_files);
  LND_EXPECT_ERROR(loser.Write(*TestBatch(0, 1)), st.code(), "after a failed commit");
  LND_ASSERT_OK_AND_ASSIGN(Dataset latest, Dataset::Open(Table()));
  EXPECT_EQ(latest.version(), 1u);
  EXPECT_EQ(IdsOf(latest), Range(0, 3));
}

TEST_P(TableWriterTest, StableRowIdsNumberTheCreatedRows) {
  WriteOptions o;
  o.enable_stable_row_ids = true;
  o.max_rows_per_file = 4;
  LND_ASSERT_OK_AND_ASSIGN(TableWriter writer,
                           TableWriter::Open(Table(), testing::TestSchema(), o));
  LND_ASSERT_OK(writer.Write(*TestBatch(0, 6)));
  LND_ASSERT_OK(writer.Write(*TestBatch(6, 3)));
  LND_ASSERT_OK_AND_ASSIGN(Dataset ds, writer.Commit());
  TableScanOptions scan;
  scan.projection = {"id"};
  scan.with_row_id = true;
  LND_ASSERT_OK_AND_ASSIGN(auto batch, ReadTable(ds, scan));
  array::PrimitiveView<std::uint64_t> ids(*batch->column(1));
  for (std::int64_t i = 0; i < ids.length(); ++i)
    EXPECT_EQ(ids.Value(i), static_cast<std::uint64_t>(i));
  EXPECT_EQ(ids.length(), 9);

  WriteOptions empty = o;
  const TableLocation other(fs_, table_ + "-empty");
  LND_ASSERT_OK_AND_ASSIGN(TableWriter nothing,
                           TableWriter::Open(other, testing::TestSchema(), empty));
  LND_EXPECT_ERROR(nothing.Commit(), StatusCode::kNotImplemented, "at least one row");
}

INSTANTIATE_TEST_SUITE_P(MemoryAndLocal, TableWriterTest, ::testing::Values(false, true),
                         ops_testing::MemoryOrLocalName);

}  // namespace
}  // namespace lance_nd::table
