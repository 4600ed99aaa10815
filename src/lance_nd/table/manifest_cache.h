// Parsed manifests kept in memory, reused only when a manifest file's bytes are identical to
// the bytes that were parsed (or serialised) before, so a stale or different table at the same
// path can never be returned. Saves the protobuf parse of the latest manifest, which a writer
// otherwise does twice per commit (WriteTable's Open, then the commit loop) plus once more at
// the next write.
#pragma once

#include <memory>
#include <string>

#include "lance_nd/core/result.h"
#include "lance_nd/io/file_system.h"
#include "lance_nd/table/manifest.h"

namespace lance_nd::table::internal {

/// \brief Read and parse the manifest file at `manifest_path` (ParseManifestFile's checks and
/// errors). If the bytes equal those last seen for (fs, manifest_path), the earlier parse is
/// returned; otherwise the new parse is remembered.
Result<std::shared_ptr<const ManifestFile>> ReadManifestShared(io::FileSystem& fs,
                                                               const std::string& manifest_path);

/// \brief Remember that `bytes` (just written to `manifest_path`) parse to `file`.
void RememberManifest(io::FileSystem& fs, const std::string& manifest_path, io::Bytes bytes,
                      std::shared_ptr<const ManifestFile> file);

/// \brief Forget everything (ClearManifestCache in dataset.h).
void ForgetManifests();

}  // namespace lance_nd::table::internal
