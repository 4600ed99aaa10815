// Conversion between the plain table structs and the generated lance.table protobuf messages.
// Private to the table layer.
#pragma once

#include "lance_nd/core/result.h"
#include "lance_nd/table/manifest.h"
#include "table.pb.h"
#include "transaction.pb.h"

namespace lance_nd::table::internal {

void FieldToProto(const LanceField& field, lance::file::Field* out);
LanceField FieldFromProto(const lance::file::Field& proto);

void FragmentToProto(const Fragment& fragment, lance::table::DataFragment* out);
Result<Fragment> FragmentFromProto(const lance::table::DataFragment& proto);

void ManifestToProto(const Manifest& manifest, lance::table::Manifest* out);
Result<Manifest> ManifestFromProto(const lance::table::Manifest& proto);

Status TransactionToProto(const Transaction& transaction, lance::table::Transaction* out);
Result<Transaction> TransactionFromProto(const lance::table::Transaction& proto);

}  // namespace lance_nd::table::internal
