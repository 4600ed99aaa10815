// The text helpers, on generated inputs checked against properties (widths, round trips) and
// against independent computations.
#include "term_text.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

namespace lance_nd::cli {
namespace {

/// A random string of ASCII letters, multi-byte characters and (when `styled`) ANSI styles;
/// `*width` is set to the number of characters shown.
std::string RandomText(std::mt19937_64& rng, bool styled, std::size_t* width) {
  static const std::vector<std::string> kPieces = {"a", "Z", " ", "7", "é", "✓", "…", "°", "µ"};
  static const std::vector<std::string> kStyles = {"\033[1m", "\033[0m", "\033[1;36m", "\033[2m"};
  std::string out;
  *width = 0;
  const std::size_t n = rng() % 20;
  for (std::size_t i = 0; i < n; ++i) {
    if (styled && rng() % 4 == 0) out += kStyles[rng() % kStyles.size()];
    out += kPieces[rng() % kPieces.size()];
    ++*width;
  }
  return out;
}

std::string StripStyles(const std::string& text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\033') {
      while (i < text.size() && text[i] != 'm') ++i;
      continue;
    }
    out.push_back(text[i]);
  }
  return out;
}

TEST(TermTextTest, DisplayWidthCountsCharactersNotBytesOrStyles) {
  std::mt19937_64 rng(1);
  for (int i = 0; i < 500; ++i) {
    std::size_t width = 0;
    const std::string text = RandomText(rng, i % 2 == 0, &width);
    EXPECT_EQ(DisplayWidth(text), width) << text;
  }
}

TEST(TermTextTest, TruncationKeepsAPrefixWithinTheWidth) {
  std::mt19937_64 rng(2);
  for (int i = 0; i < 2000; ++i) {
    std::size_t width = 0;
    const bool styled = i % 2 == 0;
    const std::string text = RandomText(rng, styled, &width);
    const std::size_t limit = 1 + rng() % 24;
    const std::string cut = TruncateToWidth(text, limit);
    const std::string plain = StripStyles(cut), original = StripStyles(text);
    if (width <= limit) {
      EXPECT_EQ(cut, text);
      continue;
    }
    EXPECT_EQ(DisplayWidth(cut), limit) << text << " -> " << cut;
    ASSERT_GE(plain.size(), std::string("…").size());
    EXPECT_EQ(plain.substr(plain.size() - 3), "…");
    const std::string kept = plain.substr(0, plain.size() - 3);
    EXPECT_EQ(original.substr(0, kept.size()), kept);
    // A cut inside a style resets it, so the rest of the line is not coloured.
    if (cut.find('\033') != std::string::npos) {
      EXPECT_EQ(cut.substr(cut.size() - 4), "\033[0m");
    }
  }
}

TEST(TermTextTest, PaddingReachesTheWidthOnTheChosenSide) {
  std::mt19937_64 rng(3);
  for (int i = 0; i < 300; ++i) {
    std::size_t width = 0;
    const std::string text = RandomText(rng, true, &width);
    const std::size_t target = rng() % 30;
    const std::string right = PadRight(text, target), left = PadLeft(text, target);
    EXPECT_EQ(DisplayWidth(right), std::max(width, target));
    EXPECT_EQ(right.substr(0, text.size()), text);
    EXPECT_EQ(left.substr(left.size() - text.size()), text);
  }
}

TEST(TermTextTest, HumanBytesIsCloseToTheExactValueInItsUnit) {
  std::mt19937_64 rng(4);
  const std::vector<std::string> units = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  for (int i = 0; i < 3000; ++i) {
    const std::uint64_t bytes = rng() >> (rng() % 64);
    const std::string text = HumanBytes(bytes);
    const std::size_t space = text.find(' ');
    ASSERT_NE(space, std::string::npos) << text;
    const double shown = std::stod(text.substr(0, space));
    const std::string unit = text.substr(space + 1);
    const auto k = static_cast<int>(std::find(units.begin(), units.end(), unit) - units.begin());
    ASSERT_LT(k, static_cast<int>(units.size())) << text;
    const double exact = static_cast<double>(bytes) / std::pow(1024.0, k);
    if (k == 0) {
      EXPECT_EQ(shown, static_cast<double>(bytes));
      EXPECT_LT(bytes, 1024u);
      continue;
    }
    EXPECT_GE(shown, 1.0) << text;
    EXPECT_LT(shown, 1024.0) << text;
    // One decimal below 100, none above: the error is at most half the last digit.
    EXPECT_LE(std::abs(shown - exact), (shown < 100 ? 0.05 : 0.5) + 1e-9) << bytes << " " << text;
  }
  EXPECT_EQ(HumanBytes(0), "0 B");
}

