// EncodeRows: nd record batches -> one Arrow row each, in the lance-nd table layout.
#include <cstring>
#include <limits>
#include <span>
#include <unordered_map>

#include "lance_nd/array/builder.h"
#include "lance_nd/nd/encoded_schema.h"
#include "lance_nd/nd/errors.h"
#include "lance_nd/nd/format.h"
#include "lance_nd/nd/row_encoding.h"
#include "lance_nd/nd/schema_merge.h"
#include "retype.h"

namespace lance_nd::nd {
namespace {

using array::ArrayPtr;
using array::BufferPtr;
using array::DataTypePtr;
using array::FieldPtr;

constexpr int64_t kMaxListLength = std::numeric_limits<int32_t>::max();

/// Slots [start, start + length) of `array` (null: `length` nulls), one piece of a gathered array.
struct Run {
  const array::ArrayData* array;
  int64_t start;
  int64_t length;
};

/// Whether `run` can be copied as raw values of `type` (same type, slots in range).
bool Gatherable(const Run& run, const DataTypePtr& type) {
  if (run.array == nullptr || run.length == 0) return true;
  const array::ArrayData& a = *run.array;
  if (run.start < 0 || run.start + run.length > a.length) return false;
  return a.type == type || a.type->Equals(*type, /*check_metadata=*/false);
}

/// A validity bitmap of `n` slots, dropped when every slot is valid.
class ValidityWriter {
 public:
  explicit ValidityWriter(int64_t n)
      : buffer_(array::Buffer::AllocateZeroed(array::BytesForBits(n), &bits_)) {}
  // Slots [pos, pos + run.length) as valid as the run's.
  void Mark(const Run& run, int64_t pos) {
    if (run.array == nullptr) {
      nulls_ += run.length;
      return;
    }
    const bool all_valid = run.array->validity() == nullptr;
    for (int64_t i = 0; i < run.length; ++i) {
      if (all_valid || run.array->IsValid(run.start + i)) {
        array::SetBit(bits_, pos + i);
      } else {
        ++nulls_;
      }
    }
  }
  int64_t nulls() const { return nulls_; }
  BufferPtr Finish() { return nulls_ == 0 ? nullptr : std::move(buffer_); }

