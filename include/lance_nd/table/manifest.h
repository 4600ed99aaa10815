// The version manifest of a Lance dataset (lance.table.Manifest) as plain C++ values, and the
// manifest file container: u32-prefixed protobuf blobs (optional index section, optional
// transaction, manifest) followed by the footer `i64 manifest_pos, i16 0, i16 2, "LANC"`.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
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
  std::vector<Fragment> fragments;  // sorted by id
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
  kUpdateMemWalState,  // classified only
  kClone,              // classified only
  kUpdateBases,        // classified only
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

/// \brief The transaction of one version. Which members are used depends on `operation`:
///  - Append:   fragments (ids 0 = assigned at commit from max_fragment_id + 1).
///  - Overwrite: fragments (ids 0 = assigned from 0, as Lance does), schema, schema_metadata,
///              config_upserts. read_version 0 = create a new table.
///  - Delete:   updated_fragments (each with its new deletion file), deleted_fragment_ids,
///              predicate.
///  - Update:   deleted_fragment_ids (= removed_fragment_ids), updated_fragments, fragments
///              (= new_fragments), fields_modified, fields_for_preserving_frag_bitmap,
///              update_mode.
///  - Merge:    fragments (the complete new fragment list), schema, schema_metadata.
///  - Project:  schema.
///  - Restore:  restore_version.
///  - ReserveFragments: num_fragments.
///  - Rewrite:  rewrite_groups (new fragment ids reserved beforehand, or 0 = assigned).
///  - UpdateConfig: config_updates, table_metadata_updates, schema_metadata_updates,
///              field_metadata_updates.
///  - DataReplacement: replacements.
///  - CreateIndex: num_new_indices / num_removed_indices (read only; lance-nd cannot write it).
struct LANCE_ND_EXPORT Transaction {
  std::uint64_t read_version = 0;
  std::string uuid;
  OperationType operation = OperationType::kUnknown;
  std::string tag;
  std::vector<std::pair<std::string, std::string>> properties;  // transaction_properties
  std::vector<Fragment> fragments;          // Append / Overwrite / Merge / Update (new)
  std::vector<Fragment> updated_fragments;  // Delete / Update
  std::vector<LanceField> schema;           // Overwrite / Merge / Project
  array::Metadata schema_metadata;          // Overwrite / Merge
  std::vector<std::pair<std::string, std::string>> config_upserts;  // Overwrite
  std::vector<std::uint64_t> deleted_fragment_ids;                  // Delete / Update (removed)
  std::string predicate;                                            // Delete
  std::uint64_t restore_version = 0;                                // Restore
  std::uint32_t num_fragments = 0;                                  // ReserveFragments
  std::vector<RewriteGroup> rewrite_groups;                         // Rewrite
  std::vector<std::uint32_t> fields_modified;                       // Update
  std::vector<std::uint32_t> fields_for_preserving_frag_bitmap;     // Update
  std::uint32_t update_mode = 0;                     // Update: 0 rewrite rows, 1 rewrite columns
  std::optional<UpdateMap> config_updates;           // UpdateConfig
  std::optional<UpdateMap> table_metadata_updates;   // UpdateConfig
  std::optional<UpdateMap> schema_metadata_updates;  // UpdateConfig
  std::vector<std::pair<std::int32_t, UpdateMap>> field_metadata_updates;  // UpdateConfig
  std::vector<std::pair<std::uint64_t, DataFile>> replacements;            // DataReplacement
  std::uint32_t num_new_indices = 0;      // CreateIndex (read only)
  std::uint32_t num_removed_indices = 0;  // CreateIndex (read only)
  /// For kUnknown: the protobuf field number of the unmodelled operation (0 = none set).
  std::uint32_t unknown_operation_field = 0;

  /// \brief Ids of the existing fragments this transaction modifies or removes (Delete,
  /// Update, Rewrite, DataReplacement); empty for the others.
  std::vector<std::uint64_t> TouchedFragmentIds() const;
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
