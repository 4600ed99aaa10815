// Accumulates decoded value slots (DataBlocks from several pages / chunks) into one Arrow array
// of a leaf type, with the validity computed from the definition levels.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "lance_nd/array/array_data.h"
#include "lance_nd/core/result.h"
#include "lance_nd/file/encoding/compressive.h"

namespace lance_nd::file::internal {

using encoding::DataBlock;

/// \brief std::allocator that default-initialises (no zero-fill on resize() without a value).
template <typename T>
struct DefaultInitAllocator : std::allocator<T> {
  template <typename U>
  struct rebind {
    using other = DefaultInitAllocator<U>;
  };
  DefaultInitAllocator() = default;
  template <typename U>
  DefaultInitAllocator(const DefaultInitAllocator<U>& /*other*/) noexcept {}
  template <typename U>
  void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>) {
    ::new (static_cast<void*>(p)) U;
  }
  template <typename U, typename... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};
using ByteVector = std::vector<std::uint8_t, DefaultInitAllocator<std::uint8_t>>;

/// \brief Run fn(i) for i in [0, n) on up to `threads` threads (the caller's thread is one of
/// them); returns when all are done. threads <= 1 or n <= 1 runs inline.
void ParallelFor(std::size_t n, int threads, const std::function<void(std::size_t)>& fn);

class ValueBuilder {
 public:
  /// \brief `type` is the leaf's Arrow type: null, bool, fixed-width primitives and temporal,
  /// fixed_size_binary, utf8/binary (and large), or a fixed_size_list of fixed-width items.
  static Result<ValueBuilder> Make(array::DataTypePtr type);

  /// \brief Append values [from, from + count) of `block`.
  Status Append(const DataBlock& block, std::uint64_t from, std::uint64_t count);

  /// \brief Values [from, from + count) of one block.
  struct Piece {
    const DataBlock* block = nullptr;
    std::uint64_t from = 0;
    std::uint64_t count = 0;
  };
  /// \brief Append many pieces. Fixed-width plain values (the common case) are bounds-checked
  /// once per piece, then copied in bulk into one allocation on up to `threads` threads;
  /// everything else goes through Append piece by piece. Same result as Append in a loop.
  Status AppendMany(std::span<const Piece> pieces, int threads = 1);

  /// \brief When this builder is empty, holds fixed-width values, and `pieces` lie back to back
  /// inside `column` (pages decoded into one column buffer), take them as one zero-copy slice
  /// of `column` and return true; otherwise change nothing and return false (use AppendMany).
  bool AdoptContiguous(std::span<const Piece> pieces, const array::BufferPtr& column);

  std::uint64_t length() const { return length_; }

  /// \brief Build the array. `validity` holds length() bits (null = all valid).
  Result<array::ArrayPtr> Finish(array::BufferPtr validity, int64_t null_count);

 private:
  enum class Kind : std::uint8_t { kNull, kBool, kFixed, kVariable, kFsl };
  explicit ValueBuilder(array::DataTypePtr type) : type_(std::move(type)) {}
  void AppendBits(const std::uint8_t* bits, std::uint64_t from, std::uint64_t count,
                  ByteVector* out, std::uint64_t* out_len);
  void AppendConstantBits(bool v, std::uint64_t count, ByteVector* out, std::uint64_t* out_len);
  // Append's work by kind; they leave length_ to Append.
  Status AppendBool(const DataBlock& block, std::uint64_t from, std::uint64_t count);
  Status AppendFixed(const DataBlock& block, std::uint64_t from, std::uint64_t count);
  Status AppendVariable(const DataBlock& block, std::uint64_t from, std::uint64_t count);

  array::DataTypePtr type_;
  Kind kind_ = Kind::kFixed;
  std::uint64_t width_ = 0;     // bytes per slot (fixed, fsl)
  std::uint64_t fsl_size_ = 0;  // items per slot (fsl)
  std::uint64_t length_ = 0;
  ByteVector data_;
  array::BufferPtr adopted_;  // kFixed: the values as one zero-copy slice (instead of data_)
  void Materialize();         // move adopted_ into data_ (before any further append)
  std::vector<std::int64_t> offsets_{0};
  std::uint64_t bit_len_ = 0;  // bool: bits in data_
  ByteVector item_validity_;   // fsl items (lazy)
  std::uint64_t item_validity_len_ = 0;
  bool has_item_validity_ = false;
};

}  // namespace lance_nd::file::internal
