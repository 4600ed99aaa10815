// Helpers shared by the encoder sources.
#pragma once

#include <memory>

#include "encodings_v2_1.pb.h"
#include "lance_nd/file/encoding/compressive.h"

namespace lance_nd::file::internal::encoding::detail {

/// \brief An empty result whose encoding message is allocated (unset oneof).
inline MiniBlockEncoded NewEncoded() {
  MiniBlockEncoded out;
  out.encoding = std::make_shared<pb::CompressiveEncoding>();
  return out;
}

inline std::shared_ptr<pb::CompressiveEncoding> Share(pb::CompressiveEncoding ce) {
  return std::make_shared<pb::CompressiveEncoding>(std::move(ce));
}

}  // namespace lance_nd::file::internal::encoding::detail
