// ColumnOptions <-> `lance-encoding:*` field metadata and `lance_nd.column_defaults.*` keys.
// The values are the strings Lance 12 parses (lance-encoding's constants and parsers).
#include "lance_nd/api/column_options.h"

#include <charconv>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lance_nd/nd/format.h"

namespace lance_nd::internal {
namespace {

constexpr std::string_view kCompressionKey = "lance-encoding:compression";
constexpr std::string_view kCompressionLevelKey = "lance-encoding:compression-level";
constexpr std::string_view kBssKey = "lance-encoding:bss";
constexpr std::string_view kRleThresholdKey = "lance-encoding:rle-threshold";
constexpr std::string_view kStructuralKey = "lance-encoding:structural-encoding";

std::string_view CompressionValue(Compression c) {
  switch (c) {
    case Compression::kNone:
      return "none";
    case Compression::kLz4:
      return "lz4";
    case Compression::kZstd:
      return "zstd";
    case Compression::kFsst:
      return "fsst";
  }
  return "none";
}

std::string_view BssValue(ByteStreamSplit b) {
  switch (b) {
    case ByteStreamSplit::kOn:
      return "on";
    case ByteStreamSplit::kOff:
      return "off";
    case ByteStreamSplit::kAuto:
      return "auto";
  }
  return "auto";
}

std::string_view StructuralValue(StructuralEncoding s) {
  return s == StructuralEncoding::kFullZip ? "fullzip" : "miniblock";
}

std::string DoubleValue(double d) {
  char buf[32];
  const auto res = std::to_chars(buf, buf + sizeof(buf), d);
  return {buf, res.ptr};
}

// The leaf-level entries (everything but the structural encoding).
std::vector<std::pair<std::string, std::string>> LeafEntries(const ColumnOptions& o) {
  std::vector<std::pair<std::string, std::string>> out;
  if (o.compression) out.emplace_back(kCompressionKey, CompressionValue(*o.compression));
  if (o.compression_level) {
    out.emplace_back(kCompressionLevelKey, std::to_string(*o.compression_level));
  }
  if (o.byte_stream_split) out.emplace_back(kBssKey, BssValue(*o.byte_stream_split));
  if (o.rle_threshold) out.emplace_back(kRleThresholdKey, DoubleValue(*o.rle_threshold));
  return out;
}

template <typename E>
Result<E> ParseChoice(std::string_view key, std::string_view value,
                      std::initializer_list<E> choices, std::string_view (*name)(E)) {
  for (E e : choices) {
    if (name(e) == value) return e;
  }
  return Status::InvalidArgument("the table's schema metadata '", key, "' is '", value,
                                 "', which lance-nd does not know");
}

array::DataTypePtr WithLeafOptions(const array::DataTypePtr& type,
                                   const std::vector<std::pair<std::string, std::string>>& leaf);

array::FieldPtr LeafField(const array::FieldPtr& field,
                          const std::vector<std::pair<std::string, std::string>>& leaf) {
  if (!field->type()->children().empty()) {
    return field->WithType(WithLeafOptions(field->type(), leaf));
  }
  array::Metadata md = field->metadata();
  for (const auto& [k, v] : leaf) md.Set(k, v);
  return field->WithMetadata(std::move(md));
}

array::DataTypePtr WithLeafOptions(const array::DataTypePtr& type,
                                   const std::vector<std::pair<std::string, std::string>>& leaf) {
  std::vector<array::FieldPtr> children;
  for (const auto& c : type->children()) children.push_back(LeafField(c, leaf));
  switch (type->id()) {
    case array::TypeId::kStruct:
      return array::Struct(std::move(children));
    case array::TypeId::kList:
      return array::List(children.at(0));
    case array::TypeId::kLargeList:
      return array::LargeList(children.at(0));
    case array::TypeId::kFixedSizeList:
      return array::FixedSizeList(children.at(0), type->fixed_size());
    default:
      return type;
  }
}

}  // namespace

bool IsEmpty(const ColumnOptions& o) { return o == ColumnOptions{}; }

array::Metadata ColumnDefaultsMetadata(const ColumnOptions& defaults) {
  array::Metadata md;
  const std::string prefix(nd::kColumnDefaultsPrefix);
  for (auto& [k, v] : LeafEntries(defaults)) md.Set(prefix + k, std::move(v));
  if (defaults.structural_encoding) {
    md.Set(prefix + std::string(kStructuralKey),
           std::string(StructuralValue(*defaults.structural_encoding)));
  }
  return md;
}

Result<std::optional<ColumnOptions>> StoredColumnDefaults(const array::Metadata& metadata) {
  ColumnOptions o;
  bool any = false;
  for (const auto& [full_key, value] : metadata.entries()) {
    if (!full_key.starts_with(nd::kColumnDefaultsPrefix)) continue;
    any = true;
    const std::string_view key =
        std::string_view(full_key).substr(nd::kColumnDefaultsPrefix.size());
    if (key == kCompressionKey) {
      LND_ASSIGN_OR_RETURN(o.compression, ParseChoice(full_key, value,
                                                      {Compression::kNone, Compression::kLz4,
                                                       Compression::kZstd, Compression::kFsst},
                                                      &CompressionValue));
    } else if (key == kCompressionLevelKey) {
      int level = 0;
      const auto res = std::from_chars(value.data(), value.data() + value.size(), level);
      if (res.ec != std::errc() || res.ptr != value.data() + value.size()) {
        return Status::InvalidArgument("the table's schema metadata '", full_key, "' is '", value,
                                       "'; expected an integer");
      }
      o.compression_level = level;
    } else if (key == kBssKey) {
      LND_ASSIGN_OR_RETURN(
          o.byte_stream_split,
          ParseChoice(full_key, value,
                      {ByteStreamSplit::kOn, ByteStreamSplit::kOff, ByteStreamSplit::kAuto},
                      &BssValue));
    } else if (key == kRleThresholdKey) {
      double d = 0;
      const auto res = std::from_chars(value.data(), value.data() + value.size(), d);
      if (res.ec != std::errc() || res.ptr != value.data() + value.size()) {
        return Status::InvalidArgument("the table's schema metadata '", full_key, "' is '", value,
                                       "'; expected a number");
      }
      o.rle_threshold = d;
    } else if (key == kStructuralKey) {
      LND_ASSIGN_OR_RETURN(o.structural_encoding, ParseChoice(full_key, value,
                                                              {StructuralEncoding::kMiniBlock,
                                                               StructuralEncoding::kFullZip},
                                                              &StructuralValue));
    } else {
      return Status::InvalidArgument("the table's schema metadata has '", full_key,
                                     "', a column default lance-nd does not know");
    }
  }
  if (!any) return std::optional<ColumnOptions>();
  return std::optional<ColumnOptions>(o);
}

ColumnOptions Overlay(const std::optional<ColumnOptions>& defaults,
                      const ColumnOptions* overrides) {
  ColumnOptions out = defaults.value_or(ColumnOptions{});
  if (overrides == nullptr) return out;
  if (overrides->compression) out.compression = overrides->compression;
  if (overrides->compression_level) out.compression_level = overrides->compression_level;
  if (overrides->byte_stream_split) out.byte_stream_split = overrides->byte_stream_split;
  if (overrides->rle_threshold) out.rle_threshold = overrides->rle_threshold;
  if (overrides->structural_encoding) out.structural_encoding = overrides->structural_encoding;
  return out;
}

array::FieldPtr ApplyColumnOptions(const array::FieldPtr& field, const ColumnOptions& options) {
  if (IsEmpty(options)) return field;
  array::FieldPtr out = LeafField(field, LeafEntries(options));
  if (options.structural_encoding) {
    array::Metadata md = out->metadata();
    md.Set(std::string(kStructuralKey), std::string(StructuralValue(*options.structural_encoding)));
    out = out->WithMetadata(std::move(md));
  }
  return out;
}

}  // namespace lance_nd::internal
