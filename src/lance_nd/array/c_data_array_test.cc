// Tests of zero-copy ArrowArray export/import and record batches through the C Data Interface.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "lance_nd/array/builder.h"
#include "lance_nd/array/c_data.h"
#include "lance_nd/testing/status_matchers.h"

namespace lance_nd::array {
namespace {

// ---- Sample arrays of every type ------------------------------------------------------------

template <typename T>
bool AppendPrimitive(ArrayBuilder* b, int64_t i) {
  auto* p = dynamic_cast<PrimitiveBuilder<T>*>(b);
  if (p == nullptr) return false;
  p->Append(static_cast<T>(i * 7 - 3));
  return true;
}

/// Appends slot `i` (a deterministic value, or a null every fourth slot) to any builder.
void AppendSample(ArrayBuilder* b, int64_t i) {
  if (i % 4 == 2 || b->type()->id() == TypeId::kNull) {
    b->AppendNull();
    return;
  }
  if (AppendPrimitive<int8_t>(b, i) || AppendPrimitive<int16_t>(b, i) ||
      AppendPrimitive<int32_t>(b, i) || AppendPrimitive<int64_t>(b, i) ||
      AppendPrimitive<uint8_t>(b, i) || AppendPrimitive<uint16_t>(b, i) ||
      AppendPrimitive<uint32_t>(b, i) || AppendPrimitive<uint64_t>(b, i) ||
      AppendPrimitive<float>(b, i) || AppendPrimitive<double>(b, i)) {
    return;
  }
  if (auto* p = dynamic_cast<BoolBuilder*>(b)) {
    p->Append(i % 3 == 0);
  } else if (auto* p2 = dynamic_cast<BinaryBuilder*>(b)) {
    p2->Append(std::string(static_cast<std::size_t>(i % 5), static_cast<char>('a' + i % 26)) +
               std::to_string(i));
  } else if (auto* p3 = dynamic_cast<FixedSizeBinaryBuilder*>(b)) {
    ASSERT_TRUE(p3->Append(std::string(static_cast<std::size_t>(b->type()->fixed_size()),
                                       static_cast<char>('A' + i % 26)))
                    .ok());
  } else if (auto* p4 = dynamic_cast<ListBuilder*>(b)) {
    p4->Append(true);
    for (int64_t k = 0; k < i % 4; ++k) AppendSample(p4->value_builder(), i * 10 + k);
  } else if (auto* p5 = dynamic_cast<FixedSizeListBuilder*>(b)) {
    p5->Append(true);
    for (int64_t k = 0; k < b->type()->fixed_size(); ++k) {
      AppendSample(p5->value_builder(), i * 10 + k);
    }
  } else if (auto* p6 = dynamic_cast<StructBuilder*>(b)) {
    p6->Append(true);
    for (int c = 0; c < p6->num_children(); ++c) AppendSample(p6->child_builder(c), i + c + 1);
  } else {
    FAIL() << "no sample for " << b->type()->ToString();
  }
}

ArrayPtr SampleArray(const DataTypePtr& type, int64_t length) {
  std::unique_ptr<ArrayBuilder> b = MakeBuilder(type);
  for (int64_t i = 0; i < length; ++i) AppendSample(b.get(), i);
  auto r = b->Finish();
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return r.ok() ? *r : nullptr;
}

std::vector<DataTypePtr> AllTypes() {
  return {Null(),
          Bool(),
          Int8(),
          UInt8(),
          Int16(),
          UInt16(),
          Int32(),
          UInt32(),
          Int64(),
          UInt64(),
          Float16(),
          Float32(),
          Float64(),
          Utf8(),
          LargeUtf8(),
          Binary(),
          LargeBinary(),
          FixedSizeBinary(5),
          Date32(),
          Date64(),
          Timestamp(TimeUnit::kMicro, "UTC"),
          Duration(TimeUnit::kNano),
          List(Int32()),
          LargeList(Utf8()),
          FixedSizeList(Float32(), 3),
          Struct({MakeField("a", Int64()), MakeField("b", Utf8(), false)}),
          List(Struct({MakeField("x", FixedSizeList(Int16(), 2)), MakeField("y", LargeBinary())})),
          Struct({MakeField("inner", Struct({MakeField("l", LargeList(Bool()))}))})};
}

/// Export with schema, import with schema, compare.
void ExpectRoundTrip(const ArrayPtr& array) {
  ArrowArray c_array{};
  ArrowSchema c_schema{};
  LND_ASSERT_OK(ExportArray(array, &c_array, &c_schema));
  EXPECT_EQ(c_array.length, array->length);
  EXPECT_EQ(c_array.offset, array->offset);
  LND_ASSERT_OK_AND_ASSIGN(ArrayPtr back, ImportArray(&c_array, &c_schema));
  EXPECT_EQ(c_array.release, nullptr);
  EXPECT_EQ(c_schema.release, nullptr);
  EXPECT_TRUE(back->type->Equals(*array->type)) << back->type->ToString();
  EXPECT_TRUE(ArrayEquals(*back, *array)) << "expected\n"
                                          << PrettyPrint(*array) << "\ngot\n"
                                          << PrettyPrint(*back);
  EXPECT_EQ(back->null_count(), array->null_count());
}

TEST(CDataArray, EveryTypeRoundTrips) {
  for (const DataTypePtr& type : AllTypes()) {
    SCOPED_TRACE(type->ToString());
    for (int64_t length : {0, 1, 9, 70}) {
      ArrayPtr array = SampleArray(type, length);
      ASSERT_NE(array, nullptr);
      ExpectRoundTrip(array);
    }
  }
}

TEST(CDataArray, SlicedArraysRoundTripWithOffsets) {
  for (const DataTypePtr& type : AllTypes()) {
    SCOPED_TRACE(type->ToString());
    ArrayPtr array = SampleArray(type, 37);
    for (auto [off, len] : {std::pair<int64_t, int64_t>{1, 30}, {13, 0}, {5, 32}, {36, 1}}) {
      LND_ASSERT_OK_AND_ASSIGN(ArrayPtr sliced, Slice(array, off, len));
      ExpectRoundTrip(sliced);
    }
  }
}

TEST(CDataArray, ExportIsZeroCopyAndImportIsZeroCopy) {
  ArrayPtr array = SampleArray(Utf8(), 20);
  ArrowArray c{};
  LND_ASSERT_OK(ExportArray(array, &c));
  ASSERT_EQ(c.n_buffers, 3);
  EXPECT_EQ(c.buffers[0], array->buffers[0]->data());
  EXPECT_EQ(c.buffers[1], array->buffers[1]->data());
  EXPECT_EQ(c.buffers[2], array->buffers[2]->data());
  EXPECT_EQ(c.null_count, array->null_count());
  LND_ASSERT_OK_AND_ASSIGN(ArrayPtr back, ImportArray(&c, Utf8()));
  EXPECT_EQ(back->buffers[1]->data(), array->buffers[1]->data());
  EXPECT_EQ(back->buffers[2]->data(), array->buffers[2]->data());
}

TEST(CDataArray, ExportPinsTheArrayUntilRelease) {
  ArrayPtr array = SampleArray(List(Int64()), 10);
  std::weak_ptr<const ArrayData> weak = array;
  std::weak_ptr<const ArrayData> weak_child = array->children[0];
  const std::uint8_t* values = array->children[0]->buffers[1]->data();
  const int64_t n_values = array->children[0]->length;
  ASSERT_GT(n_values, 3);
  std::vector<int64_t> copy(static_cast<std::size_t>(n_values));
  std::memcpy(copy.data(), values, copy.size() * sizeof(int64_t));
  ArrowArray c{};
  LND_ASSERT_OK(ExportArray(array, &c));
  array.reset();
  EXPECT_FALSE(weak.expired());
  EXPECT_EQ(c.children[0]->buffers[1], values);
  // Read the values after our own reference is gone (ASan would flag a use after free).
  EXPECT_EQ(std::memcmp(c.children[0]->buffers[1], copy.data(), copy.size() * sizeof(int64_t)), 0);
  c.release(&c);
  EXPECT_EQ(c.release, nullptr);
  EXPECT_TRUE(weak.expired());
  EXPECT_TRUE(weak_child.expired());
}

TEST(CDataArray, ConsumerMayMoveAChildOut) {
  const DataTypePtr type = Struct({MakeField("a", Int32()), MakeField("b", Utf8())});
  ArrayPtr array = SampleArray(type, 12);
  std::weak_ptr<const ArrayData> weak_a = array->children[0];
  std::weak_ptr<const ArrayData> weak_b = array->children[1];
  ArrayPtr expected_b = array->children[1];
  ArrowArray c{};
  LND_ASSERT_OK(ExportArray(array, &c));
  array.reset();
  ArrowArray moved = *c.children[1];
  c.children[1]->release = nullptr;
  c.release(&c);
  EXPECT_TRUE(weak_a.expired()) << "the parent's release frees the children it still owns";
  EXPECT_FALSE(weak_b.expired()) << "the moved child stays alive";
  LND_ASSERT_OK_AND_ASSIGN(ArrayPtr b, ImportArray(&moved, Utf8()));
  EXPECT_TRUE(ArrayEquals(*b, *expected_b));
  expected_b.reset();
  EXPECT_FALSE(weak_b.expired());
  b.reset();
  EXPECT_TRUE(weak_b.expired()) << "imported moved child released when last reference died";
}

TEST(CDataArray, NullTypeHasNoBuffers) {
  ArrayPtr array = MakeArrayOfNulls(Null(), 5);
  ArrowArray c{};
  LND_ASSERT_OK(ExportArray(array, &c));
  EXPECT_EQ(c.n_buffers, 0);
  EXPECT_EQ(c.null_count, 5);
  LND_ASSERT_OK_AND_ASSIGN(ArrayPtr back, ImportArray(&c, Null()));
  EXPECT_EQ(back->length, 5);
  EXPECT_EQ(back->null_count(), 5);
  EXPECT_TRUE(back->buffers.empty());
}

TEST(CDataArray, ArraysWithoutNullsExportANullValidityPointer) {
  ArrayPtr array = MakePrimitiveArray<int32_t>(Int32(), {1, 2, 3});
  ArrowArray c{};
  LND_ASSERT_OK(ExportArray(array, &c));
  EXPECT_EQ(c.buffers[0], nullptr);
  EXPECT_EQ(c.null_count, 0);
  c.release(&c);
}

TEST(CDataArray, UnknownNullCountIsExportedAsTheCount) {
  std::vector<std::uint8_t> bits = {0b101};
  ArrayPtr array = MakeArrayData(
      Int32(), 3, {Buffer::Copy(bits.data(), 1), Buffer::Copy(std::vector<std::uint8_t>(12, 1))},
      {}, ArrayData::kUnknownNullCount);
  ArrowArray c{};
  LND_ASSERT_OK(ExportArray(array, &c));
  EXPECT_EQ(c.null_count, 1);
  c.release(&c);
}

// ---- A hand-written foreign producer ----------------------------------------------------------

/// A foreign ArrowArray node: malloc'ed buffers, children owned by the node, a release counter.
struct Foreign {
  ArrowArray array{};
  std::vector<void*> memory;
  std::vector<const void*> buffers;
  std::vector<std::unique_ptr<Foreign>> kids;
  std::vector<ArrowArray*> kid_pointers;
  int* release_count = nullptr;
};

void ReleaseForeign(ArrowArray* a) {
  auto* f = static_cast<Foreign*>(a->private_data);
  for (ArrowArray* k : f->kid_pointers) {
    if (k->release != nullptr) k->release(k);
  }
  if (f->release_count != nullptr) ++*f->release_count;
  for (void* m : f->memory) std::free(m);
  a->release = nullptr;
  delete f;  // the struct itself lives elsewhere (caller or parent's kid storage)
}

std::vector<std::uint8_t> Bits(const std::vector<int>& bits) {
  std::vector<std::uint8_t> out((bits.size() + 7) / 8, 0);
  for (std::size_t i = 0; i < bits.size(); ++i) {
    if (bits[i] != 0) out[i / 8] = static_cast<std::uint8_t>(out[i / 8] | (1u << (i % 8)));
  }
  return out;
}

template <typename T>
std::vector<std::uint8_t> Bytes(const std::vector<T>& values) {
  std::vector<std::uint8_t> out(values.size() * sizeof(T));
  if (!out.empty()) std::memcpy(out.data(), values.data(), out.size());
  return out;
}

/// Builds a foreign array; nullopt buffers are NULL pointers. `shift` moves the data this many
/// bytes past a malloc'ed (16-byte aligned) address, to produce misaligned buffers.
ArrowArray MakeForeign(int64_t length, int64_t null_count, int64_t offset,
                       std::vector<std::optional<std::vector<std::uint8_t>>> buffers,
                       std::vector<ArrowArray> children, int* counter, std::size_t shift = 0) {
  auto* f = new Foreign();
  f->release_count = counter;
  for (auto& b : buffers) {
    if (!b) {
      f->buffers.push_back(nullptr);
      continue;
    }
    void* m = std::malloc(b->size() + shift + 1);
    f->memory.push_back(m);
    auto* p = static_cast<std::uint8_t*>(m) + shift;
    if (!b->empty()) std::memcpy(p, b->data(), b->size());
    f->buffers.push_back(p);
  }
  for (ArrowArray& child : children) {
    auto holder = std::make_unique<Foreign>();  // only used as storage for the child struct
    holder->array = child;
    f->kids.push_back(std::move(holder));
  }
  for (auto& k : f->kids) f->kid_pointers.push_back(&k->array);
  ArrowArray a{};
  a.length = length;
  a.null_count = null_count;
  a.offset = offset;
  a.n_buffers = static_cast<int64_t>(f->buffers.size());
  a.n_children = static_cast<int64_t>(f->kid_pointers.size());
  a.buffers = f->buffers.empty() ? nullptr : f->buffers.data();
  a.children = f->kid_pointers.empty() ? nullptr : f->kid_pointers.data();
  a.dictionary = nullptr;
  a.release = &ReleaseForeign;
  a.private_data = f;
  return a;
}

TEST(CDataArray, ImportsForeignInt32AndReleasesExactlyOnceWhenLastBufferDies) {
  int releases = 0;
  ArrowArray c = MakeForeign(4, 1, 1, {Bits({1, 1, 0, 1, 1}), Bytes<int32_t>({9, 10, 11, 12, 13})},
                             {}, &releases);
  BufferPtr values;
  {
    LND_ASSERT_OK_AND_ASSIGN(ArrayPtr a, ImportArray(&c, Int32()));
    EXPECT_EQ(c.release, nullptr) << "the input struct is moved";
    EXPECT_EQ(a->length, 4);
    EXPECT_EQ(a->offset, 1);
    EXPECT_EQ(a->null_count(), 1);
    EXPECT_TRUE(ArrayEquals(*a, *MakePrimitiveArray<int32_t>(Int32(), {10, std::nullopt, 12, 13})));
    EXPECT_EQ(a->buffers[1]->size(), 5 * 4) << "values sized (offset + length) * width";
    EXPECT_EQ(a->buffers[0]->size(), 1);
    values = a->buffers[1];
    EXPECT_EQ(releases, 0);
  }
  EXPECT_EQ(releases, 0) << "a buffer still references the foreign memory";
  EXPECT_EQ(values->data_as<int32_t>()[4], 13);
  values.reset();
  EXPECT_EQ(releases, 1);
}

TEST(CDataArray, ImportsForeignStringsWithSizesFromTheLastOffset) {
  int releases = 0;
  const std::string data = "helloworld!";
  ArrowArray c = MakeForeign(3, -1, 0,
                             {std::nullopt, Bytes<int32_t>({0, 5, 5, 10}),
                              std::vector<std::uint8_t>(data.begin(), data.end())},
                             {}, &releases);
  LND_ASSERT_OK_AND_ASSIGN(ArrayPtr a, ImportArray(&c, Utf8()));
  EXPECT_EQ(a->buffers[2]->size(), 10) << "data sized by the last offset, not the allocation";
  EXPECT_EQ(a->null_count(), 0);
  EXPECT_TRUE(ArrayEquals(*a, *MakeStringArray({"hello", "", "world"})));
  a.reset();
  EXPECT_EQ(releases, 1);
}

TEST(CDataArray, ImportsForeignNestedListOfStruct) {
  int releases = 0, child_releases = 0;
  // struct<x: int64, s: large_utf8> with 3 rows, list<struct> of 2 rows: [[r0, r1], [r2]] with
  // the list itself at offset 0 and the struct child at offset 1 (row 0 of the child hidden).
  ArrowArray x =
      MakeForeign(4, 0, 0, {std::nullopt, Bytes<int64_t>({-1, 7, 8, 9})}, {}, &child_releases);
  ArrowArray s = MakeForeign(4, 1, 0,
                             {Bits({1, 1, 0, 1}), Bytes<int64_t>({0, 1, 3, 3, 4}),
                              std::vector<std::uint8_t>{'z', 'a', 'b', 'c'}},
                             {}, &child_releases);
  ArrowArray st = MakeForeign(3, 0, 1, {std::nullopt}, {x, s}, &child_releases);
  ArrowArray list =
      MakeForeign(2, 0, 0, {std::nullopt, Bytes<int32_t>({0, 2, 3})}, {st}, &releases);
  const DataTypePtr type =
      List(Struct({MakeField("x", Int64(), false), MakeField("s", LargeUtf8())}));
  LND_ASSERT_OK_AND_ASSIGN(ArrayPtr a, ImportArray(&list, type));
  StructBuilder sb(type->value_type());
  auto* xb = dynamic_cast<PrimitiveBuilder<int64_t>*>(sb.child_builder(0));
  auto* sbb = dynamic_cast<BinaryBuilder*>(sb.child_builder(1));
  sb.Append(true);
  xb->Append(7);
  sbb->Append("ab");
  sb.Append(true);
  xb->Append(8);
  sbb->AppendNull();
  sb.Append(true);
  xb->Append(9);
  sbb->Append("c");
  LND_ASSERT_OK_AND_ASSIGN(ArrayPtr rows, sb.Finish());
  ArrayPtr expected =
      MakeArrayData(type, 2, {nullptr, Buffer::Copy(Bytes<int32_t>({0, 2, 3}))}, {rows}, 0);
  EXPECT_TRUE(ArrayEquals(*a, *expected)) << PrettyPrint(*a);
  a.reset();
  EXPECT_EQ(releases, 1);
  EXPECT_EQ(child_releases, 3) << "the producer releases its children from the root";
}

TEST(CDataArray, NullCountMinusOneIsComputed) {
  ArrowArray c = MakeForeign(5, -1, 0, {Bits({1, 0, 0, 1, 1}), Bits({1, 1, 0, 0, 1})}, {}, nullptr);
  LND_ASSERT_OK_AND_ASSIGN(ArrayPtr a, ImportArray(&c, Bool()));
  EXPECT_EQ(a->null_count(), 2);
  EXPECT_TRUE(ArrayEquals(*a, *MakeBoolArray({true, std::nullopt, std::nullopt, false, true})));
}

TEST(CDataArray, MisalignedForeignBuffersAreCopied) {
  int releases = 0;
  ArrowArray c = MakeForeign(3, 0, 0, {std::nullopt, Bytes<double>({1.5, -2.0, 3.25})}, {},
                             &releases, /*shift=*/3);
  LND_ASSERT_OK_AND_ASSIGN(ArrayPtr a, ImportArray(&c, Float64()));
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(a->buffers[1]->data()) % 8, 0u);
  EXPECT_TRUE(ArrayEquals(*a, *MakePrimitiveArray<double>(Float64(), {1.5, -2.0, 3.25})));
  a.reset();
  EXPECT_EQ(releases, 1);
}

TEST(CDataArray, EmptyForeignStringsMayOmitBuffers) {
  ArrowArray c = MakeForeign(0, 0, 0, {std::nullopt, std::nullopt, std::nullopt}, {}, nullptr);
  LND_ASSERT_OK_AND_ASSIGN(ArrayPtr a, ImportArray(&c, Binary()));
  EXPECT_EQ(a->length, 0);
  LND_ASSERT_OK(Validate(*a));
}

TEST(CDataArray, StructuralErrorsReleaseTheInput) {
  struct Case {
    const char* name;
    ArrowArray array;
    DataTypePtr type;
    const char* message;
  };
  int releases = 0;
  std::vector<Case> cases;
  cases.push_back({"buffer count", MakeForeign(1, 0, 0, {std::nullopt}, {}, &releases), Int32(),
                   "has 1 buffers, expected 2"});
  cases.push_back({"child count",
                   MakeForeign(1, 0, 0, {std::nullopt, Bytes<int32_t>({0, 0})}, {}, &releases),
                   List(Int32()), "has 0 children, expected 1"});
  cases.push_back({"negative length",
                   MakeForeign(-1, 0, 0, {std::nullopt, Bytes<int32_t>({})}, {}, &releases),
                   Int32(), "length -1"});
  cases.push_back({"nulls without bitmap",
                   MakeForeign(2, 1, 0, {std::nullopt, Bytes<int32_t>({1, 2})}, {}, &releases),
                   Int32(), "no validity buffer"});
  cases.push_back({"null values", MakeForeign(2, 0, 0, {std::nullopt, std::nullopt}, {}, &releases),
                   Int32(), "null values buffer"});
  cases.push_back({"null count too big",
                   MakeForeign(2, 3, 0, {Bits({0, 0}), Bytes<int32_t>({1, 2})}, {}, &releases),
                   Int32(), "greater than its length"});
  cases.push_back(
      {"negative last offset",
       MakeForeign(1, 0, 0, {std::nullopt, Bytes<int32_t>({0, -4}), std::nullopt}, {}, &releases),
       Utf8(), "negative last offset"});
  cases.push_back(
      {"missing data",
       MakeForeign(1, 0, 0, {std::nullopt, Bytes<int32_t>({0, 4}), std::nullopt}, {}, &releases),
       Utf8(), "null data buffer"});
  const int expected = static_cast<int>(cases.size());
  for (Case& c : cases) {
    SCOPED_TRACE(c.name);
    LND_EXPECT_ERROR(ImportArray(&c.array, c.type), StatusCode::kInvalidArgument, c.message);
    EXPECT_EQ(c.array.release, nullptr);
  }
  EXPECT_EQ(releases, expected) << "every failed import released its input exactly once";
}

TEST(CDataArray, ValidationErrorsOfUntrustedDataAreReturned) {
  int releases = 0;
  ArrowArray bad_offsets = MakeForeign(
      3, 0, 0, {std::nullopt, Bytes<int32_t>({0, 4, 2, 5}), std::vector<std::uint8_t>(5, 'a')}, {},
      &releases);
  LND_EXPECT_ERROR(ImportArray(&bad_offsets, Utf8()), StatusCode::kInvalidArgument,
                   "imported ArrowArray");
  ArrowArray bad_utf8 = MakeForeign(
      1, 0, 0, {std::nullopt, Bytes<int32_t>({0, 2}), std::vector<std::uint8_t>{0xff, 0xfe}}, {},
      &releases);
  LND_EXPECT_ERROR(ImportArray(&bad_utf8, Utf8()), StatusCode::kInvalidArgument,
                   "imported ArrowArray");
  ArrowArray child = MakeForeign(2, 0, 0, {std::nullopt, Bytes<int32_t>({1, 2})}, {}, nullptr);
  ArrowArray short_child =
      MakeForeign(2, 0, 0, {std::nullopt, Bytes<int32_t>({0, 2, 5})}, {child}, &releases);
  LND_EXPECT_ERROR(ImportArray(&short_child, List(Int32())), StatusCode::kInvalidArgument,
                   "imported ArrowArray");
  EXPECT_EQ(releases, 3);
}

TEST(CDataArray, ImportWithSchemaErrorReleasesBoth) {
  int array_releases = 0;
  ArrowArray c = MakeForeign(1, 0, 0, {std::nullopt, Bytes<int32_t>({1})}, {}, &array_releases);
  ArrowSchema s{};
  LND_ASSERT_OK(ExportType(*Int32(), &s));
  s.format = "tts";  // the exported strings stay owned by the schema's private data
  LND_EXPECT_ERROR(ImportArray(&c, &s), StatusCode::kNotImplemented, "'tts'");
  EXPECT_EQ(s.release, nullptr);
  EXPECT_EQ(c.release, nullptr);
  EXPECT_EQ(array_releases, 1);
  ArrowArray released{};
  LND_EXPECT_ERROR(ImportArray(&released, Int32()), StatusCode::kInvalidArgument,
                   "already released");
}

TEST(CDataArray, ExportRejectsMalformedArrayData) {
  ArrayPtr bad = MakeArrayData(Int32(), 1, {nullptr}, {}, 0);
  ArrowArray c{};
  LND_EXPECT_ERROR(ExportArray(bad, &c), StatusCode::kInvalidArgument, "1 buffers, expected 2");
  EXPECT_EQ(c.release, nullptr);
  LND_EXPECT_ERROR(ExportArray(nullptr, &c), StatusCode::kInvalidArgument, "null array");
}

// ---- Record batches -----------------------------------------------------------------------

RecordBatchPtr SampleBatch(int64_t rows) {
  const SchemaPtr schema =
      MakeSchema({MakeField("id", Int64(), false), MakeField("name", Utf8()),
                  MakeField("v", FixedSizeList(Float32(), 3), true, Metadata({{"unit", "m"}}))},
                 Metadata({{"lance_nd:format", "1"}}));
  std::vector<ArrayPtr> columns;
  for (const FieldPtr& f : schema->fields()) {
    auto b = MakeBuilder(f->type());
    for (int64_t i = 0; i < rows; ++i) {
      if (f->nullable()) {
        AppendSample(b.get(), i);
      } else {
        dynamic_cast<PrimitiveBuilder<int64_t>*>(b.get())->Append(i);
      }
    }
    auto col = b->Finish();
    EXPECT_TRUE(col.ok());
    columns.push_back(*col);
  }
  auto batch = RecordBatch::Make(schema, rows, columns);
  EXPECT_TRUE(batch.ok()) << batch.status().ToString();
  return *batch;
}

TEST(CDataRecordBatch, RoundTripsAsStructWithSchema) {
  RecordBatchPtr batch = SampleBatch(11);
  ArrowArray c{};
  ArrowSchema s{};
  LND_ASSERT_OK(ExportRecordBatch(*batch, &c, &s));
  EXPECT_STREQ(s.format, "+s");
  EXPECT_EQ(c.n_children, 3);
  EXPECT_EQ(c.null_count, 0);
  LND_ASSERT_OK_AND_ASSIGN(RecordBatchPtr back, ImportRecordBatch(&c, &s));
  EXPECT_TRUE(back->Equals(*batch, /*check_metadata=*/true)) << back->ToString();
  EXPECT_EQ(back->schema()->metadata().Get("lance_nd:format"), "1");
}

TEST(CDataRecordBatch, SlicedBatchRoundTrips) {
  RecordBatchPtr batch = SampleBatch(20);
  LND_ASSERT_OK_AND_ASSIGN(RecordBatchPtr sliced, batch->Slice(3, 9));
  ArrowArray c{};
  LND_ASSERT_OK(ExportRecordBatch(*sliced, &c));
  LND_ASSERT_OK_AND_ASSIGN(RecordBatchPtr back, ImportRecordBatch(&c, sliced->schema()));
  EXPECT_TRUE(back->Equals(*sliced));
}

TEST(CDataRecordBatch, ForeignStructOffsetSlicesTheColumns) {
  int releases = 0;
  ArrowArray a = MakeForeign(4, 0, 0, {std::nullopt, Bytes<int32_t>({1, 2, 3, 4})}, {}, nullptr);
  ArrowArray top = MakeForeign(2, 0, 1, {std::nullopt}, {a}, &releases);
  const SchemaPtr schema = MakeSchema({MakeField("a", Int32())});
  LND_ASSERT_OK_AND_ASSIGN(RecordBatchPtr batch, ImportRecordBatch(&top, schema));
  EXPECT_EQ(batch->num_rows(), 2);
  EXPECT_TRUE(ArrayEquals(*batch->column(0), *MakePrimitiveArray<int32_t>(Int32(), {2, 3})));
  batch.reset();
  EXPECT_EQ(releases, 1);
}

TEST(CDataRecordBatch, TopLevelNullsAreRejected) {
  int releases = 0;
  ArrowArray a = MakeForeign(2, 0, 0, {std::nullopt, Bytes<int32_t>({1, 2})}, {}, nullptr);
  ArrowArray top = MakeForeign(2, 1, 0, {Bits({1, 0})}, {a}, &releases);
  LND_EXPECT_ERROR(ImportRecordBatch(&top, MakeSchema({MakeField("a", Int32())})),
                   StatusCode::kInvalidArgument, "null rows at the top level");
  EXPECT_EQ(releases, 1);
}

TEST(CDataRecordBatch, SchemaMismatchIsAnError) {
  RecordBatchPtr batch = SampleBatch(3);
  ArrowArray c{};
  LND_ASSERT_OK(ExportRecordBatch(*batch, &c));
  LND_EXPECT_ERROR(ImportRecordBatch(&c, MakeSchema({MakeField("id", Int64())})),
                   StatusCode::kInvalidArgument, "has 3 children, expected 1");
  EXPECT_EQ(c.release, nullptr);
}

}  // namespace
}  // namespace lance_nd::array