TEST(TermTextTest, GroupedDigitsReadBackToTheNumber) {
  std::mt19937_64 rng(5);
  for (int i = 0; i < 1000; ++i) {
    const std::uint64_t n = rng() >> (rng() % 64);
    const std::string text = GroupDigits(n);
    std::string digits;
    for (std::size_t k = 0; k < text.size(); ++k) {
      // A comma every three digits from the right.
      if ((text.size() - k) % 4 == 0) {
        EXPECT_EQ(text[k], ',') << text;
        continue;
      }
      digits.push_back(text[k]);
    }
    EXPECT_EQ(digits, std::to_string(n));
  }
}

/// Seconds of "3m05s" / "2h04m" / "12s" / "0.4s" / "3d04h".
double ParseDuration(const std::string& text) {
  double total = 0, number = 0, fraction = 0;
  bool in_fraction = false;
  for (char c : text) {
    if (c >= '0' && c <= '9') {
      if (in_fraction) {
        number += (c - '0') * (fraction /= 10);
      } else {
        number = number * 10 + (c - '0');
      }
    } else if (c == '.') {
      in_fraction = true;
      fraction = 1;
    } else {
      total += number * (c == 's' ? 1 : c == 'm' ? 60 : c == 'h' ? 3600 : 86400);
      number = 0;
      in_fraction = false;
    }
  }
  return total;
}

TEST(TermTextTest, DurationsReadBackWithinTheirLastUnit) {
  std::mt19937_64 rng(6);
  for (int i = 0; i < 2000; ++i) {
    const double seconds = std::ldexp(static_cast<double>(rng() % 1000000), -(int)(rng() % 20)) *
                           static_cast<double>(1 + rng() % 1000);
    const std::string text = HumanDuration(seconds);
    const double back = ParseDuration(text);
    // The unit of the last field shown bounds the error: 0.1 s, 1 s, 1 min or 1 h.
    const double unit = seconds < 9.95 ? 0.1 : seconds < 3600 ? 1 : seconds < 86400 ? 60 : 3600;
    EXPECT_LE(std::abs(back - seconds), unit + 0.5) << seconds << " " << text;
  }
}

TEST(TermTextTest, ShapesListNamesWithTheirSizes) {
  EXPECT_EQ(ShapeText({}), "[]");
  EXPECT_EQ(ShapeText({"x", "y"}), "[x, y]");
  EXPECT_EQ(ShapeText({"TIME", "LAT"}, {12, 90}), "[TIME=12, LAT=90]");
  // Past twelve axes, the first eleven, "…", the last one and the count.
  std::vector<std::string> names;
  std::vector<std::uint64_t> sizes;
  std::string expected = "[";
  for (std::uint64_t i = 0; i < 500; ++i) {
    names.push_back("d" + std::to_string(i));
    sizes.push_back(i + 1);
    if (i < 11) expected += "d" + std::to_string(i) + "=" + std::to_string(i + 1) + ", ";
  }
  EXPECT_EQ(ShapeText(names, sizes), expected + "…, d499=500 (500 in all)]");
  names.resize(12);
  sizes.resize(12);
  EXPECT_EQ(ShapeText(names, sizes).find("…"), std::string::npos);
}

std::string RandomWord(std::mt19937_64& rng) {
  std::string out;
  for (std::size_t n = rng() % 16; n > 0; --n) out.push_back(static_cast<char>('a' + rng() % 26));
  return out;
}

