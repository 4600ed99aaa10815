// Arrow C Data Interface: zero-copy ArrowArray export and import, and record batches.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "lance_nd/array/c_data.h"
#include "lance_nd/array/c_data_internal.h"
#include "lance_nd/core/internal/checked_math.h"

namespace lance_nd::array {
namespace {

/// Buffers of each type, in C Data Interface order (see array_data.h).
int64_t ExpectedBufferCount(TypeId id) {
  switch (id) {
    case TypeId::kNull:
      return 0;
    case TypeId::kFixedSizeList:
    case TypeId::kStruct:
      return 1;
    case TypeId::kUtf8:
    case TypeId::kLargeUtf8:
    case TypeId::kBinary:
    case TypeId::kLargeBinary:
      return 3;
    default:
      return 2;
  }
}

bool HasLargeOffsets(TypeId id) {
  return id == TypeId::kLargeUtf8 || id == TypeId::kLargeBinary || id == TypeId::kLargeList;
}

bool HasOffsets(TypeId id) {
  return id == TypeId::kUtf8 || id == TypeId::kLargeUtf8 || id == TypeId::kBinary ||
         id == TypeId::kLargeBinary || id == TypeId::kList || id == TypeId::kLargeList;
}

// 64 zero bytes, standing in for absent (null) non-validity buffers of empty arrays: producers
// such as Arrow C++ reject a null offsets pointer.
alignas(64) constexpr std::uint8_t kZeros[64] = {};

// ---- Export ---------------------------------------------------------------------------------

/// Pins one exported array node. Each node (also each child) owns its own private data, so a
/// consumer may move a child out and release it independently of its parent.
struct ExportedArray {
  ArrayPtr data;
  std::vector<const void*> buffers;
  std::vector<ArrowArray> children;
  std::vector<ArrowArray*> child_pointers;
};

void ReleaseExportedArray(ArrowArray* array) {
  if (array == nullptr || array->release == nullptr) return;
  auto* priv = static_cast<ExportedArray*>(array->private_data);
  for (ArrowArray& child : priv->children) {
    if (child.release != nullptr) child.release(&child);  // skipped if moved out
  }
  delete priv;
  array->release = nullptr;
  array->private_data = nullptr;
}

Status CheckExportable(const ArrayData& data, int depth) {
  if (data.type == nullptr) return Status::InvalidArgument("cannot export an array without type");
  if (depth > internal::kMaxCDataDepth) {
    return Status::InvalidArgument("array nesting is deeper than " +
                                   std::to_string(internal::kMaxCDataDepth) + " levels");
  }
  const DataType& type = *data.type;
  const auto expected_buffers = static_cast<std::size_t>(ExpectedBufferCount(type.id()));
  if (data.buffers.size() != expected_buffers) {
    return Status::InvalidArgument("cannot export " + type.ToString() + " array with " +
                                   std::to_string(data.buffers.size()) + " buffers, expected " +
                                   std::to_string(expected_buffers));
  }
  if (data.children.size() != type.children().size()) {
    return Status::InvalidArgument("cannot export " + type.ToString() + " array with " +
                                   std::to_string(data.children.size()) + " children, expected " +
                                   std::to_string(type.children().size()));
  }
  for (const ArrayPtr& child : data.children) {
    if (child == nullptr) {
      return Status::InvalidArgument("cannot export " + type.ToString() +
                                     " array with a null child");
    }
    LND_RETURN_NOT_OK(CheckExportable(*child, depth + 1));
  }
  return Status::OK();
}

void FillArray(const ArrayPtr& data, ArrowArray* out) {
  auto* priv = new ExportedArray();
  priv->data = data;
  const TypeId id = data->type->id();
  priv->buffers.resize(data->buffers.size());
  for (std::size_t i = 0; i < data->buffers.size(); ++i) {
    const BufferPtr& b = data->buffers[i];
    const void* ptr = b == nullptr ? nullptr : b->data();
    if (i > 0 && ptr == nullptr) ptr = kZeros;  // only the validity buffer may be null
    priv->buffers[i] = ptr;
  }
  const bool has_validity = id != TypeId::kNull && !data->buffers.empty() &&
                            data->buffers[0] != nullptr && data->buffers[0]->data() != nullptr;
  if (!has_validity && !priv->buffers.empty()) priv->buffers[0] = nullptr;
  priv->children.resize(data->children.size());
  priv->child_pointers.resize(data->children.size());
  for (std::size_t i = 0; i < data->children.size(); ++i) {
    FillArray(data->children[i], &priv->children[i]);
    priv->child_pointers[i] = &priv->children[i];
  }
  out->length = data->length;
  if (id == TypeId::kNull) {
    out->null_count = data->length;
  } else if (!has_validity) {
    out->null_count = 0;
  } else {
    out->null_count = data->null_count();  // known counts help consumers (-1 is legal too)
  }
  out->offset = data->offset;
  out->n_buffers = static_cast<int64_t>(priv->buffers.size());
  out->n_children = static_cast<int64_t>(priv->children.size());
  out->buffers = priv->buffers.empty() ? nullptr : priv->buffers.data();
  out->children = priv->children.empty() ? nullptr : priv->child_pointers.data();
  out->dictionary = nullptr;
  out->release = &ReleaseExportedArray;
  out->private_data = priv;
}

// ---- Import ---------------------------------------------------------------------------------

/// The moved foreign ArrowArray; its release runs when the last buffer referencing it dies.
struct ImportedArray {
  ArrowArray array{};
  ImportedArray() = default;
  ImportedArray(const ImportedArray&) = delete;
  ImportedArray& operator=(const ImportedArray&) = delete;
  ~ImportedArray() {
    if (array.release != nullptr) array.release(&array);
  }
};

class ArrayImporter {
 public:
  explicit ArrayImporter(std::shared_ptr<const void> owner) : owner_(std::move(owner)) {}

