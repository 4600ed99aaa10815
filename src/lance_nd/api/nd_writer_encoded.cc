// NdWriter::WriteEncoded: rows given in the nd encoding. A batch whose columns are the table's
// is checked column by column and written as given (stats computed from its value lists); any
// other batch is decoded into rows for the row path, which casts and evolves the schema.
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "lance_nd/api/stats.h"
#include "lance_nd/array/view.h"
#include "lance_nd/nd/encoded_schema.h"
#include "lance_nd/nd/format.h"
#include "lance_nd/nd/row_encoding.h"
#include "nd_writer_impl.h"

namespace lance_nd {

namespace {

// Encoded rows the caller gave are input, not stored data: their encoding errors are
// InvalidArgument (the decoder reports them as Corrupt).
Status AsInputError(const Status& st) {
  if (st.ok() || st.code() != StatusCode::kCorrupt) return st;
  return Status::InvalidArgument("encoded rows: ", st.message());
}

// `batch` without its `__stats__*` columns (the writer computes its own).
Result<array::RecordBatchPtr> WithoutStats(const array::RecordBatchPtr& batch) {
  std::vector<array::FieldPtr> fields;
  std::vector<array::ArrayPtr> columns;
  for (int i = 0; i < batch->num_columns(); ++i) {
    if (batch->schema()->field(i)->name().starts_with(nd::kStatsPrefix)) continue;
    fields.push_back(batch->schema()->field(i));
    columns.push_back(batch->column(i));
  }
  if (static_cast<int>(fields.size()) == batch->num_columns()) return batch;
  return array::RecordBatch::Make(array::MakeSchema(std::move(fields), batch->schema()->metadata()),
                                  batch->num_rows(), std::move(columns));
}

// True when `batch`'s columns are exactly the table's non-stats columns, in order, with equal
// types (field metadata aside): the batch can be stored as given.
bool HasTableColumns(const array::Schema& batch, const array::Schema& table) {
  int b = 0;
  for (const array::FieldPtr& field : table.fields()) {
    if (field->name().starts_with(nd::kStatsPrefix)) continue;
    if (b >= batch.num_fields()) return false;
    const array::Field& given = *batch.field(b++);
    if (given.name() != field->name() ||
        !given.type()->Equals(*field->type(), /*check_metadata=*/false)) {
      return false;
    }
  }
  return b == batch.num_fields();
}

// Values of row `row` summed over the batch's nd columns (list lengths of `values`).
std::uint64_t RowValues(const array::RecordBatch& batch, const std::vector<int>& nd_columns,
                        int64_t row) {
  std::uint64_t n = 0;
  for (int c : nd_columns) {
    const array::ArrayData& column = *batch.column(c);
    if (column.IsNull(row)) continue;
    const array::ListView values(*column.children[0]);
    n += static_cast<std::uint64_t>(values.ValueLength(column.offset + row));
  }
  return n;
}

}  // namespace

Status NdWriter::Impl::WriteEncoded(const array::RecordBatchPtr& batch) {
  if (batch == nullptr) return Status::InvalidArgument("WriteEncoded was given no batch");
  auto made = nd::RowDecoder::Make(batch->schema());
  if (!made.ok()) return AsInputError(made.status());
  const nd::RowDecoder& decoder = *made;
  LND_RETURN_NOT_OK(AsInputError(decoder.ValidateRows(*batch)));
  LND_ASSIGN_OR_RETURN(array::RecordBatchPtr rows_only, WithoutStats(batch));
  if (!HasTableColumns(*rows_only->schema(), *schema.schema())) {
    // New names extend the schema first (as in AddRow); a type the table holds otherwise is
    // left to the row path, which casts or reports it.
    LND_RETURN_NOT_OK(CloseGroup());
    const Status extended = schema.ExtendEncoded(*rows_only->schema());
    if (!extended.ok() && extended.code() != StatusCode::kSchemaMismatch) return extended;
  }
  if (HasTableColumns(*rows_only->schema(), *schema.schema())) {
    return WriteEncodedAsGiven(rows_only);
  }
  LND_ASSIGN_OR_RETURN(std::vector<nd::NdRecordBatch> decoded, decoder.DecodeAll(*batch));
  for (const nd::NdRecordBatch& row : decoded) LND_RETURN_NOT_OK(WriteRow(row));
  return Status::OK();
}

// Groups of at most max_rows_per_group rows, closed at max_values_per_group values as the row
// path closes them, buffered in order. The stats columns are computed for the whole batch at
// once and sliced with the groups: per group, a pool task cost more than its stats.
Status NdWriter::Impl::WriteEncodedAsGiven(const array::RecordBatchPtr& batch) {
  LND_RETURN_NOT_OK(CloseGroup());  // rows written before come first
  LND_RETURN_NOT_OK(DrainEncoded());
  LND_ASSIGN_OR_RETURN(array::RecordBatchPtr complete,
                       internal::WithStatsColumnsOfEncoded(*batch, schema.schema()));
  std::vector<int> nd_columns;
  for (int i = 0; i < batch->num_columns(); ++i) {
    if (!nd::IsGlobalAttributesField(*batch->schema()->field(i))) nd_columns.push_back(i);
  }
  // Each group is a slice holding the batch's buffers whole: it counts its share of them.
  const double bytes_per_row = static_cast<double>(internal::BatchBytes(*complete)) /
                               static_cast<double>(std::max<int64_t>(batch->num_rows(), 1));
  int64_t start = 0;
  while (start < batch->num_rows()) {
    int64_t end = start;
    std::uint64_t values = 0;
    while (end < batch->num_rows() &&
           static_cast<std::uint64_t>(end - start) < options.max_rows_per_group &&
           values < options.max_values_per_group) {
      values += RowValues(*batch, nd_columns, end++);
    }
    internal::WriterGroup group;
    LND_ASSIGN_OR_RETURN(group.batch, complete->Slice(start, end - start));
    LND_ASSIGN_OR_RETURN(group.source, batch->Slice(start, end - start));
    group.bytes = static_cast<std::uint64_t>(bytes_per_row * static_cast<double>(end - start));
    group.generation = schema.generation();
    LND_RETURN_NOT_OK(BufferGroup(std::move(group)));
    rows += static_cast<std::uint64_t>(end - start);
    start = end;
  }
  return Status::OK();
}

Result<array::RecordBatchPtr> NdWriter::Impl::EncodeAgain(internal::WriterGroup& group) const {
  LND_ASSIGN_OR_RETURN(nd::RowDecoder decoder, nd::RowDecoder::Make(group.source->schema()));
  LND_ASSIGN_OR_RETURN(std::vector<nd::NdRecordBatch> decoded, decoder.DecodeAll(*group.source));
  LND_ASSIGN_OR_RETURN(array::RecordBatchPtr encoded, nd::EncodeRowsAs(decoded, *schema.schema()));
  return internal::WithStatsColumns(*encoded, decoded, schema.schema());
}

}  // namespace lance_nd
