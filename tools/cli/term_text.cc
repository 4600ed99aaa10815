#include "term_text.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <utility>

namespace lance_nd::cli {
namespace {

constexpr std::string_view kEllipsis = "…";

bool IsContinuationByte(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

/// The length of the ANSI escape sequence at text[i] ("\033[...m"), or 0.
std::size_t EscapeLength(std::string_view text, std::size_t i) {
  if (text[i] != '\033' || i + 1 >= text.size() || text[i + 1] != '[') return 0;
  std::size_t j = i + 2;
  while (j < text.size() && !(text[j] >= '@' && text[j] <= '~')) ++j;
  return j < text.size() ? j - i + 1 : text.size() - i;
}

std::string Padding(std::string_view text, std::size_t width) {
  const std::size_t have = DisplayWidth(text);
  return std::string(have < width ? width - have : 0, ' ');
}

void RenderChildren(const TreeNode& node, const std::string& prefix, std::size_t width,
                    std::string& out) {
  for (std::size_t i = 0; i < node.children.size(); ++i) {
    const bool last = i + 1 == node.children.size();
    const TreeNode& child = node.children[i];
    std::string line = prefix + (last ? "└─ " : "├─ ") + child.text;
    out.append(width > 0 ? TruncateToWidth(line, width) : line).append("\n");
    RenderChildren(child, prefix + (last ? "   " : "│  "), width, out);
  }
}

/// The length of the valid UTF-8 sequence at s[i] (> 0), or minus the length of the maximal
/// ill-formed subpart there (< 0): Unicode's table 3-7 of well-formed byte sequences.
std::ptrdiff_t Utf8SequenceAt(std::string_view s, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char b0 = byte(i);
  if (b0 < 0x80) return 1;
  std::size_t length = 0;
  unsigned char low = 0x80, high = 0xBF;  // the range of the second byte
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    length = 2;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    length = 3;
    if (b0 == 0xE0) low = 0xA0;
    if (b0 == 0xED) high = 0x9F;
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    length = 4;
    if (b0 == 0xF0) low = 0x90;
    if (b0 == 0xF4) high = 0x8F;
  } else {
    return -1;
  }
  for (std::size_t k = 1; k < length; ++k) {
    const bool in_range = i + k < s.size() && byte(i + k) >= (k == 1 ? low : 0x80) &&
                          byte(i + k) <= (k == 1 ? high : 0xBF);
    if (!in_range) return -static_cast<std::ptrdiff_t>(k);
  }
  return static_cast<std::ptrdiff_t>(length);
}

}  // namespace

void ReplaceInvalidUtf8(std::string& text) {
  std::size_t i = 0;
  for (std::ptrdiff_t n = 0; i < text.size() && (n = Utf8SequenceAt(text, i)) > 0;) {
    i += static_cast<std::size_t>(n);
  }
  if (i == text.size()) return;
  std::string out = text.substr(0, i);
  while (i < text.size()) {
    const std::ptrdiff_t n = Utf8SequenceAt(text, i);
    if (n > 0) {
      out.append(text, i, static_cast<std::size_t>(n));
    } else {
      out.append("\xEF\xBF\xBD");  // U+FFFD
    }
    i += static_cast<std::size_t>(n > 0 ? n : -n);
  }
  text = std::move(out);
}

std::size_t DisplayWidth(std::string_view text) {
  std::size_t width = 0;
  for (std::size_t i = 0; i < text.size();) {
    if (const std::size_t escape = EscapeLength(text, i); escape > 0) {
      i += escape;
      continue;
    }
    if (!IsContinuationByte(text[i])) ++width;
    ++i;
  }
  return width;
}

std::string TruncateToWidth(std::string_view text, std::size_t width) {
  if (DisplayWidth(text) <= width) return std::string(text);
  std::string out;
  bool styled = false;
  std::size_t used = 0;
  for (std::size_t i = 0; i < text.size();) {
    if (const std::size_t escape = EscapeLength(text, i); escape > 0) {
      out.append(text.substr(i, escape));
      styled = true;
      i += escape;
      continue;
    }
    if (!IsContinuationByte(text[i])) {
      if (used + 1 >= width) break;  // room is left for the ellipsis
      ++used;
    }
    out.push_back(text[i++]);
  }
  if (width > 0) out.append(kEllipsis);
  if (styled) out.append("\033[0m");
  return out;
}

std::string PadRight(std::string_view text, std::size_t width) {
  return std::string(text) + Padding(text, width);
}

std::string PadLeft(std::string_view text, std::size_t width) {
  return Padding(text, width) + std::string(text);
}

std::string HumanBytes(std::uint64_t bytes) {
  static constexpr const char* kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  if (bytes < 1024) return std::to_string(bytes) + " B";
  double value = static_cast<double>(bytes);
  std::size_t unit = 0;
  while (value >= 1024 && unit + 1 < std::size(kUnits)) {
    value /= 1024;
    ++unit;
  }
  // Rounding may reach 1024 of the unit ("1024 KiB"): show it as one of the next unit.
  if (std::round(value) >= 1024 && unit + 1 < std::size(kUnits)) {
    value /= 1024;
    ++unit;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, value < 99.95 ? "%.1f %s" : "%.0f %s", value, kUnits[unit]);
  return buf;
}

std::string GroupDigits(std::uint64_t n) {
  const std::string digits = std::to_string(n);
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out.push_back(',');
    out.push_back(digits[i]);
  }
  return out;
}

