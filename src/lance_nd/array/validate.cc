// Full validation of (possibly untrusted) ArrayData.
#include <cstring>
#include <string>

#include "lance_nd/array/array_data.h"
#include "lance_nd/array/utf8.h"
#include "lance_nd/core/internal/checked_math.h"

namespace lance_nd::array {
namespace {

int64_t NumBuffers(TypeId id) {
  switch (id) {
    case TypeId::kNull:
      return 0;
    case TypeId::kUtf8:
    case TypeId::kLargeUtf8:
    case TypeId::kBinary:
    case TypeId::kLargeBinary:
      return 3;
    case TypeId::kFixedSizeList:
    case TypeId::kStruct:
      return 1;
    default:
      return 2;
  }
}

int64_t BufSize(const ArrayData& a, std::size_t i) {
  return a.buffers[i] ? a.buffers[i]->size() : 0;
}

Status CheckBufferSize(const ArrayData& a, std::size_t i, const char* what, int64_t needed) {
  const int64_t have = BufSize(a, i);
  if (have < needed) {
    return Status::InvalidArgument(std::string(what) + " buffer has " + std::to_string(have) +
                                   " bytes, expected at least " + std::to_string(needed) +
                                   " for offset " + std::to_string(a.offset) + " + length " +
                                   std::to_string(a.length));
  }
  return Status::OK();
}

template <typename O>
Status CheckOffsets(const ArrayData& a, int64_t end, int64_t target_size, const char* target) {
  if (a.length == 0 && BufSize(a, 1) == 0) return Status::OK();  // absent offsets: empty array
  const auto count = CheckedAdd<int64_t>(end, 1);
  const auto needed =
      count ? CheckedMul<int64_t>(*count, static_cast<int64_t>(sizeof(O))) : std::nullopt;
  if (!needed) return Status::InvalidArgument("offsets buffer size overflows");
  LND_RETURN_NOT_OK(CheckBufferSize(a, 1, "offsets", *needed));
  const O* offs = reinterpret_cast<const O*>(a.buffers[1]->data());
  const O first = offs[a.offset];
  if (first < 0) {
    return Status::InvalidArgument("offset " + std::to_string(a.offset) + " (" +
                                   std::to_string(first) + ") is negative");
  }
  for (int64_t i = a.offset; i < end; ++i) {
    if (offs[i + 1] < offs[i]) {
      return Status::InvalidArgument("offsets are not monotonic: offset " + std::to_string(i + 1) +
                                     " (" + std::to_string(offs[i + 1]) + ") is less than offset " +
                                     std::to_string(i) + " (" + std::to_string(offs[i]) + ")");
    }
  }
  if (offs[end] > target_size) {
    return Status::InvalidArgument("offset " + std::to_string(end) + " (" +
                                   std::to_string(offs[end]) + ") exceeds " + target + " " +
                                   std::to_string(target_size));
  }
  return Status::OK();
}

// True when bytes [b, e) are all ASCII (then every string in them is valid UTF-8).
bool AllAscii(const std::uint8_t* data, int64_t b, int64_t e) {
  std::uint64_t acc = 0;
  int64_t i = b;
  for (; i + 8 <= e; i += 8) {
    std::uint64_t word;
    std::memcpy(&word, data + i, 8);
    acc |= word;
  }
  for (; i < e; ++i) acc |= data[i];
  return (acc & 0x8080808080808080ull) == 0;
}

template <typename O>
Status CheckUtf8(const ArrayData& a) {
  if (a.length == 0 || BufSize(a, 1) == 0) return Status::OK();
  const O* offs = reinterpret_cast<const O*>(a.buffers[1]->data());
  const std::uint8_t* data = a.buffers[2] ? a.buffers[2]->data() : nullptr;
  // The offsets were checked (monotonic, within the data): one pass over all the bytes first.
  const int64_t first = offs[a.offset], last = offs[a.offset + a.length];
  if (last == first || AllAscii(data, first, last)) return Status::OK();
  const std::uint8_t* bits = a.validity();
  for (int64_t i = 0; i < a.length; ++i) {
    if (bits != nullptr && !GetBit(bits, a.offset + i)) continue;
    const int64_t b = offs[a.offset + i], e = offs[a.offset + i + 1];
    if (e == b) continue;
    const int64_t bad = internal::FirstInvalidUtf8(data + b, e - b);
    if (bad >= 0) {
      return Status::InvalidArgument("value " + std::to_string(i) + " is not valid UTF-8 (byte " +
                                     std::to_string(bad) + " of " + std::to_string(e - b) +
                                     "); use a binary type for arbitrary bytes");
    }
  }
  return Status::OK();
}

Status ValidateImpl(const ArrayData& a);

Status ValidateChild(const ArrayData& parent, std::size_t i, int64_t min_length) {
  const FieldPtr& field = parent.type->children()[i];
  if (!field || !field->type()) {
    return Status::InvalidArgument(parent.type->ToString() + " type has a missing child field " +
                                   std::to_string(static_cast<int64_t>(i)));
  }
  const Field& f = *field;
  const std::string where = "child '" + f.name() + "' (" + f.type()->ToString() + ")";
  const ArrayPtr& child = parent.children[i];
  if (!child) return Status::InvalidArgument(where + ": child array is missing");
  if (!child->type || !child->type->Equals(*f.type(), /*check_metadata=*/false)) {
    return Status::InvalidArgument(where + ": child array has type " +
                                   (child->type ? child->type->ToString() : "<none>") +
                                   ", expected the field's type");
  }
  if (child->length < min_length) {
    return Status::InvalidArgument(where + ": child has " + std::to_string(child->length) +
                                   " slots, expected at least " + std::to_string(min_length));
  }
  return ValidateImpl(*child).WithContext(where);
}

Status ValidateImpl(const ArrayData& a) {
  if (!a.type) return Status::InvalidArgument("array has no type");
  const DataType& t = *a.type;
  const TypeId id = t.id();
  if (a.length < 0 || a.offset < 0) {
    return Status::InvalidArgument("array has negative length " + std::to_string(a.length) +
                                   " or offset " + std::to_string(a.offset));
  }
  const auto end_opt = CheckedAdd(a.offset, a.length);
  if (!end_opt) return Status::InvalidArgument("offset + length overflows");
  const int64_t end = *end_opt;

  // Buffers and children counts.
  const int64_t nbuf = NumBuffers(id);
  if (static_cast<int64_t>(a.buffers.size()) != nbuf) {
    return Status::InvalidArgument(t.ToString() + " array has " +
                                   std::to_string(static_cast<int64_t>(a.buffers.size())) +
                                   " buffers, expected " + std::to_string(nbuf));
  }
  const std::size_t nchild = t.is_nested() ? t.children().size() : 0;
  if (t.is_list_like() && t.children().size() != 1) {
    return Status::InvalidArgument(t.ToString() + " type has " +
                                   std::to_string(static_cast<int64_t>(t.children().size())) +
                                   " child fields, expected 1");
  }
  if (a.children.size() != nchild) {
    return Status::InvalidArgument(
        t.ToString() + " array has " + std::to_string(static_cast<int64_t>(a.children.size())) +
        " children, expected " + std::to_string(static_cast<int64_t>(nchild)));
  }

  // Null count and validity.
  if (a.null_count_hint < ArrayData::kUnknownNullCount || a.null_count_hint > a.length) {
    return Status::InvalidArgument("null count " + std::to_string(a.null_count_hint) +
                                   " is outside [0, length " + std::to_string(a.length) + "]");
  }
  if (id == TypeId::kNull) {
    if (a.null_count_hint >= 0 && a.null_count_hint != a.length) {
      return Status::InvalidArgument("null array has null count " +
                                     std::to_string(a.null_count_hint) + ", expected its length " +
                                     std::to_string(a.length));
    }
    return Status::OK();
  }
  if (a.buffers[0]) {
    LND_RETURN_NOT_OK(CheckBufferSize(a, 0, "validity", BytesForBits(end)));
    if (a.null_count_hint >= 0) {
      const int64_t counted = a.length - CountSetBits(a.buffers[0]->data(), a.offset, a.length);
      if (counted != a.null_count_hint) {
        return Status::InvalidArgument("null count " + std::to_string(a.null_count_hint) +
                                       " does not match the validity bitmap, which has " +
                                       std::to_string(counted) + " nulls");
      }
    }
  } else if (a.null_count_hint > 0) {
    return Status::InvalidArgument("null count " + std::to_string(a.null_count_hint) +
                                   " but there is no validity bitmap");
  }

  switch (id) {
    case TypeId::kBool:
      return CheckBufferSize(a, 1, "values", BytesForBits(end));
    case TypeId::kUtf8:
    case TypeId::kBinary:
      LND_RETURN_NOT_OK(CheckOffsets<int32_t>(a, end, BufSize(a, 2), "data size"));
      return id == TypeId::kUtf8 ? CheckUtf8<int32_t>(a) : Status::OK();
    case TypeId::kLargeUtf8:
    case TypeId::kLargeBinary:
      LND_RETURN_NOT_OK(CheckOffsets<int64_t>(a, end, BufSize(a, 2), "data size"));
      return id == TypeId::kLargeUtf8 ? CheckUtf8<int64_t>(a) : Status::OK();
    case TypeId::kList:
    case TypeId::kLargeList: {
      if (!a.children[0]) return Status::InvalidArgument("list child array is missing");
      const int64_t child_len = a.children[0]->length;
      if (id == TypeId::kList) {
        LND_RETURN_NOT_OK(CheckOffsets<int32_t>(a, end, child_len, "child length"));
      } else {
        LND_RETURN_NOT_OK(CheckOffsets<int64_t>(a, end, child_len, "child length"));
      }
      return ValidateChild(a, 0, 0);
    }
    case TypeId::kFixedSizeList: {
      if (t.fixed_size() < 0) {
        return Status::InvalidArgument("fixed_size_list has negative list size " +
                                       std::to_string(t.fixed_size()));
      }
      const auto needed = CheckedMul<int64_t>(end, t.fixed_size());
      if (!needed) return Status::InvalidArgument("fixed_size_list child length overflows");
      return ValidateChild(a, 0, *needed);
    }
    case TypeId::kStruct:
      for (std::size_t i = 0; i < nchild; ++i) LND_RETURN_NOT_OK(ValidateChild(a, i, end));
      return Status::OK();
    default: {  // fixed-width values
      const int64_t width = t.byte_width();
      if (width < 0) {
        return Status::InvalidArgument(t.ToString() + " has a negative byte width " +
                                       std::to_string(width));
      }
      const auto needed = CheckedMul<int64_t>(end, width);
      if (!needed) return Status::InvalidArgument("values buffer size overflows");
      return CheckBufferSize(a, 1, "values", *needed);
    }
  }
}

}  // namespace

namespace internal {
int64_t FirstInvalidUtf8(const std::uint8_t* s, int64_t n) {
  int64_t i = 0;
  while (i < n) {
    const std::uint8_t c = s[i];
    if (c < 0x80) {
      ++i;
      continue;
    }
    int64_t len = 0;
    std::uint8_t lo = 0x80, hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF) {
      len = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
      len = 3;
      if (c == 0xE0) lo = 0xA0;
      if (c == 0xED) hi = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
      len = 4;
      if (c == 0xF0) lo = 0x90;
      if (c == 0xF4) hi = 0x8F;
    } else {
      return i;
    }
    if (i + len > n) return i;
    if (s[i + 1] < lo || s[i + 1] > hi) return i;
    for (int64_t k = 2; k < len; ++k) {
      if (s[i + k] < 0x80 || s[i + k] > 0xBF) return i;
    }
    i += len;
  }
  return -1;
}

}  // namespace internal

Status Validate(const ArrayData& array) { return ValidateImpl(array); }

}  // namespace lance_nd::array
