// Decoded chunk rows kept across region reads, like the chunk cache of a netCDF-4 file: a
// repeated or neighbouring read of the same table version skips the take and the decode. One
// version's rows never change, so an entry never goes stale; it is found only through the
// version's dataset index, and it is dropped when the cache is over its byte budget.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "lance_nd/api/dataset_index.h"
#include "lance_nd/nd/record_batch.h"

namespace lance_nd::api_internal {

using DecodedRow = std::shared_ptr<const nd::NdRecordBatch>;

/// \brief `variable` of table row `row` of the version that `index` describes, decoded by an
/// earlier read, or null.
DecodedRow FindDecoded(const std::shared_ptr<const DatasetIndex>& index, std::uint64_t row,
                       const std::string& variable);

/// \brief Keep `batch` (holding `variable` of row `row`, or nothing when the row lacks it).
void KeepDecoded(const std::shared_ptr<const DatasetIndex>& index, std::uint64_t row,
                 const std::string& variable, DecodedRow batch);

/// \brief The bytes of decoded values kept (tests).
std::uint64_t DecodedBytes();

/// \brief Drop every kept row.
void ForgetDecoded();

/// \brief A new byte budget (0 keeps nothing); rows over it are dropped at once.
void SetDecodedBudget(std::uint64_t bytes);

}  // namespace lance_nd::api_internal
