// Human-readable rendering of arrays.
#include <charconv>
#include <cmath>
#include <cstring>
#include <string>

#include "lance_nd/array/array_data.h"
#include "lance_nd/array/view.h"

namespace lance_nd::array {
namespace {

constexpr int64_t kWindow = 10;  // slots shown at each end of a long array

template <typename T>
std::string Num(T v) {
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof(buf), v);
  return std::string(buf, r.ptr);
}

std::string HalfToString(std::uint16_t h) {
  const int sign = (h >> 15) & 1;
  const int exp = (h >> 10) & 0x1F;
  const int mant = h & 0x3FF;
  double v;
  if (exp == 0) {
    v = std::ldexp(static_cast<double>(mant), -24);
  } else if (exp == 31) {
    if (mant != 0) return "nan";
    return sign ? "-inf" : "inf";
  } else {
    v = std::ldexp(static_cast<double>(mant + 1024), exp - 25);
  }
  return Num(sign ? -v : v);
}

std::string Quote(std::string_view s, bool utf8) {
  std::string out = "\"";
  static const char* kHex = "0123456789abcdef";
  for (char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += ch;
    } else if (c < 0x20 || (!utf8 && c >= 0x7F)) {
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    } else {
      out += ch;
    }
  }
  return out + "\"";
}

std::string SlotToString(const ArrayData& a, int64_t i, int indent);

std::string RangeToString(const ArrayData& a, int64_t begin, int64_t n, int indent) {
  std::string out = "[";
  for (int64_t k = 0; k < n; ++k) {
    if (k > 0) out += ", ";
    if (n > 2 * kWindow && k == kWindow) {
      out += "..., ";
      k = n - kWindow;
    }
    out += SlotToString(a, begin + k, indent);
  }
  return out + "]";
}

std::string SlotToString(const ArrayData& a, int64_t i, int indent) {
  if (!a.IsValid(i)) return "null";
  switch (a.type->id()) {
    case TypeId::kNull:
      return "null";
    case TypeId::kBool:
      return GetBit(a.buffers[1]->data(), a.offset + i) ? "true" : "false";
    case TypeId::kInt8:
      return Num(static_cast<int>(a.values<int8_t>()[i]));
    case TypeId::kInt16:
      return Num(a.values<int16_t>()[i]);
    case TypeId::kInt32:
    case TypeId::kDate32:
      return Num(a.values<int32_t>()[i]);
    case TypeId::kInt64:
    case TypeId::kDate64:
    case TypeId::kTimestamp:
    case TypeId::kDuration:
      return Num(a.values<int64_t>()[i]);
    case TypeId::kUInt8:
      return Num(static_cast<unsigned>(a.values<uint8_t>()[i]));
    case TypeId::kUInt16:
      return Num(a.values<uint16_t>()[i]);
    case TypeId::kUInt32:
      return Num(a.values<uint32_t>()[i]);
    case TypeId::kUInt64:
      return Num(a.values<uint64_t>()[i]);
    case TypeId::kFloat16:
      return HalfToString(a.values<uint16_t>()[i]);
    case TypeId::kFloat32: {
      const float v = a.values<float>()[i];
      return std::isnan(v) ? "nan" : Num(v);
    }
    case TypeId::kFloat64: {
      const double v = a.values<double>()[i];
      return std::isnan(v) ? "nan" : Num(v);
    }
    case TypeId::kUtf8:
    case TypeId::kLargeUtf8:
      return Quote(BinaryView(a).Value(i), true);
    case TypeId::kBinary:
    case TypeId::kLargeBinary:
      return Quote(BinaryView(a).Value(i), false);
    case TypeId::kFixedSizeBinary: {
      const int64_t w = a.type->fixed_size();
      return Quote(
          std::string_view(reinterpret_cast<const char*>(a.buffers[1]->data()) + (a.offset + i) * w,
                           static_cast<std::size_t>(w)),
          false);
    }
    case TypeId::kDecimal128:
    case TypeId::kDecimal256: {
      const int64_t w = a.type->byte_width();
      return DecimalToString(a.buffers[1]->data() + (a.offset + i) * w, static_cast<int>(w),
                             a.type->scale());
    }
    case TypeId::kList:
    case TypeId::kLargeList:
    case TypeId::kFixedSizeList: {
      ListView v(a);
      return RangeToString(*v.values(), v.ValueOffset(i), v.ValueLength(i), indent);
    }
    case TypeId::kStruct: {
      std::string out = "{";
      for (std::size_t c = 0; c < a.children.size(); ++c) {
        if (c > 0) out += ", ";
        out += a.type->children()[c]->name() + ": " +
               SlotToString(*a.children[c], a.offset + i, indent);
      }
      return out + "}";
    }
  }
  return "?";
}

}  // namespace

std::string PrettyPrint(const ArrayData& array, int indent) {
  const std::string pad(static_cast<std::size_t>(indent < 0 ? 0 : indent), ' ');
  if (!array.type) return pad + "<array without type>";
  if (array.type->id() != TypeId::kStruct) {
    return pad + RangeToString(array, 0, array.length, indent);
  }
  // Structs: validity, then one block per child.
  std::string out = pad + "-- is_valid: ";
  if (array.null_count() == 0) {
    out += "all not null";
  } else {
    out += "[";
    for (int64_t i = 0; i < array.length; ++i) {
      if (array.length > 2 * kWindow && i == kWindow) {
        out += "..., ";
        i = array.length - kWindow;
      }
      out += array.IsValid(i) ? "true" : "false";
      if (i + 1 < array.length) out += ", ";
    }
    out += "]";
  }
  for (std::size_t c = 0; c < array.children.size(); ++c) {
    const Field& f = *array.type->children()[c];
    out += "\n" + pad + "-- child " + std::to_string(c) + " '" + f.name() + "' (" +
           f.type()->ToString() + "):\n";
    auto sliced = Slice(array.children[c], array.offset, array.length);
    out += sliced.ok() ? PrettyPrint(**sliced, indent + 2) : pad + "  <invalid child>";
  }
  return out;
}

}  // namespace lance_nd::array
