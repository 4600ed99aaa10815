#include "lance_nd/table/scan/data_file_cache.h"

#include <algorithm>
#include <cstring>
#include <mutex>
#include <optional>
#include <utility>
#include <vector>

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
  Cache& c = TheCache();
  std::lock_guard lock(c.mu);
  for (Entry& e : c.entries) {
    if (e.path != path || e.fs.lock() != fs) continue;
    if (e.file->Size() != opened.Size() || !SameBytes(e.tail, tail)) return std::nullopt;
    e.last_use = ++c.clock;
    return e.reader.Share();
  }
  return std::nullopt;
}

void Keep(Entry entry) {
  Cache& c = TheCache();
  std::lock_guard lock(c.mu);
  entry.last_use = ++c.clock;
  for (Entry& e : c.entries) {
    if (e.path == entry.path && e.fs.lock() == entry.fs.lock()) {
      e = std::move(entry);
      return;
    }
  }
  if (c.entries.size() >= kMaxEntries) {
    auto oldest =
        std::min_element(c.entries.begin(), c.entries.end(),
                         [](const Entry& a, const Entry& b) { return a.last_use < b.last_use; });
    c.entries.erase(oldest);
  }
  c.entries.push_back(std::move(entry));
}

}  // namespace

Result<file::FileReader> ReadDataFile(const std::shared_ptr<io::FileSystem>& fs,
                                      const std::string& path,
                                      std::shared_ptr<io::RandomAccessFile> opened) {
  LND_ASSIGN_OR_RETURN(io::Bytes tail, Tail(*opened));
  if (std::optional<file::FileReader> kept = Find(fs, path, *opened, tail)) return *kept;
  LND_ASSIGN_OR_RETURN(file::FileReader reader, file::FileReader::Open(opened));
  // The kept reader is never read from, so its page cache stays empty.
  Keep(Entry{fs, path, std::move(opened), std::move(tail), reader, 0});
  return reader.Share();
}

void ForgetDataFiles() {
  Cache& c = TheCache();
  std::lock_guard lock(c.mu);
  c.entries.clear();
}

}  // namespace lance_nd::table::internal
