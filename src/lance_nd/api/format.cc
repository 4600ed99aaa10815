// The lance-nd format marker and the stats marker of a table schema.
#include <string>
#include <string_view>

#include "lance_nd/api/table.h"
#include "lance_nd/nd/format.h"

namespace lance_nd {

Status CheckFormat(const array::Schema& schema) {
  const auto found = schema.metadata().Get(nd::kFormatMetadataKey);
  if (!found) {
    return Status::InvalidTable(
        "the table's schema metadata has no '", nd::kFormatMetadataKey, "' key; expected '",
        nd::kFormatMetadataKey, "' = \"", nd::kFormatVersion,
        "'. It is a Lance table that lance-nd did not write; read it with Lance, or write a "
        "new lance-nd table");
  }
  if (*found != nd::kFormatVersion) {
    return Status::InvalidTable("the table has '", nd::kFormatMetadataKey, "' = \"", *found,
                                "\"; this lance-nd reads and writes format \"", nd::kFormatVersion,
                                "\" only (use a lance-nd release for that format)");
  }
  return Status::OK();
}

bool HasStats(const array::Schema& schema) {
  const auto marker = schema.metadata().Get(nd::kStatsMetadataKey);
  return marker && *marker == nd::kStatsMetadataValue;
}

}  // namespace lance_nd
