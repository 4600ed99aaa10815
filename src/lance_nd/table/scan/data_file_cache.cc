#include "lance_nd/table/scan/data_file_cache.h"

#include <algorithm>
#include <cstring>
#include <optional>
#include <utility>

#include "lance_nd/core/internal/bounded_cache.h"

namespace lance_nd::table::internal {
namespace {

// Files of a few tables; each entry holds a file handle and its parsed metadata, no pages.
constexpr std::size_t kMaxEntries = 64;
// Bytes at the end of a file compared before its parse is reused: the footer and the offset
// tables always, the column metadata too for small files.
constexpr std::uint64_t kTailBytes = 4096;

struct Entry {
  std::weak_ptr<io::FileSystem> fs;  // an entry of a destroyed file system never matches
  std::string path;
  std::shared_ptr<io::RandomAccessFile> file;  // the handle the reader reads
  io::Bytes tail;
  file::FileReader reader;
};

using Cache = lance_nd::internal::BoundedCache<Entry>;

Cache& TheCache() {
  static Cache* cache = new Cache(kMaxEntries);  // never destroyed: usable in static destruction
  return *cache;
}

Result<io::Bytes> Tail(const io::RandomAccessFile& file) {
  const std::uint64_t size = file.Size();
  const std::uint64_t n = std::min(size, kTailBytes);
  return file.ReadAt(size - n, n);
}

bool SameBytes(const io::Bytes& a, const io::Bytes& b) {
  return a && b && a->size() == b->size() &&
         (a->empty() || std::memcmp(a->data(), b->data(), a->size()) == 0);
}

// The kept reader of (fs, path) when `opened` has its size and tail.
std::optional<file::FileReader> Find(const std::shared_ptr<io::FileSystem>& fs,
                                     const std::string& path, const io::RandomAccessFile& opened,
                                     const io::Bytes& tail) {
  return TheCache().Find([&](const Entry& e) -> std::optional<file::FileReader> {
    if (e.path != path || e.fs.lock() != fs) return std::nullopt;
    if (e.file->Size() != opened.Size() || !SameBytes(e.tail, tail)) return std::nullopt;
    return e.reader.Share();
  });
}

}  // namespace

Result<file::FileReader> ReadDataFile(const std::shared_ptr<io::FileSystem>& fs,
                                      const std::string& path,
                                      std::shared_ptr<io::RandomAccessFile> opened) {
  LND_ASSIGN_OR_RETURN(io::Bytes tail, Tail(*opened));
  if (std::optional<file::FileReader> kept = Find(fs, path, *opened, tail)) return *kept;
  LND_ASSIGN_OR_RETURN(file::FileReader reader, file::FileReader::Open(opened));
  // The kept reader is never read from, so its page cache stays empty.
  TheCache().Put(Entry{fs, path, std::move(opened), std::move(tail), reader},
                 [&](const Entry& e) { return e.path == path && e.fs.lock() == fs; });
  return reader.Share();
}

void ForgetDataFiles() { TheCache().Clear(); }

}  // namespace lance_nd::table::internal
