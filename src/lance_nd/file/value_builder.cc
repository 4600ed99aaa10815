#include "lance_nd/file/value_builder.h"

#include <cstdint>
#include <cstring>
#include <limits>

#include "lance_nd/core/internal/endian.h"
#include "lance_nd/core/internal/huge_pages.h"
#include "lance_nd/core/internal/thread_pool.h"

namespace lance_nd::file::internal {
namespace {
using array::Buffer;
using array::TypeId;

// An immutable buffer owning a ByteVector (no copy).
array::BufferPtr BufferFromBytes(ByteVector bytes) {
  auto owner = std::make_shared<const ByteVector>(std::move(bytes));
  return std::make_shared<const Buffer>(owner->data(), static_cast<int64_t>(owner->size()), owner);
}
}  // namespace

void ParallelFor(std::size_t n, int threads, const std::function<void(std::size_t)>& fn) {
  ParallelEach(n, threads, [&fn](std::uint64_t i) { fn(static_cast<std::size_t>(i)); });
}

Status ValueBuilder::AppendMany(std::span<const Piece> pieces, int threads) {
  bool bulk = kind_ == Kind::kFixed || (kind_ == Kind::kFsl && !has_item_validity_);
  std::uint64_t total = 0;
  for (const Piece& p : pieces) {
    const DataBlock& b = *p.block;
    if (p.from > b.num_values || p.count > b.num_values - p.from) {
      return Status::Corrupt("value range [", p.from, ", ", p.from + p.count,
                             ") is outside the decoded block of ", b.num_values, " values");
    }
    bulk = bulk && b.kind == DataBlock::Kind::kFixedWidth && b.bits_per_value == width_ * 8 &&
           b.data && static_cast<std::uint64_t>(b.data->size()) / width_ >= p.from + p.count &&
           (kind_ == Kind::kFixed || b.fsl.empty() || (b.fsl.size() == 1 && !b.fsl[0].validity));
    total += p.count;
  }
  if (!bulk || width_ == 0) {
    for (const Piece& p : pieces) LND_RETURN_NOT_OK(Append(*p.block, p.from, p.count));
    return Status::OK();
  }
  if (kind_ == Kind::kFixed && length_ == 0 && !adopted_ && pieces.size() == 1) {
    // One piece: the values are a slice of the decoded block, no copy at all.
    const Piece& p = pieces[0];
    adopted_ =
        std::make_shared<const Buffer>(p.block->data->data() + p.from * width_,
                                       static_cast<int64_t>(p.count * width_), p.block->data);
    length_ = p.count;
    return Status::OK();
  }
  Materialize();
  // Bounds were checked above (once per piece): copy whole pieces.
  const std::size_t old = data_.size();
  if (data_.capacity() < old + total * width_) {
    data_.reserve(old + total * width_);
    AdviseHugePages(data_.data() + old, data_.capacity() - old);
  }
  data_.resize(old + total * width_);
  std::vector<std::uint64_t> at(pieces.size());
  std::uint64_t pos = old;
  for (std::size_t i = 0; i < pieces.size(); ++i) {
    at[i] = pos;
    pos += pieces[i].count * width_;
  }
  std::uint8_t* out = data_.data();
  const std::uint64_t w = width_;
  // Small pieces are not worth a thread.
  const int t = total * w >= (std::uint64_t{1} << 20) ? threads : 1;
  ParallelFor(pieces.size(), t, [&](std::size_t i) {
    const Piece& p = pieces[i];
    if (p.count > 0) std::memcpy(out + at[i], p.block->data->data() + p.from * w, p.count * w);
  });
  length_ += total;
  return Status::OK();
}

bool ValueBuilder::AdoptContiguous(std::span<const Piece> pieces, const array::BufferPtr& column) {
  if (!column || pieces.empty() || kind_ != Kind::kFixed || width_ == 0 || length_ != 0 ||
      adopted_ || !data_.empty()) {
    return false;
  }
  const std::uint8_t* lo = column->data();
  const std::uint8_t* hi = lo + column->size();
  const std::uint8_t* start = nullptr;
  const std::uint8_t* next = nullptr;
  std::uint64_t total = 0;
  for (const Piece& p : pieces) {
    const DataBlock& b = *p.block;
    if (b.kind != DataBlock::Kind::kFixedWidth || b.bits_per_value != width_ * 8 || !b.data ||
        p.from > b.num_values || p.count > b.num_values - p.from ||
        static_cast<std::uint64_t>(b.data->size()) / width_ < p.from + p.count) {
      return false;
    }
    const std::uint8_t* a = b.data->data() + p.from * width_;
    const std::uint8_t* e = a + p.count * width_;
    // Pointer comparisons across unrelated objects are not meaningful: compare addresses.
    const auto addr = [](const std::uint8_t* q) { return reinterpret_cast<std::uintptr_t>(q); };
    if (addr(a) < addr(lo) || addr(e) > addr(hi) || (next != nullptr && a != next)) return false;
    if (start == nullptr) start = a;
    next = e;
    total += p.count;
  }
  adopted_ = std::make_shared<const Buffer>(start, static_cast<int64_t>(total * width_), column);
  length_ = total;
  return true;
}

Result<ValueBuilder> ValueBuilder::Make(array::DataTypePtr type) {
  ValueBuilder b(type);
  const array::DataType& t = *type;
  if (t.id() == TypeId::kNull) {
    b.kind_ = Kind::kNull;
  } else if (t.id() == TypeId::kBool) {
    b.kind_ = Kind::kBool;
  } else if (t.is_binary_like()) {
    b.kind_ = Kind::kVariable;
  } else if (t.id() == TypeId::kFixedSizeList) {
    const array::DataType& item = *t.value_type();
    if (item.byte_width() <= 0 || t.fixed_size() <= 0) {
      return Status::NotImplemented("fixed-size list of ", item.ToString(),
                                    " is not supported by the reader");
    }
    b.kind_ = Kind::kFsl;
    b.fsl_size_ = static_cast<std::uint64_t>(t.fixed_size());
    b.width_ = b.fsl_size_ * static_cast<std::uint64_t>(item.byte_width());
  } else if (t.id() == TypeId::kFixedSizeBinary) {
    b.kind_ = Kind::kFixed;
    b.width_ = static_cast<std::uint64_t>(t.fixed_size());
  } else if (t.byte_width() > 0) {
    b.kind_ = Kind::kFixed;
    b.width_ = static_cast<std::uint64_t>(t.byte_width());
  } else {
    return Status::NotImplemented("leaf type ", t.ToString(), " is not supported by the reader");
  }
  return b;
}

void ValueBuilder::AppendBits(const std::uint8_t* bits, std::uint64_t from, std::uint64_t count,
                              ByteVector* out, std::uint64_t* out_len) {
  out->resize((*out_len + count + 7) / 8, 0);
  for (std::uint64_t i = 0; i < count; ++i) {
    const std::uint64_t src = from + i;
    if ((bits[src >> 3] >> (src & 7)) & 1) {
      const std::uint64_t dst = *out_len + i;
      (*out)[dst >> 3] = static_cast<std::uint8_t>((*out)[dst >> 3] | (1u << (dst & 7)));
    }
  }
  *out_len += count;
}

void ValueBuilder::AppendConstantBits(bool v, std::uint64_t count, ByteVector* out,
                                      std::uint64_t* out_len) {
  out->resize((*out_len + count + 7) / 8, 0);
  if (v) {
    for (std::uint64_t i = 0; i < count; ++i) {
      const std::uint64_t dst = *out_len + i;
      (*out)[dst >> 3] = static_cast<std::uint8_t>((*out)[dst >> 3] | (1u << (dst & 7)));
    }
  }
  *out_len += count;
}

void ValueBuilder::Materialize() {
  if (!adopted_) return;
  data_.insert(data_.end(), adopted_->data(), adopted_->data() + adopted_->size());
  adopted_.reset();
}

Status ValueBuilder::Append(const DataBlock& block, std::uint64_t from, std::uint64_t count) {
  Materialize();
  if (from > block.num_values || count > block.num_values - from) {
    return Status::Corrupt("value range [", from, ", ", from + count,
                           ") is outside the decoded block of ", block.num_values, " values");
  }
  switch (kind_) {
    case Kind::kNull:
      break;
    case Kind::kBool:
      LND_RETURN_NOT_OK(AppendBool(block, from, count));
      break;
    case Kind::kFixed:
    case Kind::kFsl:
      LND_RETURN_NOT_OK(AppendFixed(block, from, count));
      break;
    case Kind::kVariable:
      LND_RETURN_NOT_OK(AppendVariable(block, from, count));
      break;
  }
  length_ += count;
  return Status::OK();
}

Status ValueBuilder::AppendBool(const DataBlock& block, std::uint64_t from, std::uint64_t count) {
  const std::uint64_t data_size = block.data ? static_cast<std::uint64_t>(block.data->size()) : 0;
  if (block.kind == DataBlock::Kind::kAllNull) {
    AppendConstantBits(false, count, &data_, &bit_len_);
  } else if (block.kind == DataBlock::Kind::kConstant) {
    AppendConstantBits(data_size > 0 && block.data->data()[0] != 0, count, &data_, &bit_len_);
  } else if (block.kind == DataBlock::Kind::kFixedWidth && block.bits_per_value == 1) {
    if (data_size * 8 < from + count) return Status::Corrupt("boolean block is too short");
    AppendBits(block.data->data(), from, count, &data_, &bit_len_);
  } else if (block.kind == DataBlock::Kind::kFixedWidth && block.bits_per_value == 8) {
    if (data_size < from + count) return Status::Corrupt("boolean block is too short");
    for (std::uint64_t i = 0; i < count; ++i) {
      AppendConstantBits(block.data->data()[from + i] != 0, 1, &data_, &bit_len_);
    }
  } else {
    return Status::Corrupt("decoded block does not hold booleans (bits_per_value ",
                           block.bits_per_value, ")");
  }
  return Status::OK();
}

// Fixed-width values, and the values of fixed-size lists with their item validity.
Status ValueBuilder::AppendFixed(const DataBlock& block, std::uint64_t from, std::uint64_t count) {
  const std::uint64_t data_size = block.data ? static_cast<std::uint64_t>(block.data->size()) : 0;
  const std::size_t old = data_.size();
  if (block.kind == DataBlock::Kind::kAllNull ||
      (block.kind == DataBlock::Kind::kFixedWidth && block.bits_per_value == 0)) {
    data_.resize(old + count * width_, 0);
    if (kind_ == Kind::kFsl && block.kind == DataBlock::Kind::kFixedWidth) {
      // A fixed-size list whose items are all null (the rows themselves may be valid).
      if (!has_item_validity_) {
        has_item_validity_ = true;
        AppendConstantBits(true, length_ * fsl_size_, &item_validity_, &item_validity_len_);
      }
      AppendConstantBits(false, count * fsl_size_, &item_validity_, &item_validity_len_);
    } else if (kind_ == Kind::kFsl && has_item_validity_) {
      AppendConstantBits(false, count * fsl_size_, &item_validity_, &item_validity_len_);
    }
    return Status::OK();
  }
  if (block.kind == DataBlock::Kind::kConstant) {
    if (data_size != width_) {
      return Status::Corrupt("constant value of ", data_size, " bytes for ", type_->ToString(),
                             " (", width_, " bytes per value)");
    }
    data_.resize(old + count * width_);
    for (std::uint64_t i = 0; i < count; ++i) {
      std::memcpy(data_.data() + old + i * width_, block.data->data(), width_);
    }
    if (kind_ == Kind::kFsl && has_item_validity_) {
      AppendConstantBits(true, count * fsl_size_, &item_validity_, &item_validity_len_);
    }
    return Status::OK();
  }
  if (block.kind != DataBlock::Kind::kFixedWidth || block.bits_per_value != width_ * 8) {
    return Status::Corrupt("decoded block has ", block.bits_per_value, " bits per value, expected ",
                           width_ * 8, " for ", type_->ToString());
  }
  if (data_size < (from + count) * width_) {
    return Status::Corrupt("decoded block holds ", data_size, " bytes, fewer than ", from + count,
                           " values of ", width_, " bytes");
  }
  data_.insert(data_.end(), block.data->data() + from * width_,
               block.data->data() + (from + count) * width_);
  if (kind_ == Kind::kFsl) {
    if (block.fsl.size() > 1) {
      return Status::NotImplemented("nested fixed-size lists are not supported by the reader");
    }
    if (!block.fsl.empty() && block.fsl[0].validity) {
      const auto& v = block.fsl[0];
      if (static_cast<std::uint64_t>(v.validity->size()) * 8 < (from + count) * fsl_size_) {
        return Status::Corrupt("fixed-size-list item validity bitmap is too short");
      }
      if (!has_item_validity_) {
        has_item_validity_ = true;
        AppendConstantBits(true, length_ * fsl_size_, &item_validity_, &item_validity_len_);
      }
      AppendBits(v.validity->data(), from * fsl_size_, count * fsl_size_, &item_validity_,
                 &item_validity_len_);
    } else if (has_item_validity_) {
      AppendConstantBits(true, count * fsl_size_, &item_validity_, &item_validity_len_);
    }
  }
  return Status::OK();
}

Status ValueBuilder::AppendVariable(const DataBlock& block, std::uint64_t from,
                                    std::uint64_t count) {
  const std::uint64_t data_size = block.data ? static_cast<std::uint64_t>(block.data->size()) : 0;
  if (block.kind == DataBlock::Kind::kAllNull) {
    offsets_.insert(offsets_.end(), count, offsets_.back());
    return Status::OK();
  }
  if (block.kind == DataBlock::Kind::kConstant) {
    for (std::uint64_t i = 0; i < count; ++i) {
      data_.insert(data_.end(), block.data->data(), block.data->data() + data_size);
      offsets_.push_back(static_cast<std::int64_t>(data_.size()));
    }
    return Status::OK();
  }
  if (block.kind != DataBlock::Kind::kVariable ||
      (block.bits_per_offset != 32 && block.bits_per_offset != 64) || !block.offsets) {
    return Status::Corrupt("decoded block is not variable-width data as ", type_->ToString(),
                           " needs");
  }
  const std::uint64_t ow = block.bits_per_offset / 8;
  if (static_cast<std::uint64_t>(block.offsets->size()) < (block.num_values + 1) * ow) {
    return Status::Corrupt("variable-width block has too few offsets");
  }
  const std::uint8_t* o = block.offsets->data();
  auto off = [&](std::uint64_t i) -> std::uint64_t {
    return ow == 4 ? LoadLE<std::uint32_t>(o + i * 4) : LoadLE<std::uint64_t>(o + i * 8);
  };
  for (std::uint64_t i = from; i < from + count; ++i) {
    const std::uint64_t a = off(i), b = off(i + 1);
    if (a > b || b > data_size) {
      return Status::Corrupt("variable-width value ", i, " has offsets [", a, ", ", b,
                             ") outside its ", data_size, "-byte data");
    }
    data_.insert(data_.end(), block.data->data() + a, block.data->data() + b);
    offsets_.push_back(static_cast<std::int64_t>(data_.size()));
  }
  return Status::OK();
}

Result<array::ArrayPtr> ValueBuilder::Finish(array::BufferPtr validity, int64_t null_count) {
  const auto len = static_cast<int64_t>(length_);
  switch (kind_) {
    case Kind::kNull:
      return array::MakeArrayOfNulls(type_, len);
    case Kind::kBool:
      return array::MakeArrayData(type_, len, {validity, BufferFromBytes(std::move(data_))}, {},
                                  null_count);
    case Kind::kFixed:
      return array::MakeArrayData(
          type_, len, {validity, adopted_ ? adopted_ : BufferFromBytes(std::move(data_))}, {},
          null_count);
    case Kind::kFsl: {
      const auto& item_type = type_->value_type();
      array::BufferPtr item_valid;
      int64_t item_nulls = 0;
      if (has_item_validity_) {
        item_valid = BufferFromBytes(std::move(item_validity_));
        item_nulls =
            static_cast<int64_t>(item_validity_len_) -
            array::CountSetBits(item_valid->data(), 0, static_cast<int64_t>(item_validity_len_));
      }
      auto child =
          array::MakeArrayData(item_type, len * static_cast<int64_t>(fsl_size_),
                               {item_valid, BufferFromBytes(std::move(data_))}, {}, item_nulls);
      return array::MakeArrayData(type_, len, {validity}, {child}, null_count);
    }
    case Kind::kVariable: {
      const bool large = type_->id() == TypeId::kLargeUtf8 || type_->id() == TypeId::kLargeBinary;
      std::vector<std::uint8_t> ob;
      if (large) {
        ob.resize(offsets_.size() * 8);
        std::memcpy(ob.data(), offsets_.data(), ob.size());
      } else {
        if (offsets_.back() > std::numeric_limits<std::int32_t>::max()) {
          return Status::NotImplemented("a ", type_->ToString(), " column chunk holds ",
                                        static_cast<std::uint64_t>(offsets_.back()),
                                        " bytes, more than 32-bit offsets allow; read fewer rows "
                                        "at a time");
        }
        ob.resize(offsets_.size() * 4);
        for (std::size_t i = 0; i < offsets_.size(); ++i) {
          StoreLE<std::int32_t>(ob.data() + i * 4, static_cast<std::int32_t>(offsets_[i]));
        }
      }
      return array::MakeArrayData(
          type_, len,
          {validity, Buffer::FromVector(std::move(ob)), BufferFromBytes(std::move(data_))}, {},
          null_count);
    }
  }
  return Status::NotImplemented("unsupported leaf");
}

}  // namespace lance_nd::file::internal
