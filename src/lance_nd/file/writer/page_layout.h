// Small helpers the page encoders share to fill a lance.encodings21.PageLayout.
#pragma once

#include <string>

#include "encodings_v2_1.pb.h"
#include "lance_nd/file/writer/shred.h"

namespace lance_nd::file::internal::writer {

namespace pb21 = ::lance::encodings21;

inline void AddLayers(const ShreddedPage& page, google::protobuf::RepeatedField<int>* out) {
  for (Layer l : page.layers) out->Add(static_cast<pb21::RepDefLayer>(l));
}

inline std::string SerializeLayout(const pb21::PageLayout& layout) {
  std::string out;
  layout.SerializeToString(&out);
  return out;
}

}  // namespace lance_nd::file::internal::writer
