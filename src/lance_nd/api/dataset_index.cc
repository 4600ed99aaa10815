#include "lance_nd/api/dataset_index.h"

#include <algorithm>
#include <optional>

#include "lance_nd/core/internal/bounded_cache.h"

namespace lance_nd::api_internal {
namespace {

struct Entry {
  std::weak_ptr<const table::ManifestFile> manifest;  // identity of the version
  std::weak_ptr<io::FileSystem> fs;
  std::string root;
  std::uint64_t version = 0;
  std::shared_ptr<const DatasetIndex> index;
};

// Indexes hold every row's global attributes: a few tables' worth.
using Cache = lance_nd::internal::BoundedCache<Entry>;

Cache& TheCache() {
  static Cache* cache = new Cache(8);  // never destroyed: usable during static destruction
  return *cache;
}

bool Matches(const Entry& e, const table::Dataset& ds) {
  return e.version == ds.version() && e.manifest.lock() == ds.manifest_file() &&
         e.fs.lock() == ds.file_system() && e.root == ds.path();
}

std::shared_ptr<const DatasetIndex> Find(const table::Dataset& ds) {
  return TheCache()
      .Find([&](const Entry& e) -> std::optional<std::shared_ptr<const DatasetIndex>> {
        if (Matches(e, ds)) return e.index;
        return std::nullopt;
      })
      .value_or(nullptr);
}

void Keep(const table::Dataset& ds, std::shared_ptr<const DatasetIndex> index) {
  // Entries of versions no table holds any more go first.
  TheCache().EraseIf([](const Entry& e) { return e.manifest.expired(); });
  TheCache().Put(
      Entry{ds.manifest_file(), ds.file_system(), ds.path(), ds.version(), std::move(index)},
      [&](const Entry& e) { return Matches(e, ds); });
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

Result<std::vector<DatasetInfo>> DatasetIndex::Datasets(
    const std::function<Result<std::vector<DatasetInfo>>()>& list) const {
  {
    std::lock_guard lock(mu_);
    if (listing_) return *listing_;
  }
  LND_ASSIGN_OR_RETURN(std::vector<DatasetInfo> made, list());
  std::lock_guard lock(mu_);
  if (!listing_) listing_ = std::move(made);
  return *listing_;
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

void ForgetIndexes() { TheCache().Clear(); }

}  // namespace lance_nd::api_internal
