// The in-process caches of reads, as region.h describes them.
#include "lance_nd/api/dataset_index.h"
#include "lance_nd/api/decoded_rows.h"
#include "lance_nd/api/region.h"
#include "lance_nd/table/dataset.h"

namespace lance_nd {

void SetRegionCacheCapacity(std::uint64_t bytes) { api_internal::SetDecodedBudget(bytes); }

void ClearReadCaches() {
  table::ClearManifestCache();
  api_internal::ForgetIndexes();
  api_internal::ForgetDecoded();
}

}  // namespace lance_nd
