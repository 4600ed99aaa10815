// nd JSON (interop/README.md): the rows an oracle-side script wrote, as nd record batches.
#pragma once

#include <string>
#include <vector>

#include "lance_nd/array/type.h"
#include "lance_nd/core/result.h"
#include "lance_nd/nd/record_batch.h"

namespace lance_nd::interop {

/// \brief "float32", "timestamp[ns, tz=UTC]", "list<int32>", ... as an Arrow type.
Result<array::DataTypePtr> TypeFromName(const std::string& name);

/// \brief Parse nd JSON text: {"rows": [{"variables": {...}, "global_attrs": {...} | null}]}.
/// Each row becomes an nd record batch of nullable fields without metadata, its target
/// inferred. Errors are InvalidArgument naming the row, variable and what was wrong.
Result<std::vector<nd::NdRecordBatch>> ParseNdJson(const std::string& text);

}  // namespace lance_nd::interop
