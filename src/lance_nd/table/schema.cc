// Table schema -> Arrow schema, through the file layer's public Lance-schema conversion (the
// table manifest stores the same lance.file.Field list a data file does).
#include <vector>

#include "lance_nd/file/lance_schema.h"
#include "lance_nd/table/manifest.h"

namespace lance_nd::table {

Result<array::SchemaPtr> SchemaFromFields(const std::vector<LanceField>& fields,
                                          const array::Metadata& schema_metadata) {
  std::vector<file::LanceSchemaField> converted;
  converted.reserve(fields.size());
  for (const LanceField& f : fields) {
    converted.push_back({f.name, f.id, f.parent_id, f.logical_type, f.nullable, f.metadata});
  }
  return file::SchemaFromLanceFields(converted, schema_metadata).WithContext("table schema");
}

}  // namespace lance_nd::table