std::string HumanDuration(double seconds) {
  char buf[32];
  if (!(seconds >= 0)) seconds = 0;
  if (seconds < 9.95) {
    std::snprintf(buf, sizeof buf, "%.1fs", seconds);
    return buf;
  }
  const auto s = static_cast<std::uint64_t>(std::llround(seconds));
  if (s < 60) {
    std::snprintf(buf, sizeof buf, "%llus", static_cast<unsigned long long>(s));
  } else if (s < 3600) {
    std::snprintf(buf, sizeof buf, "%llum%02llus", static_cast<unsigned long long>(s / 60),
                  static_cast<unsigned long long>(s % 60));
  } else if (s < 86400) {
    std::snprintf(buf, sizeof buf, "%lluh%02llum", static_cast<unsigned long long>(s / 3600),
                  static_cast<unsigned long long>(s % 3600 / 60));
  } else {
    std::snprintf(buf, sizeof buf, "%llud%02lluh", static_cast<unsigned long long>(s / 86400),
                  static_cast<unsigned long long>(s % 86400 / 3600));
  }
  return buf;
}

std::string JoinCapped(const std::vector<std::string>& items, std::size_t max_items) {
  std::string out;
  const bool cut = items.size() > max_items && max_items >= 2;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (cut && i == max_items - 1) {
      out.append(", …");
      i = items.size() - 1;
    }
    out.append(i > 0 ? ", " : "").append(items[i]);
  }
  if (cut) out.append(" (" + std::to_string(items.size()) + " in all)");
  return out;
}

std::string ShapeText(const std::vector<std::string>& names,
                      const std::vector<std::uint64_t>& sizes) {
  std::vector<std::string> axes;
  for (std::size_t i = 0; i < names.size(); ++i) {
    axes.push_back(i < sizes.size() ? names[i] + "=" + std::to_string(sizes[i]) : names[i]);
  }
  return "[" + JoinCapped(axes, kMaxListedItems) + "]";
}

void TextTable::AddRow(std::vector<std::string> cells) {
  cells.resize(columns_.size());
  rows_.push_back(std::move(cells));
}

std::string TextTable::Render(
    std::size_t width, const std::function<std::string(std::string_view)>& header_style) const {
  std::vector<std::size_t> widths;
  for (const Column& c : columns_) widths.push_back(DisplayWidth(c.header));
  for (const auto& row : rows_) {
    for (std::size_t i = 0; i < row.size(); ++i) {
      widths[i] = std::max(widths[i], DisplayWidth(row[i]));
    }
  }
  const auto line = [&](const std::vector<std::string>& cells, bool header) {
    std::string out;
    std::size_t used = 0;
    for (std::size_t i = 0; i < cells.size(); ++i) {
      const bool last = i + 1 == cells.size();
      std::string cell = cells[i];
      if (last && width > used) cell = TruncateToWidth(cell, width - used);
      if (!last || columns_[i].align == Align::kRight) {
        cell = columns_[i].align == Align::kRight ? PadLeft(cell, widths[i])
                                                  : PadRight(cell, widths[i]);
      }
      if (!header && columns_[i].style) cell = columns_[i].style(cell);
      out.append(i > 0 ? "  " : "").append(cell);
      used += widths[i] + 2;
    }
    while (!out.empty() && out.back() == ' ') out.pop_back();
    if (width > 0) out = TruncateToWidth(out, width);  // when the first columns are too wide
    if (header && header_style) out = header_style(out);
    return out + "\n";
  };
  std::vector<std::string> headers;
  for (const Column& c : columns_) headers.push_back(c.header);
  std::string out = line(headers, true);
  for (const auto& row : rows_) out.append(line(row, false));
  return out;
}

std::string RenderTree(const TreeNode& root, std::size_t width) {
  std::string out;
  if (!root.text.empty()) {
    out.append(width > 0 ? TruncateToWidth(root.text, width) : root.text).append("\n");
  }
  RenderChildren(root, "", width, out);
  return out;
}

}  // namespace lance_nd::cli
