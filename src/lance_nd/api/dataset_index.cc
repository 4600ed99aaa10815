#include "lance_nd/api/dataset_index.h"

#include <algorithm>

namespace lance_nd::api_internal {
namespace {

// Indexes hold every row's global attributes: a few tables' worth.
constexpr std::size_t kMaxEntries = 8;

struct Entry {
  std::weak_ptr<const table::ManifestFile> manifest;  // identity of the version
  std::weak_ptr<io::FileSystem> fs;
  std::string root;
  std::uint64_t version = 0;
  std::shared_ptr<const DatasetIndex> index;
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

bool Matches(const Entry& e, const table::Dataset& ds) {
  return e.version == ds.version() && e.manifest.lock() == ds.manifest_file() &&
         e.fs.lock() == ds.file_system() && e.root == ds.path();
}

std::shared_ptr<const DatasetIndex> Find(const table::Dataset& ds) {
  Cache& c = TheCache();
  std::lock_guard lock(c.mu);
  for (Entry& e : c.entries) {
    if (!Matches(e, ds)) continue;
    e.last_use = ++c.clock;
    return e.index;
  }
  return nullptr;
}

void Keep(const table::Dataset& ds, std::shared_ptr<const DatasetIndex> index) {
  Cache& c = TheCache();
  std::lock_guard lock(c.mu);
  // Entries of versions no table holds any more go first.
  std::erase_if(c.entries, [](const Entry& e) { return e.manifest.expired(); });
  if (c.entries.size() >= kMaxEntries) {
    auto oldest =
        std::min_element(c.entries.begin(), c.entries.end(),
                         [](const Entry& a, const Entry& b) { return a.last_use < b.last_use; });
    c.entries.erase(oldest);
  }
  c.entries.push_back(Entry{ds.manifest_file(), ds.file_system(), ds.path(), ds.version(),
                            std::move(index), ++c.clock});
}

}  // namespace

Result<std::shared_ptr<const DatasetRows>> DatasetIndex::Dataset(
    std::string_view id, const std::function<Result<DatasetRows>()>& collect) const {
  {
    std::lock_guard lock(mu_);
    auto it = datasets_.find(id);
    if (it != datasets_.end()) return it->second;
  }
  LND_ASSIGN_OR_RETURN(DatasetRows rows, collect());
  auto shared = std::make_shared<const DatasetRows>(std::move(rows));
  std::lock_guard lock(mu_);
  return datasets_.try_emplace(std::string(id), std::move(shared)).first->second;
}

Result<DatasetIndex::DimNames> DatasetIndex::VariableDims(
    const std::string& id, const std::string& variable,
    const std::function<Result<DimNames>()>& read) const {
  const std::pair<std::string, std::string> key(id, variable);
  {
    std::lock_guard lock(mu_);
    auto it = dims_.find(key);
    if (it != dims_.end()) return it->second;
  }
  // Kept inside the Result until stored: g++ 12 -O3 warns (maybe-uninitialized) when the
  // optional vector is moved out through a local.
  Result<DimNames> dims = read();
  LND_RETURN_NOT_OK(dims.status());
  std::lock_guard lock(mu_);
  auto it = dims_.find(key);
  if (it == dims_.end()) it = dims_.emplace(key, *dims).first;
  return it->second;
}

Result<std::shared_ptr<const DatasetIndex>> IndexOf(const Table& table) {
  if (auto kept = Find(table.dataset())) return kept;
  LND_ASSIGN_OR_RETURN(std::vector<GlobalRow> rows, ReadGlobalRows(table));
  auto index = std::make_shared<const DatasetIndex>(std::move(rows));
  Keep(table.dataset(), index);
  return index;
}

}  // namespace lance_nd::api_internal
