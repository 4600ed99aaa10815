#include "lance_nd/table/manifest_cache.h"

#include <algorithm>
#include <cstring>
#include <mutex>
#include <utility>
#include <vector>

namespace lance_nd::table::internal {
namespace {

// A handful of tables: each entry holds one manifest's bytes and its parse.
constexpr std::size_t kMaxEntries = 8;

struct Entry {
  const io::FileSystem* fs = nullptr;  // lookup key only: identity is proven by the bytes
  std::string path;
  io::Bytes bytes;
  std::shared_ptr<const ManifestFile> file;
  std::uint64_t last_use = 0;
};

struct Cache {
  std::mutex mu;
  std::vector<Entry> entries;
  std::uint64_t clock = 0;
};

Cache& TheCache() {
  static Cache* cache = new Cache();  // never destroyed: usable during static destruction
  return *cache;
}

bool SameBytes(const io::Bytes& a, const io::Bytes& b) {
  return a && b && a->size() == b->size() &&
         (a->empty() || std::memcmp(a->data(), b->data(), a->size()) == 0);
}

void Put(const io::FileSystem& fs, const std::string& path, io::Bytes bytes,
         std::shared_ptr<const ManifestFile> file) {
  Cache& c = TheCache();
  std::lock_guard lock(c.mu);
  ++c.clock;
  for (Entry& e : c.entries) {
    if (e.fs == &fs && e.path == path) {
      e.bytes = std::move(bytes);
      e.file = std::move(file);
      e.last_use = c.clock;
      return;
    }
  }
  if (c.entries.size() >= kMaxEntries) {
    auto oldest =
        std::min_element(c.entries.begin(), c.entries.end(),
                         [](const Entry& a, const Entry& b) { return a.last_use < b.last_use; });
    c.entries.erase(oldest);
  }
  c.entries.push_back(Entry{&fs, path, std::move(bytes), std::move(file), c.clock});
}

}  // namespace

Result<std::shared_ptr<const ManifestFile>> ReadManifestShared(io::FileSystem& fs,
                                                               const std::string& manifest_path) {
  LND_ASSIGN_OR_RETURN(auto in, fs.OpenForRead(manifest_path));
  LND_ASSIGN_OR_RETURN(io::Bytes bytes, io::ReadWholeFile(*in));
  {
    Cache& c = TheCache();
    std::lock_guard lock(c.mu);
    for (Entry& e : c.entries) {
      if (e.fs == &fs && e.path == manifest_path && SameBytes(e.bytes, bytes)) {
        e.last_use = ++c.clock;
        return e.file;
      }
    }
  }
  LND_ASSIGN_OR_RETURN(ManifestFile parsed, ParseManifestFile(*bytes, manifest_path));
  auto file = std::make_shared<const ManifestFile>(std::move(parsed));
  Put(fs, manifest_path, std::move(bytes), file);
  return file;
}

void RememberManifest(io::FileSystem& fs, const std::string& manifest_path, io::Bytes bytes,
                      std::shared_ptr<const ManifestFile> file) {
  Put(fs, manifest_path, std::move(bytes), std::move(file));
}

void ForgetManifests() {
  Cache& c = TheCache();
  std::lock_guard lock(c.mu);
  c.entries.clear();
}

}  // namespace lance_nd::table::internal
