// The commit loop: .txn file, manifest built from the latest version, atomic create-if-absent,
// conflict checks against the versions committed since read_version, hint file.
#include "lance_nd/table/commit.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>
#include <span>
#include <string>
#include <thread>
#include <utility>

#include "lance_nd/table/commit/build_manifest.h"
#include "lance_nd/table/location.h"
#include "lance_nd/table/manifest_cache.h"

namespace lance_nd::table {
namespace {

std::mt19937_64 SeededRng() {
  std::random_device rd;
  const auto t = static_cast<std::uint64_t>(
      std::chrono::high_resolution_clock::now().time_since_epoch().count());
  const auto pid = static_cast<std::uint32_t>(::getpid());
  std::seed_seq seq{
      rd(), rd(), rd(), rd(), static_cast<std::uint32_t>(t), static_cast<std::uint32_t>(t >> 32),
      pid};
  return std::mt19937_64(seq);
}

// Reseeded in a child after fork(): a copied generator would give the child the parent's next
// UUIDs, and so the same data file and transaction names.
std::mt19937_64& Rng() {
  struct State {
    pid_t pid = -1;
    std::mt19937_64 rng;
  };
  thread_local State state;
  const pid_t pid = ::getpid();
  if (state.pid != pid) {
    state.rng = SeededRng();
    state.pid = pid;
  }
  return state.rng;
}

struct Latest {
  VersionList versions;
  std::shared_ptr<const ManifestFile> file;
  std::string manifest_path;
};

// The latest version, nullopt when the table has no committed version.
Result<std::optional<Latest>> LoadLatest(const TableLocation& location) {
  auto versions = ListVersions(location);
  if (!versions.ok()) {
    if (versions.status().IsNotFound()) return std::optional<Latest>();
    return std::move(versions).status();
  }
  Latest latest;
  latest.versions = std::move(*versions);
  const std::uint64_t v = latest.versions.versions.back();
  latest.manifest_path = location.Path(kVersionsDir, ManifestFileName(v, latest.versions.naming));
  // Usually the manifest the caller (e.g. WriteTable) has just opened: its parse is reused.
  LND_ASSIGN_OR_RETURN(latest.file,
                       internal::ReadManifestShared(location.fs(), latest.manifest_path));
  if (latest.file->manifest.version != v) {
    return Status::Corrupt("manifest file '", latest.manifest_path, "' holds version ",
                           latest.file->manifest.version, " but its name says version ", v);
  }
  return std::optional<Latest>(std::move(latest));
}

Result<ManifestFile> LoadVersion(const TableLocation& location, std::uint64_t version,
                                 ManifestNaming naming) {
  const std::string name = location.Path(kVersionsDir, ManifestFileName(version, naming));
  auto file = location.fs().OpenForRead(name);
  if (!file.ok()) {
    if (file.status().IsNotFound()) {
      return Status::NotFound("table '", location.root(), "' has no manifest for version ", version,
                              " ('", name, "'); it may have been cleaned up");
    }
    return std::move(file).status();
  }
  return ReadManifestFile(**file);
}

// The transaction of a committed version: inline section, else its .txn file.
Result<Transaction> LoadTransaction(const TableLocation& location, std::uint64_t version,
                                    const ManifestFile& mf) {
  if (mf.transaction) return *mf.transaction;
  if (mf.manifest.transaction_file.empty()) {
    return Status::CommitConflict(
        "version ", version, " of table '", location.root(),
        "' records no transaction (neither inline nor a .txn file), so a concurrent commit "
        "cannot be checked against it; reload the table and retry");
  }
  const std::string txn_path = location.Path(kTransactionsDir, mf.manifest.transaction_file);
  LND_ASSIGN_OR_RETURN(auto file, location.fs().OpenForRead(txn_path));
  LND_ASSIGN_OR_RETURN(io::Bytes bytes, io::ReadWholeFile(*file));
  return ParseTransaction(*bytes, txn_path);
}

Status CheckWritable(const Manifest& m, const std::string& manifest_path) {
  // Stable row ids (flag 2) are assigned and checked by BuildManifest (rowids/).
  LND_RETURN_NOT_OK(
      CheckWriterFeatureFlags(m.writer_feature_flags & ~kFlagStableRowIds, manifest_path));
  if (m.num_base_paths != 0) {
    return Status::NotImplemented("manifest '", manifest_path,
                                  "' uses base paths (shallow clone / multi-base); lance-nd "
                                  "cannot write to such tables yet");
  }
  if (m.branch) {
    return Status::NotImplemented("manifest '", manifest_path, "' belongs to branch '", *m.branch,
                                  "'; lance-nd cannot write to branches yet");
  }
  return Status();
}

void WriteHint(const TableLocation& location, std::uint64_t version) {
  io::FileSystem& fs = location.fs();
  const std::string tmp = location.Path(kVersionsDir, ".tmp-hint-" + NewUuid());
  const std::string body = "{\"version\":" + std::to_string(version) + "}";
  auto out = fs.Create(tmp);
  if (!out.ok()) return;
  Status st =
      (*out)->Write(std::span(reinterpret_cast<const std::uint8_t*>(body.data()), body.size()));
  if (st.ok()) st = (*out)->Close();
  if (st.ok()) st = fs.Rename(tmp, location.Path(kVersionsDir, "latest_version_hint.json"));
  if (!st.ok()) (void)fs.Delete(tmp);  // best effort: the hint is advisory
}

// Lance 12's SlotBackoff shape: after lost race k, a random whole number of slots in
// [0, 2^(k+2)), capped at 256 slots, so that other writers, Lance's included, get their turn.
// `slot` already includes the first attempt's duration.
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

// One commit across its attempts: the transaction (rebased when a Delete merges deletion
// vectors), its serialised form and .txn file name, and how far the versions were checked.
struct Pending {
  Transaction txn;
  std::vector<std::uint8_t> txn_bytes;
  std::string txn_name;
  bool txn_file_written = false;
  std::uint64_t checked_up_to = 0;
  std::optional<ManifestFile> restored;  // Restore: the restored version, loaded once

