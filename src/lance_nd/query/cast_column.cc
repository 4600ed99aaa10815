#include "lance_nd/query/cast_column.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>

#include "lance_nd/query/coercion.h"
#include "lance_nd/query/temporal.h"

namespace lance_nd::query {

using array::DataTypePtr;
using array::TypeId;

namespace {

std::size_t Z(std::int64_t i) { return static_cast<std::size_t>(i); }

Status CastError(const std::string& value, const array::DataType& to, const char* why) {
  return Status::InvalidArgument("filter: cannot cast ", value, " to ", to.ToString(), ": ", why);
}

void Size(Column* c) {
  const auto n = Z(c->length);
  switch (c->kind) {
    case Kind::kBool:
      c->bools.assign(n, 0);
      break;
    case Kind::kInt:
    case Kind::kDate:
    case Kind::kTimestamp:
    case Kind::kDuration:
      c->ints.assign(n, 0);
      break;
    case Kind::kUInt:
      c->uints.assign(n, 0);
      break;
    case Kind::kFloat:
      c->floats.assign(n, 0);
      break;
    case Kind::kString:
    case Kind::kBinary:
      c->strings.assign(n, {});
      break;
    case Kind::kList:
      c->offsets.assign(n + 1, 0);
      c->items = std::make_shared<Column>();
      break;
    default:
      break;
  }
}

std::shared_ptr<Column> Like(const Column& c, const DataTypePtr& to) {
  auto out = std::make_shared<Column>();
  out->kind = KindOf(*to);
  out->type = to;
  out->length = c.length;
  out->valid = c.valid;
  Size(out.get());
  return out;
}

// Integer range of an integer type, as long double (exact for 64-bit bounds).
void IntRange(const array::DataType& t, long double* lo, long double* hi) {
  const int bits = t.bit_width();
  if (t.is_signed_integer()) {
    *lo = -std::ldexp(1.0L, bits - 1);
    *hi = std::ldexp(1.0L, bits - 1) - 1;
  } else {
    *lo = 0;
    *hi = std::ldexp(1.0L, bits) - 1;
  }
}

long double NumberAt(const Column& c, std::int64_t i) {
  switch (c.kind) {
    case Kind::kInt:
      return static_cast<long double>(c.ints[Z(i)]);
    case Kind::kUInt:
      return static_cast<long double>(c.uints[Z(i)]);
    case Kind::kFloat:
      return static_cast<long double>(c.floats[Z(i)]);
    case Kind::kBool:
      return c.bools[Z(i)];
    default:
      return 0;
  }
}

std::string NumberText(const Column& c, std::int64_t i) {
  switch (c.kind) {
    case Kind::kInt:
      return std::to_string(c.ints[Z(i)]);
    case Kind::kUInt:
      return std::to_string(c.uints[Z(i)]);
    case Kind::kBool:
      return c.bools[Z(i)] != 0 ? "true" : "false";
    default: {
      char buf[40];
      std::snprintf(buf, sizeof buf, "%.17g", c.floats[Z(i)]);
      return buf;
    }
  }
}

// Number/bool to number/bool. Integers keep exact values; out-of-range is an error.
Status NumberToNumber(const Column& c, Column* out) {
  long double lo = 0, hi = 0;
  if (out->kind == Kind::kInt || out->kind == Kind::kUInt) IntRange(*out->type, &lo, &hi);
  for (std::int64_t i = 0; i < c.length; ++i) {
    if (!c.IsValid(i)) continue;
    if (out->kind == Kind::kFloat) {
      out->floats[Z(i)] =
          c.kind == Kind::kFloat ? c.floats[Z(i)] : static_cast<double>(NumberAt(c, i));
      if (out->type->id() != TypeId::kFloat64) {
        out->floats[Z(i)] = static_cast<double>(static_cast<float>(out->floats[Z(i)]));
      }
      continue;
    }
    if (out->kind == Kind::kBool) {
      out->bools[Z(i)] = NumberAt(c, i) != 0 ? 1 : 0;
      continue;
    }
    const long double v = std::trunc(NumberAt(c, i));
    if (std::isnan(v) || v < lo || v > hi) {
      return CastError(NumberText(c, i), *out->type, "out of range");
    }
    if (out->kind == Kind::kInt) {
      out->ints[Z(i)] = c.kind == Kind::kInt ? c.ints[Z(i)] : static_cast<std::int64_t>(v);
    } else {
      out->uints[Z(i)] = c.kind == Kind::kUInt ? c.uints[Z(i)] : static_cast<std::uint64_t>(v);
    }
  }
  return Status::OK();
}

// Row i of `out` (a number column) from text: integers must be written as integers ('2.5'
// is an error for an integer type, as DataFusion's cast says, not a truncation) and fit.
Status ParseNumber(const std::string& text, Column* out, std::int64_t i) {
  const std::string quoted = "'" + text + "'";
  char* end = nullptr;
  errno = 0;
  if (out->kind == Kind::kFloat) {
    const double v = std::strtod(text.c_str(), &end);
    if (text.empty() || end != text.c_str() + text.size()) {
      return CastError(quoted, *out->type, "not a number");
    }
    const bool narrow = out->type->id() != TypeId::kFloat64;
    out->floats[Z(i)] = narrow ? static_cast<double>(static_cast<float>(v)) : v;
    return Status::OK();
  }
  long double lo = 0, hi = 0;
  IntRange(*out->type, &lo, &hi);
  const bool negative = !text.empty() && text[0] == '-';
  const bool is_signed = out->kind == Kind::kInt;
  const std::int64_t s =
      is_signed || negative ? static_cast<std::int64_t>(std::strtoll(text.c_str(), &end, 10)) : 0;
  const std::uint64_t u =
      is_signed || negative ? 0 : static_cast<std::uint64_t>(std::strtoull(text.c_str(), &end, 10));
  if (text.empty() || end != text.c_str() + text.size()) {
    return CastError(quoted, *out->type, "not an integer");
  }
  const long double v =
      is_signed || negative ? static_cast<long double>(s) : static_cast<long double>(u);
  if (errno != 0 || v < lo || v > hi) return CastError(quoted, *out->type, "out of range");
  if (is_signed) {
    out->ints[Z(i)] = s;
  } else {
    out->uints[Z(i)] = u;
  }
  return Status::OK();
}

Status StringToValue(const Column& c, Column* out) {
  for (std::int64_t i = 0; i < c.length; ++i) {
    if (!c.IsValid(i)) continue;
    const std::string text(c.strings[Z(i)]);
    const std::string quoted = "'" + text + "'";
    switch (out->kind) {
      case Kind::kString:
      case Kind::kBinary:
        out->strings[Z(i)] = c.strings[Z(i)];
        break;
      case Kind::kBool: {
        std::string t = text;
        for (char& ch : t) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
        if (t == "true" || t == "t" || t == "1") {
          out->bools[Z(i)] = 1;
        } else if (t == "false" || t == "f" || t == "0") {
          out->bools[Z(i)] = 0;
        } else {
          return CastError(quoted, *out->type, "not a boolean");
        }
        break;
      }
      case Kind::kDate: {
        const auto d = ParseDate(text);
        if (!d) return CastError(quoted, *out->type, "expected YYYY-MM-DD");
        out->ints[Z(i)] = *d;
        break;
      }
      case Kind::kTimestamp: {
        const auto t = ParseTimestamp(text, out->type->unit());
        if (!t) {
          return CastError(quoted, *out->type, "expected YYYY-MM-DD[ HH:MM:SS[.f]][Z|+HH:MM]");
        }
        out->ints[Z(i)] = *t;
        break;
      }
      default:  // numbers
        LND_RETURN_NOT_OK(ParseNumber(text, out, i));
    }
  }
  return Status::OK();
}

void ToStrings(const Column& c, Column* out) {
  auto arena = std::make_shared<std::string>();
  std::vector<std::pair<std::size_t, std::size_t>> spans(Z(c.length));
  for (std::int64_t i = 0; i < c.length; ++i) {
    if (!c.IsValid(i)) continue;
    std::string text;
    if (c.kind == Kind::kString || c.kind == Kind::kBinary) {
      text = std::string(c.strings[Z(i)]);
    } else if (c.kind == Kind::kDate) {
      text = FormatDate(c.ints[Z(i)]);
    } else if (c.kind == Kind::kTimestamp) {
      text = FormatTimestamp(c.ints[Z(i)], c.type->unit());
    } else {
      text = NumberText(c, i);
    }
    spans[Z(i)] = {arena->size(), text.size()};
    *arena += text;
  }
  for (std::int64_t i = 0; i < c.length; ++i) {
    out->strings[Z(i)] = std::string_view(*arena).substr(spans[Z(i)].first, spans[Z(i)].second);
  }
  out->arena = std::move(arena);
}

// Timestamps and durations between units (and dates to or from timestamps): multiply to a
// finer unit (an overflow is an error), divide with floor to a coarser one.
Status Rescale(const Column& c, std::int64_t from_per_day_or_sec, std::int64_t to_ticks,
               Column* out) {
  for (std::int64_t i = 0; i < c.length; ++i) {
    if (!c.IsValid(i)) continue;
    const std::int64_t v = c.ints[Z(i)];
    if (to_ticks >= from_per_day_or_sec) {
      if (__builtin_mul_overflow(v, to_ticks / from_per_day_or_sec, &out->ints[Z(i)])) {
        return CastError(std::to_string(v), *out->type, "out of range");
      }
    } else {
      const std::int64_t f = from_per_day_or_sec / to_ticks;
      std::int64_t q = v / f;
      if (v % f != 0 && v < 0) --q;
      out->ints[Z(i)] = q;
    }
  }
  return Status::OK();
}

std::int64_t TicksPerDay(const array::DataType& t) {
  return t.id() == TypeId::kDate32 ? 1 : 86400 * TicksPerSecond(t.unit());
}

}  // namespace

std::shared_ptr<Column> AllNull(const DataTypePtr& type, std::int64_t length) {
  auto c = std::make_shared<Column>();
  c->kind = KindOf(*type);
  c->type = type;
  c->length = length;
  c->valid.assign(Z(length), 0);
  Size(c.get());
  return c;
}

Result<ColumnPtr> CastColumn(const ColumnPtr& c, const DataTypePtr& to) {
  if (c->type->Equals(*to)) return c;
  const Kind from = c->kind, target = KindOf(*to);
  if (c->type->id() == TypeId::kNull) return ColumnPtr(AllNull(to, c->length));
  auto out = Like(*c, to);
  const bool scalar_from = IsNumberKind(from) || from == Kind::kBool;
  const bool scalar_to = IsNumberKind(target) || target == Kind::kBool;
  if (target == Kind::kString ||
      (target == Kind::kBinary && from != Kind::kString && from != Kind::kBinary)) {
    ToStrings(*c, out.get());
  } else if (scalar_from && scalar_to) {
    LND_RETURN_NOT_OK(NumberToNumber(*c, out.get()));
  } else if (from == Kind::kString || from == Kind::kBinary) {
    LND_RETURN_NOT_OK(StringToValue(*c, out.get()));
  } else if ((from == Kind::kDate || from == Kind::kTimestamp) &&
             (target == Kind::kDate || target == Kind::kTimestamp)) {
    const std::int64_t f = TicksPerDay(*c->type), t = TicksPerDay(*to);
    // Per-day factors; for timestamp to timestamp use per-second ones (same ratio).
    LND_RETURN_NOT_OK(Rescale(*c, f, t, out.get()));
  } else if (from == Kind::kDuration && target == Kind::kDuration) {
    LND_RETURN_NOT_OK(
        Rescale(*c, TicksPerSecond(c->type->unit()), TicksPerSecond(to->unit()), out.get()));
  } else {
    return Status::InvalidArgument("filter: cannot cast ", c->type->ToString(), " to ",
                                   to->ToString());
  }
  return ColumnPtr(out);
}

}  // namespace lance_nd::query
