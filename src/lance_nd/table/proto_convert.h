// Conversion between the plain table structs and the generated lance.table protobuf messages.
// Private to the table layer.
#pragma once

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "lance_nd/core/result.h"
#include "lance_nd/table/manifest.h"
#include "table.pb.h"
#include "transaction.pb.h"

namespace lance_nd::table::internal {

/// \brief Drop libprotobuf's own log lines (for example "String field ... contains invalid
/// UTF-8 data" on a corrupt manifest) for the whole process: a failed parse is reported by
/// our Status alone, and library users do not get stray lines on stderr. Idempotent and
/// thread-safe; called before every manifest parse (and when the library is loaded).
void QuietProtobufLogs();

void FieldToProto(const LanceField& field, lance::file::Field* out);
LanceField FieldFromProto(const lance::file::Field& proto);
void FieldsToProto(const std::vector<LanceField>& fields,
                   google::protobuf::RepeatedPtrField<lance::file::Field>* out);
std::vector<LanceField> FieldsFromProto(
    const google::protobuf::RepeatedPtrField<lance::file::Field>& fields);

void FragmentToProto(const Fragment& fragment, lance::table::DataFragment* out);
Result<Fragment> FragmentFromProto(const lance::table::DataFragment& proto);
void FragmentsToProto(const std::vector<Fragment>& fragments,
                      google::protobuf::RepeatedPtrField<lance::table::DataFragment>* out);
/// \brief Appends to `out`.
Status FragmentsFromProto(const google::protobuf::RepeatedPtrField<lance::table::DataFragment>& in,
                          std::vector<Fragment>* out);

void DataFileToProto(const DataFile& file, lance::table::DataFile* out);
DataFile DataFileFromProto(const lance::table::DataFile& proto);

void ManifestToProto(const Manifest& manifest, lance::table::Manifest* out);
Result<Manifest> ManifestFromProto(const lance::table::Manifest& proto);

Status TransactionToProto(const Transaction& transaction, lance::table::Transaction* out);
Result<Transaction> TransactionFromProto(const lance::table::Transaction& proto);

/// \brief The entries of a protobuf map, sorted by key (protobuf maps are unordered).
template <typename Map>
std::vector<std::pair<std::string, std::string>> PairsFromMap(const Map& map) {
  std::vector<std::pair<std::string, std::string>> entries(map.begin(), map.end());
  std::sort(entries.begin(), entries.end());
  return entries;
}

template <typename Map>
array::Metadata MetadataFromMap(const Map& map) {
  return array::Metadata(PairsFromMap(map));
}

/// \brief Key/value pairs (a vector of pairs or Metadata::entries()) into a protobuf map.
template <typename Pairs, typename Map>
void PairsToMap(const Pairs& pairs, Map* out) {
  for (const auto& [k, v] : pairs) (*out)[k] = v;
}

}  // namespace lance_nd::table::internal
