// RecordBatch.
#include <string>

#include "lance_nd/array/array_data.h"

namespace lance_nd::array {

RecordBatch::RecordBatch(SchemaPtr schema, int64_t num_rows, std::vector<ArrayPtr> columns)
    : schema_(std::move(schema)), num_rows_(num_rows), columns_(std::move(columns)) {}

namespace {

Status CheckColumns(const Schema& schema, int64_t num_rows, const std::vector<ArrayPtr>& columns) {
  if (num_rows < 0) {
    return Status::InvalidArgument("record batch has negative row count " +
                                   std::to_string(num_rows));
  }
  if (static_cast<int>(columns.size()) != schema.num_fields()) {
    return Status::InvalidArgument("record batch has " + std::to_string(columns.size()) +
                                   " columns but its schema has " +
                                   std::to_string(schema.num_fields()) + " fields");
  }
  for (std::size_t i = 0; i < columns.size(); ++i) {
    const Field& f = *schema.fields()[i];
    const std::string where = "column " + std::to_string(i) + " '" + f.name() + "'";
    if (!columns[i]) return Status::InvalidArgument(where + " is missing (null array)");
    if (!columns[i]->type || !columns[i]->type->Equals(*f.type(), /*check_metadata=*/false)) {
      return Status::InvalidArgument(where + " has type " +
                                     (columns[i]->type ? columns[i]->type->ToString() : "<none>") +
                                     " but the schema says " + f.type()->ToString());
    }
    if (columns[i]->length != num_rows) {
      return Status::InvalidArgument(where + " has " + std::to_string(columns[i]->length) +
                                     " rows, expected " + std::to_string(num_rows));
    }
  }
  return Status::OK();
}

}  // namespace

Result<std::shared_ptr<const RecordBatch>> RecordBatch::Make(SchemaPtr schema, int64_t num_rows,
                                                             std::vector<ArrayPtr> columns) {
  if (!schema) return Status::InvalidArgument("record batch needs a schema");
  LND_RETURN_NOT_OK(CheckColumns(*schema, num_rows, columns));
  return std::make_shared<const RecordBatch>(std::move(schema), num_rows, std::move(columns));
}

ArrayPtr RecordBatch::GetColumnByName(std::string_view name) const {
  const int i = schema_->FieldIndex(name);
  return i < 0 ? nullptr : columns_.at(static_cast<std::size_t>(i));
}

ArrayPtr RecordBatch::ToStructArray() const {
  return MakeArrayData(Struct(schema_->fields()), num_rows_, {nullptr}, columns_, 0);
}

Result<std::shared_ptr<const RecordBatch>> RecordBatch::Slice(int64_t offset,
                                                              int64_t length) const {
  if (offset < 0 || length < 0 || offset > num_rows_ || length > num_rows_ - offset) {
    return Status::InvalidArgument("record batch slice [" + std::to_string(offset) + ", +" +
                                   std::to_string(length) + ") is outside the batch of " +
                                   std::to_string(num_rows_) + " rows");
  }
  std::vector<ArrayPtr> cols;
  cols.reserve(columns_.size());
  for (const auto& c : columns_) {
    LND_ASSIGN_OR_RETURN(ArrayPtr s, array::Slice(c, offset, length));
    cols.push_back(std::move(s));
  }
  return std::make_shared<const RecordBatch>(schema_, length, std::move(cols));
}

Status RecordBatch::Validate() const {
  if (!schema_) return Status::InvalidArgument("record batch has no schema");
  LND_RETURN_NOT_OK(CheckColumns(*schema_, num_rows_, columns_));
  for (std::size_t i = 0; i < columns_.size(); ++i) {
    LND_RETURN_NOT_OK_CTX(array::Validate(*columns_[i]), "column " + std::to_string(i) + " '" +
                                                             schema_->fields()[i]->name() + "'");
  }
  return Status::OK();
}

bool RecordBatch::Equals(const RecordBatch& other, bool check_metadata) const {
  if (num_rows_ != other.num_rows_ || columns_.size() != other.columns_.size()) return false;
  if (!schema_->Equals(*other.schema_, check_metadata)) return false;
  for (std::size_t i = 0; i < columns_.size(); ++i) {
    if (!ArrayEquals(*columns_[i], *other.columns_[i], check_metadata)) return false;
  }
  return true;
}

std::string RecordBatch::ToString() const {
  std::string out =
      "record batch: " + std::to_string(num_rows_) + " rows\n" + schema_->ToString() + "\n----";
  for (std::size_t i = 0; i < columns_.size(); ++i) {
    out += "\n" + schema_->fields()[i]->name() + ":\n" + PrettyPrint(*columns_[i], 2);
  }
  return out;
}

}  // namespace lance_nd::array
