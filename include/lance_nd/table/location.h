// Where a table lives: a file system plus the table's root directory. Every table operation
// takes one (or a Dataset, which carries the location it was opened from), and the names of the
// table's directories and the joining of paths live here only.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "lance_nd/export.h"
#include "lance_nd/io/file_system.h"

namespace lance_nd::table {

/// \brief The directories of a Lance table, relative to its root.
inline constexpr std::string_view kVersionsDir = "_versions";
inline constexpr std::string_view kDataDir = "data";
inline constexpr std::string_view kDeletionsDir = "_deletions";
inline constexpr std::string_view kTransactionsDir = "_transactions";
inline constexpr std::string_view kIndicesDir = "_indices";
inline constexpr std::string_view kTagsDir = "_refs/tags";

/// \brief `dir` and `name` joined with exactly one '/' ("" + name is name).
LANCE_ND_EXPORT std::string JoinPath(std::string_view dir, std::string_view name);

class LANCE_ND_EXPORT TableLocation {
 public:
  /// \brief The table rooted at `root` on `fs`. A trailing '/' of the root is dropped.
  TableLocation(std::shared_ptr<io::FileSystem> fs, std::string root);
  /// \brief The table at `root` on the local disk (io::LocalFileSystem()).
  static TableLocation Local(std::string root);

  io::FileSystem& fs() const { return *fs_; }
  const std::shared_ptr<io::FileSystem>& file_system() const { return fs_; }
  const std::string& root() const { return root_; }

  /// \brief `<root>/<relative>`.
  std::string Path(std::string_view relative) const { return JoinPath(root_, relative); }
  /// \brief `<root>/<dir>/<name>` for one of the table directories above.
  std::string Path(std::string_view dir, std::string_view name) const {
    return JoinPath(Path(dir), name);
  }
  std::string VersionsDir() const { return Path(kVersionsDir); }
  std::string DataDir() const { return Path(kDataDir); }
  std::string DeletionsDir() const { return Path(kDeletionsDir); }
  std::string TransactionsDir() const { return Path(kTransactionsDir); }
  std::string IndicesDir() const { return Path(kIndicesDir); }
  std::string TagsDir() const { return Path(kTagsDir); }

 private:
  std::shared_ptr<io::FileSystem> fs_;
  std::string root_;
};

}  // namespace lance_nd::table
