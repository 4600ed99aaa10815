// The generated flatbuffers code for our Arrow IPC schema (fbs/arrow_ipc.fbs), private to ipc/.
#pragma once

#include <flatbuffers/flatbuffers.h>

#include "arrow_ipc_generated.h"

namespace lance_nd::array::ipc::internal {

namespace fb = ::lance_nd::ipc_fbs;

/// Verifier limits for untrusted metadata: nesting depth and table count.
inline constexpr flatbuffers::uoffset_t kMaxFlatbufferDepth = 128;
inline constexpr flatbuffers::uoffset_t kMaxFlatbufferTables = 1000000;

}  // namespace lance_nd::array::ipc::internal