 private:
  std::uint8_t* bits_ = nullptr;
  BufferPtr buffer_;
  int64_t nulls_ = 0;
};

ArrayPtr GatherFixedWidth(const DataTypePtr& type, std::span<const Run> runs, int64_t total) {
  const int64_t w = type->byte_width();
  std::uint8_t* out = nullptr;
  BufferPtr values = array::Buffer::AllocateZeroed(total * w, &out);  // null slots are zeros
  ValidityWriter validity(total);
  int64_t pos = 0;
  for (const Run& r : runs) {
    if (r.array != nullptr && r.length > 0) {
      const std::uint8_t* src = r.array->buffers.at(1)->data() + (r.array->offset + r.start) * w;
      std::memcpy(out + pos * w, src, static_cast<std::size_t>(r.length * w));
    }
    validity.Mark(r, pos);
    pos += r.length;
  }
  const int64_t nulls = validity.nulls();
  return array::MakeArrayData(type, total, {validity.Finish(), std::move(values)}, {}, nulls);
}

/// As BinaryBuilder: a null slot takes no bytes. Null when the bytes overflow the offsets.
template <typename O>
ArrayPtr GatherBinary(const DataTypePtr& type, std::span<const Run> runs, int64_t total) {
  std::vector<O> offsets;
  offsets.reserve(static_cast<std::size_t>(total) + 1);
  offsets.push_back(0);
  std::vector<std::uint8_t> data;
  ValidityWriter validity(total);
  int64_t pos = 0;
  for (const Run& r : runs) {
    validity.Mark(r, pos);
    pos += r.length;
    for (int64_t i = 0; i < r.length; ++i) {
      if (r.array != nullptr && r.array->IsValid(r.start + i)) {
        const O* off = r.array->values<O>(1) + r.start + i;
        const std::uint8_t* bytes = r.array->buffers.at(2)->data();
        data.insert(data.end(), bytes + off[0], bytes + off[1]);
        if (data.size() > static_cast<std::size_t>(std::numeric_limits<O>::max())) return nullptr;
      }
      offsets.push_back(static_cast<O>(data.size()));
    }
  }
  const int64_t nulls = validity.nulls();
  return array::MakeArrayData(
      type, total,
      {validity.Finish(),
       array::Buffer::Copy(offsets.data(), static_cast<int64_t>(offsets.size() * sizeof(O))),
       array::Buffer::FromVector(std::move(data))},
      {}, nulls);
}

/// The runs' slots as one array of `type` without a builder, for fixed-width and binary
/// types; null when there is no such path (the caller builds the array slot by slot).
ArrayPtr Gather(const DataTypePtr& type, std::span<const Run> runs) {
  int64_t total = 0;
  for (const Run& r : runs) {
    if (!Gatherable(r, type)) return nullptr;
    total += r.length;
  }
  if (type->id() != array::TypeId::kBool && type->byte_width() > 0) {
    return GatherFixedWidth(type, runs, total);
  }
  switch (type->id()) {
    case array::TypeId::kUtf8:
    case array::TypeId::kBinary:
      return GatherBinary<int32_t>(type, runs, total);
    case array::TypeId::kLargeUtf8:
    case array::TypeId::kLargeBinary:
      return GatherBinary<int64_t>(type, runs, total);
    default:
      return nullptr;
  }
}

/// The value of `key`, or null (as Attributes::Get, without a shared-pointer copy).
const array::ArrayData* FindAttribute(const Attributes& attributes, std::string_view key) {
  for (const auto& [k, v] : attributes.entries()) {
    if (k == key) return v.get();
  }
  return nullptr;
}

/// The union of attribute keys of one column (or of the global attributes).
class KeyUnion {
 public:
  KeyUnion() = default;
  /// A closed union: exactly `fields` (a target schema); unknown keys are errors.
  explicit KeyUnion(const std::vector<FieldPtr>& fields) : closed_(true) {
    for (const FieldPtr& f : fields) {
      index_.emplace(f->name(), keys_.size());
      keys_.push_back({f->name(), f->type(), kTargetRow});
    }
  }

  // `array` names the column in messages ("array 'temp'"); null: the global attributes.
  Status Add(const Attributes& attributes, std::size_t row, const std::string* array = nullptr) {
    for (const auto& [key, value] : attributes.entries()) {
      if (key.empty()) {
        return InvalidAttribute("row " + std::to_string(row) + ": " + Owner(array) +
                                " has an attribute with an empty key; name every attribute");
      }
      const std::size_t found = Find(key);
      if (found == kMissing && closed_) {
        return SchemaMismatch("attribute '" + key + "' of " + Owner(array) + " in row " +
                              std::to_string(row) +
                              " is not in the target schema; extend the schema first");
      }
      if (found == kMissing) {
        index_.emplace(key, keys_.size());
        keys_.push_back({key, value->type, row});
        continue;
      }
      Key& k = keys_[found];
      if (k.type == value->type || k.type->Equals(*value->type, /*check_metadata=*/!closed_)) {
        continue;
      }
      // Types that differ only in the nullability of list items or struct children are one type
      // to a user: an open union keeps the nullable one; a target schema must be that one.
      if (internal::SameUpToNullability(*k.type, *value->type, /*check_metadata=*/!closed_)) {
        const DataTypePtr both = internal::NullableUnion(k.type, value->type);
        if (!closed_) {
          k.type = both;
          continue;
        }
        if (both->Equals(*k.type, /*check_metadata=*/false)) continue;
      }
      return SchemaMismatch("attribute '" + key + "' of " + Owner(array) + " has type " +
                            value->type->ToString() + " in row " + std::to_string(row) + " but " +
                            k.type->ToString() +
                            (k.first_row == kTargetRow ? std::string(" in the target schema")
                                                       : " in row " + std::to_string(k.first_row)) +
                            "; one attribute key has one type within a column (cast it)");
    }
    return Status::OK();
  }

