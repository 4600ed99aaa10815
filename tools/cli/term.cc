#include "term.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <charconv>
#include <cstdlib>
#include <cstring>

namespace lance_nd::cli {

bool IsTerminal(int fd) { return isatty(fd) == 1; }

int TerminalWidth(int fd) {
  winsize size{};
  if (ioctl(fd, TIOCGWINSZ, &size) == 0 && size.ws_col > 0) return size.ws_col;
  if (const char* columns = std::getenv("COLUMNS")) {
    int n = 0;
    const char* end = columns + std::strlen(columns);
    if (std::from_chars(columns, end, n).ec == std::errc() && n > 0) return n;
  }
  return 80;
}

bool NoColorRequested() {
  const char* value = std::getenv("NO_COLOR");
  return value != nullptr && value[0] != '\0';
}

Style Style::For(int fd) { return Style(IsTerminal(fd) && !NoColorRequested()); }

std::string Style::Wrap(std::string_view code, std::string_view text) const {
  if (!colour_ || text.empty()) return std::string(text);
  std::string out = "\033[";
  out.append(code).append("m").append(text).append("\033[0m");
  return out;
}

}  // namespace lance_nd::cli
