// The manifest file container: [index section] [transaction] manifest, each a u32 length then
// protobuf bytes; footer i64 manifest_pos, i16 major 0, i16 minor 2, "LANC".
#include <cstring>
#include <limits>
#include <string>
#include <utility>

#include "lance_nd/table/manifest.h"
#include "lance_nd/table/proto_convert.h"

namespace lance_nd::table {
namespace {

constexpr std::size_t kFooterSize = 16;
constexpr char kMagic[4] = {'L', 'A', 'N', 'C'};
constexpr std::int16_t kFooterMajor = 0;
constexpr std::int16_t kFooterMinor = 2;

std::uint64_t LoadLe(const std::uint8_t* p, int n) {
  std::uint64_t v = 0;
  for (int i = n - 1; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

void AppendLe(std::vector<std::uint8_t>* out, std::uint64_t v, int n) {
  std::uint8_t bytes[8];
  for (int i = 0; i < 8; ++i) bytes[i] = static_cast<std::uint8_t>(v >> (8 * i));
  out->insert(out->end(), bytes, bytes + n);
}

template <typename... Problem>
Status CorruptIn(std::string_view name, const Problem&... problem) {
  return Status::Corrupt("manifest file '", name, "': ", problem...,
                         "; the table version is damaged or not a Lance manifest");
}

// The blob (u32 length + bytes) at `pos`, which must end at or before `limit`.
Result<std::span<const std::uint8_t>> BlobAt(std::span<const std::uint8_t> bytes, std::uint64_t pos,
                                             std::uint64_t limit, std::string_view what,
                                             std::string_view name) {
  if (pos > limit || limit - pos < 4) {
    return CorruptIn(name, what, " offset ", pos,
                     " leaves no room for its 4-byte length before byte ", limit);
  }
  const std::uint64_t len = LoadLe(bytes.data() + pos, 4);
  if (len > limit - pos - 4) {
    return CorruptIn(name, what, " at ", pos, " claims ", len, " bytes but only ", limit - pos - 4,
                     " remain before byte ", limit);
  }
  return bytes.subspan(static_cast<std::size_t>(pos + 4), static_cast<std::size_t>(len));
}

}  // namespace

std::string DeletionFile::RelativePath(std::uint64_t fragment_id) const {
  return "_deletions/" + std::to_string(fragment_id) + "-" + std::to_string(read_version) + "-" +
         std::to_string(id) + (file_type == DeletionFileType::kBitmap ? ".bin" : ".arrow");
}

std::uint64_t Fragment::num_rows() const {
  const std::uint64_t deleted = deletion_file ? deletion_file->num_deleted_rows : 0;
  return deleted >= physical_rows ? 0 : physical_rows - deleted;
}

std::uint64_t Manifest::num_rows() const {
  std::uint64_t total = 0;
  for (const Fragment& f : fragments) total += f.num_rows();
  return total;
}

Result<ManifestFile> ParseManifestFile(std::span<const std::uint8_t> bytes, std::string_view name) {
  if (bytes.size() < kFooterSize) {
    return CorruptIn(name, "file is ", bytes.size(), " bytes, shorter than the 16-byte footer");
  }
  const std::uint8_t* footer = bytes.data() + bytes.size() - kFooterSize;
  if (std::memcmp(footer + 12, kMagic, 4) != 0) {
    return CorruptIn(name, "footer does not end with the magic \"LANC\"");
  }
  const std::uint64_t footer_start = bytes.size() - kFooterSize;
  const std::uint64_t pos = LoadLe(footer, 8);
  LND_ASSIGN_OR_RETURN(auto blob, BlobAt(bytes, pos, footer_start, "manifest", name));
  if (pos + 4 + blob.size() != footer_start) {
    return CorruptIn(name, "manifest length does not match: the manifest at ", pos, " holds ",
                     blob.size(), " bytes but the footer starts at ", footer_start);
  }
  internal::QuietProtobufLogs();
  lance::table::Manifest proto;
  if (!proto.ParseFromArray(blob.data(), static_cast<int>(blob.size()))) {
    return CorruptIn(name, "the manifest protobuf (", blob.size(), " bytes at ", pos,
                     ") does not decode");
  }
  ManifestFile out;
  LND_ASSIGN_OR_RETURN(
      out.manifest, internal::ManifestFromProto(proto).WithContext("manifest file '", name, "'"));
  if (proto.has_index_section()) {
    if (proto.index_section() >= pos) {
      return CorruptIn(name, "index section offset ", proto.index_section(),
                       " is not before the manifest at ", pos);
    }
    LND_ASSIGN_OR_RETURN(auto index_blob,
                         BlobAt(bytes, proto.index_section(), pos, "index section", name));
    out.manifest.index_section_blob =
        std::string(reinterpret_cast<const char*>(index_blob.data()), index_blob.size());
  }
  if (proto.has_transaction_section()) {
    LND_ASSIGN_OR_RETURN(auto txn_blob,
                         BlobAt(bytes, proto.transaction_section(), pos, "transaction", name));
    lance::table::Transaction txn;
    if (!txn.ParseFromArray(txn_blob.data(), static_cast<int>(txn_blob.size()))) {
      return CorruptIn(name, "the inline transaction (", txn_blob.size(), " bytes at ",
                       proto.transaction_section(), ") does not decode");
    }
    LND_ASSIGN_OR_RETURN(out.transaction, internal::TransactionFromProto(txn).WithContext(
                                              "manifest file '", name, "'"));
  }
  return out;
}

Result<ManifestFile> ReadManifestFile(const io::RandomAccessFile& file) {
  const std::uint64_t size = file.Size();
  if (size < kFooterSize) {
    return CorruptIn(file.path(), "file is ", size, " bytes, shorter than the 16-byte footer");
  }
  LND_ASSIGN_OR_RETURN(io::Bytes footer, file.ReadAt(size - kFooterSize, kFooterSize));
  if (std::memcmp(footer->data() + 12, kMagic, 4) != 0) {
    return CorruptIn(file.path(), "footer does not end with the magic \"LANC\"");
  }
  // The manifest is last; the optional sections precede it. Manifests are small (KiB to a few
  // MiB), so read from the first blob we may need (offset 0 when a transaction is inline).
  const std::uint64_t pos = LoadLe(footer->data(), 8);
  if (pos > size - kFooterSize) {
    return CorruptIn(file.path(), "manifest offset ", pos, " is past the footer at ",
                     size - kFooterSize);
  }
  LND_ASSIGN_OR_RETURN(io::Bytes all, file.ReadAt(0, size));
  return ParseManifestFile(*all, file.path());
}

Result<std::vector<std::uint8_t>> SerializeTransaction(const Transaction& transaction) {
  lance::table::Transaction proto;
  LND_RETURN_NOT_OK(internal::TransactionToProto(transaction, &proto));
  std::string bytes;
  if (!proto.SerializeToString(&bytes)) {
    return Status::InvalidArgument("transaction could not be serialised (too large?)");
  }
  return std::vector<std::uint8_t>(bytes.begin(), bytes.end());
}

Result<Transaction> ParseTransaction(std::span<const std::uint8_t> bytes, std::string_view name) {
  if (bytes.size() > static_cast<std::size_t>(std::numeric_limits<int>::max())) {
    return Status::Corrupt("transaction file '", name, "' is too large");
  }
  internal::QuietProtobufLogs();
  lance::table::Transaction proto;
  if (!proto.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    return Status::Corrupt("transaction file '", name, "' (", bytes.size(),
                           " bytes) does not decode as a Lance transaction");
  }
  return internal::TransactionFromProto(proto);
}

Result<std::vector<std::uint8_t>> SerializeManifestFile(const Manifest& manifest,
                                                        const Transaction* transaction) {
  std::vector<std::uint8_t> out;
  Manifest m = manifest;
  m.index_section.reset();
  m.transaction_section.reset();
  if (m.index_section_blob) {
    if (m.index_section_blob->size() > std::numeric_limits<std::uint32_t>::max()) {
      return Status::InvalidArgument("index section of version ", m.version,
                                     " is larger than 4 GiB");
    }
    m.index_section = out.size();
    AppendLe(&out, m.index_section_blob->size(), 4);
    out.insert(out.end(), m.index_section_blob->begin(), m.index_section_blob->end());
  }
  if (transaction != nullptr) {
    LND_ASSIGN_OR_RETURN(std::vector<std::uint8_t> txn, SerializeTransaction(*transaction));
    if (txn.size() > std::numeric_limits<std::uint32_t>::max()) {
      return Status::InvalidArgument("transaction of version ", m.version, " is larger than 4 GiB");
    }
    m.transaction_section = out.size();
    AppendLe(&out, txn.size(), 4);
    out.insert(out.end(), txn.begin(), txn.end());
  }
  lance::table::Manifest proto;
  internal::ManifestToProto(m, &proto);
  std::string bytes;
  if (!proto.SerializeToString(&bytes) ||
      bytes.size() > std::numeric_limits<std::uint32_t>::max()) {
    return Status::InvalidArgument("manifest of version ", m.version,
                                   " could not be serialised (too large?)");
  }
  const std::uint64_t pos = out.size();
  AppendLe(&out, bytes.size(), 4);
  out.insert(out.end(), bytes.begin(), bytes.end());
  AppendLe(&out, pos, 8);
  AppendLe(&out, static_cast<std::uint16_t>(kFooterMajor), 2);
  AppendLe(&out, static_cast<std::uint16_t>(kFooterMinor), 2);
  out.insert(out.end(), kMagic, kMagic + 4);
  return out;
}

}  // namespace lance_nd::table
