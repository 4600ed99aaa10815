// Builders: append values and nulls, then Finish() into an immutable ArrayData.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "lance_nd/array/array_data.h"
#include "lance_nd/array/buffer.h"
#include "lance_nd/export.h"

namespace lance_nd::array {

/// \brief Base of every builder. Builders are reusable after Finish().
class LANCE_ND_EXPORT ArrayBuilder {
 public:
  explicit ArrayBuilder(DataTypePtr type) : type_(std::move(type)) {}
  virtual ~ArrayBuilder() = default;
  ArrayBuilder(const ArrayBuilder&) = delete;
  ArrayBuilder& operator=(const ArrayBuilder&) = delete;

  const DataTypePtr& type() const { return type_; }
  int64_t length() const { return length_; }
  int64_t null_count() const { return null_count_; }

  virtual void AppendNull() = 0;
  void AppendNulls(int64_t n) {
    for (int64_t i = 0; i < n; ++i) AppendNull();
  }
  /// \brief Append slots [offset, offset+length) of `array` (same type) to this builder.
  virtual Status AppendArraySlice(const ArrayData& array, int64_t offset, int64_t length) = 0;
  virtual Result<ArrayPtr> Finish() = 0;

 protected:
  void AppendValidity(bool valid);
  BufferPtr FinishValidity();  // null when there were no nulls
  void ResetBase() {
    length_ = 0;
    null_count_ = 0;
  }

  DataTypePtr type_;
  int64_t length_ = 0;
  int64_t null_count_ = 0;
  BufferBuilder validity_;
};

/// \brief Any fixed-width type (ints, floats, float16 as uint16 bits, date, timestamp,
/// duration). T must match the type's byte width.
template <typename T>
class LANCE_ND_EXPORT PrimitiveBuilder final : public ArrayBuilder {
 public:
  explicit PrimitiveBuilder(DataTypePtr type) : ArrayBuilder(std::move(type)) {}
  void Append(T value) {
    AppendValidity(true);
    values_.AppendValue(value);
  }
  void AppendValues(const T* values, int64_t n) {
    for (int64_t i = 0; i < n; ++i) AppendValidity(true);
    values_.Append(values, n * static_cast<int64_t>(sizeof(T)));
  }
  void AppendNull() override {
    AppendValidity(false);
    values_.AppendValue(T{});
  }
  Status AppendArraySlice(const ArrayData& array, int64_t offset, int64_t length) override;
  Result<ArrayPtr> Finish() override;

 private:
  BufferBuilder values_;
};

class LANCE_ND_EXPORT BoolBuilder final : public ArrayBuilder {
 public:
  BoolBuilder();
  void Append(bool value);
  void AppendNull() override;
  Status AppendArraySlice(const ArrayData& array, int64_t offset, int64_t length) override;
  Result<ArrayPtr> Finish() override;

 private:
  BufferBuilder bits_;
};

/// \brief utf8, large_utf8, binary, large_binary.
class LANCE_ND_EXPORT BinaryBuilder final : public ArrayBuilder {
 public:
  explicit BinaryBuilder(DataTypePtr type);
  void Append(std::string_view value);
  void AppendNull() override;
  Status AppendArraySlice(const ArrayData& array, int64_t offset, int64_t length) override;
  Result<ArrayPtr> Finish() override;

 private:
  bool large_;
  BufferBuilder offsets_;
  BufferBuilder data_;
};

class LANCE_ND_EXPORT FixedSizeBinaryBuilder final : public ArrayBuilder {
 public:
  explicit FixedSizeBinaryBuilder(DataTypePtr type);
  /// \brief `value.size()` must equal the byte width (else InvalidArgument).
  Status Append(std::string_view value);
  void AppendNull() override;
  Status AppendArraySlice(const ArrayData& array, int64_t offset, int64_t length) override;
  Result<ArrayPtr> Finish() override;

 private:
  BufferBuilder values_;
};

/// \brief list and large_list. Append(true) opens a new list: then append its items to
/// value_builder(). A null or empty list adds no items.
class LANCE_ND_EXPORT ListBuilder final : public ArrayBuilder {
 public:
  ListBuilder(DataTypePtr type, std::unique_ptr<ArrayBuilder> value_builder);
  explicit ListBuilder(DataTypePtr type);  // value builder made with MakeBuilder
  void Append(bool valid = true);
  void AppendNull() override { Append(false); }
  ArrayBuilder* value_builder() { return values_.get(); }
  Status AppendArraySlice(const ArrayData& array, int64_t offset, int64_t length) override;
  Result<ArrayPtr> Finish() override;

 private:
  void AppendOffset();
  bool large_;
  BufferBuilder offsets_;
  std::unique_ptr<ArrayBuilder> values_;
};

/// \brief fixed_size_list: after Append(valid), append exactly list_size items (also for
/// a null list) to value_builder().
class LANCE_ND_EXPORT FixedSizeListBuilder final : public ArrayBuilder {
 public:
  explicit FixedSizeListBuilder(DataTypePtr type);
  void Append(bool valid = true);
  void AppendNull() override;  // appends the null list and list_size null items
  ArrayBuilder* value_builder() { return values_.get(); }
  Status AppendArraySlice(const ArrayData& array, int64_t offset, int64_t length) override;
  Result<ArrayPtr> Finish() override;

 private:
  std::unique_ptr<ArrayBuilder> values_;
};

/// \brief struct: after Append(valid), append exactly one slot to every child builder
/// (AppendNull() does that for you).
class LANCE_ND_EXPORT StructBuilder final : public ArrayBuilder {
 public:
  explicit StructBuilder(DataTypePtr type);
  void Append(bool valid = true);
  void AppendNull() override;  // null struct with a null slot in every child
  ArrayBuilder* child_builder(int i) { return children_.at(static_cast<std::size_t>(i)).get(); }
  int num_children() const { return static_cast<int>(children_.size()); }
  Status AppendArraySlice(const ArrayData& array, int64_t offset, int64_t length) override;
  Result<ArrayPtr> Finish() override;

 private:
  std::vector<std::unique_ptr<ArrayBuilder>> children_;
};

class LANCE_ND_EXPORT NullBuilder final : public ArrayBuilder {
 public:
  NullBuilder();
  void AppendNull() override;
  Status AppendArraySlice(const ArrayData& array, int64_t offset, int64_t length) override;
  Result<ArrayPtr> Finish() override;
};

/// \brief A builder for any supported type (nested types get nested builders).
LANCE_ND_EXPORT std::unique_ptr<ArrayBuilder> MakeBuilder(const DataTypePtr& type);

// Convenience constructors for tests and small arrays. nullopt is a null slot.
template <typename T>
LANCE_ND_EXPORT ArrayPtr MakePrimitiveArray(const DataTypePtr& type,
                                            const std::vector<std::optional<T>>& values);
LANCE_ND_EXPORT ArrayPtr MakeBoolArray(const std::vector<std::optional<bool>>& values);
LANCE_ND_EXPORT ArrayPtr MakeStringArray(const std::vector<std::optional<std::string>>& values,
                                         const DataTypePtr& type = Utf8());

}  // namespace lance_nd::array
