// Every public lance-nd header in one include, layer by layer from the bottom. A program that uses
// several layers may include this instead of the headers one by one; the umbrella_header test
// checks that it lists every public header.
#pragma once

#include "lance_nd/export.h"
#include "lance_nd/version.h"

#include "lance_nd/core/result.h"
#include "lance_nd/core/status.h"

#include "lance_nd/array/array_data.h"
#include "lance_nd/array/buffer.h"
#include "lance_nd/array/builder.h"
#include "lance_nd/array/c_abi.h"
#include "lance_nd/array/c_data.h"
#include "lance_nd/array/cast.h"
#include "lance_nd/array/field_path.h"
#include "lance_nd/array/ipc.h"
#include "lance_nd/array/type.h"
#include "lance_nd/array/view.h"

#include "lance_nd/nd/attributes.h"
#include "lance_nd/nd/dimensions.h"
#include "lance_nd/nd/encoded_schema.h"
#include "lance_nd/nd/errors.h"
#include "lance_nd/nd/format.h"
#include "lance_nd/nd/nd_array.h"
#include "lance_nd/nd/record_batch.h"
#include "lance_nd/nd/row_encoding.h"
#include "lance_nd/nd/schema_merge.h"

#include "lance_nd/io/file.h"
#include "lance_nd/io/file_system.h"

#include "lance_nd/file/lance_schema.h"
#include "lance_nd/file/reader.h"
#include "lance_nd/file/version.h"
#include "lance_nd/file/writer.h"
#include "lance_nd/file/writer_options.h"

#include "lance_nd/table/column_rewrite.h"
#include "lance_nd/table/commit.h"
#include "lance_nd/table/dataset.h"
#include "lance_nd/table/deletion.h"
#include "lance_nd/table/evolution.h"
#include "lance_nd/table/location.h"
#include "lance_nd/table/maintenance.h"
#include "lance_nd/table/manifest.h"
#include "lance_nd/table/rewrite.h"
#include "lance_nd/table/scan.h"
#include "lance_nd/table/table_writer.h"
#include "lance_nd/table/tags.h"
#include "lance_nd/table/version_info.h"
#include "lance_nd/table/versions.h"
#include "lance_nd/table/write.h"

#include "lance_nd/query/expr.h"
#include "lance_nd/query/filter.h"

#include "lance_nd/api/chunking.h"
#include "lance_nd/api/json_lines.h"
#include "lance_nd/api/nd_writer.h"
#include "lance_nd/api/options.h"
#include "lance_nd/api/region.h"
#include "lance_nd/api/scanner.h"
#include "lance_nd/api/staged.h"
#include "lance_nd/api/table.h"
#include "lance_nd/api/verify.h"
