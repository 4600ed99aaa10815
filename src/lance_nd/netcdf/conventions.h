// The netCDF import conventions (docs/FORMAT.md §3.9) shared by import and export.
#pragma once

#include <string>
#include <string_view>

#include "lance_nd/nd/attributes.h"

namespace lance_nd::netcdf::internal {

/// Array attribute of a variable that was NC_CHAR in the source: the name of its trailing
/// character dimension ("" for a char scalar). The array holds one utf8 string per position of
/// the other dimensions.
inline constexpr std::string_view kCharDimKey = "netcdf:char_dim";
/// Prefix of a source global attribute stored under another name (FORMAT.md §3.6).
inline constexpr std::string_view kSourcePrefix = "source:";

/// \brief A source global attribute's key in the table.
std::string StoredGlobalKey(std::string_view source_key);
/// \brief The reverse: the source key of a stored key, or "" for the chunk keys (not exported).
std::string SourceGlobalKey(std::string_view stored_key);

/// \brief The group attributes of a source, renamed for the table.
nd::Attributes RenameGlobals(const nd::Attributes& source);
/// \brief A row's global attributes with the chunk keys dropped and renamed keys restored.
nd::Attributes RestoreGlobals(const nd::Attributes& stored);

}  // namespace lance_nd::netcdf::internal
