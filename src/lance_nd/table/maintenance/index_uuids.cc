#include "lance_nd/table/maintenance/index_uuids.h"

#include <cstdint>
#include <optional>

namespace lance_nd::table::internal {
namespace {

// A minimal protobuf wire-format cursor: just enough to walk to length-delimited field 1.
class Cursor {
 public:
  explicit Cursor(std::string_view bytes) : bytes_(bytes) {}
  bool done() const { return pos_ >= bytes_.size(); }

  std::optional<std::uint64_t> Varint() {
    std::uint64_t value = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (pos_ >= bytes_.size()) return std::nullopt;
      const auto b = static_cast<std::uint8_t>(bytes_[pos_++]);
      value |= static_cast<std::uint64_t>(b & 0x7f) << shift;
      if ((b & 0x80) == 0) return value;
    }
    return std::nullopt;
  }

  // Reads one field: its number and, for length-delimited fields, the payload.
  bool Next(std::uint64_t* field, std::optional<std::string_view>* payload) {
    const auto key = Varint();
    if (!key) return false;
    *field = *key >> 3;
    payload->reset();
    switch (*key & 7) {
      case 0:
        return Varint().has_value();
      case 1:
        return Skip(8);
      case 5:
        return Skip(4);
      case 2: {
        const auto len = Varint();
        if (!len || *len > bytes_.size() - pos_) return false;
        *payload = bytes_.substr(pos_, static_cast<std::size_t>(*len));
        pos_ += static_cast<std::size_t>(*len);
        return true;
      }
      default:
        return false;  // groups and invalid wire types
    }
  }

 private:
  bool Skip(std::size_t n) {
    if (n > bytes_.size() - pos_) return false;
    pos_ += n;
    return true;
  }
  std::string_view bytes_;
  std::size_t pos_ = 0;
};

// The first length-delimited field 1 of a message (nullopt if absent); false if malformed.
bool FirstBytesField(std::string_view message, std::optional<std::string_view>* out) {
  Cursor c(message);
  out->reset();
  while (!c.done()) {
    std::uint64_t field = 0;
    std::optional<std::string_view> payload;
    if (!c.Next(&field, &payload)) return false;
    if (field == 1 && payload && !*out) *out = payload;
  }
  return true;
}

std::string Hyphenated(std::string_view raw) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (std::size_t i = 0; i < raw.size(); ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) out += '-';
    const auto b = static_cast<std::uint8_t>(raw[i]);
    out += kHex[b >> 4];
    out += kHex[b & 15];
  }
  return out;
}

}  // namespace

Result<std::vector<std::string>> IndexUuids(std::string_view index_section,
                                            const std::string& manifest_name) {
  const auto bad = [&](const std::string& what) {
    return Status::Corrupt("the index section of manifest '" + manifest_name + "' " + what +
                           "; cannot tell which index files it uses, so nothing is cleaned up");
  };
  std::vector<std::string> out;
  Cursor c(index_section);
  while (!c.done()) {
    std::uint64_t field = 0;
    std::optional<std::string_view> index;
    if (!c.Next(&field, &index)) return bad("is not a valid protobuf message");
    if (field != 1) continue;
    if (!index) return bad("has an index entry that is not a message");
    std::optional<std::string_view> uuid_msg;
    if (!FirstBytesField(*index, &uuid_msg)) return bad("has an undecodable index entry");
    if (!uuid_msg) return bad("has an index without a uuid");
    std::optional<std::string_view> raw;
    if (!FirstBytesField(*uuid_msg, &raw) || !raw || raw->size() != 16) {
      return bad("has an index uuid that is not 16 bytes");
    }
    out.push_back(Hyphenated(*raw));
  }
  return out;
}

}  // namespace lance_nd::table::internal
