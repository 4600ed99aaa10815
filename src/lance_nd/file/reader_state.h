// What an open file knows after FileReader::Open: the container, the field tree, per leaf column
// its level scheme, and the fields by id. Shared, read-only, by every part of a read.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "lance_nd/file/container.h"
#include "lance_nd/file/lance_schema_internal.h"
#include "lance_nd/file/reader.h"
#include "lance_nd/file/structure.h"
#include "lance_nd/io/file.h"

namespace lance_nd::file::internal {

struct ColumnInfo {
  const FieldNode* node = nullptr;
  std::string path;  // dotted field path of the leaf
  std::unique_ptr<LevelScheme> scheme;
};

struct ReaderState {
  std::shared_ptr<io::RandomAccessFile> file;
  ReaderOptions options;
  Container container;
  SchemaTree tree;
  std::vector<ColumnInfo> columns;                      // by column index
  std::map<std::int32_t, const FieldNode*> by_id;       // every field, by Lance field id
  std::map<const FieldNode*, const FieldNode*> parent;  // absent for top-level fields

  /// \brief Reads the container and schema of `file`, checks they agree, and indexes the
  /// fields. The state is built in place: its members point into its own field tree.
  static Result<std::shared_ptr<const ReaderState>> Open(std::shared_ptr<io::RandomAccessFile> file,
                                                         ReaderOptions options);

  bool is_v2_2() const { return container.footer.minor >= 2; }
  const ColumnMeta& column_meta(int c) const {
    return container.columns[static_cast<std::size_t>(c)];
  }
  const ColumnInfo& column(int c) const { return columns[static_cast<std::size_t>(c)]; }
  /// \brief "column 3 ('t.values.item')", for messages.
  std::string ColumnWhere(int c) const;
};

}  // namespace lance_nd::file::internal
