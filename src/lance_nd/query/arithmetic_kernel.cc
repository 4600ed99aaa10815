// Arithmetic kernels: + - * / % and unary minus over integers (wrapping at the result width,
// as DataFusion's default arithmetic) and floats (IEEE).
#include <cmath>
#include <limits>

#include "lance_nd/query/cast_column.h"
#include "lance_nd/query/coercion.h"
#include "lance_nd/query/kernels.h"

namespace lance_nd::query {
namespace {

std::size_t Z(std::int64_t i) { return static_cast<std::size_t>(i); }

std::uint64_t RawBits(const Column& c, std::size_t i) {
  return c.kind == Kind::kInt ? static_cast<std::uint64_t>(c.ints[i]) : c.uints[i];
}

// Sign- or zero-extend the low `bits` of v.
std::int64_t WrapSigned(std::uint64_t v, int bits) {
  if (bits >= 64) return static_cast<std::int64_t>(v);
  const std::uint64_t mask = (std::uint64_t{1} << bits) - 1;
  const std::uint64_t sign = std::uint64_t{1} << (bits - 1);
  v &= mask;
  return static_cast<std::int64_t>((v ^ sign) - sign);
}
std::uint64_t WrapUnsigned(std::uint64_t v, int bits) {
  return bits >= 64 ? v : v & ((std::uint64_t{1} << bits) - 1);
}

Status DivideByZero() { return Status::InvalidArgument("filter: divide by zero (integer / or %)"); }
Status Overflow(const char* op) {
  return Status::InvalidArgument("filter: integer overflow in ", op, " (the minimum value by -1)");
}

Status IntegerOp(BinaryOp op, const Column& a, const Column& b, Column* out) {
  const bool is_signed = out->kind == Kind::kInt;
  const int bits = out->type->bit_width();
  for (std::int64_t r = 0; r < out->length; ++r) {
    const auto i = Z(r);
    if (!out->valid[i]) continue;
    const std::uint64_t x = RawBits(a, i), y = RawBits(b, i);
    std::uint64_t v = 0;
    switch (op) {
      case BinaryOp::kAdd:
        v = x + y;
        break;
      case BinaryOp::kSub:
        v = x - y;
        break;
      case BinaryOp::kMul:
        v = x * y;
        break;
      default: {
        if (y == 0) return DivideByZero();
        if (is_signed) {
          const std::int64_t sx = WrapSigned(x, bits), sy = WrapSigned(y, bits);
          const std::int64_t min = bits >= 64 ? std::numeric_limits<std::int64_t>::min()
                                              : -(std::int64_t{1} << (bits - 1));
          if (sy == -1 && sx == min) return Overflow(op == BinaryOp::kDiv ? "/" : "%");
          v = static_cast<std::uint64_t>(op == BinaryOp::kDiv ? sx / sy : sx % sy);
        } else {
          v = op == BinaryOp::kDiv ? x / y : x % y;
        }
      }
    }
    if (is_signed) {
      out->ints[i] = WrapSigned(v, bits);
    } else {
      out->uints[i] = WrapUnsigned(v, bits);
    }
  }
  return Status::OK();
}

void FloatOp(BinaryOp op, const Column& a, const Column& b, Column* out) {
  const bool narrow = out->type->id() != array::TypeId::kFloat64;
  for (std::size_t i = 0; i < out->floats.size(); ++i) {
    const double x = a.floats[i], y = b.floats[i];
    double v = 0;
    switch (op) {
      case BinaryOp::kAdd:
        v = x + y;
        break;
      case BinaryOp::kSub:
        v = x - y;
        break;
      case BinaryOp::kMul:
        v = x * y;
        break;
      case BinaryOp::kDiv:
        v = x / y;
        break;
      default:
        v = std::fmod(x, y);
    }
    out->floats[i] = narrow ? static_cast<double>(static_cast<float>(v)) : v;
  }
}

}  // namespace

Result<ColumnPtr> Arithmetic(BinaryOp op, const ColumnPtr& a_in, const ColumnPtr& b_in,
                             const array::DataTypePtr& type) {
  auto out = AllNull(type, a_in->length);
  if (a_in->type->id() == array::TypeId::kNull || b_in->type->id() == array::TypeId::kNull) {
    return ColumnPtr(out);
  }
  for (std::size_t i = 0; i < out->valid.size(); ++i) {
    out->valid[i] = static_cast<std::uint8_t>(a_in->valid[i] & b_in->valid[i]);
  }
  ColumnPtr a = a_in, b = b_in;
  if (out->kind == Kind::kFloat) {
    LND_ASSIGN_OR_RETURN(a, CastColumn(a_in, array::Float64()));
    LND_ASSIGN_OR_RETURN(b, CastColumn(b_in, array::Float64()));
    FloatOp(op, *a, *b, out.get());
  } else {
    LND_RETURN_NOT_OK(IntegerOp(op, *a, *b, out.get()));
  }
  return ColumnPtr(out);
}

Result<ColumnPtr> NegateColumn(const ColumnPtr& a) {
  auto out = AllNull(a->type, a->length);
  out->valid = a->valid;
  const int bits = a->type->bit_width();
  for (std::size_t i = 0; i < out->valid.size(); ++i) {
    switch (a->kind) {
      case Kind::kFloat:
        out->floats[i] = -a->floats[i];
        break;
      case Kind::kInt:
      case Kind::kDuration:
        out->ints[i] = WrapSigned(0 - static_cast<std::uint64_t>(a->ints[i]), bits);
        break;
      case Kind::kUInt:
        out->uints[i] = WrapUnsigned(0 - a->uints[i], bits);
        break;
      default:
        return Status::InvalidArgument("filter: cannot negate ", a->type->ToString());
    }
  }
  return ColumnPtr(out);
}

Result<ColumnPtr> AbsColumn(const ColumnPtr& a) {
  auto out = AllNull(a->type, a->length);
  out->valid = a->valid;
  const int bits = a->type->bit_width();
  for (std::size_t i = 0; i < out->valid.size(); ++i) {
    switch (a->kind) {
      case Kind::kFloat:
        out->floats[i] = std::fabs(a->floats[i]);
        break;
      case Kind::kInt:
        out->ints[i] = a->ints[i] < 0 ? WrapSigned(0 - static_cast<std::uint64_t>(a->ints[i]), bits)
                                      : a->ints[i];
        break;
      case Kind::kUInt:
        out->uints[i] = a->uints[i];
        break;
      default:
        return Status::InvalidArgument("filter: abs of ", a->type->ToString());
    }
  }
  return ColumnPtr(out);
}

}  // namespace lance_nd::query
