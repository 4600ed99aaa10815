#include "cli_util.h"

#include <algorithm>
#include <charconv>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "progress.h"

namespace lance_nd::cli {

namespace {

bool IsCaretLine(std::string_view line) {
  return line.find('^') != std::string_view::npos &&
         line.find_first_not_of(" ^\r") == std::string_view::npos;
}

/// `echo` (a line of SQL the parser echoed, indented like `caret`) with "▶" where the caret
/// points, leading blanks dropped.
std::string Marked(std::string_view echo, std::string_view caret) {
  const std::size_t at = std::min(caret.find('^'), echo.size());
  std::string out = std::string(echo.substr(0, at)) + "▶" + std::string(echo.substr(at));
  const std::size_t start = out.find_first_not_of(' ');
  return start == std::string::npos ? out : out.substr(start);
}

/// The lines of `message` joined by "; ". A caret line pointing into the line above it (how
/// the SQL parser shows a position) becomes a "▶" in that line, kept on the same line.
std::string OneLine(std::string_view message) {
  std::vector<std::string_view> lines;
  for (std::size_t start = 0; start <= message.size();) {
    std::size_t end = message.find('\n', start);
    if (end == std::string_view::npos) end = message.size();
    lines.push_back(message.substr(start, end - start));
    start = end + 1;
  }
  std::string out;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::string_view line = lines[i];
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.remove_suffix(1);
    if (i > 0 && i + 1 < lines.size() && IsCaretLine(lines[i + 1])) {
      out.append(" at ▶ in: ").append(Marked(line, lines[i + 1]));
      ++i;
      continue;
    }
    if (IsCaretLine(line) || line.empty()) continue;
    out.append(out.empty() ? "" : "; ").append(line);
  }
  return out;
}

/// Whether `uri` is a local path to a regular file.
bool IsRegularFile(std::string_view uri) {
  std::error_code error;
  return uri.find("://") == std::string_view::npos &&
         std::filesystem::is_regular_file(std::string(uri), error);
}

/// Whether the file at `path` starts with a netCDF magic: classic `CDF\x01`, 64-bit offset
/// `CDF\x02`, CDF5 `CDF\x05`, or HDF5's signature (netCDF-4).
bool HasNetcdfMagic(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  char magic[8] = {};
  file.read(magic, sizeof magic);
  const std::string_view head(magic, static_cast<std::size_t>(file.gcount()));
  if (head.size() >= 4 && head.starts_with("CDF")) {
    return head[3] == '\x01' || head[3] == '\x02' || head[3] == '\x05';
  }
  return head == std::string_view("\x89HDF\r\n\x1a\n", 8);
}

}  // namespace

void Fail(std::string_view command, std::string_view message) {
  ClearProgressLine();
  std::cerr << "lance-nd: " << command << ": " << OneLine(message) << std::endl;
  throw CommandExit{kFailure};
}

void Fail(std::string_view command, const Status& status) { Fail(command, status.message()); }

std::optional<std::string> NotATable(std::string_view uri) {
  if (!IsRegularFile(uri)) return std::nullopt;
  const std::string path(uri);
  if (HasNetcdfMagic(path)) {
    return "no table at " + path + ": it is a netCDF file; import it with `lance-nd import TABLE " +
           path + "`";
  }
  return "no table at " + path + ": it is a file, not a table directory";
}

Table OpenTable(std::string_view command, std::string_view uri) {
  auto table = Table::Open(uri);
  if (!table.ok()) {
    if (auto file = NotATable(uri)) Fail(command, *file);
  }
  if (!table.ok() && table.status().kind() == ErrorKind::kTableNotFound) {
    Fail(command, std::string(table.status().message()) + "; make one with `lance-nd append " +
                      std::string(uri) + " rows.jsonl --create` or `lance-nd import`");
  }
  if (!table.ok() && table.status().IsInvalidTable()) {
    Fail(command, std::string(table.status().message()) + " (`lance-nd inspect " +
                      std::string(uri) + "` shows it at the Lance level)");
  }
  return OrFail(command, std::move(table));
}

Result<std::chrono::seconds> ParseDuration(std::string_view text) {
  const auto invalid = [&] {
    return Status::InvalidArgument("invalid duration '", text,
                                   "' (expected a number and a unit s, m, h, d or w, e.g. 7d, "
                                   "12h, 30m, 45s, 0s, 1d12h)");
  };
  if (text.empty()) return invalid();
  std::int64_t total = 0;
  const char* p = text.data();
  const char* end = p + text.size();
  while (p < end) {
    std::int64_t n = 0;
    const auto r = std::from_chars(p, end, n);
    if (r.ec != std::errc() || n < 0 || r.ptr == end) return invalid();
    std::int64_t unit = 0;
    switch (*r.ptr) {
      case 's':
        unit = 1;
        break;
      case 'm':
        unit = 60;
        break;
      case 'h':
        unit = 3600;
        break;
      case 'd':
        unit = 86400;
        break;
      case 'w':
        unit = 7 * 86400;
        break;
      default:
        return invalid();
    }
    if (n > (INT64_MAX - total) / unit) return invalid();
    total += n * unit;
    p = r.ptr + 1;
  }
  return std::chrono::seconds(total);
}

std::vector<std::string> SplitList(std::string_view text) {
  std::vector<std::string> out;
  if (text.empty()) return out;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = text.find(',', start);
    out.emplace_back(text.substr(start, comma - start));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return out;
}

std::string FormatTime(std::chrono::system_clock::time_point time) {
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(time.time_since_epoch());
  auto seconds = static_cast<std::time_t>(ms.count() / 1000);
  auto millis = ms.count() % 1000;
  if (millis < 0) {
    millis += 1000;
    --seconds;
  }
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  char buf[64];
  const std::size_t n = std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
  char frac[8];
  std::snprintf(frac, sizeof frac, ".%03dZ", static_cast<int>(millis));
  return std::string(buf, n) + frac;
}

}  // namespace lance_nd::cli
