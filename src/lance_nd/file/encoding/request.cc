// EncodingRequest from a field's lance-encoding:* metadata.
#include <charconv>
#include <string>
#include <string_view>

#include "lance_nd/array/type.h"
#include "lance_nd/file/encoding/compressive.h"

namespace lance_nd::file::internal::encoding {

Result<EncodingRequest> EncodingRequest::FromFieldMetadata(const array::Metadata& metadata,
                                                           FileVersion version) {
  EncodingRequest r;
  r.version = version;
  auto bad = [](std::string_view key, std::string_view value, std::string_view expected) {
    return Status::InvalidArgument("field metadata ", key, " = '", value, "' is invalid; expected ",
                                   expected);
  };
  if (auto v = metadata.Get("lance-encoding:compression")) {
    if (*v == "none") {
      r.compression = Compression::kNone;
    } else if (*v == "lz4") {
      r.compression = Compression::kLz4;
    } else if (*v == "zstd") {
      r.compression = Compression::kZstd;
    } else if (*v == "fsst") {
      r.compression = Compression::kFsst;
    } else {
      return bad("lance-encoding:compression", *v, "none, lz4, zstd or fsst");
    }
  }
  if (auto v = metadata.Get("lance-encoding:compression-level")) {
    std::int32_t level = 0;
    const auto res = std::from_chars(v->data(), v->data() + v->size(), level);
    if (res.ec != std::errc() || res.ptr != v->data() + v->size()) {
      return bad("lance-encoding:compression-level", *v, "an integer");
    }
    r.compression_level = level;
  }
  if (auto v = metadata.Get("lance-encoding:bss")) {
    if (*v == "auto") {
      r.bss = Bss::kAuto;
    } else if (*v == "on" || *v == "true") {
      r.bss = Bss::kOn;
    } else if (*v == "off" || *v == "false") {
      r.bss = Bss::kOff;
    } else {
      return bad("lance-encoding:bss", *v, "auto, on or off");
    }
  }
  // A ratio in [0, 1].
  auto parse_ratio = [&](std::string_view key) -> Result<std::optional<double>> {
    auto v = metadata.Get(key);
    if (!v) return std::optional<double>();
    try {
      std::size_t used = 0;
      const double d = std::stod(std::string(*v), &used);
      if (used != v->size() || !(d >= 0.0 && d <= 1.0)) {
        return bad(key, *v, "a number in [0, 1]");
      }
      return std::optional<double>(d);
    } catch (...) {
      return bad(key, *v, "a number");
    }
  };
  LND_ASSIGN_OR_RETURN(auto rle, parse_ratio("lance-encoding:rle-threshold"));
  if (rle) r.rle_threshold = *rle;
  LND_ASSIGN_OR_RETURN(auto ratio, parse_ratio("lance-encoding:dict-size-ratio"));
  if (ratio) r.dict_size_ratio = *ratio;
  if (auto v = metadata.Get("lance-encoding:dict-divisor")) {
    std::uint64_t d = 0;
    const auto res = std::from_chars(v->data(), v->data() + v->size(), d);
    if (res.ec != std::errc() || res.ptr != v->data() + v->size() || d == 0) {
      return bad("lance-encoding:dict-divisor", *v, "a positive integer");
    }
    r.dict_divisor = d;
  }
  return r;
}

}  // namespace lance_nd::file::internal::encoding
