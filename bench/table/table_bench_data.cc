#include "table_bench_data.h"

#include <cstdio>
#include <optional>
#include <vector>

#include "lance_nd/array/builder.h"
#include "lance_nd/array/ipc.h"

namespace lance_nd::bench {

Result<array::RecordBatchPtr> MakeTableRows(std::int64_t first_id, std::int64_t rows) {
  std::vector<std::optional<std::int64_t>> id;
  std::vector<std::optional<double>> x;
  std::vector<std::optional<float>> y;
  std::vector<std::optional<std::string>> name;
  for (std::int64_t i = 0; i < rows; ++i) {
    const std::int64_t v = first_id + i;
    id.emplace_back(v);
    x.emplace_back(static_cast<double>(v) * 0.25);
    y.emplace_back(static_cast<float>(v % 1000) * 0.5F);
    char buf[32];
    std::snprintf(buf, sizeof buf, "row-%012lld", static_cast<long long>(v));
    name.emplace_back(buf);
  }
  auto schema = array::MakeSchema(
      {array::MakeField("id", array::Int64()), array::MakeField("x", array::Float64()),
       array::MakeField("y", array::Float32()), array::MakeField("name", array::Utf8())});
  return array::RecordBatch::Make(
      schema, rows,
      {array::MakePrimitiveArray<std::int64_t>(array::Int64(), id),
       array::MakePrimitiveArray<double>(array::Float64(), x),
       array::MakePrimitiveArray<float>(array::Float32(), y), array::MakeStringArray(name)});
}

Status WriteIpc(const std::string& path, const array::RecordBatchPtr& batch) {
  const std::vector<array::RecordBatchPtr> batches{batch};
  return array::ipc::WriteIpcFile(path, batch->schema(), batches);
}

Result<array::RecordBatchPtr> ReadIpc(const std::string& path) {
  LND_ASSIGN_OR_RETURN(auto reader, array::ipc::IpcFileReader::OpenFile(path));
  if (reader.num_record_batches() != 1) {
    return Status::InvalidArgument(path + " holds " + std::to_string(reader.num_record_batches()) +
                                   " batches, expected 1 (written by `gen`)");
  }
  return reader.ReadRecordBatch(0);
}

}  // namespace lance_nd::bench