TEST(TermTextTest, TableColumnsAlignAndLinesKeepWithinTheWidth) {
  std::mt19937_64 rng(7);
  for (int round = 0; round < 200; ++round) {
    TextTable table({{"name", TextTable::Align::kLeft, nullptr},
                     {"n", TextTable::Align::kRight, nullptr},
                     {"note", TextTable::Align::kLeft, nullptr}});
    std::vector<std::vector<std::string>> rows;
    std::size_t name_width = 4, number_width = 1;
    for (std::size_t r = rng() % 6; r > 0; --r) {
      rows.push_back({RandomWord(rng), std::to_string(rng() % 100000), RandomWord(rng)});
      name_width = std::max(name_width, rows.back()[0].size());
      number_width = std::max(number_width, rows.back()[1].size());
      table.AddRow(rows.back());
    }
    const std::size_t width = 10 + rng() % 40;
    const std::string out = table.Render(width);
    std::vector<std::string> lines;
    for (std::size_t start = 0; start < out.size();) {
      const std::size_t end = out.find('\n', start);
      lines.push_back(out.substr(start, end - start));
      start = end + 1;
    }
    ASSERT_EQ(lines.size(), rows.size() + 1);
    for (const std::string& line : lines) EXPECT_LE(DisplayWidth(line), width) << out;
    if (name_width + 2 + number_width + 2 > width) continue;  // the numbers are cut
    for (std::size_t i = 1; i < lines.size(); ++i) {
      // Names padded to one width, numbers right-aligned after them.
      EXPECT_EQ(lines[i].substr(0, name_width + 2), PadRight(rows[i - 1][0], name_width + 2));
      EXPECT_EQ(lines[i].substr(name_width + 2, number_width),
                PadLeft(rows[i - 1][1], number_width))
          << out;
    }
  }
}

TEST(TermTextTest, TreesDrawBranchesForEveryNode) {
  std::mt19937_64 rng(8);
  for (int round = 0; round < 50; ++round) {
    TreeNode root{"root", {}};
    std::size_t nodes = 0;
    for (std::size_t i = rng() % 5; i > 0; --i) {
      TreeNode child{"c" + std::to_string(nodes++), {}};
      for (std::size_t k = rng() % 4; k > 0; --k) {
        child.children.push_back({"g" + std::to_string(nodes++), {}});
      }
      root.children.push_back(child);
    }
    const std::string out = RenderTree(root, 0);
    std::size_t lines = 0;
    for (char c : out) lines += c == '\n';
    EXPECT_EQ(lines, nodes + 1);
    // The last child of the root is drawn with └─, the others with ├─.
    for (std::size_t i = 0; i < root.children.size(); ++i) {
      const bool last = i + 1 == root.children.size();
      const std::string branch = std::string(last ? "└─ " : "├─ ") + root.children[i].text + "\n";
      EXPECT_NE(out.find("\n" + branch), std::string::npos) << out;
    }
  }
}

std::string Replaced(std::string text) {
  ReplaceInvalidUtf8(text);
  return text;
}

TEST(ReplaceInvalidUtf8, KeepsValidText) {
  for (const std::string text : {"", "plain", "é✓…°µ", "\xF0\x9F\x8C\x8A waves", "\x7F"}) {
    EXPECT_EQ(Replaced(text), text);
  }
}

TEST(ReplaceInvalidUtf8, EachMaximalSubpartBecomesOneReplacementCharacter) {
  const std::string r = "\xEF\xBF\xBD";
  EXPECT_EQ(Replaced("caf\xE9"), "caf" + r);  // Latin-1 é
  EXPECT_EQ(Replaced("\xFF\xFE"), r + r);     // never valid bytes
  EXPECT_EQ(Replaced("a\x80"
                     "b"),
            "a" + r + "b");            // a lone continuation byte
  EXPECT_EQ(Replaced("\xE2\x9C"), r);  // a cut 3-byte sequence
  EXPECT_EQ(Replaced("\xE2\x9C"
                     "x"),
            r + "x");                                         // cut, then ASCII
  EXPECT_EQ(Replaced("\xC0\xAF"), r + r);                     // an overlong form
  EXPECT_EQ(Replaced("\xED\xA0\x80"), r + r + r);             // a surrogate
  EXPECT_EQ(Replaced("\xF4\x90\x80\x80"), r + r + r + r);     // above U+10FFFF
  EXPECT_EQ(Replaced("\xF0\x9F\x8C"), r);                     // a cut 4-byte sequence
  EXPECT_EQ(Replaced("\"\xE9\"\xC3\xA9"), "\"" + r + "\"é");  // valid text after is kept
}

}  // namespace
}  // namespace lance_nd::cli
