#include "lance_nd/query/parse_error.h"

#include <algorithm>

namespace lance_nd::query {
namespace {

constexpr std::int64_t kContext = 40;  // characters shown either side of the position

std::string Excerpt(std::string_view sql, std::int64_t position) {
  const auto size = static_cast<std::int64_t>(sql.size());
  std::int64_t line_begin = position;
  while (line_begin > 0 && sql[static_cast<std::size_t>(line_begin - 1)] != '\n') --line_begin;
  std::int64_t line_end = position;
  while (line_end < size && sql[static_cast<std::size_t>(line_end)] != '\n') ++line_end;
  const std::int64_t begin = std::max(line_begin, position - kContext);
  const std::int64_t end = std::min(line_end, position + kContext);
  std::string out = "\n  ";
  out += begin > line_begin ? "..." : "";
  out += sql.substr(static_cast<std::size_t>(begin), static_cast<std::size_t>(end - begin));
  out += end < line_end ? "..." : "";
  out += "\n  ";
  out.append(static_cast<std::size_t>(position - begin + (begin > line_begin ? 3 : 0)), ' ');
  out += '^';
  return out;
}

}  // namespace

Status FilterError(std::string_view sql, std::int64_t position, const std::string& what) {
  if (position < 0 || position > static_cast<std::int64_t>(sql.size())) {
    return Status::InvalidArgument("filter: ", what).WithKind(ErrorKind::kParseError);
  }
  std::int64_t line = 1, column = 1;
  for (std::int64_t i = 0; i < position; ++i) {
    if (sql[static_cast<std::size_t>(i)] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return Status::InvalidArgument("filter: at position ", position, " (line ", line, ", column ",
                                 column, "): ", what, Excerpt(sql, position))
      .WithKind(ErrorKind::kParseError);
}

}  // namespace lance_nd::query
