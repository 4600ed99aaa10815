// `lance-nd import TABLE FILE.nc... [--id ID] [--chunks dim=n,...] [--skip-bad] [--casting MODE]
// [--stats] [--compression-level N] [--chunk-target-mb MB]`: netCDF files into a lance-nd table,
// one commit (docs/netcdf.md).
#include <cmath>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli_util.h"
#include "commands.h"
#include "lance_nd/netcdf/import.h"
#include "progress.h"
#include "term_text.h"

namespace lance_nd::cli {
namespace {

constexpr std::string_view kCommand = "import";

struct ImportArgs {
  std::string uri;
  std::vector<std::string> files;
  std::string id;
  std::string chunks;
  bool skip_bad = false;
  bool stats = false;
  std::string casting = "no";
  std::optional<int> compression_level;
  std::optional<double> chunk_target_mb;
};

// The automatic chunk target in bytes; InvalidArgument for a negative or non-finite size.
Result<std::uint64_t> ChunkTargetBytes(const std::optional<double>& mb) {
  if (!mb) return netcdf::kDefaultChunkTargetBytes;
  if (!std::isfinite(*mb) || *mb < 0 || *mb > 1e12) {
    return Status::InvalidArgument(
        "--chunk-target-mb must be a size in MiB, 0 (no automatic chunking) or more");
  }
  return static_cast<std::uint64_t>(std::llround(*mb * 1024.0 * 1024.0));
}

// "chunks of ID: time=12, lat=90 (auto, ~60 MiB per row)", one line per dataset chunked
// automatically, at most kListed.
void PrintAutoChunks(const std::vector<netcdf::AutoChunking>& chunked) {
  constexpr std::size_t kListed = 10;
  for (std::size_t i = 0; i < chunked.size() && i < kListed; ++i) {
    std::string sizes;
    for (const auto& [name, size] : chunked[i].chunks) {
      sizes += (sizes.empty() ? "" : ", ") + name + "=" + std::to_string(size);
    }
    std::cout << "chunks of " << chunked[i].dataset_id << ": " << sizes << " (auto, ~"
              << HumanBytes(chunked[i].row_bytes) << " per row)\n";
  }
  if (chunked.size() > kListed) {
    std::cout << "chunks of " << chunked.size() - kListed
              << " more datasets chosen automatically\n";
  }
}

void Run(const ImportArgs& a) {
  if (auto file = NotATable(a.uri)) Fail(kCommand, *file);
  netcdf::ImportOptions options;
  if (!a.id.empty()) options.id = a.id;
  options.chunks = OrFail(kCommand, netcdf::ParseChunkSizes(a.chunks));
  options.skip_bad = a.skip_bad;
  options.compression_level = a.compression_level;
  options.chunk_target_bytes = OrFail(kCommand, ChunkTargetBytes(a.chunk_target_mb));
  options.write.casting = OrFail(kCommand, ParseCasting(a.casting));
  options.write.stats = a.stats;
  // A bar on a terminal over chunk rows: the total is known for the dataset being read, so it
  // is the rows done plus those left in it (exact for one file of one group).
  Progress progress("import", 0, Progress::Unit::kChunks);
  options.progress = [&](const netcdf::ImportProgress& p) {
    progress.SetTotal(progress.done() + 1 + (p.chunk_count - p.chunk_index - 1));
    progress.Advance(1);
  };
  auto imported = netcdf::ImportNetcdf(a.uri, a.files, options);
  progress.Finish();
  const netcdf::ImportResult result = OrFail(kCommand, std::move(imported));
  for (const netcdf::SkippedFile& skipped : result.skipped) {
    std::cerr << "lance-nd: import: skipped " << skipped.path << ": " << skipped.error.message()
              << "\n";
  }
  if (result.version == 0) {
    Fail(kCommand, "no file could be read; nothing was imported");
  }
  std::cout << "imported " << result.files << (result.files == 1 ? " file, " : " files, ")
            << result.datasets << (result.datasets == 1 ? " dataset, " : " datasets, ")
            << result.rows << (result.rows == 1 ? " row" : " rows") << "; version "
            << result.version << "\n";
  PrintAutoChunks(result.auto_chunked);
}

}  // namespace

void AddImportCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "import",
      "Import netCDF files (classic, 64-bit offset, netCDF-4) as one commit: each group is a "
      "dataset, split into chunk rows");
  auto a = std::make_shared<ImportArgs>();
  cmd->add_option("table", a->uri, "the table (created when missing)")->required();
  cmd->add_option("files", a->files, "the netCDF files")->required();
  cmd->add_option("--id", a->id,
                  "the dataset id of the file's root group (one file only; default: the file "
                  "name without its extension)");
  cmd->add_option("--chunks", a->chunks,
                  "chunk sizes, e.g. TIME=1,COADSX=60, for the files that have these dimensions "
                  "(dimensions not named stay whole)");
  cmd->add_option("--chunk-target-mb", a->chunk_target_mb,
                  "row size (MiB of the largest variable, uncompressed) of the automatic "
                  "chunking of the datasets --chunks does not split (default 64; 0: one row)");
  cmd->add_flag(
      "--skip-bad", a->skip_bad,
      "skip files that cannot be read or converted (listed on stderr) instead of failing");
  cmd->add_option("--casting", a->casting,
                  "how a type that differs from the table's is handled: no (default), safe, "
                  "same_kind, promote");
  cmd->add_flag("--stats", a->stats, "write per-row min/max stats (a new table only)");
  cmd->add_option("--compression-level", a->compression_level,
                  "zstd level (1-22) of the columns the import adds; higher is smaller and "
                  "slower (default: 9 on a new table, else the table's own)");
  cmd->footer(
      "Example:\n"
      "  lance-nd import coads.lance coads_climatology.cdf --chunks TIME=1\n"
      "  lance-nd import levitus.lance levitus_climatology.cdf --compression-level 15\n"
      "  lance-nd cat coads.lance --filter \"__global_attrs__.chunk_index = 0\" --project SST");
  cmd->callback([a] { Run(*a); });
}

}  // namespace lance_nd::cli
