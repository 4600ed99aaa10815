// The commit loop: .txn file, manifest built from the latest version, atomic create-if-absent,
// conflict checks against the versions committed since read_version, hint file.
#include "lance_nd/table/commit.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>
#include <span>
#include <string>
#include <thread>
#include <utility>

#include "lance_nd/table/commit/build_manifest.h"
#include "lance_nd/table/manifest_cache.h"

namespace lance_nd::table {
namespace {

std::string Join(const std::string& dir, const std::string& name) {
  if (dir.empty()) return name;
  return dir.back() == '/' ? dir + name : dir + "/" + name;
}

std::mt19937_64& Rng() {
  thread_local std::mt19937_64 rng([] {
    std::random_device rd;
    const std::uint64_t t = static_cast<std::uint64_t>(
        std::chrono::high_resolution_clock::now().time_since_epoch().count());
    std::seed_seq seq{
        rd(), rd(), rd(), rd(), static_cast<std::uint32_t>(t), static_cast<std::uint32_t>(t >> 32)};
    return std::mt19937_64(seq);
  }());
  return rng;
}

struct Latest {
  VersionList versions;
  std::shared_ptr<const ManifestFile> file;
  std::string manifest_path;
};

// The latest version, nullopt when the table has no committed version.
Result<std::optional<Latest>> LoadLatest(io::FileSystem& fs, const std::string& path) {
  // Non-owning location: `fs` outlives this call.
  auto versions = ListVersions(
      TableLocation(std::shared_ptr<io::FileSystem>(std::shared_ptr<void>(), &fs), path));
  if (!versions.ok()) {
    if (versions.status().IsNotFound()) return std::optional<Latest>();
    return std::move(versions).status();
  }
  Latest latest;
  latest.versions = std::move(*versions);
  const std::uint64_t v = latest.versions.versions.back();
  latest.manifest_path = Join(Join(path, "_versions"), ManifestFileName(v, latest.versions.naming));
  // Usually the manifest the caller (e.g. WriteTable) has just opened: its parse is reused.
  LND_ASSIGN_OR_RETURN(latest.file, internal::ReadManifestShared(fs, latest.manifest_path));
  if (latest.file->manifest.version != v) {
    return Status::Corrupt("manifest file '" + latest.manifest_path + "' holds version " +
                           std::to_string(latest.file->manifest.version) +
                           " but its name says version " + std::to_string(v));
  }
  return std::optional<Latest>(std::move(latest));
}

Result<ManifestFile> LoadVersion(io::FileSystem& fs, const std::string& path, std::uint64_t version,
                                 ManifestNaming naming) {
  const std::string name = Join(Join(path, "_versions"), ManifestFileName(version, naming));
  auto file = fs.OpenForRead(name);
  if (!file.ok()) {
    if (file.status().IsNotFound()) {
      return Status::NotFound("table '" + path + "' has no manifest for version " +
                              std::to_string(version) + " ('" + name +
                              "'); it may have been cleaned up");
    }
    return std::move(file).status();
  }
  return ReadManifestFile(**file);
}

// The transaction of a committed version: inline section, else its .txn file.
Result<Transaction> LoadTransaction(io::FileSystem& fs, const std::string& path,
                                    std::uint64_t version, const ManifestFile& mf) {
  if (mf.transaction) return *mf.transaction;
  if (mf.manifest.transaction_file.empty()) {
    return Status::CommitConflict(
        "version " + std::to_string(version) + " of table '" + path +
        "' records no transaction (neither inline nor a .txn file), so a concurrent commit "
        "cannot be checked against it; reload the table and retry");
  }
  const std::string txn_path = Join(Join(path, "_transactions"), mf.manifest.transaction_file);
  LND_ASSIGN_OR_RETURN(auto file, fs.OpenForRead(txn_path));
  LND_ASSIGN_OR_RETURN(io::Bytes bytes, io::ReadWholeFile(*file));
  return ParseTransaction(*bytes, txn_path);
}

Status CheckWritable(const Manifest& m, const std::string& manifest_path) {
  // Stable row ids (flag 2) are assigned and checked by BuildManifest (rowids/).
  LND_RETURN_NOT_OK(
      CheckWriterFeatureFlags(m.writer_feature_flags & ~kFlagStableRowIds, manifest_path));
  if (m.num_base_paths != 0) {
    return Status::NotImplemented("manifest '" + manifest_path +
                                  "' uses base paths (shallow clone / multi-base); lance-nd "
                                  "cannot write to such tables yet");
  }
  if (m.branch) {
    return Status::NotImplemented("manifest '" + manifest_path + "' belongs to branch '" +
                                  *m.branch + "'; lance-nd cannot write to branches yet");
  }
  return Status();
}

void WriteHint(io::FileSystem& fs, const std::string& path, std::uint64_t version) {
  const std::string dir = Join(path, "_versions");
  const std::string tmp = Join(dir, ".tmp-hint-" + NewUuid());
  const std::string body = "{\"version\":" + std::to_string(version) + "}";
  auto out = fs.Create(tmp);
  if (!out.ok()) return;
  Status st =
      (*out)->Write(std::span(reinterpret_cast<const std::uint8_t*>(body.data()), body.size()));
  if (st.ok()) st = (*out)->Close();
  if (st.ok()) st = fs.Rename(tmp, Join(dir, "latest_version_hint.json"));
  if (!st.ok()) (void)fs.Delete(tmp);  // best effort: the hint is advisory
}

// After a lost race: exponential back-off with jitter (attempt 0: half a slot to one slot, then
// doubling up to 32 slots), so that other writers, Lance's included, get their turn.
// Lance 12's SlotBackoff shape: after lost race k, a random whole number of slots in
// [0, 2^(k+2)), capped at 256 slots. `slot` already includes the first attempt's duration.
void BackOff(int attempt, std::chrono::milliseconds slot) {
  if (slot.count() <= 0) return;
  const std::int64_t slots = std::int64_t{1} << std::min(attempt + 2, 8);
  std::uniform_int_distribution<std::int64_t> pick(0, slots - 1);
  std::this_thread::sleep_for(slot * pick(Rng()));
}

// The transaction file. Readers (lance-nd and Lance 12) prefer the manifest's inline
// transaction section, which every manifest lance-nd writes carries, so the .txn file is not
// needed to read or check a commit: it is written without fsync (Lance 12 on local disk
// fsyncs nothing at all). Its name holds a fresh UUID, so nothing is overwritten; it is
// complete (closed) before the manifest naming it can exist.
Status WriteTransactionFile(io::FileSystem& fs, const std::string& file_path,
                            std::span<const std::uint8_t> bytes) {
  LND_ASSIGN_OR_RETURN(auto out, fs.Create(file_path));
  LND_RETURN_NOT_OK(out->Write(bytes));
  return out->Close();
}

// The offsets SerializeManifestFile gives the optional sections (index section first, then
// the transaction), so that a manifest built in memory equals what reading its file returns.
void SetSectionOffsets(Manifest* m, bool has_txn) {
  std::uint64_t pos = 0;
  m->index_section.reset();
  m->transaction_section.reset();
  if (m->index_section_blob) {
    m->index_section = pos;
    pos += 4 + m->index_section_blob->size();
  }
  if (has_txn) m->transaction_section = pos;
}

}  // namespace

std::string NewUuid() {
  std::uniform_int_distribution<unsigned> byte(0, 255);
  std::uint8_t b[16];
  for (std::uint8_t& x : b) x = static_cast<std::uint8_t>(byte(Rng()));
  b[6] = static_cast<std::uint8_t>((b[6] & 0x0f) | 0x40);
  b[8] = static_cast<std::uint8_t>((b[8] & 0x3f) | 0x80);
  std::string out;
  char hex[3];
  for (int i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) out += '-';
    std::snprintf(hex, sizeof hex, "%02x", b[i]);
    out += hex;
  }
  return out;
}