  Result<ArrayPtr> Import(const ArrowArray& a, const DataTypePtr& type, const std::string& path,
                          int depth) {
    if (depth > internal::kMaxCDataDepth) {
      return Status::InvalidArgument("ArrowArray nesting is deeper than " +
                                     std::to_string(internal::kMaxCDataDepth) + " levels");
    }
    const TypeId id = type->id();
    const std::string where = "ArrowArray " + path + " (" + type->ToString() + ")";
    if (a.length < 0 || a.offset < 0 || a.null_count < -1) {
      return Status::InvalidArgument(where + " has length " + std::to_string(a.length) +
                                     ", offset " + std::to_string(a.offset) + ", null_count " +
                                     std::to_string(a.null_count) +
                                     "; expected length >= 0, offset >= 0, null_count >= -1");
    }
    if (a.null_count > a.length) {
      return Status::InvalidArgument(where + " has null_count " + std::to_string(a.null_count) +
                                     " greater than its length " + std::to_string(a.length));
    }
    const auto end = CheckedAdd(a.offset, a.length);
    if (!end) return Status::InvalidArgument(where + ": offset + length overflows int64");
    if (a.dictionary != nullptr) {
      return Status::InvalidArgument(where +
                                     " has a dictionary but its type is not "
                                     "dictionary-encoded; the schema and array disagree");
    }
    const int64_t expected_buffers = ExpectedBufferCount(id);
    if (a.n_buffers != expected_buffers) {
      return Status::InvalidArgument(where + " has " + std::to_string(a.n_buffers) +
                                     " buffers, expected " + std::to_string(expected_buffers));
    }
    if (a.n_buffers > 0 && a.buffers == nullptr) {
      return Status::InvalidArgument(where + " has a null buffers pointer");
    }
    const auto expected_children = static_cast<int64_t>(type->children().size());
    if (a.n_children != expected_children) {
      return Status::InvalidArgument(where + " has " + std::to_string(a.n_children) +
                                     " children, expected " + std::to_string(expected_children));
    }
    if (a.n_children > 0 && a.children == nullptr) {
      return Status::InvalidArgument(where + " has a null children pointer");
    }

    std::vector<BufferPtr> buffers(static_cast<std::size_t>(expected_buffers));
    int64_t null_count = id == TypeId::kNull ? a.length : a.null_count;
    if (id != TypeId::kNull) {
      if (a.buffers[0] == nullptr) {
        if (a.null_count > 0) {
          return Status::InvalidArgument(where + " has null_count " + std::to_string(a.null_count) +
                                         " but no validity buffer");
        }
        null_count = 0;
      } else {
        buffers[0] = Wrap(a.buffers[0], BytesForBits(*end), 1);
        null_count = a.null_count < 0 ? ArrayData::kUnknownNullCount : a.null_count;
      }
    }

    if (id == TypeId::kBool) {
      LND_ASSIGN_OR_RETURN(buffers[1], Required(a, 1, BytesForBits(*end), 1, where, "values"));
    } else if (id == TypeId::kFixedSizeBinary || type->is_primitive()) {
      const int64_t width =
          id == TypeId::kFixedSizeBinary ? type->fixed_size() : type->byte_width();
      const auto size = CheckedMul(*end, width);
      if (!size) return Status::InvalidArgument(where + ": values buffer size overflows int64");
      // Decimals are read as bytes (no 16- or 32-byte loads), so 8-byte alignment suffices.
      const int64_t align = id == TypeId::kFixedSizeBinary ? 1 : std::min<int64_t>(width, 8);
      LND_ASSIGN_OR_RETURN(buffers[1], Required(a, 1, *size, align, where, "values"));
    } else if (HasOffsets(id)) {
      const int64_t width = HasLargeOffsets(id) ? 8 : 4;
      const auto count = CheckedAdd<int64_t>(*end, 1);
      const auto size = count ? CheckedMul(*count, width) : std::nullopt;
      if (!size) return Status::InvalidArgument(where + ": offsets buffer size overflows int64");
      if (a.buffers[1] == nullptr && a.length == 0) {
        std::uint8_t* zeros = nullptr;
        buffers[1] = Buffer::AllocateZeroed(*size, &zeros);
      } else {
        LND_ASSIGN_OR_RETURN(buffers[1], Required(a, 1, *size, width, where, "offsets"));
      }
      if (id != TypeId::kList && id != TypeId::kLargeList) {
        const std::uint8_t* last_ptr = buffers[1]->data() + *end * width;
        int64_t last = 0;
        if (width == 8) {
          std::memcpy(&last, last_ptr, sizeof(int64_t));
        } else {
          int32_t last32 = 0;
          std::memcpy(&last32, last_ptr, sizeof(int32_t));
          last = last32;
        }
        if (last < 0) {
          return Status::InvalidArgument(where + " has a negative last offset " +
                                         std::to_string(last) + "; offsets must be >= 0");
        }
        LND_ASSIGN_OR_RETURN(buffers[2], Required(a, 2, last, 1, where, "data"));
      }
    }

    std::vector<ArrayPtr> children;
    children.reserve(type->children().size());
    for (std::size_t i = 0; i < type->children().size(); ++i) {
      const ArrowArray* child = a.children[i];
      const FieldPtr& field = type->children()[i];
      const std::string child_path = path + "." + field->name();
      if (child == nullptr || child->release == nullptr) {
        return Status::InvalidArgument("child " + std::to_string(i) + " of " + where + " is " +
                                       (child == nullptr ? "null" : "released"));
      }
      LND_ASSIGN_OR_RETURN(ArrayPtr c, Import(*child, field->type(), child_path, depth + 1));
      children.push_back(std::move(c));
    }
    return MakeArrayData(type, a.length, std::move(buffers), std::move(children), null_count,
                         a.offset);
  }

