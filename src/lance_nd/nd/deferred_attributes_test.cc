// Attributes read from encoded rows are decoded on first use (Attributes::Deferred): copies,
// moves, changes, concurrent readers and the lifetime of what they are read from.
#include <gtest/gtest.h>

#include <algorithm>
#include <thread>

#include "lance_nd/nd/row_encoding.h"
#include "lance_nd/testing/nd_random_rows.h"
#include "lance_nd/testing/status_matchers.h"

namespace lance_nd::nd {
namespace {

using testing::RandomRows;
using testing::Rng;
using testing::Uniform;

/// Random rows (seeded), and the same rows decoded from their encoding. The decoder and the
/// encoded batch are gone when this returns: the decoded attributes must not need them.
struct Decoded {
  std::vector<NdRecordBatch> written;
  std::vector<NdRecordBatch> read;
};

Decoded EncodeAndDecode(uint64_t seed) {
  Rng rng(seed);
  Decoded out;
  out.written = RandomRows(rng);
  auto batch = EncodeRows(out.written);
  EXPECT_TRUE(batch.ok()) << batch.status().ToString();
  auto decoder = RowDecoder::Make((*batch)->schema());
  EXPECT_TRUE(decoder.ok()) << decoder.status().ToString();
  auto read = decoder->DecodeAll(**batch);
  EXPECT_TRUE(read.ok()) << read.status().ToString();
  out.read = std::move(*read);
  return out;
}

/// Every attribute set of a row: the global attributes, then each array's in name order (a
/// decoded row lists its arrays in column order, which may differ from the order written).
std::vector<const Attributes*> AttributeSets(const NdRecordBatch& row) {
  std::vector<std::string> names;
  for (const auto& field : row.schema()->fields()) names.push_back(field->name());
  std::sort(names.begin(), names.end());
  std::vector<const Attributes*> out = {&row.attributes()};
  for (const std::string& name : names) out.push_back(&row.GetColumn(name)->attributes());
  return out;
}

TEST(DeferredAttributes, OutliveTheBatchAndTheDecoderAndEqualWhatWasWritten) {
  int sets = 0;
  for (uint64_t seed = 1; seed <= 150; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    const Decoded d = EncodeAndDecode(seed);
    ASSERT_EQ(d.read.size(), d.written.size());
    for (std::size_t r = 0; r < d.read.size(); ++r) {
      const auto written = AttributeSets(d.written[r]);
      const auto read = AttributeSets(d.read[r]);
      ASSERT_EQ(read.size(), written.size());
      for (std::size_t i = 0; i < read.size(); ++i) {
        EXPECT_EQ(read[i]->size(), written[i]->size()) << "row " << r << " set " << i;
        for (const auto& [key, value] : written[i]->entries()) {
          const array::ArrayPtr back = read[i]->Get(key);
          ASSERT_NE(back, nullptr) << "row " << r << " key " << key;
          EXPECT_TRUE(back->type->Equals(*value->type)) << key << ": " << back->type->ToString();
          EXPECT_TRUE(array::ArrayEquals(*back, *value)) << key;
        }
        ++sets;
      }
    }
  }
  EXPECT_GT(sets, 1000);
}

TEST(DeferredAttributes, CopiesAndMovesDecodeTheSameEntriesBeforeOrAfterTheOriginal) {
  for (uint64_t seed = 1; seed <= 60; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    const Decoded d = EncodeAndDecode(seed);
    for (std::size_t r = 0; r < d.read.size(); ++r) {
      const Attributes& expected = d.written[r].attributes();
      // Copies taken before anything was decoded, decoded in either order.
      const NdRecordBatch original = d.read[r];
      // NOLINTNEXTLINE(performance-unnecessary-copy-initialization): the copy is under test
      const Attributes copy_first = original.attributes();
      Attributes moved_from = original.attributes();
      const Attributes moved = std::move(moved_from);
      EXPECT_EQ(copy_first, expected);
      EXPECT_EQ(original.attributes(), expected);
      EXPECT_EQ(moved, expected);
      EXPECT_TRUE(moved_from.empty());  // NOLINT(bugprone-use-after-move): specified state
      // A copy of a decoded set, and assignment over a set that was decoded already.
      Attributes assigned = copy_first;
      EXPECT_EQ(assigned, expected);
      assigned = d.read[r].attributes();
      EXPECT_EQ(assigned, expected);
    }
  }
}

TEST(DeferredAttributes, ChangesKeepEveryDecodedKey) {
  for (uint64_t seed = 1; seed <= 80; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    Rng rng(seed * 7919);
    const Decoded d = EncodeAndDecode(seed);
    for (std::size_t r = 0; r < d.read.size(); ++r) {
      const Attributes& expected = d.written[r].attributes();
      // Add a key.
      Attributes added = d.read[r].attributes();
      added.Set("added_key", int32_t{7});
      EXPECT_EQ(added.size(), expected.size() + 1);
      EXPECT_EQ(added.GetInt64("added_key"), 7);
      for (const auto& [key, value] : expected.entries()) {
        ASSERT_NE(added.Get(key), nullptr) << key;
        EXPECT_TRUE(array::ArrayEquals(*added.Get(key), *value)) << key;
      }
      if (expected.empty()) continue;
      // Remove one, replace another.
      const auto pick =
          static_cast<std::size_t>(Uniform(rng, 0, static_cast<int64_t>(expected.size()) - 1));
      const std::string& key = expected.entries()[pick].first;
      Attributes removed = d.read[r].attributes();
      EXPECT_TRUE(removed.Remove(key));
      EXPECT_EQ(removed.size(), expected.size() - 1);
      EXPECT_FALSE(removed.Contains(key));
      Attributes replaced = d.read[r].attributes();
      LND_ASSERT_OK(replaced.SetValue(key, array::MakeStringArray({std::string("new")})));
      EXPECT_EQ(replaced.size(), expected.size());
      EXPECT_EQ(replaced.GetString(key), "new");
      // The row itself is unchanged by changes to its copies.
      EXPECT_EQ(d.read[r].attributes(), expected);
    }
  }
}

TEST(DeferredAttributes, ThreadsReadingOneRowAtOnceAgree) {
  for (uint64_t seed = 1; seed <= 40; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    const Decoded d = EncodeAndDecode(seed);
    // The same rows decoded again (deterministic), read on this thread alone: key order is
    // the column's, which may differ from the order written.
    std::vector<std::string> expected;
    for (const NdRecordBatch& row : EncodeAndDecode(seed).read) {
      for (const Attributes* a : AttributeSets(row)) expected.push_back(a->ToString());
    }
    // Four threads decode the same (not yet decoded) sets, each in its own order, while
    // also copying them; every text must equal what was written.
    std::vector<std::vector<std::string>> seen(4);
    std::vector<std::thread> threads;
    for (std::size_t t = 0; t < seen.size(); ++t) {
      threads.emplace_back([&, t] {
        std::vector<const Attributes*> sets;
        for (const NdRecordBatch& row : d.read) {
          for (const Attributes* a : AttributeSets(row)) sets.push_back(a);
        }
        seen[t].resize(sets.size());
        for (std::size_t k = 0; k < sets.size(); ++k) {
          const std::size_t i = t % 2 == 0 ? k : sets.size() - 1 - k;
          const Attributes copy = *sets[i];
          seen[t][i] = t < 2 ? sets[i]->ToString() : copy.ToString();
        }
      });
    }
    for (std::thread& th : threads) th.join();
    for (const auto& texts : seen) EXPECT_EQ(texts, expected);
  }
}

}  // namespace
}  // namespace lance_nd::nd