Result<Dataset> CommitTransaction(std::shared_ptr<io::FileSystem> fs, const std::string& path,
                                  Transaction txn, const CommitOptions& options) {
  if (fs == nullptr) return Status::InvalidArgument("CommitTransaction needs a file system");
  if (options.max_attempts < 1) {
    return Status::InvalidArgument("CommitOptions.max_attempts is " +
                                   std::to_string(options.max_attempts) + "; expected >= 1");
  }
  if (txn.uuid.empty()) txn.uuid = NewUuid();
  // Serialising first validates the operation (lance-nd cannot write CreateIndex etc.).
  LND_ASSIGN_OR_RETURN(std::vector<std::uint8_t> txn_bytes, SerializeTransaction(txn));
  std::string txn_name = std::to_string(txn.read_version) + "-" + txn.uuid + ".txn";

  std::optional<ManifestFile> restored;
  std::uint64_t checked_up_to = txn.read_version;
  bool txn_file_written = false;
  const auto started = std::chrono::steady_clock::now();
  std::optional<std::chrono::milliseconds> first_attempt_time;
  int attempts = 0;
  for (int attempt = 0; attempt < options.max_attempts; ++attempt) {
    ++attempts;
    LND_ASSIGN_OR_RETURN(std::optional<Latest> latest, LoadLatest(*fs, path));
    ManifestNaming naming = ManifestNaming::kV2;
    if (latest) {
      naming = latest->versions.naming;
      const Manifest& lm = latest->file->manifest;
      if (txn.read_version > lm.version) {
        return Status::InvalidArgument("transaction read version " +
                                       std::to_string(txn.read_version) +
                                       " is newer than the latest version " +
                                       std::to_string(lm.version) + " of '" + path + "'");
      }
      LND_RETURN_NOT_OK(CheckWritable(lm, latest->manifest_path));
      // Everything committed since we last looked must be compatible with us.
      std::vector<std::uint64_t> merge_ids;  // Delete vs Delete on one fragment: merge vectors
      for (std::uint64_t v : latest->versions.versions) {
        if (v <= checked_up_to) continue;
        Transaction theirs;
        if (v == lm.version) {
          LND_ASSIGN_OR_RETURN(theirs, LoadTransaction(*fs, path, v, *latest->file));
        } else {
          LND_ASSIGN_OR_RETURN(ManifestFile mf, LoadVersion(*fs, path, v, naming));
          LND_ASSIGN_OR_RETURN(theirs, LoadTransaction(*fs, path, v, mf));
        }
        if (txn.operation == OperationType::kDelete && theirs.operation == OperationType::kDelete) {
          LND_ASSIGN_OR_RETURN(std::vector<std::uint64_t> ids,
                               internal::DeletionsToMerge(txn, theirs, v));
          merge_ids.insert(merge_ids.end(), ids.begin(), ids.end());
          continue;
        }
        LND_RETURN_NOT_OK(internal::CheckCompatible(txn, theirs, v));
      }
      checked_up_to = lm.version;
      if (!merge_ids.empty()) {
        std::sort(merge_ids.begin(), merge_ids.end());
        merge_ids.erase(std::unique(merge_ids.begin(), merge_ids.end()), merge_ids.end());
        LND_RETURN_NOT_OK(internal::MergeDeletions(*fs, path, lm, merge_ids, &txn));
        // The rebased transaction differs from the one planned: it gets its own .txn file.
        LND_ASSIGN_OR_RETURN(txn_bytes, SerializeTransaction(txn));
        txn_name = std::to_string(txn.read_version) + "-" + NewUuid() + ".txn";
        txn_file_written = false;
      }
      if (txn.operation == OperationType::kRestore && !restored) {
        LND_ASSIGN_OR_RETURN(restored, LoadVersion(*fs, path, txn.restore_version, naming));
      }
    } else if (txn.read_version != 0) {
      return Status::NotFound("no Lance table at '" + path + "' (transaction read version " +
                              std::to_string(txn.read_version) + "); create the table first");
    }

    if (options.write_transaction_file && !txn_file_written) {
      Status st = WriteTransactionFile(*fs, Join(Join(path, "_transactions"), txn_name), txn_bytes);
      if (!st.ok()) return st.WithContext("writing the transaction file '" + txn_name + "'");
      txn_file_written = true;
    }

    internal::BuildContext ctx;
    ctx.latest = latest ? &latest->file->manifest : nullptr;
    ctx.restored = restored ? &restored->manifest : nullptr;
    ctx.transaction_file = options.write_transaction_file ? txn_name : "";
    const auto now = std::chrono::system_clock::now().time_since_epoch();
    const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(now).count();
    ctx.timestamp_seconds = static_cast<std::int64_t>(ns / 1'000'000'000);
    ctx.timestamp_nanos = static_cast<std::int32_t>(ns % 1'000'000'000);
    LND_ASSIGN_OR_RETURN(Manifest next, internal::BuildManifest(txn, ctx));
    LND_ASSIGN_OR_RETURN(std::vector<std::uint8_t> bytes, SerializeManifestFile(next, &txn));
    const std::string manifest_path =
        Join(Join(path, "_versions"), ManifestFileName(next.version, naming));
    // The dataset of the new version is built (and checked, as Open would) BEFORE the manifest
    // is created: once it exists the commit is durable and nothing may fail any more, and the
    // new version is never read back from disk.
    const std::uint64_t next_version = next.version;
    VersionList versions;
    versions.naming = naming;
    if (latest) versions.versions = latest->versions.versions;
    versions.versions.push_back(next_version);
    SetSectionOffsets(&next, /*has_txn=*/true);
    ManifestFile committed;
    committed.manifest = std::move(next);
    // As a reader gets it: the inline section holds exactly txn_bytes.
    LND_ASSIGN_OR_RETURN(committed.transaction, ParseTransaction(txn_bytes, manifest_path));
    LND_ASSIGN_OR_RETURN(
        Dataset ds,
        Dataset::FromManifest(TableLocation(fs, path), std::move(committed), std::move(versions))
            .WithContext("the manifest of version " + std::to_string(next_version) +
                         " built for '" + path + "' (nothing was committed)"));
    Status st = fs->CreateIfAbsent(manifest_path, bytes);
    if (st.ok()) {
      WriteHint(*fs, path, next_version);  // best effort, cannot fail the commit
      // The next write opens this version: it will find these bytes and skip the parse.
      internal::RememberManifest(
          *fs, manifest_path, std::make_shared<const std::vector<std::uint8_t>>(std::move(bytes)),
          ds.manifest_file());
      return ds;
    }
    if (!st.IsAlreadyExists()) {
      return st.WithContext("committing version " + std::to_string(next_version));
    }
    // Someone else took this version: back off, then re-check and retry.
    const auto elapsed = std::chrono::steady_clock::now() - started;
    if (elapsed >= options.max_retry_time) break;
    if (!first_attempt_time) {
      first_attempt_time = std::chrono::duration_cast<std::chrono::milliseconds>(elapsed);
    }
    const auto slot = options.backoff_slot.count() <= 0
                          ? options.backoff_slot
                          : std::max(options.backoff_slot, *first_attempt_time * 11 / 10);
    BackOff(attempt, slot);
  }
  return Status::CommitConflict("gave up committing the " +
                                std::string(OperationTypeName(txn.operation)) + " to '" + path +
                                "' after " + std::to_string(attempts) + " attempts in " +
                                std::to_string(std::chrono::duration_cast<std::chrono::seconds>(
                                                   std::chrono::steady_clock::now() - started)
                                                   .count()) +
                                " s: other writers kept committing first; retry later")
      .WithRetryable();
}

}  // namespace lance_nd::table
