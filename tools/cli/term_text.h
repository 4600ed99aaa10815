// Text for people: display widths (UTF-8, ANSI styles skipped), truncation with "…", human
// sizes, counts and durations, shapes, aligned tables and trees. Pure functions, unit-tested.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace lance_nd::cli {

/// \brief Columns `text` takes on a terminal: UTF-8 code points, ANSI escape sequences not
/// counted.
std::size_t DisplayWidth(std::string_view text);

/// \brief Make `text` valid UTF-8: each maximal ill-formed subsequence (Unicode's "maximal
/// subpart", as browsers and Python's errors="replace" do) becomes U+FFFD. Valid text is left
/// as it is (and not copied). JSON written from stored strings goes through this, so that it is
/// always valid JSON whatever bytes a string holds.
void ReplaceInvalidUtf8(std::string& text);

/// \brief `text` cut to at most `width` columns, ending in "…" when cut (ANSI-aware: styles are
/// kept and reset after the cut).
std::string TruncateToWidth(std::string_view text, std::size_t width);

/// \brief `text` padded with spaces to `width` columns (on the right, or on the left).
std::string PadRight(std::string_view text, std::size_t width);
std::string PadLeft(std::string_view text, std::size_t width);

/// \brief "0 B", "999 B", "1.5 KiB", "12.3 MiB", "128 MiB", "2.0 GiB" (binary units).
std::string HumanBytes(std::uint64_t bytes);

/// \brief "1,234,567".
std::string GroupDigits(std::uint64_t n);

/// \brief "0.4s", "12s", "3m05s", "2h04m", "3d04h".
std::string HumanDuration(double seconds);

/// \brief "[TIME=12, LAT=90]"; "[]" for a scalar. Sizes may be left out ("[x, y]").
/// \brief How many items a person's view lists before it summarises the rest.
inline constexpr std::size_t kMaxListedItems = 12;

/// \brief `items` joined by ", "; past `max_items`, the first ones, "…", the last one and
/// "(N in all)".
std::string JoinCapped(const std::vector<std::string>& items, std::size_t max_items);

std::string ShapeText(const std::vector<std::string>& names,
                      const std::vector<std::uint64_t>& sizes = {});

/// \brief Rows of cells in aligned columns, two spaces apart, under a header. The last column
/// is cut with "…" to keep lines within a width.
class TextTable {
 public:
  enum class Align { kLeft, kRight };
  struct Column {
    std::string header;
    Align align = Align::kLeft;
    /// Applied to a cell after it is padded (e.g. a colour); null for none.
    std::function<std::string(std::string_view)> style;
  };

  explicit TextTable(std::vector<Column> columns) : columns_(std::move(columns)) {}
  /// \brief A row of plain cells, one per column (missing cells are empty).
  void AddRow(std::vector<std::string> cells);
  std::size_t num_rows() const { return rows_.size(); }
  /// \brief Header and rows, one line each, ending in "\n"; no line is wider than `width`
  /// (0: no limit). `header_style` is applied to the header line.
  std::string Render(std::size_t width,
                     const std::function<std::string(std::string_view)>& header_style = {}) const;

 private:
  std::vector<Column> columns_;
  std::vector<std::vector<std::string>> rows_;
};

/// \brief A node of a tree printed with box-drawing branches.
struct TreeNode {
  std::string text;  // one line, may be styled
  std::vector<TreeNode> children;
};

/// \brief The children of `root` as lines "├─ a", "│  └─ b", "└─ c" under `root.text` (which
/// is printed first when not empty); every line is cut to `width` columns (0: no limit).
std::string RenderTree(const TreeNode& root, std::size_t width);

}  // namespace lance_nd::cli
