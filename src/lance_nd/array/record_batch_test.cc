#include <gtest/gtest.h>

#include "lance_nd/array/array_data.h"
#include "lance_nd/array/builder.h"
#include "lance_nd/testing/status_matchers.h"

namespace lance_nd::array {
namespace {

SchemaPtr TwoColumns() {
  return MakeSchema({MakeField("id", Int64(), false), MakeField("name", Utf8())},
                    Metadata({{"k", "v"}}));
}

TEST(RecordBatchTest, MakeChecksColumns) {
  auto ids = MakePrimitiveArray<int64_t>(Int64(), {1, 2, 3});
  auto names = MakeStringArray({"a", std::nullopt, "c"});
  LND_ASSERT_OK_AND_ASSIGN(auto batch, RecordBatch::Make(TwoColumns(), 3, {ids, names}));
  EXPECT_EQ(batch->num_rows(), 3);
  EXPECT_EQ(batch->num_columns(), 2);
  EXPECT_EQ(batch->GetColumnByName("name"), names);
  EXPECT_EQ(batch->GetColumnByName("nope"), nullptr);
  LND_EXPECT_OK(batch->Validate());
  LND_EXPECT_ERROR(RecordBatch::Make(TwoColumns(), 3, {ids}), StatusCode::kInvalidArgument,
                   "has 1 columns but its schema has 2 fields");
  LND_EXPECT_ERROR(RecordBatch::Make(TwoColumns(), 3, {names, ids}), StatusCode::kInvalidArgument,
                   "column 0 'id' has type string but the schema says int64");
  LND_EXPECT_ERROR(RecordBatch::Make(TwoColumns(), 4, {ids, names}), StatusCode::kInvalidArgument,
                   "column 0 'id' has 3 rows, expected 4");
}

TEST(RecordBatchTest, SliceEqualsToStringStruct) {
  auto ids = MakePrimitiveArray<int64_t>(Int64(), {1, 2, 3});
  auto names = MakeStringArray({"a", std::nullopt, "c"});
  LND_ASSERT_OK_AND_ASSIGN(auto batch, RecordBatch::Make(TwoColumns(), 3, {ids, names}));
  LND_ASSERT_OK_AND_ASSIGN(auto tail, batch->Slice(1, 2));
  EXPECT_EQ(tail->num_rows(), 2);
  LND_ASSERT_OK_AND_ASSIGN(auto expected,
                           RecordBatch::Make(TwoColumns(), 2,
                                             {MakePrimitiveArray<int64_t>(Int64(), {2, 3}),
                                              MakeStringArray({std::nullopt, "c"})}));
  EXPECT_TRUE(tail->Equals(*expected));
  EXPECT_FALSE(batch->Equals(*expected));
  auto other_md =
      std::make_shared<const RecordBatch>(TwoColumns()->WithMetadata({}), 2, expected->columns());
  EXPECT_FALSE(tail->Equals(*other_md));
  EXPECT_TRUE(tail->Equals(*other_md, false));
  LND_EXPECT_ERROR(batch->Slice(2, 2), StatusCode::kInvalidArgument, "outside the batch of 3");
  EXPECT_EQ(tail->ToString(),
            "record batch: 2 rows\nid: int64 not null\nname: string\n-- schema metadata --\nk: v\n"
            "----\nid:\n  [2, 3]\nname:\n  [null, \"c\"]");
  auto st = batch->ToStructArray();
  LND_EXPECT_OK(Validate(*st));
  EXPECT_EQ(st->type->ToString(), "struct<id: int64 not null, name: string>");
  EXPECT_EQ(st->length, 3);
}

TEST(RecordBatchTest, ValidateNamesColumn) {
  auto bad = MakeArrayData(Int64(), 3, {nullptr, Buffer::Copy(std::vector<uint8_t>(8))});
  auto batch = std::make_shared<const RecordBatch>(
      TwoColumns(), 3, std::vector<ArrayPtr>{bad, MakeStringArray({"a", "b", "c"})});
  LND_EXPECT_ERROR(batch->Validate(), StatusCode::kInvalidArgument,
                   "column 0 'id': values buffer has 8 bytes");
}

TEST(ConcatenateTest, JoinsSlicesOfNestedArrays) {
  auto type = List(Utf8());
  ListBuilder b(type);
  auto* vb = static_cast<BinaryBuilder*>(b.value_builder());
  b.Append();
  vb->Append("a");
  b.AppendNull();
  b.Append();
  vb->Append("b");
  vb->Append("c");
  LND_ASSERT_OK_AND_ASSIGN(auto a, b.Finish());
  LND_ASSERT_OK_AND_ASSIGN(auto tail, Slice(a, 1, 2));
  LND_ASSERT_OK_AND_ASSIGN(auto joined, Concatenate({a, tail, MakeEmptyArray(type)}));
  LND_ASSERT_OK(Validate(*joined));
  EXPECT_EQ(PrettyPrint(*joined), "[[\"a\"], null, [\"b\", \"c\"], null, [\"b\", \"c\"]]");
  LND_EXPECT_ERROR(Concatenate({}), StatusCode::kInvalidArgument, "zero arrays");
  LND_EXPECT_ERROR(Concatenate({a, MakeStringArray({"x"})}), StatusCode::kInvalidArgument,
                   "array 1 has type string, expected list<item: string>");
}

}  // namespace
}  // namespace lance_nd::array
