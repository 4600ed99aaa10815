#include "lance_nd/table/manifest_cache.h"

#include <cstring>
#include <optional>
#include <utility>

#include "lance_nd/core/internal/bounded_cache.h"

namespace lance_nd::table::internal {
namespace {

struct Entry {
  const io::FileSystem* fs = nullptr;  // lookup key only: identity is proven by the bytes
  std::string path;
  io::Bytes bytes;
  std::shared_ptr<const ManifestFile> file;
};

// A handful of tables: each entry holds one manifest's bytes and its parse.
using Cache = lance_nd::internal::BoundedCache<Entry>;

Cache& TheCache() {
  static Cache* cache = new Cache(8);  // never destroyed: usable during static destruction
  return *cache;
}

bool SameBytes(const io::Bytes& a, const io::Bytes& b) {
  return a && b && a->size() == b->size() &&
         (a->empty() || std::memcmp(a->data(), b->data(), a->size()) == 0);
}

void Put(const io::FileSystem& fs, const std::string& path, io::Bytes bytes,
         std::shared_ptr<const ManifestFile> file) {
  TheCache().Put(Entry{&fs, path, std::move(bytes), std::move(file)},
                 [&](const Entry& e) { return e.fs == &fs && e.path == path; });
}

}  // namespace

Result<std::shared_ptr<const ManifestFile>> ReadManifestShared(io::FileSystem& fs,
                                                               const std::string& manifest_path) {
  LND_ASSIGN_OR_RETURN(auto in, fs.OpenForRead(manifest_path));
  LND_ASSIGN_OR_RETURN(io::Bytes bytes, io::ReadWholeFile(*in));
  auto kept =
      TheCache().Find([&](const Entry& e) -> std::optional<std::shared_ptr<const ManifestFile>> {
        if (e.fs == &fs && e.path == manifest_path && SameBytes(e.bytes, bytes)) return e.file;
        return std::nullopt;
      });
  if (kept) return *kept;
  LND_ASSIGN_OR_RETURN(ManifestFile parsed, ParseManifestFile(*bytes, manifest_path));
  auto file = std::make_shared<const ManifestFile>(std::move(parsed));
  Put(fs, manifest_path, std::move(bytes), file);
  return file;
}

void RememberManifest(io::FileSystem& fs, const std::string& manifest_path, io::Bytes bytes,
                      std::shared_ptr<const ManifestFile> file) {
  Put(fs, manifest_path, std::move(bytes), std::move(file));
}

void ForgetManifests() { TheCache().Clear(); }

}  // namespace lance_nd::table::internal
