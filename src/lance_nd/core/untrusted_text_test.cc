// CheckJsonNesting counts nesting exactly (brackets inside strings and escapes ignored) on
// generated documents; TextPreview cuts long text at a character boundary and says how long it was.
#include "lance_nd/core/internal/untrusted_text.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>

#include "lance_nd/testing/status_matchers.h"

namespace lance_nd::internal {
namespace {

/// A random JSON string literal whose contents are full of brackets, quotes and backslashes.
std::string RandomString(std::mt19937_64& rng) {
  static constexpr std::string_view kPieces[] = {"[", "]",   "{",       "}", "\\\"", "\\\\",
                                                 "a", "\\n", "\\u005b", ",", ":",    " "};
  std::string out = "\"";
  for (auto n = rng() % 6; n > 0; --n) out += kPieces[rng() % std::size(kPieces)];
  return out + "\"";
}

/// A random JSON value nested exactly `depth` arrays / objects deep.
std::string RandomValue(std::mt19937_64& rng, int depth) {
  if (depth == 0) {
    static constexpr std::string_view kScalars[] = {"1", "-2.5e3", "true", "null"};
    return rng() % 2 == 0 ? RandomString(rng) : std::string(kScalars[rng() % 4]);
  }
  const bool object = rng() % 2 == 0;
  const auto items = 1 + rng() % 3;
  const auto deep = rng() % items;  // the item that reaches the full depth
  std::string out = object ? "{" : "[";
  for (std::uint64_t i = 0; i < items; ++i) {
    if (i > 0) out += ", ";
    if (object) out += RandomString(rng) + ": ";
    const int d = i == deep ? depth - 1 : static_cast<int>(rng() % static_cast<unsigned>(depth));
    out += RandomValue(rng, d);
  }
  return out + (object ? "}" : "]");
}

TEST(CheckJsonNesting, GeneratedDocumentsPassAtTheirDepthAndFailOneBelow) {
  for (std::uint64_t seed = 0; seed < 400; ++seed) {
    std::mt19937_64 rng(seed);
    const int depth = 1 + static_cast<int>(rng() % 30);
    const std::string doc = RandomValue(rng, depth);
    SCOPED_TRACE("seed " + std::to_string(seed) + ": " + doc);
    LND_EXPECT_OK(CheckJsonNesting(doc, "doc", depth));
    LND_EXPECT_ERROR(
        CheckJsonNesting(doc, "doc", depth - 1), StatusCode::kInvalidArgument,
        "doc nests arrays and objects more than " + std::to_string(depth - 1) + " levels deep");
  }
}

TEST(CheckJsonNesting, DeepTextIsRefusedWithWhereAndTheLimit) {
  const std::string deep = "{\"a\": " + std::string(80000, '[');
  LND_EXPECT_ERROR(CheckJsonNesting(deep, "a JSON line"), StatusCode::kInvalidArgument,
                   "a JSON line nests arrays and objects more than 512 levels deep (level 513 "
                   "opens at byte 517); nest at most 512 levels");
  // Brackets inside a string (one ending in an escaped quote) do not count.
  LND_EXPECT_OK(CheckJsonNesting("[\"\\\"" + std::string(80000, '[') + "\"]", "x"));
  LND_EXPECT_OK(CheckJsonNesting(std::string(512, '[') + std::string(512, ']'), "x"));
  // Closing brackets before any opening one do not lower the count below zero.
  LND_EXPECT_ERROR(CheckJsonNesting("]]]" + std::string(513, '['), "x"),
                   StatusCode::kInvalidArgument, "more than 512 levels");
}

TEST(TextPreview, LongTextIsCutAndSaysItsLength) {
  EXPECT_EQ(TextPreview("short"), "short");
  EXPECT_EQ(TextPreview(std::string(200, 'x')), std::string(200, 'x'));
  const std::string huge(100'000'000, 'y');
  const std::string preview = TextPreview(huge);
  EXPECT_EQ(preview, std::string(200, 'y') + "... (100000000 bytes in all)");
  // A cut inside a two-byte character backs up to before it.
  const std::string accents = std::string(199, 'a') + "\xc3\xa9" + "tail";
  EXPECT_EQ(TextPreview(accents), std::string(199, 'a') + "... (205 bytes in all)");
}

}  // namespace
}  // namespace lance_nd::internal
