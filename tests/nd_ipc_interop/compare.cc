#include "compare.h"

#include <algorithm>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace lance_nd::interop {
namespace {

namespace la = lance_nd::array;

using Entries = std::vector<std::pair<std::string, std::string>>;

Entries Sorted(const la::Metadata& m) {
  Entries e = m.entries();
  std::sort(e.begin(), e.end());
  return e;
}

std::string Text(const Entries& e) {
  std::string out = "{";
  for (const auto& [k, v] : e) {
    if (out.size() > 1) out += ", ";
    out.append(k).append(": ").append(v);
  }
  return out + "}";
}

Status CompareFields(const la::Field& want, const la::Field& got, const std::string& path) {
  const std::string at = path.empty() ? want.name() : path + "." + want.name();
  if (want.name() != got.name()) {
    return Status::InvalidArgument("field " + at + ": wrote name '" + want.name() +
                                   "', read back '" + got.name() + "'");
  }
  if (want.nullable() != got.nullable()) {
    return Status::InvalidArgument("field " + at +
                                   ": wrote nullable=" + std::to_string(want.nullable()) +
                                   ", read back nullable=" + std::to_string(got.nullable()));
  }
  if (Sorted(want.metadata()) != Sorted(got.metadata())) {
    return Status::InvalidArgument("field " + at + ": wrote metadata " +
                                   Text(Sorted(want.metadata())) + ", read back " +
                                   Text(Sorted(got.metadata())));
  }
  const la::DataType& a = *want.type();
  const la::DataType& b = *got.type();
  if (!a.Equals(b, /*check_metadata=*/false)) {
    return Status::InvalidArgument("field " + at + ": wrote type " + a.ToString() + ", read back " +
                                   b.ToString());
  }
  for (std::size_t i = 0; i < a.children().size(); ++i) {
    LND_RETURN_NOT_OK(CompareFields(*a.children()[i], *b.children()[i], at));
  }
  return Status::OK();
}

std::vector<std::string> Names(const nd::NdRecordBatch& b) {
  std::vector<std::string> names;
  names.reserve(static_cast<std::size_t>(b.num_columns()));
  for (int i = 0; i < b.num_columns(); ++i) names.push_back(b.column_name(i));
  std::sort(names.begin(), names.end());
  return names;
}

std::string Join(const std::vector<std::string>& v) {
  std::string out = "[";
  for (const std::string& s : v) out += (out.size() > 1 ? ", " : "") + s;
  return out + "]";
}

Status CompareRow(const nd::NdRecordBatch& want, const nd::NdRecordBatch& got,
                  const std::string& at) {
  if (Names(want) != Names(got)) {
    return Status::InvalidArgument(at + ": variables " + Join(Names(want)) + " expected, " +
                                   Join(Names(got)) + " found");
  }
  for (int i = 0; i < want.num_columns(); ++i) {
    const std::string& name = want.column_name(i);
    const nd::NdArrowArray& a = want.column(i);
    const nd::NdArrowArray* b = got.GetColumn(name);
    const std::string var = std::string(at).append(" variable '").append(name).append("'");
    if (!a.value_type()->Equals(*b->value_type())) {
      return Status::InvalidArgument(var + ": value type " + a.value_type()->ToString() +
                                     " expected, " + b->value_type()->ToString() + " found");
    }
    if (!(a.dimensions() == b->dimensions())) {
      return Status::InvalidArgument(var + ": dimensions " + a.dimensions().ToString() +
                                     " expected, " + b->dimensions().ToString() + " found");
    }
    if (!la::ArrayEquals(*a.values(), *b->values())) {
      return Status::InvalidArgument(var + ": values\n" + la::PrettyPrint(*a.values()) +
                                     "\nexpected, found\n" + la::PrettyPrint(*b->values()));
    }
    if (!a.attributes().Equals(b->attributes())) {
      return Status::InvalidArgument(var + ": attributes " + a.attributes().ToString() +
                                     " expected, " + b->attributes().ToString() + " found");
    }
  }
  if (!want.attributes().Equals(got.attributes())) {
    return Status::InvalidArgument(at + ": global attributes " + want.attributes().ToString() +
                                   " expected, " + got.attributes().ToString() + " found");
  }
  if (!want.Equals(got)) {
    return Status::InvalidArgument(at + ": nd record batches differ:\n" + want.ToString() +
                                   "\nexpected, found\n" + got.ToString());
  }
  return Status::OK();
}

}  // namespace

Status CompareSchemas(const la::Schema& want, const la::Schema& got) {
  if (want.num_fields() != got.num_fields()) {
    return Status::InvalidArgument("wrote " + std::to_string(want.num_fields()) +
                                   " columns, read back " + std::to_string(got.num_fields()) +
                                   ":\n" + want.ToString() + "\nvs\n" + got.ToString());
  }
  for (int i = 0; i < want.num_fields(); ++i) {
    LND_RETURN_NOT_OK(CompareFields(*want.field(i), *got.field(i), ""));
  }
  if (Sorted(want.metadata()) != Sorted(got.metadata())) {
    return Status::InvalidArgument("schema metadata: wrote " + Text(Sorted(want.metadata())) +
                                   ", read back " + Text(Sorted(got.metadata())));
  }
  return Status::OK();
}

Status CompareBatches(const la::RecordBatch& want, const la::RecordBatch& got) {
  if (want.num_rows() != got.num_rows() || want.num_columns() != got.num_columns()) {
    return Status::InvalidArgument("wrote " + std::to_string(want.num_rows()) + " rows x " +
                                   std::to_string(want.num_columns()) + " columns, read back " +
                                   std::to_string(got.num_rows()) + " x " +
                                   std::to_string(got.num_columns()));
  }
  for (int i = 0; i < want.num_columns(); ++i) {
    if (!la::ArrayEquals(*want.column(i), *got.column(i), /*check_metadata=*/false)) {
      return Status::InvalidArgument("column '" + want.schema()->field(i)->name() + "': wrote\n" +
                                     la::PrettyPrint(*want.column(i)) + "\nread back\n" +
                                     la::PrettyPrint(*got.column(i)));
    }
  }
  return Status::OK();
}

Status CompareRows(std::span<const nd::NdRecordBatch> want, std::span<const nd::NdRecordBatch> got,
                   std::string_view what) {
  if (want.size() != got.size()) {
    return Status::InvalidArgument(std::string(what) + ": " + std::to_string(want.size()) +
                                   " rows expected, " + std::to_string(got.size()) + " found");
  }
  for (std::size_t r = 0; r < want.size(); ++r) {
    LND_RETURN_NOT_OK(CompareRow(want[r], got[r], std::string(what) + " row " + std::to_string(r)));
  }
  return Status::OK();
}

}  // namespace lance_nd::interop
