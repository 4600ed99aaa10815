// The two descriptions of an open file: the structured layout the table layer uses (computed
// once at Open) and the full description with page layouts as text (for inspect).
#pragma once

#include "lance_nd/file/reader.h"
#include "lance_nd/file/reader_state.h"

namespace lance_nd::file::internal {

FileLayout MakeLayout(const ReaderState& state);
FileDescription DescribeFile(const ReaderState& state);

}  // namespace lance_nd::file::internal
