#include "lance_nd/table/location.h"

#include <utility>

namespace lance_nd::table {

std::string JoinPath(std::string_view dir, std::string_view name) {
  std::string out(dir);
  if (out.empty()) return std::string(name);
  if (out.back() != '/') out.push_back('/');
  out.append(name);
  return out;
}

TableLocation::TableLocation(std::shared_ptr<io::FileSystem> fs, std::string root)
    : fs_(std::move(fs)), root_(std::move(root)) {
  while (root_.size() > 1 && root_.back() == '/') root_.pop_back();
}

TableLocation TableLocation::Local(std::string root) {
  return {io::LocalFileSystem(), std::move(root)};
}

}  // namespace lance_nd::table
