// The terminal: whether a stream is one, its width, and colour (only on a terminal, never with
// NO_COLOR set). Commands print readable forms on a terminal and their scriptable forms
// otherwise.
#pragma once

#include <string>
#include <string_view>

namespace lance_nd::cli {

/// \brief True when file descriptor `fd` (1 = stdout, 2 = stderr) is a terminal.
bool IsTerminal(int fd);

/// \brief The width of the terminal on `fd` in columns; COLUMNS, or 80, when it has none.
int TerminalWidth(int fd);

/// \brief True when the NO_COLOR environment variable is set to a non-empty value.
bool NoColorRequested();

/// \brief ANSI styles, or plain text when disabled. Styled text keeps its display width.
class Style {
 public:
  explicit Style(bool colour) : colour_(colour) {}
  /// \brief Colour when `fd` is a terminal and NO_COLOR is not set.
  static Style For(int fd);

  bool colour() const { return colour_; }
  std::string Bold(std::string_view text) const { return Wrap("1", text); }
  std::string Dim(std::string_view text) const { return Wrap("2", text); }
  std::string Name(std::string_view text) const { return Wrap("1;36", text); }  // variables
  std::string Type(std::string_view text) const { return Wrap("33", text); }    // dtypes
  std::string Key(std::string_view text) const { return Wrap("32", text); }     // attributes
  std::string Warn(std::string_view text) const { return Wrap("31", text); }

 private:
  std::string Wrap(std::string_view code, std::string_view text) const;
  bool colour_;
};

}  // namespace lance_nd::cli