 private:
  /// A buffer over foreign memory kept alive by the imported array. Memory that is not aligned
  /// to `align` bytes is copied (the spec recommends, but does not require, 8-byte alignment).
  BufferPtr Wrap(const void* ptr, int64_t size, int64_t align) {
    const auto* bytes = static_cast<const std::uint8_t*>(ptr);
    if (align > 1 &&
        reinterpret_cast<std::uintptr_t>(bytes) % static_cast<std::uintptr_t>(align) != 0) {
      return Buffer::Copy(bytes, size);
    }
    return std::make_shared<const Buffer>(bytes, size, owner_);
  }

  Result<BufferPtr> Required(const ArrowArray& a, int index, int64_t size, int64_t align,
                             const std::string& where, const char* what) {
    const void* ptr = a.buffers[index];
    if (ptr == nullptr) {
      if (size == 0) return Buffer::Empty();
      return Status::InvalidArgument(where + " has a null " + std::string(what) + " buffer (" +
                                     std::to_string(index) + ") that should hold " +
                                     std::to_string(size) + " bytes");
    }
    return Wrap(ptr, size, align);
  }

  std::shared_ptr<const void> owner_;
};

}  // namespace

Status ExportArray(const ArrayPtr& array, ArrowArray* out, ArrowSchema* out_schema) {
  if (out == nullptr) {
    return Status::InvalidArgument("the output ArrowArray pointer is null; pass a struct to fill");
  }
  if (array == nullptr) return Status::InvalidArgument("cannot export a null array");
  LND_RETURN_NOT_OK(CheckExportable(*array, 0));
  if (out_schema != nullptr) LND_RETURN_NOT_OK(ExportType(*array->type, out_schema));
  FillArray(array, out);
  return Status::OK();
}

Result<ArrayPtr> ImportArray(ArrowArray* array, const DataTypePtr& type) {
  if (array == nullptr) return Status::InvalidArgument("the ArrowArray pointer is null");
  if (array->release == nullptr) {
    return Status::InvalidArgument(
        "the ArrowArray is already released (release == NULL); export a fresh one");
  }
  auto holder = std::make_shared<ImportedArray>();
  holder->array = *array;  // move: the producer's memory now belongs to the holder
  array->release = nullptr;
  if (type == nullptr) return Status::InvalidArgument("ImportArray needs a non-null type");
  const ArrowArray& moved = holder->array;
  ArrayImporter importer(std::shared_ptr<const void>(holder, &holder->array));
  holder.reset();  // the buffers (and the importer) hold the only references from now on
  LND_ASSIGN_OR_RETURN(ArrayPtr result, importer.Import(moved, type, "<root>", 0));
  LND_RETURN_NOT_OK_CTX(Validate(*result), "imported ArrowArray");
  return result;
}

Result<ArrayPtr> ImportArray(ArrowArray* array, ArrowSchema* schema) {
  auto type = ImportType(schema);
  if (!type.ok()) {
    if (array != nullptr && array->release != nullptr) array->release(array);
    return std::move(type).status().WithContext("importing the ArrowArray's schema");
  }
  return ImportArray(array, *type);
}

Status ExportRecordBatch(const RecordBatch& batch, ArrowArray* out, ArrowSchema* out_schema) {
  if (out == nullptr) {
    return Status::InvalidArgument("the output ArrowArray pointer is null; pass a struct to fill");
  }
  const ArrayPtr as_struct = batch.ToStructArray();
  LND_RETURN_NOT_OK(CheckExportable(*as_struct, 0));
  if (out_schema != nullptr) LND_RETURN_NOT_OK(ExportSchema(*batch.schema(), out_schema));
  FillArray(as_struct, out);
  return Status::OK();
}

Result<RecordBatchPtr> ImportRecordBatch(ArrowArray* array, const SchemaPtr& schema) {
  if (schema == nullptr) {
    if (array != nullptr && array->release != nullptr) array->release(array);
    return Status::InvalidArgument("ImportRecordBatch needs a non-null schema");
  }
  LND_ASSIGN_OR_RETURN(ArrayPtr as_struct, ImportArray(array, Struct(schema->fields())));
  if (as_struct->null_count() != 0) {
    return Status::InvalidArgument(
        "the imported record batch has " + std::to_string(as_struct->null_count()) +
        " null rows at the top level; a batch must be a struct array without nulls");
  }
  std::vector<ArrayPtr> columns;
  columns.reserve(as_struct->children.size());
  for (const ArrayPtr& child : as_struct->children) {
    if (as_struct->offset == 0 && child->length == as_struct->length) {
      columns.push_back(child);
    } else {
      LND_ASSIGN_OR_RETURN(ArrayPtr sliced, Slice(child, as_struct->offset, as_struct->length));
      columns.push_back(std::move(sliced));
    }
  }
  return RecordBatch::Make(schema, as_struct->length, std::move(columns));
}

Result<RecordBatchPtr> ImportRecordBatch(ArrowArray* array, ArrowSchema* schema) {
  auto imported = ImportSchema(schema);
  if (!imported.ok()) {
    if (array != nullptr && array->release != nullptr) array->release(array);
    return std::move(imported).status().WithContext("importing the record batch's schema");
  }
  return ImportRecordBatch(array, *imported);
}

}  // namespace lance_nd::array
