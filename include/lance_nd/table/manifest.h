// The version manifest of a Lance dataset (lance.table.Manifest) as plain C++ values, and the
// manifest file container: u32-prefixed protobuf blobs (optional index section, optional
// transaction, manifest) followed by the footer `i64 manifest_pos, i16 0, i16 2, "LANC"`.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "lance_nd/array/type.h"
#include "lance_nd/core/result.h"
#include "lance_nd/export.h"
#include "lance_nd/io/file.h"

namespace lance_nd::table {

/// \brief One field of the flattened (pre-order) table schema, as stored (lance.file.Field).
struct LANCE_ND_EXPORT LanceField {
  std::string name;
  std::int32_t id = 0;
  std::int32_t parent_id = -1;  // -1 for top-level fields
  std::string logical_type;     // "int32", "struct", "list", "fixed_size_list:float:4", ...
  bool nullable = true;
  array::Metadata metadata;
  /// Serialised lance.file.Field members lance-nd does not model (encoding, primary-key and
  /// clustering-key markers, unknown fields), carried forward verbatim when the field is written.
  std::string unmodelled_proto = {};
  bool operator==(const LanceField&) const = default;
};

/// \brief One Lance file holding some columns of a fragment (path relative to `data/`).
struct LANCE_ND_EXPORT DataFile {
  std::string path;
  std::vector<std::int32_t> fields;          // field ids; -2 = tombstone
  std::vector<std::int32_t> column_indices;  // parallel to fields; -1 = no column
  std::uint32_t file_major_version = 2;
  std::uint32_t file_minor_version = 2;
  std::uint64_t file_size_bytes = 0;  // 0 = unknown
  std::optional<std::uint32_t> base_id;
  bool operator==(const DataFile&) const = default;
};

enum class DeletionFileType : std::uint8_t { kArrowArray = 0, kBitmap = 1 };

struct LANCE_ND_EXPORT DeletionFile {
  DeletionFileType file_type = DeletionFileType::kArrowArray;
  std::uint64_t read_version = 0;
  std::uint64_t id = 0;
  std::uint64_t num_deleted_rows = 0;
  std::optional<std::uint32_t> base_id;
  /// \brief "_deletions/{fragment_id}-{read_version}-{id}.{arrow|bin}" (relative to the table).
  std::string RelativePath(std::uint64_t fragment_id) const;
  bool operator==(const DeletionFile&) const = default;
};

struct LANCE_ND_EXPORT Fragment {
  std::uint64_t id = 0;
  std::vector<DataFile> files;
  std::optional<DeletionFile> deletion_file;
  std::uint64_t physical_rows = 0;  // including deleted rows
  bool has_row_ids = false;         // carries stable row ids (decoded by rowids/row_id_codec.h)
  /// Serialised DataFragment members the plain struct does not model (row-id / version sequences,
  /// unknown fields), carried forward verbatim.
  std::string unmodelled_proto = {};
  /// \brief Live rows: physical_rows minus deleted rows.
  std::uint64_t num_rows() const;
  bool operator==(const Fragment&) const = default;
};

/// \brief Feature flag bits (reader_feature_flags / writer_feature_flags).
inline constexpr std::uint64_t kFlagDeletionFiles = 1;
inline constexpr std::uint64_t kFlagStableRowIds = 2;
inline constexpr std::uint64_t kFlagUseV2Format = 4;  // deprecated, ignored
inline constexpr std::uint64_t kFlagTableConfig = 8;
inline constexpr std::uint64_t kFlagBasePaths = 16;
inline constexpr std::uint64_t kFlagNoTransactionFile = 32;

/// \brief Reader flags lance-nd can read: deletion files, v2 format, table config, no txn file.
LANCE_ND_EXPORT Status CheckReaderFeatureFlags(std::uint64_t flags, std::string_view manifest_name);
/// \brief Writer flags lance-nd can write under (same set as the reader's).
LANCE_ND_EXPORT Status CheckWriterFeatureFlags(std::uint64_t flags, std::string_view manifest_name);

struct LANCE_ND_EXPORT Manifest {
  std::uint64_t version = 0;
  std::vector<LanceField> fields;  // pre-order, parents before children
  array::Metadata schema_metadata;
  std::vector<Fragment> fragments;  // table order (ids unique; not sorted after a Rewrite)
  std::optional<std::uint32_t> max_fragment_id;
  std::uint64_t reader_feature_flags = 0;
  std::uint64_t writer_feature_flags = 0;
  std::int64_t timestamp_seconds = 0;
  std::int32_t timestamp_nanos = 0;
  std::string transaction_file;  // relative to _transactions/
  std::optional<std::uint64_t> index_section;
  std::optional<std::uint64_t> transaction_section;
  std::string writer_library;  // "lance", "lance-nd"
  std::string writer_version;
  std::string data_format_file_format;  // "lance"
  std::string data_format_version;      // "2.2"
  std::vector<std::pair<std::string, std::string>> config;
  std::vector<std::pair<std::string, std::string>> table_metadata;
  std::uint64_t next_row_id = 0;
  std::optional<std::string> branch;
  std::size_t num_base_paths = 0;
  /// The raw IndexSection protobuf (no length prefix) of this version, when it has indices. A
  /// writer copies it to the next version (dropping it would drop every index); Overwrite
  /// clears it, as Lance does.
  std::optional<std::string> index_section_blob;
  /// Serialised Manifest members lance-nd does not model (base paths, legacy fields, unknown
  /// fields), carried forward verbatim by the next version.
  std::string unmodelled_proto;

