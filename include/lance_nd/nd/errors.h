// The nd error kinds of nd-arrow-array, mapped onto lance_nd::Status codes.
//
// Each helper keeps the reference display text as a message prefix, so a message reads the same
// as the Rust crate's ("invalid dimensions: ..."), and sets the typed kind (Status::kind(), an
// ErrorKind) that callers branch on. The codes:
//   InvalidDimensions, ShapeMismatch, InvalidAttribute, InvalidArgument -> kInvalidArgument
//   SchemaMismatch                                                     -> kSchemaMismatch
//   InvalidEncoding (stored data breaks the nd encoding)               -> kCorrupt
//   NotSupported                                                       -> kNotImplemented
#pragma once

#include <string_view>

#include "lance_nd/core/status.h"
#include "lance_nd/export.h"

namespace lance_nd::nd {

inline constexpr std::string_view kInvalidDimensionsPrefix = "invalid dimensions: ";
inline constexpr std::string_view kShapeMismatchPrefix = "shape mismatch: ";
inline constexpr std::string_view kInvalidAttributePrefix = "invalid attribute: ";
inline constexpr std::string_view kInvalidEncodingPrefix = "invalid nd encoding: ";
inline constexpr std::string_view kSchemaMismatchPrefix = "schema mismatch: ";
inline constexpr std::string_view kInvalidArgumentPrefix = "invalid argument: ";
inline constexpr std::string_view kNotSupportedPrefix = "not supported: ";

/// \brief An empty or duplicate dimension name, or a size that cannot be stored.
LANCE_ND_EXPORT Status InvalidDimensions(std::string_view detail);
/// \brief A values length that differs from the product of the sizes, or no broadcast.
LANCE_ND_EXPORT Status ShapeMismatch(std::string_view detail);
/// \brief An attribute that is not one non-null value.
LANCE_ND_EXPORT Status InvalidAttribute(std::string_view detail);
/// \brief Stored data that breaks the nd encoding (kCorrupt).
LANCE_ND_EXPORT Status InvalidEncoding(std::string_view detail);
/// \brief Types or schemas that do not match (kSchemaMismatch).
LANCE_ND_EXPORT Status SchemaMismatch(std::string_view detail);
LANCE_ND_EXPORT Status InvalidArgument(std::string_view detail);
LANCE_ND_EXPORT Status NotSupported(std::string_view detail);

}  // namespace lance_nd::nd
