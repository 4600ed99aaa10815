// Table schema <-> Arrow schema, through the file layer's Lance schema conversion (the table
// manifest stores the same lance.file.Field list a data file does).
#include "file.pb.h"
#include "lance_nd/file/lance_schema.h"
#include "lance_nd/table/manifest.h"
#include "lance_nd/table/proto_convert.h"

namespace lance_nd::table {

Result<array::SchemaPtr> SchemaFromFields(const std::vector<LanceField>& fields,
                                          const array::Metadata& schema_metadata) {
  lance::file::Schema proto;
  for (const LanceField& f : fields) internal::FieldToProto(f, proto.add_fields());
  for (const auto& [k, v] : schema_metadata.entries()) (*proto.mutable_metadata())[k] = v;
  LND_ASSIGN_OR_RETURN(file::internal::SchemaTree tree,
                       file::internal::SchemaFromProto(proto).WithContext("table schema"));
  return tree.schema;
}

}  // namespace lance_nd::table
