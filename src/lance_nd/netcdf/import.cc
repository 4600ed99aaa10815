// ImportNetcdf: plan every file (structure and a probe of its data), then stream each group's
// chunk rows into one NdWriter and commit once.
#include "lance_nd/netcdf/import.h"

#include <charconv>
#include <filesystem>
#include <optional>
#include <set>

#include "lance_nd/api/nd_writer.h"
#include "lance_nd/api/table.h"
#include "lance_nd/netcdf/auto_chunks.h"
#include "lance_nd/netcdf/child_guard.h"
#include "lance_nd/netcdf/chunk_rows.h"
#include "lance_nd/netcdf/nc_model.h"
#include "lance_nd/netcdf/nc_util.h"
#include "lance_nd/netcdf/sql_text.h"

namespace lance_nd::netcdf {
namespace {

using internal::NcGroup;

using ChunkSizes = std::vector<std::pair<std::string, std::uint64_t>>;

constexpr int kMinZstdLevel = 1;
constexpr int kMaxZstdLevel = 22;
// The zstd level of a new table's columns: on the ferret-datasets files it keeps tables within
// 10% of deflated netCDF-4 and imports about as fast as nccopy (bench/netcdf).
constexpr int kImportZstdLevel = 9;

std::string DatasetId(const std::string& root_id, const NcGroup& group) {
  return group.path.empty() ? root_id : root_id + "/" + group.path;
}

// What the import learns of a file before writing anything from it.
struct FilePlan {
  std::string path;
  std::string id;
  std::vector<std::string> dataset_ids;
  std::set<std::string> dims;             // every dimension name of every group
  std::set<std::string> variables;        // every variable name of every group
  std::set<std::string> float_variables;  // columns that get byte-stream split
};

// Open, read the structure and probe the data: the errors of a bad file. With `read_strings`,
// also every string (damage in HDF5's global heap crashes libhdf5 when it reads strings): what
// a child process reads before this one does.
Result<FilePlan> ReadPlan(const std::string& path, const std::string& id, bool read_strings) {
  LND_ASSIGN_OR_RETURN(internal::NcFile file, internal::OpenForReading(path));
  LND_ASSIGN_OR_RETURN(std::vector<NcGroup> groups, internal::ReadStructure(file.id()));
  LND_RETURN_NOT_OK(internal::CheckClassicLength(file.id(), path, groups.front()));
  FilePlan plan{path, id, {}, {}, {}, {}};
  for (const NcGroup& group : groups) {
    const std::string where = group.path.empty() ? "root group" : "group " + group.path;
    LND_RETURN_NOT_OK_CTX(internal::ProbeData(group), where);
    if (read_strings) LND_RETURN_NOT_OK_CTX(internal::ReadEveryString(group), where);
    plan.dataset_ids.push_back(DatasetId(id, group));
    plan.dims.insert(group.layout.dim_names.begin(), group.layout.dim_names.end());
    for (const internal::NcVariable& var : group.variables) {
      plan.variables.insert(var.name);
      if (var.type == NC_FLOAT || var.type == NC_DOUBLE) plan.float_variables.insert(var.name);
    }
  }
  return plan;
}

// ReadPlan, tried first in a child process with every string: a file that crashes libnetcdf
// there is an error here, and the reads in this process then meet only files a child survived.
Result<FilePlan> PlanFile(const std::string& path, const std::string& id) {
  LND_RETURN_NOT_OK(internal::SurvivesInChild(
      "the structure of " + path,
      [&] { return ReadPlan(path, id, /*read_strings=*/true).status(); },
      internal::kStructureReadTimeout));
  return ReadPlan(path, id, /*read_strings=*/false);
}

// "a, b, c" of at most kListed names, then "and N more".
std::string ListNames(const std::set<std::string>& names) {
  constexpr std::size_t kListed = 12;
  std::string out;
  std::size_t n = 0;
  for (const std::string& name : names) {
    if (n++ == kListed) return out + " and " + std::to_string(names.size() - kListed) + " more";
    out += (out.empty() ? "" : ", ") + name;
  }
  return out.empty() ? "none" : out;
}

// Every dimension --chunks names must be a dimension of at least one file; it applies to the
// files that have it.
Status CheckChunkNames(const std::vector<FilePlan>& plans, const ImportOptions& options) {
  std::set<std::string> known;
  for (const FilePlan& plan : plans) known.insert(plan.dims.begin(), plan.dims.end());
  for (const auto& [name, size] : options.chunks) {
    if (known.contains(name)) continue;
    if (plans.size() == 1) {
      return Status::InvalidArgument("--chunks names dimension ", name, ", which ",
                                     plans.front().path,
                                     " does not have (its dimensions: ", ListNames(known), ")");
    }
    return Status::InvalidArgument("--chunks names dimension ", name, ", which none of the ",
                                   plans.size(), " files has (their dimensions: ", ListNames(known),
                                   ")");
  }
  return Status::OK();
}

// Errors of the options against one readable file: a split char dimension.
Status CheckOptions(const FilePlan& plan, const ImportOptions& options) {
  LND_ASSIGN_OR_RETURN(internal::NcFile file, internal::OpenForReading(plan.path));
  LND_ASSIGN_OR_RETURN(std::vector<NcGroup> groups, internal::ReadStructure(file.id()));
  for (const NcGroup& group : groups) {
    LND_RETURN_NOT_OK_CTX(
        internal::GroupGrid(group, DatasetId(plan.id, group), options.chunks).status(), plan.path);
  }
  return Status::OK();
}

// Dataset ids must be new: unique in this import and absent from the table.
Status CheckIds(std::string_view uri, const std::vector<FilePlan>& plans) {
  std::set<std::string> seen;
  for (const FilePlan& plan : plans) {
    for (const std::string& id : plan.dataset_ids) {
      if (!seen.insert(id).second) {
        return Status::InvalidArgument("two files give dataset id ", id, " (", plan.path,
                                       " is the second); import them separately with --id");
      }
    }
  }
  auto table = Table::Open(uri);
  if (!table.ok()) return Status::OK();  // a new table (or an error the writer reports)
  for (const std::string& id : seen) {
    auto n = table->CountRows("__global_attrs__.id = " + internal::SqlString(id));
    if (n.ok() && *n > 0) {
      return Status::InvalidArgument("dataset ", id, " is already in the table at ", uri, " (", *n,
                                     " rows); delete it first or import under another --id");
    }
  }
  return Status::OK();
}

// The writer's options: append (creating the table), zstd defaults on a new table, and
// byte-stream split on the float columns the import adds. A compression level given goes into a
// new table's defaults, or else into the options of each variable (used where a column is added).
Result<WriteOptions> WriterOptions(std::string_view uri, const ImportOptions& options,
                                   const std::vector<FilePlan>& plans) {
  if (options.compression_level &&
      (*options.compression_level < kMinZstdLevel || *options.compression_level > kMaxZstdLevel)) {
    return Status::InvalidArgument(
        "compression level ", *options.compression_level, " is out of range; zstd levels are ",
        kMinZstdLevel, " to ", kMaxZstdLevel, " (9 is the import's default, 19 compresses most)");
  }
  WriteOptions w = options.write;
  w.mode = WriteMode::kAppend;
  auto table = Table::Open(uri);
  if (!table.ok() && table.status().kind() != ErrorKind::kTableNotFound) return table.status();
  const bool new_table = !table.ok();
  if (new_table && (!w.column_defaults || options.compression_level)) {
    ColumnOptions& defaults = w.column_defaults ? *w.column_defaults : w.column_defaults.emplace();
    defaults.compression = Compression::kZstd;
    defaults.compression_level = options.compression_level.value_or(kImportZstdLevel);
  }
  for (const FilePlan& plan : plans) {
    for (const std::string& name : plan.variables) {
      if (w.column_options.contains(name)) continue;
      ColumnOptions o;
      if (plan.float_variables.contains(name)) o.byte_stream_split = ByteStreamSplit::kOn;
      if (!new_table && options.compression_level) {
        o.compression = Compression::kZstd;
        o.compression_level = options.compression_level;
      }
      if (o != ColumnOptions{}) w.column_options.emplace(name, o);
    }
  }
  return w;
}

// Where a write attempt stopped: a file whose rows could not be read (the file's fault, so
// --skip-bad may skip it) or anything else (the writer's, the table's).
struct WriteFailure {
  Status status;
  std::optional<std::size_t> bad_file;  // set when reading this plan's file failed
};

// Stream one file's chunk rows into the writer. A read error sets *read_failed.
Status WriteFile(const FilePlan& plan, std::size_t file_index, std::size_t file_count,
                 const ImportOptions& options, NdWriter& writer, ImportResult* result,
                 std::uint64_t* values_read, bool* read_failed) {
  *read_failed = true;
  LND_ASSIGN_OR_RETURN(internal::NcFile file, internal::OpenForReading(plan.path));
  LND_ASSIGN_OR_RETURN(std::vector<NcGroup> groups, internal::ReadStructure(file.id()));
  for (const NcGroup& group : groups) {
    const std::string id = DatasetId(plan.id, group);
    const internal::ChunkChoice choice =
        internal::ChooseChunks(group, options.chunks, options.chunk_target_bytes);
    LND_ASSIGN_OR_RETURN(ChunkGrid grid, internal::GroupGrid(group, id, choice.sizes));
    if (choice.automatic) result->auto_chunked.push_back({id, choice.sizes, choice.row_bytes});
    for (std::uint64_t c = 0; c < grid.num_chunks(); ++c) {
      const std::string where = "dataset " + id + " chunk " + std::to_string(c);
      *read_failed = true;
      LND_ASSIGN_OR_RETURN_CTX(nd::NdRecordBatch row,
                               internal::ReadChunkRow(group, grid, c, values_read), where);
      *read_failed = false;
      LND_RETURN_NOT_OK_CTX(writer.Write(row), where);
      ++result->rows;
      if (options.progress) {
        options.progress(ImportProgress{plan.path, file_index, file_count, id, c, grid.num_chunks(),
                                        *values_read});
      }
    }
    ++result->datasets;
  }
  ++result->files;
  *read_failed = false;
  return Status::OK();
}

// One writer over every plan, committed at the end. On a failure nothing is committed and the
// failure says whether a file's read caused it.
Status WriteAll(std::string_view uri, const std::vector<FilePlan>& plans,
                const ImportOptions& options, ImportResult* result, WriteFailure* failure) {
  LND_RETURN_NOT_OK(CheckIds(uri, plans));
  LND_ASSIGN_OR_RETURN(WriteOptions write, WriterOptions(uri, options, plans));
  LND_ASSIGN_OR_RETURN(NdWriter writer, NdWriter::Create(uri, write));
  std::uint64_t values_read = 0;
  for (std::size_t i = 0; i < plans.size(); ++i) {
    bool read_failed = false;
    Status s =
        WriteFile(plans[i], i, plans.size(), options, writer, result, &values_read, &read_failed);
    if (!s.ok()) {
      (void)writer.Abort();
      failure->status = s;
      if (read_failed) failure->bad_file = i;
      return s.WithContext(plans[i].path);
    }
  }
  LND_ASSIGN_OR_RETURN(Table table, writer.Finish());
  result->version = table.version();
  return Status::OK();
}

Result<std::vector<FilePlan>> PlanFiles(std::span<const std::string> files,
                                        const ImportOptions& options, ImportResult* result) {
  std::vector<FilePlan> plans;
  for (const std::string& path : files) {
    const std::string id = options.id ? *options.id : std::filesystem::path(path).stem().string();
    Result<FilePlan> plan = PlanFile(path, id);
    if (!plan.ok()) {
      if (!options.skip_bad) return plan.status().WithContext(path);
      result->skipped.push_back({path, plan.status()});
      continue;
    }
    LND_RETURN_NOT_OK(CheckOptions(*plan, options));
    plans.push_back(std::move(*plan));
  }
  return plans;
}

}  // namespace

Result<ImportResult> ImportNetcdf(std::string_view table_uri, std::span<const std::string> files,
                                  const ImportOptions& options) {
  if (options.id && files.size() != 1) {
    return Status::InvalidArgument("an id (--id) names the dataset of one file, but ", files.size(),
                                   " files were given; import them one by one");
  }
  if (options.id && options.id->empty()) {
    return Status::InvalidArgument("the dataset id is empty; give a non-empty --id");
  }
  ImportResult result;
  LND_ASSIGN_OR_RETURN(std::vector<FilePlan> plans, PlanFiles(files, options, &result));
  LND_RETURN_NOT_OK(CheckChunkNames(plans, options));
  // With skip_bad, a file whose rows fail to read is dropped and the import starts again
  // without it, so that nothing of it is committed (the files before it are read again).
  while (!plans.empty()) {
    ImportResult attempt;
    attempt.skipped = result.skipped;
    WriteFailure failure;
    Status s = WriteAll(table_uri, plans, options, &attempt, &failure);
    if (s.ok()) return attempt;
    if (!options.skip_bad || !failure.bad_file) return s;
    result.skipped.push_back({plans[*failure.bad_file].path, failure.status});
    plans.erase(plans.begin() + static_cast<std::ptrdiff_t>(*failure.bad_file));
  }
  return result;  // nothing readable: nothing committed
}

Result<ChunkSizes> ParseChunkSizes(std::string_view text) {
  ChunkSizes out;
  while (!text.empty()) {
    const std::size_t comma = text.find(',');
    const std::string_view part = text.substr(0, comma);
    text = comma == std::string_view::npos ? std::string_view{} : text.substr(comma + 1);
    const std::size_t eq = part.find('=');
    std::uint64_t size = 0;
    const char* begin = part.data() + (eq == std::string_view::npos ? part.size() : eq + 1);
    const char* end = part.data() + part.size();
    const auto [ptr, ec] = std::from_chars(begin, end, size);
    if (eq == 0 || eq == std::string_view::npos || ec != std::errc() || ptr != end || size == 0) {
      return Status::InvalidArgument("chunk size '", part,
                                     "' is not name=N with N a positive integer (example: "
                                     "TIME=1,COADSX=60)");
    }
    out.emplace_back(std::string(part.substr(0, eq)), size);
  }
  return out;
}

}  // namespace lance_nd::netcdf