  bool empty() const { return keys_.empty(); }

  std::vector<FieldPtr> Fields() const {
    std::vector<FieldPtr> out;
    out.reserve(keys_.size());
    for (const Key& k : keys_) out.push_back(array::MakeField(k.name, k.type, true));
    return out;
  }

  /// One child per key: the row's value or a null. `present[r]` is null for rows without
  /// attributes at all.
  Result<std::vector<ArrayPtr>> Build(const std::vector<const Attributes*>& per_row) const {
    std::vector<ArrayPtr> children;
    children.reserve(keys_.size());
    std::vector<Run> runs(per_row.size(), Run{nullptr, 0, 1});
    for (const Key& k : keys_) {
      for (std::size_t r = 0; r < per_row.size(); ++r) {
        runs[r].array = per_row[r] == nullptr ? nullptr : FindAttribute(*per_row[r], k.name);
      }
      if (ArrayPtr child = Gather(k.type, runs)) {
        children.push_back(std::move(child));
        continue;
      }
      auto builder = array::MakeBuilder(k.type);
      for (const Attributes* attrs : per_row) {
        const ArrayPtr v = attrs == nullptr ? nullptr : attrs->Get(k.name);
        if (v) {
          // A value whose type is the key's with fewer nullable fields (see Add).
          LND_ASSIGN_OR_RETURN(const ArrayPtr typed, internal::Retype(v, k.type));
          LND_RETURN_NOT_OK(builder->AppendArraySlice(*typed, 0, 1));
        } else {
          builder->AppendNull();
        }
      }
      LND_ASSIGN_OR_RETURN(ArrayPtr child, builder->Finish());
      children.push_back(std::move(child));
    }
    return children;
  }

 private:
  struct Key {
    std::string name;
    DataTypePtr type;
    std::size_t first_row;
  };
  static constexpr std::size_t kTargetRow = static_cast<std::size_t>(-1);
  static constexpr std::size_t kMissing = static_cast<std::size_t>(-1);
  static constexpr std::size_t kLinearKeys = 16;  // up to this many keys, a scan beats hashing

