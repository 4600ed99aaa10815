// Create / append / overwrite through WriteTable, read back through the file layer.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <functional>
#include <future>

#include "lance_nd/array/view.h"
#include "lance_nd/file/reader.h"
#include "lance_nd/table/scan.h"
#include "lance_nd/table/test_util.h"
#include "lance_nd/table/write.h"
#include "lance_nd/testing/status_matchers.h"

namespace lance_nd::table {
namespace {

using testing::TestBatch;

// All ids stored in the table's data files, in fragment order (deletions ignored).
std::vector<std::int64_t> ReadIds(const Dataset& ds) {
  std::vector<std::int64_t> ids;
  for (const Fragment& f : ds.fragments()) {
    for (const DataFile& file : f.files) {
      auto in = ds.file_system()->OpenForRead(ds.path() + "/data/" + file.path);
      EXPECT_TRUE(in.ok()) << in.status().ToString();
      if (!in.ok()) return ids;
      EXPECT_EQ((*in)->Size(), file.file_size_bytes);
      auto reader = file::FileReader::Open(*in);
      EXPECT_TRUE(reader.ok()) << reader.status().ToString();
      if (!reader.ok()) return ids;
      auto batch = reader->ReadAll({"id"});
      EXPECT_TRUE(batch.ok()) << batch.status().ToString();
      if (!batch.ok()) return ids;
      EXPECT_EQ(static_cast<std::uint64_t>((*batch)->num_rows()), f.physical_rows);
      array::PrimitiveView<std::int64_t> v(*(*batch)->column(0));
      for (std::int64_t i = 0; i < v.length(); ++i) ids.push_back(v.Value(i));
    }
  }
  return ids;
}

std::vector<std::int64_t> Range(std::int64_t a, std::int64_t b) {
  std::vector<std::int64_t> out;
  for (std::int64_t i = a; i < b; ++i) out.push_back(i);
  return out;
}

std::string Slurp(io::FileSystem& fs, const std::string& path) {
  auto f = fs.OpenForRead(path);
  if (!f.ok()) return "<missing>";
  auto bytes = io::ReadWholeFile(**f);
  if (!bytes.ok()) return "<unreadable>";
  return std::string((*bytes)->begin(), (*bytes)->end());
}

void CreateAppendOverwrite(std::shared_ptr<io::FileSystem> fs, const std::string& path) {
  std::vector<array::RecordBatchPtr> first = {TestBatch(0, 10), TestBatch(10, 5)};
  WriteOptions create;
  create.max_rows_per_file = 8;  // 15 rows -> files of 8 and 7 rows
  LND_ASSERT_OK_AND_ASSIGN(Dataset v1, WriteTable(TableLocation(fs, path), first, create));
  EXPECT_EQ(v1.version(), 1u);
  EXPECT_EQ(v1.CountRows(), 15u);
  ASSERT_EQ(v1.fragments().size(), 2u);
  EXPECT_EQ(v1.fragments()[0].id, 0u);
  EXPECT_EQ(v1.fragments()[1].id, 1u);
  EXPECT_EQ(v1.fragments()[0].physical_rows, 8u);
  EXPECT_EQ(v1.manifest().max_fragment_id, std::optional<std::uint32_t>(1));
  EXPECT_EQ(v1.manifest().writer_library, "lance-nd");
  EXPECT_EQ(v1.manifest().data_format_version, "2.2");
  EXPECT_EQ(v1.manifest().schema_metadata, testing::TestSchema()->metadata());
  ASSERT_TRUE(v1.transaction().has_value());
  EXPECT_EQ(v1.transaction()->type(), OperationType::kOverwrite);
  EXPECT_EQ(v1.transaction()->read_version, 0u);
  EXPECT_EQ(v1.manifest().transaction_file, "0-" + v1.transaction()->uuid + ".txn");
  LND_ASSERT_OK_AND_ASSIGN(bool txn_exists,
                           fs->Exists(path + "/_transactions/" + v1.manifest().transaction_file));
  EXPECT_TRUE(txn_exists);
  EXPECT_EQ(Slurp(*fs, path + "/_versions/latest_version_hint.json"), "{\"version\":1}");
  // Leaf-only fields (id 0, s.x 2, s.tags.item 4), columns 0..2, Lance-style file names.
  const DataFile& df = v1.fragments()[0].files[0];
  EXPECT_EQ(df.fields, (std::vector<std::int32_t>{0, 2, 4}));
  EXPECT_EQ(df.column_indices, (std::vector<std::int32_t>{0, 1, 2}));
  EXPECT_EQ(df.file_major_version, 2u);
  EXPECT_EQ(df.file_minor_version, 2u);
  EXPECT_EQ(df.path.size(), 56u);
  EXPECT_EQ(df.path.substr(0, 24).find_first_not_of("01"), std::string::npos) << df.path;
  EXPECT_EQ(df.path.substr(24, 26).find_first_not_of("0123456789abcdef"), std::string::npos)
      << df.path;
  EXPECT_EQ(df.path.substr(50), ".lance");
  EXPECT_EQ(ReadIds(v1), Range(0, 15));

  WriteOptions append;
  append.mode = WriteMode::kAppend;
  std::vector<array::RecordBatchPtr> more = {TestBatch(15, 3)};
  LND_ASSERT_OK_AND_ASSIGN(Dataset v2, WriteTable(TableLocation(fs, path), more, append));
  EXPECT_EQ(v2.version(), 2u);
  EXPECT_EQ(v2.CountRows(), 18u);
  ASSERT_EQ(v2.fragments().size(), 3u);
  EXPECT_EQ(v2.fragments()[2].id, 2u);
  EXPECT_EQ(v2.manifest().max_fragment_id, std::optional<std::uint32_t>(2));
  EXPECT_EQ(v2.transaction()->type(), OperationType::kAppend);
  EXPECT_EQ(v2.transaction()->read_version, 1u);
  EXPECT_EQ(v2.manifest().fields, v1.manifest().fields);
  EXPECT_EQ(ReadIds(v2), Range(0, 18));
  EXPECT_EQ(Slurp(*fs, path + "/_versions/latest_version_hint.json"), "{\"version\":2}");

  WriteOptions overwrite;
  overwrite.mode = WriteMode::kOverwrite;
  std::vector<array::RecordBatchPtr> fresh = {TestBatch(100, 4)};
  LND_ASSERT_OK_AND_ASSIGN(Dataset v3, WriteTable(TableLocation(fs, path), fresh, overwrite));
  EXPECT_EQ(v3.version(), 3u);
  EXPECT_EQ(v3.CountRows(), 4u);
  ASSERT_EQ(v3.fragments().size(), 1u);
  EXPECT_EQ(v3.fragments()[0].id, 3u);  // Lance 12 numbers an overwrite on from max + 1
  EXPECT_EQ(v3.manifest().max_fragment_id, std::optional<std::uint32_t>(3));
  EXPECT_EQ(v3.transaction()->type(), OperationType::kOverwrite);
  EXPECT_EQ(v3.transaction()->read_version, 2u);
  EXPECT_EQ(ReadIds(v3), Range(100, 104));

  // Every version is still there, each with its transaction file.
  LND_ASSERT_OK_AND_ASSIGN(Dataset old, Dataset::Open(TableLocation(fs, path), 2));
  EXPECT_EQ(ReadIds(old), Range(0, 18));
  LND_ASSERT_OK_AND_ASSIGN(auto txns, fs->List(path + "/_transactions"));
  EXPECT_EQ(txns.size(), 3u);
}

TEST(TableWrite, CreateAppendOverwriteInMemory) {
  CreateAppendOverwrite(io::MakeMemoryFileSystem(), "mem/t.lance");
}

TEST(TableWrite, CreateAppendOverwriteOnLocalDisk) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("lance_nd_write_test_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  CreateAppendOverwrite(io::LocalFileSystem(), (dir / "t.lance").string());
  std::filesystem::remove_all(dir);
}

// Runs `body` on another thread and gives up after 10 s (a body stuck in a blocking open fails
// the test instead of hanging it; the stuck thread is left detached).
Status WithDeadline(std::function<Status()> body) {
  auto promise = std::make_shared<std::promise<Status>>();
  auto future = promise->get_future();
  std::thread([promise, body = std::move(body)] { promise->set_value(body()); }).detach();
  if (future.wait_for(std::chrono::seconds(10)) != std::future_status::ready) {
    return Status::Internal("did not return within 10 s");
  }
  return future.get();
}

void ReplaceWithFifo(const std::string& path) {
  std::filesystem::remove(path);
  ASSERT_EQ(::mkfifo(path.c_str(), 0644), 0) << path;
}

// A FIFO in place of a manifest or of a data file fails the open or the scan at once with an
// error naming it (it hung every command: the open waited for a writer).
TEST(TableWrite, FifoInPlaceOfManifestOrDataFileIsAnErrorNotAHang) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("lance_nd_write_fifo_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  const std::string path = (dir / "t.lance").string();
  auto fs = io::LocalFileSystem();
  std::vector<array::RecordBatchPtr> rows = {TestBatch(0, 10)};
  LND_ASSERT_OK_AND_ASSIGN(Dataset v1, WriteTable(TableLocation(fs, path), rows));
  WriteOptions append;
  append.mode = WriteMode::kAppend;
  LND_ASSERT_OK_AND_ASSIGN(Dataset v2, WriteTable(TableLocation(fs, path), rows, append));

  // A data file of version 1 replaced: opening works, the scan names the file.
  const std::string data_file = path + "/data/" + v1.fragments()[0].files[0].path;
  ReplaceWithFifo(data_file);
  LND_EXPECT_ERROR(WithDeadline([fs, path] {
                     LND_ASSIGN_OR_RETURN(Dataset ds, Dataset::Open(TableLocation(fs, path)));
                     return ReadTable(ds).status();
                   }),
                   StatusCode::kIOError,
                   "'" + data_file + "' is a FIFO (named pipe), expected a regular file");

  // The latest manifest replaced: the open names it.
  const std::string manifest = v2.manifest_path();
  ReplaceWithFifo(manifest);
  LND_EXPECT_ERROR(
      WithDeadline([fs, path] { return Dataset::Open(TableLocation(fs, path)).status(); }),
      StatusCode::kIOError, "'" + manifest + "' is a FIFO (named pipe), expected a regular file");
  std::filesystem::remove_all(dir);
}

TEST(TableWrite, CreateOnExistingTableIsAlreadyExists) {
  auto fs = io::MakeMemoryFileSystem();
  std::vector<array::RecordBatchPtr> rows = {TestBatch(0, 3)};
  LND_ASSERT_OK(WriteTable(TableLocation(fs, "t"), rows).status());
  LND_EXPECT_ERROR(WriteTable(TableLocation(fs, "t"), rows), StatusCode::kAlreadyExists,
                   "use WriteMode::kAppend");
}

TEST(TableWrite, AppendToMissingTableIsNotFound) {
  auto fs = io::MakeMemoryFileSystem();
  std::vector<array::RecordBatchPtr> rows = {TestBatch(0, 3)};
  WriteOptions append;
  append.mode = WriteMode::kAppend;
  LND_EXPECT_ERROR(WriteTable(TableLocation(fs, "t"), rows, append), StatusCode::kNotFound,
                   "create it with WriteMode::kCreate");
}

TEST(TableWrite, AppendWithOtherTypeIsSchemaMismatch) {
  auto fs = io::MakeMemoryFileSystem();
  std::vector<array::RecordBatchPtr> rows = {TestBatch(0, 3)};
  LND_ASSERT_OK(WriteTable(TableLocation(fs, "t"), rows).status());
  auto schema = std::make_shared<array::Schema>(
      std::vector<array::FieldPtr>{std::make_shared<array::Field>("id", array::Int32(), false),
                                   testing::TestSchema()->field(1)});
  array::PrimitiveBuilder<std::int32_t> ids(array::Int32());
  ids.Append(1);
  LND_ASSERT_OK_AND_ASSIGN(auto id_array, ids.Finish());
  auto s_array = TestBatch(1, 1)->column(1);
  LND_ASSERT_OK_AND_ASSIGN(auto batch, array::RecordBatch::Make(schema, 1, {id_array, s_array}));
  std::vector<array::RecordBatchPtr> bad = {batch};
  WriteOptions append;
  append.mode = WriteMode::kAppend;
  LND_EXPECT_ERROR(WriteTable(TableLocation(fs, "t"), bad, append), StatusCode::kSchemaMismatch,
                   "field 'id' of the appended data has type int32 but the table 't' stores "
                   "it as int64");
  // Nothing was committed.
  LND_ASSERT_OK_AND_ASSIGN(Dataset ds, Dataset::Open(TableLocation(fs, "t")));
  EXPECT_EQ(ds.version(), 1u);
}

// A batch of one fixed_size_list<int32 item, 2> column whose items are declared non-nullable.
array::RecordBatchPtr NonNullItemVectors() {
  auto type = array::FixedSizeList(array::MakeField("item", array::Int32(), false), 2);
  auto schema = std::make_shared<array::Schema>(
      std::vector<array::FieldPtr>{array::MakeField("v", type, true)});
  array::FixedSizeListBuilder b(type);
  auto* items = static_cast<array::PrimitiveBuilder<std::int32_t>*>(b.value_builder());
  for (int row = 0; row < 3; ++row) {
    b.Append();
    items->Append(row);
    items->Append(-row);
  }
  auto v = b.Finish();
  EXPECT_TRUE(v.ok()) << v.status().ToString();
  auto batch = array::RecordBatch::Make(schema, 3, {*v});
  EXPECT_TRUE(batch.ok()) << batch.status().ToString();
  return *batch;
}

// A Lance schema keeps no item nullability for fixed-size lists, so the table says "nullable
// item" after its creation from non-nullable items; appending the same data again must work
// (Lance 12 accepts it too).
TEST(TableWrite, AppendOfNonNullableFixedSizeListItems) {
  auto fs = io::MakeMemoryFileSystem();
  std::vector<array::RecordBatchPtr> rows = {NonNullItemVectors()};
  LND_ASSERT_OK(WriteTable(TableLocation(fs, "t"), rows).status());
  WriteOptions append;
  append.mode = WriteMode::kAppend;
  LND_ASSERT_OK_AND_ASSIGN(Dataset ds, WriteTable(TableLocation(fs, "t"), rows, append));
  EXPECT_EQ(ds.CountRows(), 6u);
}

TEST(TableWrite, AppendWithMissingColumnIsSchemaMismatch) {
  auto fs = io::MakeMemoryFileSystem();
  std::vector<array::RecordBatchPtr> rows = {TestBatch(0, 3)};
  LND_ASSERT_OK(WriteTable(TableLocation(fs, "t"), rows).status());
  auto schema = std::make_shared<array::Schema>(
      std::vector<array::FieldPtr>{testing::TestSchema()->field(0)});
  LND_ASSERT_OK_AND_ASSIGN(auto batch, array::RecordBatch::Make(schema, 3, {rows[0]->column(0)}));
  std::vector<array::RecordBatchPtr> bad = {batch};
  WriteOptions append;
  append.mode = WriteMode::kAppend;
  LND_EXPECT_ERROR(WriteTable(TableLocation(fs, "t"), bad, append), StatusCode::kSchemaMismatch,
                   "has no field 's'");
}

TEST(TableWrite, EmptyCreateHasNoFragments) {
  auto fs = io::MakeMemoryFileSystem();
  std::vector<array::RecordBatchPtr> rows = {TestBatch(0, 0)};
  LND_ASSERT_OK_AND_ASSIGN(Dataset ds, WriteTable(TableLocation(fs, "t"), rows));
  EXPECT_EQ(ds.version(), 1u);
  EXPECT_TRUE(ds.fragments().empty());
  EXPECT_FALSE(ds.manifest().max_fragment_id.has_value());
  EXPECT_EQ(ds.manifest().data_format_version, "2.2");
  EXPECT_EQ(ds.schema()->num_fields(), 2);
}

TEST(TableWrite, FieldsFromSchemaArePreOrder) {
  LND_ASSERT_OK_AND_ASSIGN(auto fields, FieldsFromSchema(*testing::TestSchema()));
  ASSERT_EQ(fields.size(), 5u);
  const char* names[] = {"id", "s", "x", "tags", "item"};
  const std::int32_t parents[] = {-1, -1, 1, 1, 3};
  for (std::size_t i = 0; i < fields.size(); ++i) {
    EXPECT_EQ(fields[i].name, names[i]);
    EXPECT_EQ(fields[i].id, static_cast<std::int32_t>(i));
    EXPECT_EQ(fields[i].parent_id, parents[i]);
  }
  EXPECT_EQ(fields[0].logical_type, "int64");
  EXPECT_FALSE(fields[0].nullable);
  EXPECT_EQ(fields[3].logical_type, "list");
}

TEST(TableWrite, WriteFragmentsRollsFilesByBytes) {
  auto fs = io::MakeMemoryFileSystem();
  LND_ASSERT_OK_AND_ASSIGN(auto fields, FieldsFromSchema(*testing::TestSchema()));
  std::vector<array::RecordBatchPtr> rows = {TestBatch(0, 3), TestBatch(3, 3), TestBatch(6, 3)};
  WriteOptions o;
  o.max_bytes_per_file = 1;  // every batch closes its file
  LND_ASSERT_OK_AND_ASSIGN(auto fragments, WriteFragments(TableLocation(fs, "t"), fields, rows, o));
  ASSERT_EQ(fragments.size(), 3u);
  for (const Fragment& f : fragments) {
    EXPECT_EQ(f.id, 0u);
    EXPECT_EQ(f.physical_rows, 3u);
    LND_ASSERT_OK_AND_ASSIGN(bool exists, fs->Exists("t/data/" + f.files[0].path));
    EXPECT_TRUE(exists);
  }
  // Not committed: no table.
  LND_EXPECT_ERROR(Dataset::Open(TableLocation(fs, "t")).status(), StatusCode::kNotFound,
                   "no Lance table");
}

}  // namespace
}  // namespace lance_nd::table