  Status SetTransaction() {
    LND_ASSIGN_OR_RETURN(txn_bytes, SerializeTransaction(txn));
    return Status();
  }
};

// Every version committed since `pending` last looked must be compatible with it: checked and,
// for a Delete over Deletes of the same fragments, rebased (a new deletion file and a new .txn
// file). A Restore loads the restored version.
Status CatchUp(const TableLocation& location, const Latest& latest, Pending* pending) {
  Transaction& txn = pending->txn;
  const Manifest& lm = latest.file->manifest;
  const ManifestNaming naming = latest.versions.naming;
  std::vector<std::uint64_t> merge_ids;  // Delete vs Delete on one fragment: merge vectors
  for (std::uint64_t v : latest.versions.versions) {
    if (v <= pending->checked_up_to) continue;
    Transaction theirs;
    if (v == lm.version) {
      LND_ASSIGN_OR_RETURN(theirs, LoadTransaction(location, v, *latest.file));
    } else {
      LND_ASSIGN_OR_RETURN(ManifestFile mf, LoadVersion(location, v, naming));
      LND_ASSIGN_OR_RETURN(theirs, LoadTransaction(location, v, mf));
    }
    const auto* their_delete = theirs.get<op::Delete>();
    if (txn.get<op::Delete>() != nullptr && their_delete != nullptr) {
      LND_ASSIGN_OR_RETURN(std::vector<std::uint64_t> ids,
                           internal::DeletionsToMerge(txn, *their_delete, v));
      merge_ids.insert(merge_ids.end(), ids.begin(), ids.end());
      continue;
    }
    LND_RETURN_NOT_OK(internal::CheckCompatible(txn, theirs, v));
  }
  pending->checked_up_to = lm.version;
  if (!merge_ids.empty()) {
    std::sort(merge_ids.begin(), merge_ids.end());
    merge_ids.erase(std::unique(merge_ids.begin(), merge_ids.end()), merge_ids.end());
    LND_RETURN_NOT_OK(internal::MergeDeletions(location, lm, merge_ids, &txn));
    // The rebased transaction differs from the one planned: it gets its own .txn file.
    LND_RETURN_NOT_OK(pending->SetTransaction());
    pending->txn_name = std::to_string(txn.read_version) + "-" + NewUuid() + ".txn";
    pending->txn_file_written = false;
  }
  const auto* restore = txn.get<op::Restore>();
  if (restore != nullptr && !pending->restored) {
    LND_ASSIGN_OR_RETURN(pending->restored, LoadVersion(location, restore->version, naming));
  }
  return Status();
}

// The next version, ready to be created: its manifest file's bytes and path, and the Dataset
// it opens as (built and checked as Open would, BEFORE the manifest exists: once it does the
// commit is durable and nothing may fail any more, and it is never read back from disk).
struct NextVersion {
  std::vector<std::uint8_t> bytes;
  std::string manifest_path;
  Dataset dataset;
};

Result<NextVersion> BuildNextVersion(const TableLocation& location,
                                     const std::optional<Latest>& latest, const Pending& pending,
                                     const CommitOptions& options, ManifestNaming naming) {
  internal::BuildContext ctx;
  ctx.latest = latest ? &latest->file->manifest : nullptr;
  ctx.restored = pending.restored ? &pending.restored->manifest : nullptr;
  ctx.transaction_file = options.write_transaction_file ? pending.txn_name : "";
  const auto now = std::chrono::system_clock::now().time_since_epoch();
  const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(now).count();
  ctx.timestamp_seconds = static_cast<std::int64_t>(ns / 1'000'000'000);
  ctx.timestamp_nanos = static_cast<std::int32_t>(ns % 1'000'000'000);
  LND_ASSIGN_OR_RETURN(Manifest next, internal::BuildManifest(pending.txn, ctx));
  LND_ASSIGN_OR_RETURN(std::vector<std::uint8_t> bytes, SerializeManifestFile(next, &pending.txn));
  const std::uint64_t version = next.version;
  std::string manifest_path = location.Path(kVersionsDir, ManifestFileName(version, naming));
  VersionList versions;
  versions.naming = naming;
  if (latest) versions.versions = latest->versions.versions;
  versions.versions.push_back(version);
  SetSectionOffsets(&next, /*has_txn=*/true);
  ManifestFile committed;
  committed.manifest = std::move(next);
  // As a reader gets it: the inline section holds exactly txn_bytes.
  LND_ASSIGN_OR_RETURN(committed.transaction, ParseTransaction(pending.txn_bytes, manifest_path));
  LND_ASSIGN_OR_RETURN(Dataset ds,
                       Dataset::FromManifest(location, std::move(committed), std::move(versions))
                           .WithContext("the manifest of version ", version, " built for '",
                                        location.root(), "' (nothing was committed)"));
  return NextVersion{std::move(bytes), std::move(manifest_path), std::move(ds)};
}

Status Validate(const TableLocation& location, const CommitOptions& options) {
  if (location.file_system() == nullptr) {
    return Status::InvalidArgument("CommitTransaction needs a file system");
  }
  if (options.max_attempts < 1) {
    return Status::InvalidArgument("CommitOptions.max_attempts is ", options.max_attempts,
                                   "; expected >= 1");
  }
  return Status();
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

Result<Dataset> CommitTransaction(const TableLocation& location, Transaction txn,
                                  const CommitOptions& options) {
  LND_RETURN_NOT_OK(Validate(location, options));
  if (txn.uuid.empty()) txn.uuid = NewUuid();
  Pending pending;
  pending.txn = std::move(txn);
  // Serialising first validates the operation (lance-nd cannot write CreateIndex etc.).
  LND_RETURN_NOT_OK(pending.SetTransaction());
  pending.txn_name = std::to_string(pending.txn.read_version) + "-" + pending.txn.uuid + ".txn";
  pending.checked_up_to = pending.txn.read_version;
  const std::uint64_t read_version = pending.txn.read_version;

  const auto started = std::chrono::steady_clock::now();
  std::optional<std::chrono::milliseconds> first_attempt_time;
  int attempts = 0;
  for (int attempt = 0; attempt < options.max_attempts; ++attempt) {
    ++attempts;
    LND_ASSIGN_OR_RETURN(std::optional<Latest> latest, LoadLatest(location));
    ManifestNaming naming = ManifestNaming::kV2;
    if (latest) {
      naming = latest->versions.naming;
      const Manifest& lm = latest->file->manifest;
      if (read_version > lm.version) {
        return Status::InvalidArgument("transaction read version ", read_version,
                                       " is newer than the latest version ", lm.version, " of '",
                                       location.root(), "'");
      }
      LND_RETURN_NOT_OK(CheckWritable(lm, latest->manifest_path));
      LND_RETURN_NOT_OK(CatchUp(location, *latest, &pending));
    } else if (read_version != 0) {
      return Status::NotFound("no Lance table at '", location.root(),
                              "' (transaction read version ", read_version,
                              "); create the table first");
    }

    if (options.write_transaction_file && !pending.txn_file_written) {
      Status st = WriteTransactionFile(
          location.fs(), location.Path(kTransactionsDir, pending.txn_name), pending.txn_bytes);
      if (!st.ok()) return st.WithContext("writing the transaction file '", pending.txn_name, "'");
      pending.txn_file_written = true;
    }

    LND_ASSIGN_OR_RETURN(NextVersion next,
                         BuildNextVersion(location, latest, pending, options, naming));
    Status st = location.fs().CreateIfAbsent(next.manifest_path, next.bytes);
    if (st.ok()) {
      WriteHint(location, next.dataset.version());  // best effort, cannot fail the commit
      // The next write opens this version: it will find these bytes and skip the parse.
      internal::RememberManifest(
          location.fs(), next.manifest_path,
          std::make_shared<const std::vector<std::uint8_t>>(std::move(next.bytes)),
          next.dataset.manifest_file());
      return std::move(next.dataset);
    }
    if (!st.IsAlreadyExists()) {
      return st.WithContext("committing version ", next.dataset.version());
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
  const auto seconds =
      std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() - started)
          .count();
  return Status::CommitConflict("gave up committing the ", pending.txn.name(), " to '",
                                location.root(), "' after ", attempts, " attempts in ", seconds,
                                " s: other writers kept committing first; retry later")
      .WithRetryable();
}

}  // namespace lance_nd::table