  static std::string Owner(const std::string* array) {
    return array == nullptr ? std::string("the global attributes") : "array '" + *array + "'";
  }
  std::size_t Find(const std::string& key) const {
    if (keys_.size() <= kLinearKeys) {
      for (std::size_t i = 0; i < keys_.size(); ++i) {
        if (keys_[i].name == key) return i;
      }
      return kMissing;
    }
    const auto it = index_.find(key);
    return it == index_.end() ? kMissing : it->second;
  }
  bool closed_ = false;
  std::vector<Key> keys_;
  std::unordered_map<std::string, std::size_t> index_;
};

struct ColumnPlan {
  FieldPtr logical;
  std::size_t first_row = 0;
  KeyUnion attrs;
  std::vector<const NdArrowArray*> per_row;  // null where the row lacks the array
};

/// A validity bitmap for `valid`, or null when every row is valid.
BufferPtr Validity(const std::vector<bool>& valid, int64_t* null_count) {
  *null_count = 0;
  for (bool v : valid) *null_count += v ? 0 : 1;
  if (*null_count == 0) return nullptr;
  std::uint8_t* bits = nullptr;
  BufferPtr buffer =
      array::Buffer::AllocateZeroed(array::BytesForBits(static_cast<int64_t>(valid.size())), &bits);
  for (std::size_t i = 0; i < valid.size(); ++i) {
    if (valid[i]) array::SetBit(bits, static_cast<int64_t>(i));
  }
  return buffer;
}

/// The dim_names (list<utf8>) and dim_sizes (list<uint32>) children of an nd column.
struct DimLists {
  ArrayPtr names;
  ArrayPtr sizes;
};

Result<DimLists> EncodeDimsWithBuilders(const std::vector<const NdArrowArray*>& per_row,
                                        const DataTypePtr& names_type,
                                        const DataTypePtr& sizes_type) {
  array::ListBuilder names_builder(names_type,
                                   std::make_unique<array::BinaryBuilder>(array::Utf8()));
  auto* names = static_cast<array::BinaryBuilder*>(names_builder.value_builder());
  array::ListBuilder sizes_builder(
      sizes_type, std::make_unique<array::PrimitiveBuilder<uint32_t>>(array::UInt32()));
  auto* sizes = static_cast<array::PrimitiveBuilder<uint32_t>*>(sizes_builder.value_builder());
  for (const NdArrowArray* nd : per_row) {
    names_builder.Append(true);
    sizes_builder.Append(true);
    if (nd == nullptr) continue;
    for (const Dimension& d : nd->dimensions().dims()) {
      names->Append(d.name);
      sizes->Append(static_cast<uint32_t>(d.size));  // Dimensions guarantees it fits
    }
  }
  DimLists out;
  LND_ASSIGN_OR_RETURN(out.names, names_builder.Finish());
  LND_ASSIGN_OR_RETURN(out.sizes, sizes_builder.Finish());
  return out;
}

template <typename T>
BufferPtr CopyVector(const std::vector<T>& v) {
  return array::Buffer::Copy(v.data(), static_cast<int64_t>(v.size() * sizeof(T)));
}

/// As EncodeDimsWithBuilders, the buffers written directly (int32 list offsets only).
Result<DimLists> EncodeDims(const std::vector<const NdArrowArray*>& per_row,
                            const DataTypePtr& names_type, const DataTypePtr& sizes_type) {
  if (names_type->id() != array::TypeId::kList || sizes_type->id() != array::TypeId::kList) {
    return EncodeDimsWithBuilders(per_row, names_type, sizes_type);
  }
  std::vector<int32_t> list_offsets{0};
  list_offsets.reserve(per_row.size() + 1);
  std::vector<int32_t> name_offsets{0};
  std::vector<std::uint8_t> chars;
  std::vector<uint32_t> sizes;
  for (const NdArrowArray* nd : per_row) {
    if (nd != nullptr) {
      for (const Dimension& d : nd->dimensions().dims()) {
        chars.insert(chars.end(), d.name.begin(), d.name.end());
        if (chars.size() > static_cast<std::size_t>(kMaxListLength) ||
            sizes.size() >= static_cast<std::size_t>(kMaxListLength)) {
          return EncodeDimsWithBuilders(per_row, names_type, sizes_type);
        }
        name_offsets.push_back(static_cast<int32_t>(chars.size()));
        sizes.push_back(static_cast<uint32_t>(d.size));  // Dimensions guarantees it fits
      }
    }
    list_offsets.push_back(static_cast<int32_t>(sizes.size()));
  }
  const auto n = static_cast<int64_t>(per_row.size());
  const auto total = static_cast<int64_t>(sizes.size());
  ArrayPtr names = array::MakeArrayData(
      array::Utf8(), total,
      {nullptr, CopyVector(name_offsets), array::Buffer::FromVector(std::move(chars))}, {}, 0);
  ArrayPtr values =
      array::MakeArrayData(array::UInt32(), total, {nullptr, CopyVector(sizes)}, {}, 0);
  BufferPtr offsets = CopyVector(list_offsets);
  return DimLists{array::MakeArrayData(names_type, n, {nullptr, offsets}, {std::move(names)}, 0),
                  array::MakeArrayData(sizes_type, n, {nullptr, offsets}, {std::move(values)}, 0)};
}

/// The pieces' values concatenated as `type`, or null (see Gather).
ArrayPtr GatherPieces(const std::vector<ArrayPtr>& pieces, const DataTypePtr& type) {
  std::vector<Run> runs;
  runs.reserve(pieces.size());
  for (const ArrayPtr& p : pieces) runs.push_back(Run{p.get(), 0, p->length});
  return Gather(type, runs);
}

Result<ArrayPtr> EncodeColumn(const ColumnPlan& plan, const FieldPtr& encoded) {
  const auto n = static_cast<int64_t>(plan.per_row.size());
  const DataTypePtr& storage = encoded->type();
  const auto& child_fields = storage->children();

  // values: int32 offsets over the concatenated values of the present rows.
  std::vector<int32_t> offsets;
  offsets.reserve(plan.per_row.size() + 1);
  offsets.push_back(0);
  int64_t total = 0;
  std::vector<ArrayPtr> pieces;
  for (const NdArrowArray* nd : plan.per_row) {
    if (nd != nullptr) {
      total += nd->values()->length;
      if (total > kMaxListLength) {
        return InvalidArgument("array '" + plan.logical->name() + "' holds " +
                               std::to_string(total) +
                               "+ values in these rows, more than one list column can hold (" +
                               std::to_string(kMaxListLength) + "); encode fewer rows at once");
      }
      if (nd->values()->length > 0) pieces.push_back(nd->values());
    }
    offsets.push_back(static_cast<int32_t>(total));
  }
  ArrayPtr flat;
  if (pieces.empty()) {
    flat = array::MakeEmptyArray(plan.logical->type());
  } else if (pieces.size() == 1) {
    flat = pieces[0];
  } else if (ArrayPtr gathered = GatherPieces(pieces, child_fields[0]->type()->value_type())) {
    flat = std::move(gathered);
  } else {
    std::vector<ArrayPtr> retyped;
    retyped.reserve(pieces.size());
    for (const ArrayPtr& piece : pieces) {
      LND_ASSIGN_OR_RETURN(ArrayPtr t, internal::Retype(piece, pieces[0]->type));
      retyped.push_back(std::move(t));
    }
    LND_ASSIGN_OR_RETURN(flat, array::Concatenate(retyped));
  }
  LND_ASSIGN_OR_RETURN(flat, internal::Retype(flat, child_fields[0]->type()->value_type()));
  ArrayPtr values = array::MakeArrayData(
      child_fields[0]->type(), n,
      {nullptr,
       array::Buffer::Copy(offsets.data(), static_cast<int64_t>(offsets.size() * sizeof(int32_t)))},
      {flat}, 0);

  // dim_names and dim_sizes: empty lists for absent rows.
  LND_ASSIGN_OR_RETURN(DimLists dims,
                       EncodeDims(plan.per_row, child_fields[1]->type(), child_fields[2]->type()));
  ArrayPtr dim_names = std::move(dims.names);
  ArrayPtr dim_sizes = std::move(dims.sizes);
  std::vector<bool> valid;
  valid.reserve(plan.per_row.size());
  std::vector<const Attributes*> attrs;
  attrs.reserve(plan.per_row.size());
  for (const NdArrowArray* nd : plan.per_row) {
    valid.push_back(nd != nullptr);
    attrs.push_back(nd == nullptr ? nullptr : &nd->attributes());
  }

  std::vector<ArrayPtr> children = {values, dim_names, dim_sizes};
  if (child_fields.size() == 4) {
    LND_ASSIGN_OR_RETURN(std::vector<ArrayPtr> attr_children, plan.attrs.Build(attrs));
    children.push_back(
        array::MakeArrayData(child_fields[3]->type(), n, {nullptr}, std::move(attr_children), 0));
  }
  int64_t null_count = 0;
  BufferPtr validity = Validity(valid, &null_count);
  return array::MakeArrayData(storage, n, {validity}, std::move(children), null_count);
}

Status CheckReserved(const std::string& name, std::size_t row) {
  if (!IsReservedName(name)) return Status::OK();
  return SchemaMismatch("variable name '" + name + "' in row " + std::to_string(row) +
                        " is reserved ('" + std::string(kGlobalAttributesField) +
                        "' and names starting with '" + std::string(kStatsPrefix) +
                        "' belong to the table format); rename the array");
}

Result<ArrayPtr> EncodeGlobals(std::span<const NdRecordBatch> rows, const KeyUnion& globals,
                               const DataTypePtr& type) {
  std::vector<const Attributes*> per_row;
  std::vector<bool> valid;
  for (const NdRecordBatch& row : rows) {
    const bool has = !row.attributes().empty();
    per_row.push_back(has ? &row.attributes() : nullptr);
    valid.push_back(has);
  }
  LND_ASSIGN_OR_RETURN(std::vector<ArrayPtr> children, globals.Build(per_row));
  int64_t null_count = 0;
  BufferPtr validity = Validity(valid, &null_count);
  return array::MakeArrayData(type, static_cast<int64_t>(rows.size()), {validity},
                              std::move(children), null_count);
}

}  // namespace

Result<array::RecordBatchPtr> EncodeRows(std::span<const NdRecordBatch> rows) {
  const std::size_t n = rows.size();
  std::vector<ColumnPlan> plans;
  std::unordered_map<std::string, std::size_t> by_name;
  KeyUnion globals;
  bool any_globals = false;
  array::Metadata metadata;
  std::unordered_map<std::string, std::size_t> metadata_row;

  for (std::size_t r = 0; r < n; ++r) {
    const NdRecordBatch& row = rows[r];
    for (const auto& [key, value] : row.schema()->metadata().entries()) {
      const auto existing = metadata.Get(key);
      if (!existing) {
        metadata.Set(key, value);
        metadata_row[key] = r;
      } else if (*existing != value) {
        return SchemaMismatch("schema metadata '" + key + "' is '" + value + "' in row " +
                              std::to_string(r) + " but '" + std::string(*existing) + "' in row " +
                              std::to_string(metadata_row[key]) +
                              "; rows encoded together must agree on schema metadata");
      }
    }
    for (int c = 0; c < row.num_columns(); ++c) {
      const FieldPtr& field = row.schema()->field(c);
      const std::string& name = field->name();
      LND_RETURN_NOT_OK(CheckReserved(name, r));
      auto it = by_name.find(name);
      if (it == by_name.end()) {
        it = by_name.emplace(name, plans.size()).first;
        ColumnPlan plan;
        plan.logical = field;
        plan.first_row = r;
        plan.per_row.assign(n, nullptr);
        plans.push_back(std::move(plan));
      }
      ColumnPlan& plan = plans[it->second];
      const NdArrowArray& nd = row.column(c);
      if (!plan.logical->type()->Equals(*nd.value_type())) {
        return SchemaMismatch("array '" + name + "' has value type " + nd.value_type()->ToString() +
                              " in row " + std::to_string(r) + " but " +
                              plan.logical->type()->ToString() + " in row " +
                              std::to_string(plan.first_row) +
                              "; one array name has one value type (cast the values)");
      }
      LND_RETURN_NOT_OK(plan.attrs.Add(nd.attributes(), r, &name));
      plan.per_row[r] = &nd;
    }
    if (!row.attributes().empty()) {
      any_globals = true;
      LND_RETURN_NOT_OK(globals.Add(row.attributes(), r));
    }
  }

  std::vector<FieldPtr> fields;
  std::vector<ArrayPtr> columns;
  fields.reserve(plans.size() + 1);
  columns.reserve(plans.size() + 1);
  for (const ColumnPlan& plan : plans) {
    FieldPtr encoded = EncodedField(*plan.logical, plan.attrs.Fields());
    LND_ASSIGN_OR_RETURN(ArrayPtr column, EncodeColumn(plan, encoded));
    fields.push_back(std::move(encoded));
    columns.push_back(std::move(column));
  }
  if (any_globals) {
    FieldPtr field = GlobalAttributesField(globals.Fields());
    LND_ASSIGN_OR_RETURN(ArrayPtr column, EncodeGlobals(rows, globals, field->type()));
    columns.push_back(std::move(column));
    fields.push_back(std::move(field));
  }
  return array::RecordBatch::Make(array::MakeSchema(std::move(fields), std::move(metadata)),
                                  static_cast<int64_t>(n), std::move(columns));
}

Result<array::RecordBatchPtr> EncodeRowsAs(std::span<const NdRecordBatch> rows,
                                           const array::Schema& target) {
  LND_RETURN_NOT_OK(ValidateEncodedSchema(target));
  const std::size_t n = rows.size();
  // One plan per nd column of the target, in target order; stats columns are skipped.
  std::vector<ColumnPlan> plans;
  std::unordered_map<std::string, std::size_t> by_name;
  int global_index = -1;
  for (int i = 0; i < target.num_fields(); ++i) {
    const FieldPtr& field = target.field(i);
    if (field->name().starts_with(kStatsPrefix)) continue;
    if (IsGlobalAttributesField(*field) || field->name() == kGlobalAttributesField) {
      global_index = i;
      continue;
    }
    LND_ASSIGN_OR_RETURN(NdStorageLayout layout, ParseNdField(*field));
    LND_ASSIGN_OR_RETURN(FieldPtr logical, LogicalField(*field));
    ColumnPlan plan;
    plan.logical = std::move(logical);
    plan.attrs = KeyUnion(layout.attribute_fields);
    plan.per_row.assign(n, nullptr);
    by_name.emplace(field->name(), plans.size());
    plans.push_back(std::move(plan));
  }
  KeyUnion globals(global_index >= 0 ? target.field(global_index)->type()->children()
                                     : std::vector<FieldPtr>{});
  for (std::size_t r = 0; r < n; ++r) {
    const NdRecordBatch& row = rows[r];
    for (int c = 0; c < row.num_columns(); ++c) {
      const std::string& name = row.column_name(c);
      LND_RETURN_NOT_OK(CheckReserved(name, r));
      auto it = by_name.find(name);
      if (it == by_name.end()) {
        return SchemaMismatch("array '" + name + "' in row " + std::to_string(r) +
                              " is not in the target schema; extend the schema first");
      }
      ColumnPlan& plan = plans[it->second];
      const NdArrowArray& nd = row.column(c);
      if (!plan.logical->type()->Equals(*nd.value_type(), /*check_metadata=*/false)) {
        return SchemaMismatch("array '" + name + "' has value type " + nd.value_type()->ToString() +
                              " in row " + std::to_string(r) + " but " +
                              plan.logical->type()->ToString() +
                              " in the target schema; one array name has one value type "
                              "(cast the values)");
      }
      LND_RETURN_NOT_OK(plan.attrs.Add(nd.attributes(), r, &name));
      plan.per_row[r] = &nd;
    }
    if (!row.attributes().empty()) {
      if (global_index < 0) {
        return SchemaMismatch(
            "row " + std::to_string(r) + " has global attributes but the target schema has no " +
            std::string(kGlobalAttributesField) + " column; extend the schema first");
      }
      LND_RETURN_NOT_OK(globals.Add(row.attributes(), r));
    }
  }
  std::vector<FieldPtr> fields;
  std::vector<ArrayPtr> columns;
  std::size_t next_plan = 0;
  for (int i = 0; i < target.num_fields(); ++i) {
    const FieldPtr& field = target.field(i);
    if (field->name().starts_with(kStatsPrefix)) continue;
    if (i == global_index) {
      LND_ASSIGN_OR_RETURN(ArrayPtr column, EncodeGlobals(rows, globals, field->type()));
      columns.push_back(std::move(column));
    } else {
      LND_ASSIGN_OR_RETURN(ArrayPtr column, EncodeColumn(plans[next_plan], field));
      ++next_plan;
      columns.push_back(std::move(column));
    }
    fields.push_back(field);
  }
  return array::RecordBatch::Make(array::MakeSchema(std::move(fields), target.metadata()),
                                  static_cast<int64_t>(n), std::move(columns));
}

}  // namespace lance_nd::nd
