#include "lance_nd/array/field_path.h"

#include <algorithm>

namespace lance_nd::array {
namespace {

constexpr int kMaxPathDepth = 64;

// Splits a path holding backticks: quoted parts are literal, unquoted parts end at dots.
Result<std::vector<std::string>> SplitQuoted(std::string_view path) {
  std::vector<std::string> parts;
  std::size_t i = 0;
  while (true) {
    std::string part;
    if (i < path.size() && path[i] == '`') {
      ++i;
      bool closed = false;
      while (i < path.size()) {
        if (path[i] == '`') {
          if (i + 1 < path.size() && path[i + 1] == '`') {
            part += '`';
            i += 2;
            continue;
          }
          ++i;
          closed = true;
          break;
        }
        part += path[i++];
      }
      if (!closed) {
        return Status::InvalidArgument("field path '", path,
                                       "' has an unterminated backtick; quote a name as `a.b`");
      }
      if (i < path.size() && path[i] != '.') {
        return Status::InvalidArgument("field path '", path, "': expected '.' after `", part,
                                       "` at offset ", i);
      }
    } else {
      const std::size_t dot = std::min(path.find('.', i), path.size());
      part = std::string(path.substr(i, dot - i));
      if (part.find('`') != std::string::npos) {
        return Status::InvalidArgument("field path '", path, "': a backtick inside the name '",
                                       part, "'; quote the whole name, doubling inner backticks");
      }
      i = dot;
    }
    if (part.empty()) {
      return Status::InvalidArgument("field path '", path, "' has an empty name");
    }
    parts.push_back(std::move(part));
    if (i >= path.size()) return parts;
    ++i;  // the dot
  }
}

std::vector<std::string> SplitAtDots(std::string_view path) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (true) {
    const std::size_t dot = path.find('.', start);
    parts.emplace_back(path.substr(start, dot == std::string_view::npos ? path.npos : dot - start));
    if (dot == std::string_view::npos) return parts;
    start = dot + 1;
  }
}

// Depth-first search for names that spell `rest`, longest name first at each level.
bool MatchNames(const std::vector<FieldPtr>& fields, std::string_view rest, int depth,
                std::vector<std::string>& out) {
  if (depth > kMaxPathDepth) return false;
  std::vector<const Field*> order;
  for (const FieldPtr& f : fields) {
    if (f) order.push_back(f.get());
  }
  std::stable_sort(order.begin(), order.end(), [](const Field* a, const Field* b) {
    return a->name().size() > b->name().size();
  });
  for (const Field* f : order) {
    const std::string& name = f->name();
    if (rest == name) {
      out.push_back(name);
      return true;
    }
    if (rest.size() > name.size() + 1 && rest.starts_with(name) && rest[name.size()] == '.' &&
        f->type() && f->type()->id() == TypeId::kStruct) {
      out.push_back(name);
      if (MatchNames(f->type()->children(), rest.substr(name.size() + 1), depth + 1, out)) {
        return true;
      }
      out.pop_back();
    }
  }
  return false;
}

}  // namespace

Result<std::vector<std::string>> SplitFieldPath(const std::vector<FieldPtr>& fields,
                                                std::string_view path) {
  for (const FieldPtr& f : fields) {
    if (f && f->name() == path) return std::vector<std::string>{f->name()};
  }
  if (path.find('`') != std::string_view::npos) return SplitQuoted(path);
  std::vector<std::string> names;
  if (MatchNames(fields, path, 0, names)) return names;
  return SplitAtDots(path);
}

std::string JoinFieldPath(const std::vector<std::string>& names) {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) {
    const std::string& name = names[i];
    if (i > 0) out += '.';
    // The first of several names is quoted too: unquoted, the whole path could be read as one
    // top-level name holding dots.
    const bool plain = !name.empty() && name.find_first_of(".`") == std::string::npos;
    if (plain && (i > 0 || names.size() == 1)) {
      out += name;
      continue;
    }
    out += '`';
    for (char c : name) {
      out += c;
      if (c == '`') out += '`';
    }
    out += '`';
  }
  return out;
}

}  // namespace lance_nd::array