  /// \brief Live rows of all fragments.
  std::uint64_t num_rows() const;
};

enum class OperationType : std::uint8_t {
  kUnknown = 0,  // an operation lance-nd does not model (treat as incompatible)
  kAppend,
  kDelete,
  kOverwrite,
  kMerge,
  kRestore,
  kReserveFragments,
  kProject,
  kCreateIndex,  // classified only (index metadata not interpreted)
  kRewrite,      // compaction
  kUpdate,
  kUpdateConfig,
  kDataReplacement,
  kUpdateMemWalState,  // classified only (an op::Unknown with its field number)
  kClone,              // classified only (an op::Unknown with its field number)
  kUpdateBases,        // classified only (an op::Unknown with its field number)
};

/// \brief "Append", "Delete", ... (Lance's operation names); "Unknown" for kUnknown.
LANCE_ND_EXPORT std::string_view OperationTypeName(OperationType type);

/// \brief A map update of UpdateConfig: set keys to values, remove keys whose value is nullopt,
/// or (replace) replace the whole map by the set entries.
struct LANCE_ND_EXPORT UpdateMap {
  std::vector<std::pair<std::string, std::optional<std::string>>> entries;
  bool replace = false;
  bool operator==(const UpdateMap&) const = default;
};

/// \brief One compaction group of a Rewrite: old fragments replaced by new ones.
struct LANCE_ND_EXPORT RewriteGroup {
  std::vector<Fragment> old_fragments;
  std::vector<Fragment> new_fragments;  // id 0 = assigned at commit
  bool operator==(const RewriteGroup&) const = default;
};

/// \brief The operations of a transaction, one type each (Lance's `Operation` enum). Fragment
/// ids 0 in new fragments are assigned at commit, counting from max_fragment_id + 1.
namespace op {

/// \brief New fragments added to the table.
struct LANCE_ND_EXPORT Append {
  std::vector<Fragment> fragments;
  bool operator==(const Append&) const = default;
};

/// \brief Rows deleted: fragments with a new deletion file, fragments with every row gone.
struct LANCE_ND_EXPORT Delete {
  std::vector<Fragment> updated_fragments;
  std::vector<std::uint64_t> deleted_fragment_ids;
  std::string predicate;
  bool operator==(const Delete&) const = default;
};

/// \brief The table replaced (or created, with read_version 0): new fragments and schema.
struct LANCE_ND_EXPORT Overwrite {
  std::vector<Fragment> fragments;
  std::vector<LanceField> schema;
  array::Metadata schema_metadata;
  std::vector<std::pair<std::string, std::string>> config_upserts;
  bool operator==(const Overwrite&) const = default;
};

/// \brief The complete new fragment list and schema (e.g. new columns).
struct LANCE_ND_EXPORT Merge {
  std::vector<Fragment> fragments;
  std::vector<LanceField> schema;
  array::Metadata schema_metadata;
  bool operator==(const Merge&) const = default;
};

/// \brief The table as it was at an older version.
struct LANCE_ND_EXPORT Restore {
  std::uint64_t version = 0;
  bool operator==(const Restore&) const = default;
};

/// \brief Fragment ids reserved (max_fragment_id raised), e.g. for a later Rewrite.
struct LANCE_ND_EXPORT ReserveFragments {
  std::uint32_t num_fragments = 0;
  bool operator==(const ReserveFragments&) const = default;
};

/// \brief Compaction: each group's old fragments replaced by its new ones (ids reserved
/// beforehand, or 0 = assigned at commit).
struct LANCE_ND_EXPORT Rewrite {
  std::vector<RewriteGroup> groups;
  bool operator==(const Rewrite&) const = default;
};

/// \brief Fields removed from the schema (data files left without a field are dropped).
struct LANCE_ND_EXPORT Project {
  std::vector<LanceField> schema;
  bool operator==(const Project&) const = default;
};

enum class UpdateMode : std::uint32_t { kRewriteRows = 0, kRewriteColumns = 1 };

/// \brief Rows rewritten: removed fragments, fragments replaced in place, new fragments.
struct LANCE_ND_EXPORT Update {
  std::vector<std::uint64_t> removed_fragment_ids;
  std::vector<Fragment> updated_fragments;
  std::vector<Fragment> new_fragments;
  std::vector<std::uint32_t> fields_modified;
  std::vector<std::uint32_t> fields_for_preserving_frag_bitmap;
  UpdateMode mode = UpdateMode::kRewriteRows;
  bool operator==(const Update&) const = default;
};

/// \brief Table config, table metadata, schema metadata and field metadata changed.
struct LANCE_ND_EXPORT UpdateConfig {
  std::optional<UpdateMap> config_updates;
  std::optional<UpdateMap> table_metadata_updates;
  std::optional<UpdateMap> schema_metadata_updates;
  std::vector<std::pair<std::int32_t, UpdateMap>> field_metadata_updates;  // by field id
  /// \brief Whether the schema's or a field's metadata changes.
  bool ChangesSchemaMetadata() const {
    return schema_metadata_updates.has_value() || !field_metadata_updates.empty();
  }
  bool operator==(const UpdateConfig&) const = default;
};

/// \brief One fragment's data file replaced by a new file of the same fields.
struct LANCE_ND_EXPORT FileReplacement {
  std::uint64_t fragment_id = 0;
  DataFile new_file;
  bool operator==(const FileReplacement&) const = default;
};

struct LANCE_ND_EXPORT DataReplacement {
  std::vector<FileReplacement> replacements;
  bool operator==(const DataReplacement&) const = default;
};

/// \brief Indices added or removed; only counted (read only: lance-nd cannot write it).
struct LANCE_ND_EXPORT CreateIndex {
  std::uint32_t num_new_indices = 0;
  std::uint32_t num_removed_indices = 0;
  bool operator==(const CreateIndex&) const = default;
};

/// \brief An operation lance-nd does not model (read only), known by its protobuf field number
/// in lance.table.Transaction (0 = no operation set). Lance's Clone, UpdateBases and
/// UpdateMemWalState arrive as this, classified by their numbers (Transaction::type()).
struct LANCE_ND_EXPORT Unknown {
  std::uint32_t field_number = 0;
  bool operator==(const Unknown&) const = default;
};

}  // namespace op

/// \brief One of the operations above; a default-constructed one is op::Unknown{0}.
using Operation = std::variant<op::Unknown, op::Append, op::Delete, op::Overwrite, op::Merge,
                               op::Restore, op::ReserveFragments, op::Rewrite, op::Project,
                               op::Update, op::UpdateConfig, op::DataReplacement, op::CreateIndex>;

/// \brief The transaction of one version: what was read (read_version), who wrote it (uuid,
/// tag, properties) and the operation.
struct LANCE_ND_EXPORT Transaction {
  std::uint64_t read_version = 0;
  std::string uuid;
  std::string tag;
  std::vector<std::pair<std::string, std::string>> properties;  // transaction_properties
  Operation operation;

