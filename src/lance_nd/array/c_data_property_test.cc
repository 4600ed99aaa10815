// Seeded property tests of the C Data / C Stream bridge over random types and arrays.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "lance_nd/array/c_data.h"
#include "lance_nd/testing/random_arrays.h"
#include "lance_nd/testing/status_matchers.h"

namespace lance_nd::array {
namespace {

using testing::RandomArray;
using testing::RandomArrayOptions;
using testing::RandomType;
using testing::RandomTypeOptions;

RandomTypeOptions AllTypeOptions() {
  RandomTypeOptions o;
  o.null_type = true;
  return o;
}

TEST(CDataProperty, RandomArraysRoundTripThroughTwoHops) {
  for (std::uint64_t seed = 1; seed <= 300; ++seed) {
    const DataTypePtr type = RandomType(seed, /*max_depth=*/3, AllTypeOptions());
    RandomArrayOptions options;
    options.sliced = seed % 2 == 0;
    const int64_t length = static_cast<int64_t>(seed % 23);
    const ArrayPtr array = RandomArray(type, length, 0.25, seed, options);
    ASSERT_NE(array, nullptr) << type->ToString();
    SCOPED_TRACE("seed " + std::to_string(seed) + ": " + type->ToString());

    ArrowArray c{};
    ArrowSchema s{};
    LND_ASSERT_OK(ExportArray(array, &c, &s));
    LND_ASSERT_OK_AND_ASSIGN(ArrayPtr once, ImportArray(&c, &s));
    // Second hop: re-export what we imported (foreign memory re-shared, still zero-copy).
    LND_ASSERT_OK(ExportArray(once, &c, &s));
    LND_ASSERT_OK_AND_ASSIGN(ArrayPtr twice, ImportArray(&c, &s));
    EXPECT_TRUE(twice->type->Equals(*type));
    EXPECT_TRUE(ArrayEquals(*twice, *array)) << "expected\n"
                                             << PrettyPrint(*array) << "\ngot\n"
                                             << PrettyPrint(*twice);
  }
}

TEST(CDataProperty, RandomSchemasAndBatchesRoundTripThroughAStream) {
  for (std::uint64_t seed = 1; seed <= 60; ++seed) {
    std::vector<FieldPtr> fields;
    const int n = static_cast<int>(seed % 4) + 1;
    for (int i = 0; i < n; ++i) {
      Metadata md;
      if ((seed + static_cast<std::uint64_t>(i)) % 3 == 0) md.Set("k" + std::to_string(i), "v");
      fields.push_back(MakeField("c" + std::to_string(i),
                                 RandomType(seed * 7 + static_cast<std::uint64_t>(i), 2), true,
                                 md));
    }
    const SchemaPtr schema = MakeSchema(fields, Metadata({{"seed", std::to_string(seed)}}));
    SCOPED_TRACE(schema->ToString());
    std::vector<RecordBatchPtr> batches;
    for (std::uint64_t b = 0; b < 3; ++b) {
      const int64_t rows = static_cast<int64_t>((seed + b) % 9);
      std::vector<ArrayPtr> columns;
      RandomArrayOptions options;
      options.sliced = b == 1;
      for (const FieldPtr& f : fields) {
        columns.push_back(RandomArray(f->type(), rows, 0.2, seed * 31 + b, options));
      }
      LND_ASSERT_OK_AND_ASSIGN(RecordBatchPtr batch, RecordBatch::Make(schema, rows, columns));
      batches.push_back(batch);
    }
    ArrowArrayStream stream{};
    LND_ASSERT_OK(ExportRecordBatchStream(schema, batches, &stream));
    LND_ASSERT_OK_AND_ASSIGN(std::unique_ptr<CStreamReader> reader,
                             ImportRecordBatchStream(&stream));
    EXPECT_TRUE(reader->schema()->Equals(*schema, /*check_metadata=*/true));
    LND_ASSERT_OK_AND_ASSIGN(std::vector<RecordBatchPtr> back, reader->ReadAll());
    ASSERT_EQ(back.size(), batches.size());
    for (std::size_t i = 0; i < back.size(); ++i) {
      EXPECT_TRUE(back[i]->Equals(*batches[i], /*check_metadata=*/true)) << back[i]->ToString();
    }
  }
}

/// A foreign producer whose release is counted: importing, re-exporting and releasing the
/// re-export must release the producer exactly once, after the last user is gone.
struct Counted {
  int releases = 0;
  std::vector<std::int32_t> values = {4, 5, 6};
  const void* buffers[2] = {nullptr, nullptr};
};

void ReleaseCounted(ArrowArray* a) {
  ++static_cast<Counted*>(a->private_data)->releases;
  a->release = nullptr;
}

TEST(CDataProperty, ReExportedForeignArrayReleasesTheProducerOnceAtTheEnd) {
  Counted producer;
  producer.buffers[1] = producer.values.data();
  ArrowArray c{};
  c.length = 3;
  c.n_buffers = 2;
  c.buffers = producer.buffers;
  c.release = &ReleaseCounted;
  c.private_data = &producer;
  LND_ASSERT_OK_AND_ASSIGN(ArrayPtr imported, ImportArray(&c, Int32()));
  ArrowArray re{};
  LND_ASSERT_OK(ExportArray(imported, &re));
  EXPECT_EQ(re.buffers[1], producer.values.data()) << "zero-copy through both hops";
  imported.reset();
  EXPECT_EQ(producer.releases, 0) << "the re-exported struct still pins the producer";
  re.release(&re);
  EXPECT_EQ(producer.releases, 1);
}

}  // namespace
}  // namespace lance_nd::array
