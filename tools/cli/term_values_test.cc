// Value previews and attribute texts, on generated arrays whose expected text is built here
// from the values (not from the code under test).
#include "term_values.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>

#include "lance_nd/array/builder.h"

namespace lance_nd::cli {
namespace {

/// A quarter k/4 as JSON Lines writes it: shortest digits, always with a point ("2.0").
std::string QuarterText(std::int64_t k) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", static_cast<double>(k) / 4);
  std::string s = buf;
  while (s.back() == '0' && s[s.size() - 2] != '.') s.pop_back();
  return s;
}

struct Generated {
  array::ArrayPtr values;
  std::vector<std::string> texts;  // the expected text of each value
};

Generated RandomFloats(std::mt19937_64& rng, std::size_t n) {
  std::vector<std::optional<double>> values;
  Generated g;
  for (std::size_t i = 0; i < n; ++i) {
    const auto pick = rng() % 10;
    if (pick == 0) {
      values.emplace_back(std::nullopt);
      g.texts.push_back("null");
    } else if (pick == 1) {
      values.emplace_back(std::nan(""));
      g.texts.push_back("NaN");
    } else {
      const auto k = static_cast<std::int64_t>(rng() % 8001) - 4000;
      values.emplace_back(static_cast<double>(k) / 4);
      g.texts.push_back(QuarterText(k));
    }
  }
  g.values = array::MakePrimitiveArray<double>(array::Float64(), values);
  return g;
}

Generated RandomStrings(std::mt19937_64& rng, std::size_t n) {
  std::vector<std::optional<std::string>> values;
  Generated g;
  for (std::size_t i = 0; i < n; ++i) {
    std::string s;
    for (std::size_t k = rng() % 5; k > 0; --k) s.push_back(static_cast<char>('a' + rng() % 26));
    values.emplace_back(s);
    g.texts.push_back("\"" + s + "\"");
  }
  g.values = array::MakeStringArray(values);
  return g;
}

std::string Bracketed(const std::vector<std::string>& texts, std::size_t from, std::size_t to) {
  std::string out;
  for (std::size_t i = from; i < to; ++i) out += (i > from ? ", " : "") + texts[i];
  return out;
}

TEST(TermValuesTest, PreviewsShowAllValuesOrTheFirstAndLastAroundAnEllipsis) {
  std::mt19937_64 rng(11);
  for (int round = 0; round < 400; ++round) {
    const std::size_t n = rng() % 40;
    const Generated g = round % 2 == 0 ? RandomFloats(rng, n) : RandomStrings(rng, n);
    const std::size_t max_items = 2 + rng() % 16;
    const std::string preview = PreviewValues(g.values, max_items, false);
    if (n <= max_items) {
      EXPECT_EQ(preview, "[" + Bracketed(g.texts, 0, n) + "]");
      continue;
    }
    const std::size_t head = (max_items + 1) / 2, tail = max_items - head;
    EXPECT_EQ(preview,
              "[" + Bracketed(g.texts, 0, head) + ", …, " + Bracketed(g.texts, n - tail, n) + "]");
  }
}

TEST(TermValuesTest, AScalarIsShownWithoutBrackets) {
  std::mt19937_64 rng(12);
  for (int round = 0; round < 50; ++round) {
    const Generated g = round % 2 == 0 ? RandomFloats(rng, 1) : RandomStrings(rng, 1);
    EXPECT_EQ(PreviewValues(g.values, 8, true), g.texts[0]);
  }
}

TEST(TermValuesTest, AttributesAreTypedAndShownAsKeyEqualsValue) {
  std::mt19937_64 rng(13);
  for (int round = 0; round < 100; ++round) {
    nd::Attributes attributes;
    std::string expected;
    for (std::size_t k = rng() % 5; k > 0; --k) {
      const std::string key = "k" + std::to_string(k);
      const auto number = static_cast<std::int64_t>(rng() % 1000) - 500;
      if (k % 2 == 0) {
        attributes.Set(key, number);
        expected += (expected.empty() ? "" : ", ") + key + "=" + std::to_string(number);
      } else {
        attributes.Set(key, static_cast<double>(number) / 4);
        expected += (expected.empty() ? "" : ", ") + key + "=" + QuarterText(number);
      }
    }
    EXPECT_EQ(AttributesText(attributes), expected);
    const auto json = AttributesJson(attributes);
    ASSERT_EQ(json.size(), attributes.size());
    for (const auto& [key, value] : attributes.entries()) {
      EXPECT_EQ(json[key]["dtype"], value->type->is_floating() ? "float64" : "int64");
    }
  }
}

// Issue 33: a 20 MB string attribute was printed whole by `ls`. Long strings show their
// start and their size, long lists their first and last items and their count.
TEST(TermValuesTest, HugeAttributeValuesAreAbbreviated) {
  std::mt19937_64 rng(20);
  for (int round = 0; round < 50; ++round) {
    const std::size_t size = 81 + rng() % 3'000'000;
    std::string text(size, 'a');
    const std::string marks[] = {"x", "\u00e9", "\"", "\\", "\u20ac"};
    for (std::size_t i = 0; i < 40; ++i) {
      const std::string& mark = marks[rng() % 5];
      text.replace(rng() % (size - 3), mark.size(), mark);
    }
    nd::Attributes attributes;
    attributes.Set("history", text);
    const std::string shown = AttributesText(attributes);
    EXPECT_LE(shown.size(), 120u) << shown;
    EXPECT_TRUE(shown.starts_with("history=\"")) << shown;
    EXPECT_TRUE(shown.ends_with("…\" (" + std::to_string(size) + " bytes)")) << shown;
    EXPECT_TRUE(nlohmann::json::accept("\"" + shown.substr(9, shown.find("…") - 9) + "\""))
        << "the shown start is cut at a character boundary and escaped: " << shown;
  }
  nd::Attributes list;
  std::vector<std::int64_t> values(500);
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<std::int64_t>(i);
  list.Set("ids", values);
  EXPECT_EQ(AttributesText(list), "ids=[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, …, 499 (500 in all)]");
  nd::Attributes small;
  small.Set("units", std::string(80, 'K'));
  EXPECT_EQ(AttributesText(small), "units=\"" + std::string(80, 'K') + "\"");
}

}  // namespace
}  // namespace lance_nd::cli
