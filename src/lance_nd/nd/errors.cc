#include "lance_nd/nd/errors.h"

#include <string>

namespace lance_nd::nd {
namespace {

std::string Join(std::string_view prefix, std::string_view detail) {
  std::string out;
  out.reserve(prefix.size() + detail.size());
  out.append(prefix).append(detail);
  return out;
}

}  // namespace

Status InvalidDimensions(std::string_view detail) {
  return Status::InvalidArgument(Join(kInvalidDimensionsPrefix, detail))
      .WithKind(ErrorKind::kInvalidDimensions);
}
Status ShapeMismatch(std::string_view detail) {
  return Status::InvalidArgument(Join(kShapeMismatchPrefix, detail))
      .WithKind(ErrorKind::kShapeMismatch);
}
Status InvalidAttribute(std::string_view detail) {
  return Status::InvalidArgument(Join(kInvalidAttributePrefix, detail))
      .WithKind(ErrorKind::kInvalidAttribute);
}
Status InvalidEncoding(std::string_view detail) {
  return Status::Corrupt(Join(kInvalidEncodingPrefix, detail))
      .WithKind(ErrorKind::kInvalidEncoding);
}
Status SchemaMismatch(std::string_view detail) {
  return Status::SchemaMismatch(Join(kSchemaMismatchPrefix, detail))
      .WithKind(ErrorKind::kSchemaMismatch);
}
Status InvalidArgument(std::string_view detail) {
  return Status::InvalidArgument(Join(kInvalidArgumentPrefix, detail));
}
Status NotSupported(std::string_view detail) {
  return Status::NotImplemented(Join(kNotSupportedPrefix, detail))
      .WithKind(ErrorKind::kNotSupported);
}

}  // namespace lance_nd::nd