  /// \brief The kind of operation (op::Unknown: by its field number, else kUnknown).
  OperationType type() const;
  /// \brief OperationTypeName(type()).
  std::string_view name() const { return OperationTypeName(type()); }
  /// \brief The operation when it is an `Op`, else nullptr.
  template <typename Op>
  const Op* get() const {
    return std::get_if<Op>(&operation);
  }
  template <typename Op>
  Op* get() {
    return std::get_if<Op>(&operation);
  }
  /// \brief Ids of the existing fragments this transaction modifies or removes (Delete,
  /// Update, Rewrite, DataReplacement), sorted and unique; empty for the others.
  std::vector<std::uint64_t> TouchedFragmentIds() const;
  bool operator==(const Transaction&) const = default;
};

/// \brief A manifest file's content: the manifest and, when inline, its transaction.
struct LANCE_ND_EXPORT ManifestFile {
  Manifest manifest;
  std::optional<Transaction> transaction;  // from transaction_section, when present
};

/// \brief Parse a whole manifest file. `name` is used in messages. Errors: Corrupt naming the
/// file and what is wrong (short file, bad magic, offsets outside the file, length mismatch,
/// undecodable protobuf).
LANCE_ND_EXPORT Result<ManifestFile> ParseManifestFile(std::span<const std::uint8_t> bytes,
                                                       std::string_view name);

/// \brief Read a manifest file (footer first, then the blobs it points at).
LANCE_ND_EXPORT Result<ManifestFile> ReadManifestFile(const io::RandomAccessFile& file);

/// \brief Serialise a manifest file: [index section] [transaction] manifest, footer, like Lance 12.
/// The manifest's index_section / transaction_section offsets are set from the blobs written
/// (index_section_blob when present; the transaction when given).
LANCE_ND_EXPORT Result<std::vector<std::uint8_t>> SerializeManifestFile(
    const Manifest& manifest, const Transaction* transaction);

/// \brief A transaction as stored in a `.txn` file (raw protobuf, no length prefix).
LANCE_ND_EXPORT Result<std::vector<std::uint8_t>> SerializeTransaction(
    const Transaction& transaction);
LANCE_ND_EXPORT Result<Transaction> ParseTransaction(std::span<const std::uint8_t> bytes,
                                                     std::string_view name);

/// \brief The Arrow schema of the manifest's fields (tree rebuilt from parent ids, logical types
/// mapped back to Arrow types). Corrupt for a malformed tree, NotImplemented for unknown types.
LANCE_ND_EXPORT Result<array::SchemaPtr> SchemaFromFields(const std::vector<LanceField>& fields,
                                                          const array::Metadata& schema_metadata);

}  // namespace lance_nd::table
